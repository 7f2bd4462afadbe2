"""Writes of clubs (Organization): create one, add and remove its admins. Each writes an
`OrganizationLog` entry (the tournament audit belongs to one tournament)."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from ..models import Organization, OrganizationLog
from ..permissions import Capability, require


def _check_admin(organization: Organization, user) -> None:
    require(user, organization, Capability.PEOPLE)


@transaction.atomic
def organization_create(*, user, name: str) -> Organization:
    """A new club with its creator as its first admin."""
    organization = Organization(name=" ".join(name.split()))
    organization.full_clean()
    organization.save()
    organization.admins.add(user)
    OrganizationLog.objects.create(organization=organization, user=user, action=OrganizationLog.Action.CREATE)
    return organization


@transaction.atomic
def organization_admin_add(*, organization: Organization, user, username: str) -> Organization:
    """Add an existing user (by user name) as an admin: they manage everything the club owns."""
    locked = Organization.objects.select_for_update().get(pk=organization.pk)
    _check_admin(locked, user)
    new = get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
    if new is None:
        raise ValidationError(_("There is no user with this name."), code="no_such_user")
    if locked.admins.filter(pk=new.pk).exists():
        raise ValidationError(_("%(name)s is an admin already.") % {"name": new.get_username()},
                              code="already_admin")
    locked.admins.add(new)
    OrganizationLog.objects.create(
        organization=locked, user=user, action=OrganizationLog.Action.ADMIN_ADD,
        detail=new.get_username(),
    )
    return locked


@transaction.atomic
def organization_admin_remove(*, organization: Organization, user, admin_pk: int) -> Organization:
    """Remove an admin; never the last one, or the club's tournaments would have nobody to manage them."""
    locked = Organization.objects.select_for_update().get(pk=organization.pk)
    _check_admin(locked, user)
    admin = locked.admins.filter(pk=admin_pk).first()
    if admin is None:
        raise ValidationError(_("This user is not an admin of the club."), code="not_admin")
    if locked.admins.count() == 1:
        raise ValidationError(_("A club keeps at least one admin."), code="last_admin")
    locked.admins.remove(admin)
    OrganizationLog.objects.create(
        organization=locked, user=user, action=OrganizationLog.Action.ADMIN_REMOVE,
        detail=admin.get_username(),
    )
    return locked
