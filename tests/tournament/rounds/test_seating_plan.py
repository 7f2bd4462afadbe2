"""The plan-all-rounds option: planned once, followed round by round, re-planned warm on changes."""

import pytest

from tests.factories import RegistrationFactory, play_round
from tournament.models import Registration
from tournament.players.services import registration_withdraw
from tournament.rounds.selectors import seating_plan
from tournament.rounds.services import round_seat, seating_plan_create


@pytest.fixture
def planned(tournament, players):
    tournament.plan_all_rounds = True
    tournament.save()
    return tournament


def tables_of(round_):
    return [
        list(table.seats.order_by("position").values_list("registration_id", flat=True))
        for table in round_.tables.order_by("number")
    ]


def test_plan_covers_every_round_and_rounds_follow_it(planned, organizer):
    plan = seating_plan_create(tournament=planned, user=organizer, seed=7)
    assert seating_plan(planned) == plan and plan.kind == "all"
    rounds = plan.numbered_rounds()
    assert sorted(rounds) == list(range(1, 7))
    for tables in rounds.values():
        assert sorted(reg for table in tables for reg in table) == list(plan.players)
    first = play_round(planned, organizer, seed=99)
    assert tables_of(first) == rounds[1]
    second = round_seat(tournament=planned, user=organizer, seed=5)
    assert tables_of(second) == rounds[2]
    assert seating_plan(planned) == plan  # followed, not made again


def test_withdrawal_replans_the_rest_from_the_stored_plan(planned, organizer, players):
    for number in range(13, 25):  # 24 players: room to keep most of the plan
        RegistrationFactory(tournament=planned, start_number=number)
    plan = seating_plan_create(tournament=planned, user=organizer, seed=7)
    play_round(planned, organizer, seed=1)
    registration_withdraw(registration=players[0], user=organizer)
    late = RegistrationFactory(tournament=planned, start_number=99, status=Registration.Status.CHECKED_IN)
    registration_withdraw(registration=players[1], user=organizer)
    second = round_seat(tournament=planned, user=organizer, seed=5)
    seated = {reg for table in tables_of(second) for reg in table}
    assert players[0].pk not in seated and players[1].pk not in seated and late.pk in seated
    new_plan = seating_plan(planned).numbered_rounds()
    assert sorted(new_plan) == list(range(2, 7))
    assert tables_of(second) == new_plan[2]
    # Warm start: most pairs of the old plan for rounds 2-6 are still together.
    def pairs(rounds):
        return {
            (n, min(a, b), max(a, b))
            for n, tables in rounds.items() for table in tables for a in table for b in table if a != b
        }
    old, new = pairs({k: v for k, v in plan.numbered_rounds().items() if k != 1}), pairs(new_plan)
    assert len(old & new) >= len(old) // 2


def test_redraw_of_a_draft_plans_afresh(planned, organizer):
    first = round_seat(tournament=planned, user=organizer, seed=1)
    before = seating_plan(planned)
    round_seat(tournament=planned, user=organizer, seed=2)
    after = seating_plan(planned)
    assert after.seed == 2 != before.seed
    first.refresh_from_db()
    assert tables_of(first) == after.round(1)
