"""Writes of an evening's team: give a person a role (by user name), remove them, invitation links
(created, accepted once, withdrawn), and a series' organizers taken over by one of its evenings; the
same adding and removing for a series' team (its organizers, helpers and viewers), from one of its
evenings.

Every write needs the `people` capability (tournament/permissions.py) except accepting, which needs the
link, and a series' team, which needs an organizer of the series; each takes the row lock of the team's
tournament or series (two organizers changing the team at once cannot remove its last organizer) and
writes an audit entry naming who, in the tournament it was made from.
"""

from __future__ import annotations

import datetime as dt
import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Invitation, Membership, Role, Series, Tournament
from tournament.permissions import Capability, forget_roles, organizes, require
from tournament.permissions.scopes import addable_by_name

from ..audit.actions import AuditAction
from ..audit.services import audit
from .selectors import token_hash

INVITATION_DAYS = 7


Team = Tournament | Series  # whose team: an evening's own, or a series' (then of all its evenings)


def _members(team: Team):
    field = "series" if isinstance(team, Series) else "tournament"
    return Membership.objects.filter(**{field: team})


def _own_role(team: Team, person) -> Role | None:
    """The person's role given by this team itself (not by a tournament's series, not as superuser)."""
    if team.organizers.filter(pk=person.pk).exists():
        return Role.ORGANIZER
    role = _members(team).filter(user=person).values_list("role", flat=True).first()
    return Role(role) if role is not None else None


def _set_role(team: Team, person, role: Role) -> None:
    if role == Role.ORGANIZER:
        _members(team).filter(user=person).delete()
        team.organizers.add(person)
        return
    if team.organizers.filter(pk=person.pk).exists():
        _keep_an_organizer(team, person)
        team.organizers.remove(person)
    field = "series" if isinstance(team, Series) else "tournament"
    Membership.objects.update_or_create(**{field: team}, user=person, defaults={"role": role})


def _keep_an_organizer(team: Team, person) -> None:
    if not team.organizers.exclude(pk=person.pk).exists():
        if isinstance(team, Series):
            message = _("The series keeps at least one organizer.")
        else:
            message = _("The tournament keeps at least one organizer.")
        raise ValidationError(message, code="last_organizer")


def _locked(tournament: Tournament, user) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    require(user, locked, Capability.PEOPLE)
    return locked


def _locked_team(tournament: Tournament, user, of_series: bool) -> tuple[Tournament, Team, dict]:
    """The tournament (for the audit entry) and the team changed, its row locked; what the entries add
    to say whose team it is. The series' team is changed only by an organizer of the series."""
    if not of_series:
        locked = _locked(tournament, user)
        return locked, locked, {}
    if tournament.series_id is None:
        raise ValidationError(_("This tournament is not part of a series."), code="not_in_series")
    series = Series.objects.select_for_update().get(pk=tournament.series_id)
    if not organizes(user, series):
        raise ValidationError(
            _("Only the organizers of the series can change it."), code="not_series_organizer"
        )
    return tournament, series, {"series": series.name}


@transaction.atomic
def person_add(
    *, tournament: Tournament, user, username: str, role: Role | str, of_series: bool = False
) -> None:
    """Give the account of that user name this role in the tournament, or with `of_series` in its
    series (at every evening of it); a new role replaces the old. The entry goes to the tournament."""
    role = Role(role)
    locked, team, whose = _locked_team(tournament, user, of_series)
    # Only accounts of the owning club are found by name: anybody else is invited by a link they
    # accept while logged in, so nobody is put into a team (and under its organizers) unasked.
    person = addable_by_name(team, user).filter(username__iexact=username.strip()).first()
    if person is None:
        raise ValidationError(
            _("There is no account with the user name “%(name)s” in this club. Somebody from elsewhere "
              "joins with an invitation link.") % {"name": username},
            code="unknown_user",
        )
    before = _own_role(team, person)
    if before == role:
        raise ValidationError(
            _("%(name)s already has this role.") % {"name": person.get_username()}, code="same_role"
        )
    _set_role(team, person, role)
    forget_roles(tournament)
    audit(
        tournament=locked, user=user, action=AuditAction.PERSON_ADD,
        before={"person": person.get_username(), "role": before.value, **whose} if before else None,
        after={"person": person.get_username(), "role": role.value, **whose},
    )


