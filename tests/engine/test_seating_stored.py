"""The stored seating plan: its one serialiser, and round by round following it.

``data/seating_round_by_round.json`` holds evenings seated round by round (every table, seat order
included) by the engine that kept the plans in each process and found them again by renaming round 1;
with the plan stored and passed in, the same inputs give the same seatings.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seating import PlanKind, SeatingError, SeatingPlayer, StoredPlan, plan_to_follow, table_plan
from tests.engine.seating_helpers import Evening

RECORDED = json.loads((Path(__file__).parent / "data" / "seating_round_by_round.json").read_text())
# (name, players, rounds, preferred size, the first player withdraws before this round (0-based), team size)
EVENINGS = [
    ("22p", 22, 6, 4, None, 0),
    ("30p5", 30, 7, 5, None, 0),
    ("13p", 13, 6, 4, None, 0),
    ("26p_withdraw", 26, 7, 4, 3, 0),
    ("24p_teams", 24, 5, 4, None, 2),
]
EFFORT = 0.3

ids = st.integers(1, 10**6)
tables = st.lists(st.lists(ids, min_size=1, max_size=7).map(tuple), min_size=1, max_size=6).map(tuple)
plans = st.builds(
    StoredPlan,
    kind=st.sampled_from(list(PlanKind)),
    players=st.lists(ids, max_size=30).map(lambda xs: tuple(sorted(xs))),
    sizes=st.lists(st.integers(2, 7), min_size=1, max_size=8).map(tuple),
    seed=st.integers(0, 2**48),
    from_round=st.integers(1, 20),
    rounds=st.lists(tables, max_size=10).map(tuple),
)


@settings(max_examples=200)
@given(plans)
def test_a_plan_reads_back_equal_from_its_json(plan):
    data = json.loads(json.dumps(plan.to_json()))
    assert StoredPlan.from_json(data) == plan
    assert set(data) == {"kind", "players", "sizes", "seed", "from_round", "rounds"}


def test_the_numbered_rounds_start_at_from_round():
    plan = StoredPlan.build(kind="all", players=[3, 1, 2], sizes=[3], seed=9, from_round=4,
                            rounds=[[[1, 2, 3]], [[2, 3, 1]]])  # fmt: skip
    assert plan.players == (1, 2, 3) and plan.kind is PlanKind.ALL and plan.last_round == 5
    assert plan.numbered_rounds() == {4: [[1, 2, 3]], 5: [[2, 3, 1]]}
    assert plan.round(5) == [[2, 3, 1]] and plan.round(3) is None and plan.round(6) is None


@pytest.mark.parametrize("data", [
    {"kind": "guessed", "players": [], "sizes": [], "seed": 1, "from_round": 1, "rounds": []},
    {"kind": "all", "players": [], "sizes": [], "seed": 1, "from_round": 0, "rounds": []},
])
def test_a_plan_that_cannot_be_is_refused(data):
    with pytest.raises((SeatingError, ValueError)):
        StoredPlan.from_json(data)


def seat_evening(n, rounds, preferred, change_after, teams):
    ps = [SeatingPlayer(100 + i, club=f"c{i % 5}", team=f"t{i // teams}" if teams else "") for i in range(n)]
    history: list = []
    evening = Evening()
    plans = []
    for r in range(rounds):
        if change_after is not None and r == change_after:
            ps = ps[1:]
        sizes = table_plan(len(ps), preferred=preferred)
        history.append(evening.seat(ps, history, sizes, seed=r + 1, preferred=preferred, n_rounds=rounds,
                                    effort=EFFORT))  # fmt: skip
        plans.append(evening.plan)
    return history, plans


@pytest.mark.parametrize(("name", "n", "rounds", "preferred", "change_after", "teams"), EVENINGS)
def test_the_stored_plan_seats_every_round_as_before(name, n, rounds, preferred, change_after, teams):
    history, plans = seat_evening(n, rounds, preferred, change_after, teams)
    assert history == RECORDED[name]
    assert plans[0] is None  # round 1: nothing to follow yet
    first = plans[1]
    assert first is not None and first.kind == PlanKind.FOLLOWED
    assert first.from_round == (2 if teams else 1) and first.last_round == rounds
    if change_after is None:
        assert all(plan is first for plan in plans[1:])  # made once, then read
    else:
        after = plans[change_after]
        assert after is not first and after.from_round == change_after + 1 and len(after.players) == n - 1
        assert all(plan is after for plan in plans[change_after:])


def test_no_plan_for_round_one_nor_for_fields_over_200():
    ps = [SeatingPlayer(i) for i in range(1, 203)]
    assert plan_to_follow(ps[:20], [], [4] * 5, 6, seed=1) is None
    sizes = table_plan(202, preferred=6, min_size=5, max_size=7)
    first = [[p.id for p in ps[i : i + s]] for i, s in zip(range(0, 202, 6), sizes, strict=False)]
    assert plan_to_follow(ps, [first], sizes, 6, seed=1) is None
