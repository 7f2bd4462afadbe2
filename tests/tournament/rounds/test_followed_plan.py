"""Round by round: the plan the rounds follow is stored when it is made (round 2, after a change of the
field) and read back by every later round, so no server process has to remember or remake it."""

import pytest

from engine.seating import PlanKind, StoredPlan
from engine.seating import plan as plan_module
from tests.factories import RegistrationFactory, play_round
from tournament.models import Registration, SeatingPlan
from tournament.players.services import registration_withdraw
from tournament.rounds.selectors import seating_plan
from tournament.rounds.services import round_seat, store_plan


@pytest.fixture
def field(tournament, players):
    """Fourteen checked-in players at tables of 4 and 3 (no shipped design), six rounds round by round."""
    for number in (13, 14):
        RegistrationFactory(tournament=tournament, start_number=number, status=Registration.Status.CHECKED_IN)
    return tournament


def tables_of(round_) -> list[list[int]]:
    return [
        list(table.seats.order_by("position").values_list("registration_id", flat=True))
        for table in round_.tables.order_by("number")
    ]


def partition(tables) -> set[frozenset[int]]:
    return {frozenset(table) for table in tables}


def no_planning(monkeypatch):
    """Make every plan-making call of the engine fail: what follows must come from the stored plan."""

    def refuse(*args, **kwargs):
        raise AssertionError("the plan was made again")

    monkeypatch.setattr(plan_module, "_followed_plan", refuse)


def test_round_one_stores_no_plan_round_two_stores_the_one_the_evening_follows(field, organizer):
    first = play_round(field, organizer, seed=1)
    assert seating_plan(field) is None
    second = round_seat(tournament=field, user=organizer, seed=2)
    plan = seating_plan(field)
    ids = sorted(field.registrations.values_list("pk", flat=True))
    assert plan.kind == PlanKind.FOLLOWED and plan.from_round == 1 and plan.last_round == field.rounds_total
    assert list(plan.players) == ids and plan.seed == 2 and list(plan.sizes) == [4, 4, 3, 3]
    # Stored renamed onto the players: its round 1 is round 1 as played, its round 2 the one just seated.
    assert partition(plan.round(1)) == partition(tables_of(first))
    assert partition(plan.round(2)) == partition(tables_of(second))


def test_later_rounds_read_the_stored_plan_and_never_make_it_again(field, organizer, monkeypatch):
    play_round(field, organizer, seed=1)
    play_round(field, organizer, seed=2)
    plan = seating_plan(field)
    no_planning(monkeypatch)  # a second app server: nothing of round 2 in its memory
    for number in (3, 4):
        round_ = play_round(field, organizer, seed=10 + number)
        assert round_.number == number and partition(tables_of(round_)) == partition(plan.round(number))
    assert seating_plan(field) == plan


def test_a_redraw_of_round_two_draws_another_plan_later_redraws_keep_the_tables(field, organizer):
    play_round(field, organizer, seed=1)
    round_seat(tournament=field, user=organizer, seed=2)
    plans = {seating_plan(field)}
    for seed in (3, 4, 5, 6):  # each redraw picks one of 8 renamings: some other one among four
        round_seat(tournament=field, user=organizer, seed=seed)
        plans.add(seating_plan(field))
    assert {plan.seed for plan in plans} <= {2, 3, 4, 5, 6} and len({plan.rounds for plan in plans}) > 1
    second = field.rounds.get(number=2)
    assert partition(tables_of(second)) == partition(seating_plan(field).round(2))

    play_round(field, organizer, seed=7)  # closes the drafted round 2 (seed 6)
    plan = seating_plan(field)
    third = round_seat(tournament=field, user=organizer, seed=8)
    again = round_seat(tournament=field, user=organizer, seed=9)
    assert partition(tables_of(third)) == partition(tables_of(again)) == partition(plan.round(3))
    assert seating_plan(field) == plan


def test_a_withdrawal_stores_a_plan_of_the_rounds_after_it(field, organizer, players):
    play_round(field, organizer, seed=1)
    play_round(field, organizer, seed=2)
    registration_withdraw(registration=players[0], user=organizer)  # 13 players: tables of 4, 3, 3, 3
    third = round_seat(tournament=field, user=organizer, seed=3)
    plan = seating_plan(field)
    assert plan.kind == PlanKind.FOLLOWED and plan.from_round == 3 and plan.last_round == field.rounds_total
    assert players[0].pk not in plan.players and len(plan.players) == 13 and list(plan.sizes) == [4, 3, 3, 3]
    assert partition(tables_of(third)) == partition(plan.round(3))


def test_a_manual_change_of_the_plan_rounds_is_not_followed_the_round_is_searched(field, organizer):
    play_round(field, organizer, seed=1)
    play_round(field, organizer, seed=2)
    plan = seating_plan(field)
    # Round 2 as played is no longer the stored plan's round 2: round 3 cannot come from it.
    other = StoredPlan.build(
        kind=PlanKind.FOLLOWED, players=plan.players, sizes=plan.sizes, seed=plan.seed,
        from_round=1, rounds=[plan.round(1), plan.round(3), plan.round(2), *plan.rounds[3:]],
    )
    store_plan(tournament=field, plan=other)
    third = round_seat(tournament=field, user=organizer, seed=3)
    assert partition(tables_of(third)) != partition(other.round(3))
    assert sorted(reg for table in tables_of(third) for reg in table) == list(plan.players)
    assert seating_plan(field) == other  # kept: the plan these rounds make, only not followed


def test_plan_all_rounds_stores_the_plan_of_all_rounds(field, organizer):
    field.plan_all_rounds = True
    field.save()
    first = round_seat(tournament=field, user=organizer, seed=5)
    plan = seating_plan(field)
    assert plan.kind == PlanKind.ALL and plan.from_round == 1 and plan.seed == 5
    assert tables_of(first) == plan.round(1)
    assert SeatingPlan.objects.get(tournament=field).rounds == [
        [list(table) for table in rnd] for rnd in plan.rounds
    ]