@transaction.atomic
def person_remove(*, tournament: Tournament, user, person, of_series: bool = False) -> None:
    """Take the person out of the tournament's own team (a series' role stays with the series), or
    with `of_series` out of its series' team."""
    locked, team, whose = _locked_team(tournament, user, of_series)
    before = _own_role(team, person)
    if before is None:
        if of_series:
            raise ValidationError(_("This person has no role in the series."), code="no_role")
        raise ValidationError(_("This person has no role in the tournament."), code="no_role")
    if before == Role.ORGANIZER:
        _keep_an_organizer(team, person)
        team.organizers.remove(person)
    else:
        _members(team).filter(user=person).delete()
    forget_roles(tournament)
    audit(
        tournament=locked, user=user, action=AuditAction.PERSON_REMOVE,
        before={"person": person.get_username(), "role": before.value, **whose},
    )


@transaction.atomic
def invitation_create(
    *, tournament: Tournament, user, role: Role | str, days: int = INVITATION_DAYS
) -> tuple[Invitation, str]:
    """A one-time link: the invitation and its token (to show once; only its hash is stored)."""
    role = Role(role)
    locked = _locked(tournament, user)
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        tournament=locked, role=role, token_hash=token_hash(token), created_by=user,
        expires_at=timezone.now() + dt.timedelta(days=days),
    )
    audit(
        tournament=locked, user=user, action=AuditAction.INVITATION_CREATE,
        after={"role": role.value, "expires_at": invitation.expires_at.isoformat()},
    )
    return invitation, token


@transaction.atomic
def invitation_withdraw(*, invitation: Invitation, user) -> None:
    locked = _locked(invitation.tournament, user)
    unused = Invitation.objects.filter(pk=invitation.pk, tournament=locked, used_at__isnull=True)
    deleted, _rows = unused.delete()
    if not deleted:
        raise ValidationError(_("This invitation was used already."), code="invitation_used")
    audit(
        tournament=locked, user=user, action=AuditAction.INVITATION_WITHDRAW,
        before={"role": invitation.role, "expires_at": invitation.expires_at.isoformat()},
    )


def invitation_problem(
    invitation: Invitation | None, *, now: dt.datetime | None = None
) -> ValidationError | None:
    """Why a link cannot be accepted (unknown, used, expired), or None."""
    if invitation is None:
        return ValidationError(_("This invitation link is not valid."), code="invitation_unknown")
    if invitation.used_at is not None:
        return ValidationError(_("This invitation link was used already."), code="invitation_used")
    if invitation.expires_at <= (now or timezone.now()):
        return ValidationError(_("This invitation link has expired."), code="invitation_expired")
    return None


@transaction.atomic
def invitation_accept(*, token: str, user) -> Invitation:
    """The logged-in user takes the link's role in its tournament; the link is used up. Nobody is
    demoted by a link: an organizer following a helper's link stays organizer."""
    invitation = (
        Invitation.objects.select_for_update().select_related("tournament")
        .filter(token_hash=token_hash(token)).first()
    )
    problem = invitation_problem(invitation)
    if problem is not None:
        raise problem
    tournament = Tournament.objects.select_for_update().get(pk=invitation.tournament_id)
    role = Role(invitation.role)
    before = _own_role(tournament, user)
    if before != Role.ORGANIZER and before != role and not (before == Role.HELPER and role == Role.VIEWER):
        _set_role(tournament, user, role)
    forget_roles(invitation.tournament)
    invitation.used_at = timezone.now()
    invitation.used_by = user
    invitation.save(update_fields=["used_at", "used_by"])
    after = _own_role(tournament, user)
    audit(
        tournament=tournament, user=user, action=AuditAction.INVITATION_ACCEPT,
        before={"person": user.get_username(), "role": before.value} if before else None,
        after={"person": user.get_username(), "role": after.value if after else role.value},
    )
    return invitation


@transaction.atomic
def series_team_take(*, tournament: Tournament, user) -> list[str]:
    """The tournament takes the series' team: the series' organizers become its organizers (its
    helpers and viewers are the evening's already, tournament/permissions.py). The names added."""
    locked = _locked(tournament, user)
    if locked.series_id is None:
        raise ValidationError(_("This tournament is not part of a series."), code="not_in_series")
    added = sorted(
        person.get_username()
        for person in locked.series.organizers.exclude(pk__in=locked.organizers.values("pk"))
    )
    locked.organizers.add(*locked.series.organizers.all())
    forget_roles(tournament)
    Membership.objects.filter(
        tournament=locked, user__in=locked.organizers.values("pk")
    ).delete()
    audit(
        tournament=locked, user=user, action=AuditAction.SERIES_TEAM_TAKE,
        after={"series": locked.series.name, "people": added},
    )
    return added

