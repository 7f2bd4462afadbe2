"""Writes of teams: declare a team (a name and 2 to 6 registered players), remove it, and whether the
seating keeps team-mates apart."""

from __future__ import annotations

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from engine.text import name_key
from tournament.models import Registration, Team, Tournament

from ..audit.actions import AuditAction
from ..audit.services import audit


@transaction.atomic
def team_create(*, tournament: Tournament, user, name: str, members: Sequence[Registration]) -> Team:
    # The tournament's row lock: two organizers cannot put the same player into two teams at once.
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    name = " ".join(name.split())
    ids = sorted({reg.pk for reg in members})
    if not Team.MIN_MEMBERS <= len(ids) <= Team.MAX_MEMBERS:
        raise ValidationError(
            _("A team has %(min)s to %(max)s players.") % {"min": Team.MIN_MEMBERS, "max": Team.MAX_MEMBERS},
            code="team_size",
        )
    regs = list(Registration.objects.filter(tournament=tournament, pk__in=ids).select_related("player"))
    if len(regs) != len(ids):
        raise ValidationError(_("Only players of this tournament can form a team."), code="team_foreign")
    taken = (
        Registration.objects.filter(pk__in=ids, teams__tournament=tournament).select_related("player").first()
    )
    if taken is not None:
        raise ValidationError(
            _("%(name)s is already in a team.") % {"name": taken.player.name}, code="team_member_taken"
        )
    # The same name as `engine.text.name_key` compares it ("Die Füchse" is "DIE FUECHSE") on every database;
    # a tournament has a handful of teams, read under the tournament's lock.
    names = Team.objects.filter(tournament=tournament).values_list("name", flat=True)
    if name_key(name) in {name_key(other) for other in names}:
        raise ValidationError(_("A team of that name exists already."), code="team_name_taken")
    team = Team(tournament=tournament, name=name)
    team.full_clean()
    team.save()
    team.members.set(regs)
    audit(
        tournament=tournament, user=user, action=AuditAction.TEAM_CREATE,
        after={"team": team.name, "players": sorted(reg.player.name for reg in regs)},
    )
    return team


@transaction.atomic
def team_delete(*, team: Team, user) -> None:
    locked = Team.objects.select_for_update().select_related("tournament").get(pk=team.pk)
    names = sorted(reg.player.name for reg in locked.members.select_related("player"))
    before = {"team": locked.name, "players": names}
    tournament = locked.tournament
    locked.delete()
    audit(tournament=tournament, user=user, action=AuditAction.TEAM_DELETE, before=before)


@transaction.atomic
def teams_separate(*, tournament: Tournament, user, separate: bool) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if locked.separate_teams != separate:
        audit(
            tournament=locked, user=user, action=AuditAction.TEAMS_SEPARATE,
            before={"separate_teams": locked.separate_teams}, after={"separate_teams": separate},
        )
        locked.separate_teams = separate
        locked.save(update_fields=["separate_teams"])
    tournament.separate_teams = separate
    return locked
