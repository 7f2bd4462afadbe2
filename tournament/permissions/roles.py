"""Who somebody is for an evening, a series or a club: the only code that reads superusers, organizers,
club admins and memberships.

Roles (`models.Role`): the *organizer* may do everything; the *helper* runs the door and the desk; the
*viewer* (a treasurer, a club's board member) reads. Where a role comes from:

- a superuser is the organizer of everything;
- an admin of a club (`Organization.admins`) is the organizer of everything the club owns (its
  tournaments and series) and of the club itself;
- `Tournament.organizers` and `Series.organizers` organize that evening or series; a series' organizers
  organize its evenings once the evening takes the series' team (`people.services.series_team_take`);
- helpers and viewers are `Membership` rows of a tournament or of its series: a series' helper helps at
  every evening of the series, so nobody is re-added each evening.
"""

from __future__ import annotations

from django.db.models import Q

from tournament.models import Membership, Organization, Role, Series, Tournament

Team = Tournament | Series | Organization  # whatever has a role map of its own


def is_superuser(user) -> bool:
    return bool(getattr(user, "is_authenticated", False)) and user.is_superuser


def administers(user, organization: Organization | None) -> bool:
    """An admin of this club (or a superuser)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return organization is not None and Organization.admins.through.objects.filter(
        organization_id=organization.pk, user_id=user.pk
    ).exists()


def _administers_owner(user, owned) -> bool:
    return bool(owned.organization_id) and Organization.admins.through.objects.filter(
        organization_id=owned.organization_id, user_id=user.pk
    ).exists()


def organizes(user, owned: Tournament | Series) -> bool:
    """The organizer of this tournament or series: a superuser, one of its organizers, or an admin of
    the club that owns it."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    return owned.organizers.filter(pk=user.pk).exists() or _administers_owner(user, owned)


def role_of(user, team: Team) -> Role | None:
    """The user's role for this tournament, series or club, None for nobody of its team. Cached on the
    instance for the request (a page asks it for every button)."""
    if not getattr(user, "is_authenticated", False):
        return None
    cache = team.__dict__.setdefault("_roles", {})
    if user.pk not in cache:
        cache[user.pk] = _role_of(user, team)
    return cache[user.pk]


def forget_roles(team: Team) -> None:
    """After the team changed: the instance's cached roles are stale."""
    team.__dict__.pop("_roles", None)


def _role_of(user, team: Team) -> Role | None:
    if isinstance(team, Organization):
        return Role.ORGANIZER if administers(user, team) else None
    if organizes(user, team):
        return Role.ORGANIZER
    if isinstance(team, Series):
        where = Q(series=team)
    else:
        where = Q(tournament=team)
        if team.series_id is not None:
            where |= Q(series_id=team.series_id)
    roles = set(Membership.objects.filter(where, user=user).values_list("role", flat=True))
    if Role.HELPER in roles:  # the stronger of a tournament's and its series' role
        return Role.HELPER
    return Role.VIEWER if Role.VIEWER in roles else None


def organizes_anything(user) -> bool:
    """Organizes a tournament or a series, or administers a club (a superuser does)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return user.is_superuser or (
        user.organized_tournaments.exists() or user.organized_series.exists()
        or user.administered_organizations.exists()
    )


def only_helps(user) -> bool:
    """An account that helps or views somewhere but organizes nothing: it neither creates nor restores
    tournaments, and its login ends with the evening."""
    if not getattr(user, "is_authenticated", False) or organizes_anything(user):
        return False
    return user.memberships.exists()
