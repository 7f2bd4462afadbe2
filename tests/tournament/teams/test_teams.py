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


@pytest.mark.parametrize("plan_all_rounds", [False, True])
def test_seating_keeps_team_mates_apart_in_every_round(organizer, tournament, plan_all_rounds, settings):
    """Sixteen players at four tables with teams of 4, 4, 3 and 2: team-mates never meet in any of the six
    rounds, round by round or planned at the start, so the app hands the teams to the seating in both
    modes (fields with odd tables, where keeping teams apart is a search of its own, are the engine's
    tests: tests/engine/test_seating.py)."""
    settings.SEATING_EFFORT = 0.1
    seed = 1
    tournament.plan_all_rounds = plan_all_rounds
    tournament.save()
    regs = [
        RegistrationFactory(tournament=tournament, start_number=i + 1, status=Registration.Status.CHECKED_IN)
        for i in range(16)
    ]
    declared = [
        team_create(tournament=tournament, user=organizer, name=f"T{i}", members=regs[lo:hi])
        for i, (lo, hi) in enumerate([(0, 4), (4, 8), (8, 11), (11, 13)])
    ]
    team = {reg.pk: t.pk for t in declared for reg in t.members.all()}
    for _ in range(tournament.rounds_total):
        round_ = play_round(tournament, organizer, seed=seed)
        sizes = []
        for table in round_.tables.all():
            regs_at = list(Seat.objects.filter(table=table).values_list("registration_id", flat=True))
            in_teams = [team[pk] for pk in regs_at if pk in team]
            assert len(set(in_teams)) == len(in_teams), (round_.number, table.number)
            sizes.append(len(regs_at))
        assert sizes == [4, 4, 4, 4]
    assert round_.number == 6


def test_the_separation_can_be_switched_off(organizer, tournament):
    teams_separate(tournament=tournament, user=organizer, separate=False)
    tournament.refresh_from_db()
    assert not tournament.separate_teams
    assert AuditEntry.objects.get().action == AuditAction.TEAMS_SEPARATE
