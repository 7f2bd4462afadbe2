"""Teams: declared with 2 to 6 players, refusals with codes, the seating keeps team-mates apart."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import RegistrationFactory, TournamentFactory, play_round
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Registration, Seat
from tournament.teams.selectors import team_of_registration, teams
from tournament.teams.services import team_create, team_delete, teams_separate

pytestmark = pytest.mark.django_db


def test_declare_and_remove_a_team(organizer, tournament, players):
    team = team_create(tournament=tournament, user=organizer, name=" Die  Asse ", members=players[:3])
    assert team.name == "Die Asse" and set(team.members.all()) == set(players[:3])
    assert team_of_registration(tournament) == {reg.pk: team.pk for reg in players[:3]}
    assert [t.name for t in teams(tournament)] == ["Die Asse"]
    team_delete(team=team, user=organizer)
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        AuditAction.TEAM_CREATE, AuditAction.TEAM_DELETE,
    ]


@pytest.mark.parametrize("size", [1, 7])
def test_team_size_is_two_to_six(organizer, tournament, players, size):
    with pytest.raises(ValidationError) as refused:
        team_create(tournament=tournament, user=organizer, name="X", members=players[:size])
    assert refused.value.code == "team_size"


def test_a_player_is_in_one_team_and_of_this_tournament(organizer, tournament, players):
    team_create(tournament=tournament, user=organizer, name="A", members=players[:2])
    with pytest.raises(ValidationError) as refused:
        team_create(tournament=tournament, user=organizer, name="B", members=players[1:3])
    assert refused.value.code == "team_member_taken"
    with pytest.raises(ValidationError) as refused:
        team_create(tournament=tournament, user=organizer, name="a", members=players[4:6])
    assert refused.value.code == "team_name_taken"
    stranger = RegistrationFactory(tournament=TournamentFactory(), start_number=1)
    with pytest.raises(ValidationError) as refused:
        team_create(tournament=tournament, user=organizer, name="C", members=[players[6], stranger])
    assert refused.value.code == "team_foreign"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_seating_keeps_team_mates_apart_in_every_round(organizer, tournament, players, seed):
    """Six teams of two at three tables of four: team-mates never meet in rounds 1 and 2 (the seating
    weighs a team-mate at the table like a club-mate: below a repeated meeting, also in later rounds it
    plans ahead, so this evening has two rounds)."""
    tournament.rounds_total = 2
    tournament.save()
    Registration.objects.filter(tournament=tournament).update(status=Registration.Status.CHECKED_IN)
    declared = [
        team_create(tournament=tournament, user=organizer, name=f"T{i}", members=players[i * 2:i * 2 + 2])
        for i in range(6)
    ]
    team = {reg.pk: t.pk for t in declared for reg in t.members.all()}
    for _ in range(2):
        round_ = play_round(tournament, organizer, seed=seed)
        for table in round_.tables.all():
            regs = Seat.objects.filter(table=table).values_list("registration_id", flat=True)
            assert len({team[pk] for pk in regs}) == len(regs)


def test_the_separation_can_be_switched_off(organizer, tournament):
    teams_separate(tournament=tournament, user=organizer, separate=False)
    tournament.refresh_from_db()
    assert not tournament.separate_teams
    assert AuditEntry.objects.get().action == AuditAction.TEAMS_SEPARATE
