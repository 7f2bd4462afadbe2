"""Reads of clubs (Organization): which clubs a user administers, and the filter that scopes every list
of tournaments, series and player records to what a user manages."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from ..models import Organization, OrganizationLog


def managed_q(user, prefix: str = "") -> Q:
    """What a user manages: organized directly, or owned by a club they administer. `prefix` reaches the
    tournament or series through a relation (e.g. "registrations__tournament__")."""
    return Q(**{f"{prefix}organizers": user}) | Q(**{f"{prefix}organization__admins": user})


def organizations_of(user) -> QuerySet[Organization]:
    """The clubs a user administers (a superuser: all of them)."""
    if not user.is_authenticated:
        return Organization.objects.none()
    if user.is_superuser:
        return Organization.objects.all()
    return Organization.objects.filter(admins=user)


def default_organization(user) -> Organization | None:
    """The club a new tournament of this user belongs to: the only one they administer, else none (it is
    then theirs alone, as before clubs)."""
    if not user.is_authenticated:
        return None
    clubs = list(Organization.objects.filter(admins=user)[:2])
    return clubs[0] if len(clubs) == 1 else None


def organization_log(organization: Organization) -> QuerySet[OrganizationLog]:
    return organization.log.select_related("user")
