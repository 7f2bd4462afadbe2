"""Tests of the seating optimiser (engine/seating/).  Pure Python, no Django."""

from __future__ import annotations

import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.seating import (
    PlanKind,
    SeatingError,
    SeatingPlayer,
    lower_bound_repeats,
    plan_schedule,
    schedule_stats,
    seat_following,
    seat_round,
    seating_report,
    table_plan,
)
from engine.seating import plan as plan_module
from engine.seating.costs import _meetings
from engine.seating.designs import (
    DESIGNS,
    _field_add,
    _galois_field,
    _match_prefix,
    _partition,
    _resolvable_transversal,
)
from engine.seating.plan import (
    _STARTS,
    _THIRD_MEETING_SHARE,
    _floor,
    _floor_fill,
    _meets_thrice,
    _plan_after,
    _search_rounds,
)
from engine.seating.search import _Search, _top_level
from engine.seating.state import _Context
from tests.engine.seating_helpers import Evening

ROOT = Path(__file__).resolve().parents[2]
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The properties of the shape of a seating (a partition into the planned sizes, the odd-table rule,
# the same seating from the same seed) hold at any budget: they are checked on many inputs at a tenth
# of the app's budget.  The quality tests below (the grid, re-planning) run at the full budget, and so
# does test_reproducible_across_hash_seeds.
CHEAP = 0.1


def players(n: int, start: int = 1, clubs: int = 0) -> list[SeatingPlayer]:
    return [SeatingPlayer(i, club=f"club {i % clubs}" if clubs else "") for i in range(start, start + n)]


def assert_valid_round(rnd, active_ids, sizes):
    assert [len(t) for t in rnd] == list(sizes)
    seated = [p for t in rnd for p in t]
    assert sorted(seated) == sorted(active_ids)  # everybody exactly once, nobody else


# --- table_plan -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "kwargs", "expected"),
    [
        (23, {}, [4, 4, 4, 4, 4, 3]),
        (24, {}, [4] * 6),
        (9, {}, [3, 3, 3]),
        (10, {}, [4, 3, 3]),
        (7, {}, [4, 3]),
        (6, {}, [3, 3]),
        (5, {}, [5]),  # two tables would need 6 players; one table of 5 is allowed
        (4, {}, [4]),
        (3, {}, [3]),
        (23, {"fill": "larger"}, [4, 4, 5, 5, 5]),
        (13, {"fill": "larger"}, [4, 4, 5]),
        (3, {"fill": "larger"}, [3]),
        (11, {"preferred": 5, "min_size": 2, "max_size": 6}, [4, 4, 3]),
    ],
)
def test_table_plan_examples(n, kwargs, expected):
    assert table_plan(n, **kwargs) == expected


@pytest.mark.parametrize(
    ("n", "kwargs"),
    [(2, {}), (0, {}), (5, {"max_size": 4}), (4, {"min_size": 5}), (10, {"fill": "other"})],
)
def test_table_plan_impossible(n, kwargs):
    with pytest.raises(SeatingError):
        table_plan(n, **kwargs)


@given(
    n=st.integers(1, 500),
    preferred=st.integers(3, 8),
    fill=st.sampled_from(["smaller", "larger"]),
)
def test_table_plan_properties(n, preferred, fill):
    lo, hi = max(2, preferred - 1), preferred + 1
    try:
        sizes = table_plan(n, preferred=preferred, min_size=lo, max_size=hi, fill=fill)
    except SeatingError:
        # only when no number of tables fits, e.g. 17 players at tables of 6..8
        assert not any(t * lo <= n <= t * hi for t in range(1, n + 1))
        return
    assert sum(sizes) == n
    assert all(lo <= s <= hi for s in sizes)
    if n >= preferred * (preferred - 1):  # big enough: only the preferred size and one smaller/larger
        other = preferred - 1 if fill == "smaller" else preferred + 1
        assert set(sizes) <= {preferred, other}
        # as many preferred tables as possible: fewer odd tables than the preferred size
        assert Counter(sizes)[other] < preferred


def test_lower_bound():
    assert lower_bound_repeats(16, [4] * 4, 6) == 24
    assert lower_bound_repeats(12, [4] * 3, 6) == 42
    assert lower_bound_repeats(24, [4] * 6, 6) == 0


# --- seat_round properties -----------------------------------------------------------------------------


@st.composite
def tournaments(draw):
    """Active players, a history with withdrawn and late players, and the table plan."""
    n = draw(st.integers(3, 40))
    withdrawn = draw(st.integers(0, 5))
    late = draw(st.integers(0, min(5, n - 1)))
    rounds = draw(st.integers(0, 4))
    clubs = draw(st.integers(0, 5))
    seed = draw(st.integers(0, 2**31))
    everyone = players(n + withdrawn, clubs=clubs)
    gone = everyone[:withdrawn]
    active = everyone[withdrawn:]
    early = [p.id for p in everyone[: n + withdrawn - late]]  # the late arrivals are missing in history
    history = []
    rnd_ids = list(early)
    for r in range(rounds):
        if len(rnd_ids) < 3:
            break
        sizes = table_plan(len(rnd_ids))
        history.append(
            seat_round([SeatingPlayer(i) for i in rnd_ids], history, sizes, seed=seed + r, effort=CHEAP)
        )
    return active, gone, history, table_plan(len(active)), seed


@FAST
@given(tournaments())
def test_seat_round_seats_every_active_player_once(t):
    active, gone, history, sizes, seed = t
    rnd = seat_round(active, history, sizes, seed=seed, effort=CHEAP)
    assert_valid_round(rnd, [p.id for p in active], sizes)
    assert not {p.id for p in gone} & {p for tb in rnd for p in tb}


@SLOW
@given(tournaments(), st.integers(1, 3))
def test_plan_schedule_seats_every_active_player_once(t, extra):
    active, gone, history, sizes, seed = t
    plan = plan_schedule(active, len(history) + extra, sizes, seed=seed, history=history, effort=CHEAP)
    assert len(plan) == extra
    for rnd in plan:
        assert_valid_round(rnd, [p.id for p in active], sizes)
        assert not {p.id for p in gone} & {p for tb in rnd for p in tb}


@SLOW
@given(tournaments())
def test_same_seed_same_seating(t):
    active, _gone, history, sizes, seed = t
    assert seat_round(active, history, sizes, seed=seed, effort=CHEAP) == seat_round(
        list(reversed(active)), history, sizes, seed=seed, effort=CHEAP
    )
    again = [plan_schedule(active, len(history) + 1, sizes, seed=seed, history=history, effort=CHEAP)
             for _ in range(2)]
    assert again[0] == again[1]


_SUBPROCESS = """
import json, sys
sys.path.insert(0, {root!r})
from engine.seating import SeatingPlayer, plan_schedule, seat_round, table_plan
ps = [SeatingPlayer(i, club=["Blau-Weiss", "Rot", "Gelb", "", "Gruen"][i % 5]) for i in range(1, 31)]
sizes = table_plan(30)
plan = plan_schedule(ps, 4, sizes, seed=42)
one = seat_round(ps, plan[:2], sizes, seed=43)
first = seat_round(ps, [], sizes, seed=44)
print(json.dumps([plan, one, first]))
"""


def test_reproducible_across_hash_seeds():
    outputs = []
    for hashseed in ("0", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        res = subprocess.run(
            [sys.executable, "-c", _SUBPROCESS.format(root=str(ROOT))],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
        outputs.append(json.loads(res.stdout))
    assert outputs[0] == outputs[1]


def test_different_seeds_differ():
    ps = players(40)
    sizes = table_plan(40)
    assert seat_round(ps, [], sizes, seed=1) != seat_round(ps, [], sizes, seed=2)


# --- quality -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "target"), [(12, 42), (16, 24), (20, 6), (23, 1), (24, 0), (25, 0), (30, 0), (37, 0), (100, 0)]
)
def test_plan_targets(n, target):
    sizes = table_plan(n)
    plan = plan_schedule(players(n, clubs=3), 6, sizes, seed=n)
    stats = schedule_stats(plan)
    assert stats.repeated_pairs <= target
    assert stats.small_table_spread <= 1
    for rnd in plan:
        assert_valid_round(rnd, list(range(1, n + 1)), sizes)


def test_round_by_round_no_repeats_when_easy():
    ps = players(40)
    sizes = table_plan(40)
    hist = []
    for r in range(6):
        hist.append(seat_round(ps, hist, sizes, seed=r))
    assert schedule_stats(hist).repeated_pairs == 0


def test_round_one_separates_clubs():
    ps = players(16, clubs=4)  # 4 clubs of 4 players, 4 tables
    rnd = seat_round(ps, [], [4, 4, 4, 4], seed=3)
    club = {p.id: p.club for p in ps}
    for t in rnd:
        assert len({club[p] for p in t}) == 4
    plan = plan_schedule(ps, 3, [4, 4, 4, 4], seed=3)
    for t in plan[0]:
        assert len({club[p] for p in t}) == 4


@pytest.mark.parametrize(
    ("n", "rounds", "sizes", "preferred"),
    [(14, 9, [4, 4, 3, 3], 4), (23, 6, [5, 5, 5, 4, 4], 5), (21, 6, [4, 4, 4, 4, 5], 4)],
)
def test_a_plan_keeps_clubs_apart_in_round_one_at_no_cost_in_meetings(n, rounds, sizes, preferred):
    """A plan is searched as if nobody had a club and renamed so that round 1 keeps the clubs apart: its
    meetings are those of the same plan for a field without clubs, only the names differ."""
    clubs = len(sizes)  # as many clubs as tables: round 1 can keep every club apart
    ps = players(n, clubs=clubs)
    plan = plan_schedule(ps, rounds, sizes, seed=5, preferred=preferred, effort=CHEAP)
    alone = plan_schedule(players(n), rounds, sizes, seed=5, preferred=preferred, effort=CHEAP)
    club = {p.id: p.club for p in ps}
    assert all(len({club[p] for p in t}) == len(t) for t in plan[0])
    assert not all(len({club[p] for p in t}) == len(t) for t in alone[0])  # (the names did change)
    with_clubs, without = schedule_stats(plan, preferred), schedule_stats(alone, preferred)
    assert with_clubs.repeated_pairs == without.repeated_pairs
    assert sorted(m for *_, m in with_clubs.new_repeats) == sorted(m for *_, m in without.new_repeats)
    assert sorted(with_clubs.odd_tables.values()) == sorted(without.odd_tables.values())
    for rnd in plan:
        assert_valid_round(rnd, [p.id for p in ps], sizes)


def test_clubs_not_separated_later_by_default():
    # round 2 with everyone from one of 2 clubs: no error, valid round
    ps = players(8, clubs=2)
    r1 = seat_round(ps, [], [4, 4], seed=1)
    r2 = seat_round(ps, [r1], [4, 4], seed=1)
    assert_valid_round(r2, [p.id for p in ps], [4, 4])


def test_small_tables_spread_before_anyone_gets_a_second():
    n = 23  # one table of 3 per round: 18 different players in 6 rounds
    ps = players(n)
    sizes = table_plan(n)
    hist = []
    for r in range(7):
        hist.append(seat_round(ps, hist, sizes, seed=100 + r))
        rep = seating_report(hist[:-1], hist[-1])
        assert rep.small_table_spread <= 1
    small = Counter(p for rnd in hist for t in rnd if len(t) == 3 for p in t)
    assert max(small.values()) == 1 and len(small) == 21


def test_late_arrival_counted_by_rounds_played():
    # 22 players: 2 tables of 3 per round; after 3 rounds a late player arrives
    ps = players(22)
    hist = []
    for r in range(3):
        hist.append(seat_round(ps, hist, table_plan(22), seed=r))
    late = SeatingPlayer(99)
    ps2 = [*ps, late]
    nxt = seat_round(ps2, hist, table_plan(23), seed=5)
    small_before = Counter(p for rnd in hist for t in rnd if len(t) == 3 for p in t)
    small_now = [p for t in nxt if len(t) == 3 for p in t]
    # the 4 players who had no small table in 3 rounds go first, the newcomer is not forced there
    never = [p.id for p in ps if small_before[p.id] == 0]
    assert len(never) == 22 - 18
    assert set(small_now) <= set(never) | {99}
    assert not any(small_before[p] for p in small_now)


def test_withdrawal_does_not_make_a_small_table_in_the_history():
    # player 1 leaves after round 1: his table had 4 players, it was not a small table for the others
    ps = players(23)
    sizes = table_plan(23)
    r1 = seat_round(ps, [], sizes, seed=1)
    small1 = next(t for t in r1 if len(t) == 3)
    rep = seating_report([], r1)
    assert all(rep.odd_tables[p] == (1 if p in small1 else 0) for p in rep.odd_tables)
    active = [p for p in ps if p.id != 1]
    r2 = seat_round(active, [r1], table_plan(22), seed=2)
    small2 = {p for t in r2 if len(t) == 3 for p in t}
    assert not small2 & set(small1)  # nobody gets a second small table; the old mates of 1 are no exception


def test_seat_order_rotates():
    n = 16
    ps = players(n)
    plan = plan_schedule(ps, 6, [4] * 4, seed=5)
    first = Counter(t[0] for rnd in plan for t in rnd)
    # 24 first seats for 16 players: nobody plays first more than twice
    assert max(first.values()) <= 2
    assert len(first) == 16


def test_withdrawn_players_never_seated_and_late_arrivals_are():
    ps = players(20)
    sizes = table_plan(20)
    hist = plan_schedule(ps, 2, sizes, seed=9)
    active = [p for p in ps if p.id not in (3, 7)] + [SeatingPlayer(50), SeatingPlayer(51), SeatingPlayer(52)]
    sizes2 = table_plan(len(active))
    rnd = seat_round(active, hist, sizes2, seed=9)
    assert_valid_round(rnd, [p.id for p in active], sizes2)


# --- warm start --------------------------------------------------------------------------------------


def co_pairs(rounds):
    return {
        (r, min(a, b), max(a, b)) for r, rnd in enumerate(rounds) for t in rnd for a in t for b in t if a != b
    }


@pytest.mark.parametrize(
    ("n", "gone", "new"), [(40, [5], [100]), (40, [5, 6], []), (40, [], [100, 101, 102]), (60, [7], [])]
)
def test_warm_start_keeps_most_of_the_plan(n, gone, new):
    ps = players(n)
    sizes = table_plan(n)
    plan = plan_schedule(ps, 6, sizes, seed=11)
    played, rest = plan[:2], plan[2:]
    active = [p for p in ps if p.id not in gone] + [SeatingPlayer(i) for i in new]
    sizes2 = table_plan(len(active))
    replan = plan_schedule(active, 6, sizes2, seed=12, history=played, previous_plan=rest)
    assert len(replan) == 4
    for rnd in replan:
        assert_valid_round(rnd, [p.id for p in active], sizes2)
    old = {x for x in co_pairs(rest) if x[1] not in gone and x[2] not in gone}
    kept = old & co_pairs(replan)
    assert len(kept) >= 0.7 * len(old)
    stats = schedule_stats([*played, *replan])
    assert stats.repeated_pairs == 0


def test_warm_start_tight_instance_stays_valid_and_good():
    # 23 -> 22 players: the plan changes from one to two tables of 3, so more has to move
    ps = players(23)
    plan = plan_schedule(ps, 6, table_plan(23), seed=11)
    active = ps[1:]
    replan = plan_schedule(active, 6, table_plan(22), seed=12, history=plan[:2], previous_plan=plan[2:])
    for rnd in replan:
        assert_valid_round(rnd, [p.id for p in active], table_plan(22))
    stats = schedule_stats([*plan[:2], *replan])
    assert stats.repeated_pairs <= 6 and stats.max_meetings <= 2 and stats.small_table_spread <= 1


def test_warm_start_without_changes_keeps_everything_when_perfect():
    ps = players(40)
    sizes = table_plan(40)
    plan = plan_schedule(ps, 6, sizes, seed=11)
    replan = plan_schedule(ps, 6, sizes, seed=99, history=plan[:1], previous_plan=plan[1:])
    assert co_pairs(replan) == co_pairs(plan[1:])
    whole = plan_schedule(ps, 6, sizes, seed=99, history=plan[:1], previous_plan=plan)
    assert co_pairs(whole) == co_pairs(plan[1:])


# --- reports -------------------------------------------------------------------------------------------


def test_seating_report_and_manual_swap():
    hist = [[[1, 2, 3, 4], [5, 6, 7, 8]]]
    proposal = [[1, 2, 5, 6], [3, 4, 7, 8]]
    rep = seating_report(hist, proposal)
    assert rep.repeated_pairs == 4
    assert rep.new_repeats == [(1, 2, 2), (3, 4, 2), (5, 6, 2), (7, 8, 2)]
    assert rep.max_meetings == 2
    swapped = [[1, 3, 5, 7], [2, 4, 6, 8]]
    rep2 = seating_report(hist, swapped)
    assert rep2.repeated_pairs == 4 and rep2.max_meetings == 2
    better = [[1, 5, 2, 6], [3, 7, 4, 8]]
    assert seating_report(hist, better).repeated_pairs == 4
    ok = seating_report([], [[1, 2, 3], [4, 5, 6, 7]])
    assert ok.repeated_pairs == 0 and ok.new_repeats == [] and ok.small_table_spread == 1


def test_schedule_stats_third_meeting():
    rounds = [[[1, 2, 3, 4]], [[1, 2, 3, 4]], [[1, 2, 3, 4]]]
    stats = schedule_stats(rounds)
    assert stats.repeated_pairs == 12 and stats.max_meetings == 3


def test_errors():
    with pytest.raises(SeatingError):
        seat_round(players(5), [], [4, 4], seed=1)
    with pytest.raises(SeatingError):
        seat_round([SeatingPlayer(1), SeatingPlayer(1), SeatingPlayer(2)], [], [3], seed=1)


# --- shipped designs -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "design", "prefixes_ok"), DESIGNS)
def test_designs_are_valid(name, design, prefixes_ok):
    npts = sum(len(t) for t in design[0])
    for rnd in design:
        assert sorted(p for t in rnd for p in t) == list(range(npts)), name
    stats = schedule_stats(design)
    # Only the 12-player schedule in which everybody meets everybody has pairs meeting three times.
    assert stats.max_meetings <= (3 if not prefixes_ok else 2)


PRIME_POWERS = [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 17, 19, 23, 25, 27, 29, 31, 32]


@pytest.mark.parametrize("q", range(33))
def test_galois_fields_exist_exactly_for_prime_powers(q):
    mul = _galois_field(q)
    if q not in PRIME_POWERS:
        assert mul is None
        return
    p = next(d for d in range(2, q + 1) if q % d == 0)
    elements = range(q)
    assert all(mul[1][x] == x and mul[0][x] == 0 for x in elements)
    assert all(sorted(mul[x]) == list(elements) for x in range(1, q))  # a non-zero element has an inverse
    for x in elements:
        for y in elements:
            assert mul[x][y] == mul[y][x]
            assert all(mul[x][_field_add(p, y, z)] == _field_add(p, mul[x][y], mul[x][z]) for z in elements)


@pytest.mark.parametrize("k", [3, 4, 5, 6, 7])
@pytest.mark.parametrize("q", [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 16])
def test_resolvable_transversal_designs_never_repeat_a_pair(k, q):
    design = _resolvable_transversal(k, q)
    if q < k or q not in PRIME_POWERS:
        assert design is None
        return
    assert len(design) == (q + 1 if k == q else q)
    for rnd in design:
        assert sorted(len(t) for t in rnd) == [k] * q
        assert sorted(p for t in rnd for p in t) == list(range(k * q))
    stats = schedule_stats(design)
    assert (stats.repeated_pairs, stats.max_meetings) == (0, 1)
    met = sum(len(t) * (len(t) - 1) // 2 for rnd in design for t in rnd)
    # every two players of different groups meet; with k = q the groups are the last round
    assert met == k * q * (k * q - 1) // 2 - (0 if k == q else k * q * (q - 1) // 2)


@pytest.mark.parametrize(("n", "preferred", "rounds"), [(48, 6, 6), (47, 6, 8), (42, 6, 7), (35, 5, 6),
                                                        (39, 5, 6), (52, 4, 10), (21, 3, 7), (66, 6, 10),
                                                        (65, 6, 10), (99, 4, 10), (40, 4, 10),
                                                        (39, 4, 13)])  # fmt: skip
def test_fields_of_a_design_meet_nobody_twice(n, preferred, rounds):
    """k * q players at tables of k (or one fewer, one table of k - 1) for up to q rounds, and 40 (or 39)
    at tables of 4 for up to 13: the design has no repeats, in both modes and whatever the seed; the
    search alone repeats (9 for 48 at tables of 6, 4 for 40 at tables of 4 over 10 rounds)."""
    sizes = table_plan(n, preferred=preferred, min_size=preferred - 1, max_size=preferred + 1)
    ps = players(n, clubs=len(sizes))  # round 1 keeps the clubs apart, the design continues from it
    for seed in (1, 2):
        plan = plan_schedule(ps, rounds, sizes, seed=seed, preferred=preferred)
        hist = []
        evening = Evening()
        for r in range(rounds):
            rnd = evening.seat(ps, hist, sizes, seed=seed * 10 + r, preferred=preferred, n_rounds=rounds)
            hist.append(rnd)
        for sched in (plan, hist):
            for rnd in sched:
                assert_valid_round(rnd, [p.id for p in ps], sizes)
            stats = schedule_stats(sched, preferred)
            assert stats.repeated_pairs == 0 and stats.small_table_spread <= (1 if len(set(sizes)) > 1 else 0)
        assert plan != plan_schedule(ps, rounds, sizes, seed=seed + 2, preferred=preferred)  # random map


def test_a_redraw_of_a_design_round_gives_another_round_without_repeats():
    ps = players(66)
    sizes = [6] * 11
    hist = []
    evening = Evening()
    for r in range(2):
        hist.append(evening.seat(ps, hist, sizes, seed=r + 1, n_rounds=10))
    redraws = [evening.seat(ps, hist, sizes, seed=seed, n_rounds=10) for seed in (3, 4, 5)]
    assert len({str(sorted(sorted(t) for t in rnd)) for rnd in redraws}) > 1
    for rnd in redraws:
        assert seating_report(hist, rnd).repeated_pairs == 0


@pytest.mark.parametrize("seed", range(4))
def test_any_relabelling_of_a_design_prefix_is_matched(seed):
    # three rounds of RTD(6,11) under a random relabelling: a search that placed the players in a fixed
    # order gave up on some of these within its node limit; with forward checking it finds a map at once
    design = _resolvable_transversal(6, 11)
    rng = random.Random(seed)
    label = list(range(66))
    rng.shuffle(label)
    history = [[[label[x] for x in t] for t in rnd] for rnd in design[:3]]
    assign = _match_prefix(history, 66, design, random.Random(seed), node_limit=2000)
    assert assign is not None and sorted(assign) == list(range(66))
    for rnd, drnd in zip(history, design, strict=False):
        assert {frozenset(assign[p] for p in t) for t in rnd} == {frozenset(t) for t in drnd}


def test_arrivals_that_make_a_design_field_are_seated_after_rounds_of_the_old_field():
    # 24 players at 8 tables of 3, then 3 arrive: 27 = 3 x 9 is a design field with a table more than
    # the rounds played had, so those rounds are no beginning of the design
    ps = players(24)
    played = plan_schedule(ps, 2, [3] * 8, seed=1, preferred=3)
    active = [*ps, *players(3, start=50)]
    for rounds in (plan_schedule(active, 6, [3] * 9, seed=2, history=played, preferred=3),
                   [Evening().seat(active, played, [3] * 9, seed=2, preferred=3, n_rounds=6)]):  # fmt: skip
        for rnd in rounds:
            assert_valid_round(rnd, [p.id for p in active], [3] * 9)


def test_a_design_shorter_than_the_plan_is_continued_and_compared_with_the_search_alone():
    # 48 players at tables of 6 for 9 rounds: the design's 8 rounds leave only group-mates unmet, the
    # search continues from there (24 repeats); the search alone found 118
    plan = plan_schedule(players(48), 9, [6] * 8, seed=1, effort=CHEAP * 3)
    assert schedule_stats(plan).repeated_pairs <= 30
    # 28 players at tables of 4 for 10 rounds: the 9 rounds of the resolvable 2-(28,4,1) design, then
    # one round in which every table repeats its 6 pairs: 42, the counting bound
    plan = plan_schedule(players(28), 10, [4] * 7, seed=1, effort=CHEAP * 3)
    assert schedule_stats(plan).repeated_pairs == 42


@pytest.mark.parametrize(
    ("name", "n", "rounds"),
    [("resolvable 2-(40,4,1)", 40, 13), ("resolvable 2-(28,4,1)", 28, 9), ("KTS(21)", 21, 10)],
)
def test_kirkman_fields_meet_everybody_once(name, n, rounds):
    design = next(d for full, d, _ in DESIGNS if name in full)
    met = _meetings(design)
    assert len(design) == rounds and len(met) == n * (n - 1) // 2 and set(met.values()) == {1}


def test_nearly_kirkman_18_leaves_nine_disjoint_pairs_unmet():
    design = next(d for name, d, _ in DESIGNS if "NKTS(18)" in name)
    met = _meetings(design)
    unmet = [pair for pair in itertools.combinations(range(18), 2) if pair not in met]
    assert len(design) == 8 and set(met.values()) == {1} and len(unmet) == 9
    assert sorted(p for pair in unmet for p in pair) == list(range(18))  # a perfect matching


@pytest.mark.parametrize(
    ("n", "sizes", "rounds"),
    [
        (28, [4] * 7, 9), (27, [4] * 6 + [3], 9), (21, [3] * 7, 10), (20, [3] * 6 + [2], 10),
        (18, [3] * 6, 8), (17, [3] * 5 + [2], 8),
    ],
)
def test_kirkman_fields_play_every_round_without_a_repeat(n, sizes, rounds):
    # without the designs, 28 players at tables of 4 repeated 8 pairs over 8 rounds and 23 to 25 over 9
    # (the 7-round transversal design leaves only group-mates to meet), 21 at tables of 3 4 over 10, 18
    # and 17 at tables of 3 1 or 2 over 8: the search alone does not find them; round by round as in a plan
    plan = plan_schedule(players(n), rounds, sizes, seed=1, effort=CHEAP)
    assert schedule_stats(plan).repeated_pairs == 0
    hist = _seat_rounds(players(n), [], sizes, 0, rounds, n_rounds=rounds)
    for rnd in hist:
        assert_valid_round(rnd, [p.id for p in players(n)], sizes)
    assert schedule_stats(hist).repeated_pairs == 0


@pytest.mark.parametrize(
    ("n", "rounds", "preferred", "fill", "most"),
    [(52, 7, 6, "smaller", 13), (64, 10, 5, "larger", 30), (45, 7, 6, "smaller", 30)],
)
def test_medium_fields_at_large_tables_outside_the_grid(n, rounds, preferred, fill, most):
    # fields that bench/seating.py does not have: with a tabu tenure growing with the field (3 + n/10
    # and as much again) and half the budget, whole plans had 18, 43 and 37 repeats here (now 11, 26
    # and 26); round by round, which follows a plan made with the full budget, had 19, 39 and 34
    sizes = table_plan(n, preferred=preferred, min_size=preferred - 1, max_size=preferred + 1, fill=fill)
    ps = players(n)
    plan = plan_schedule(ps, rounds, sizes, seed=1, preferred=preferred)
    hist: list = []
    evening = Evening()
    for r in range(rounds):
        hist.append(evening.seat(ps, hist, sizes, seed=1 + r, preferred=preferred, n_rounds=rounds))
    for sched in (plan, hist):
        stats = schedule_stats(sched, preferred)
        assert stats.repeated_pairs <= most
        assert stats.small_table_spread <= 1


@pytest.mark.parametrize(("n", "sizes", "preferred"), [(15, [5, 5, 5], 5), (18, [6, 6, 6], 6)])
def test_repeats_come_first_where_few_tables_leave_pairs_unmet(n, sizes, preferred):
    # 6 rounds at 3 tables: 180 meetings over 105 pairs (15 players), 270 over 153 (18).  Keeping every
    # pair to two meetings leaves pairs who never meet (90 and 135 repeats); the counting bound (75 and
    # 117) is reached when every pair meets, some three times, and the seating takes that, as the rules
    # minimise repeats.  No pair meets four times.
    plan = plan_schedule(players(n), 6, sizes, seed=1, preferred=preferred)
    stats = schedule_stats(plan, preferred)
    assert (stats.repeated_pairs, stats.max_meetings) == (lower_bound_repeats(n, sizes, 6), 3)


def test_twelve_players_meet_everybody():
    # 6 rounds of 3 tables of 4: 108 meetings over 66 pairs, so at least 42 repeats; the whole-tournament
    # schedule reaches that bound and every pair meets at least once (three pairs meet three times)
    ps = players(12)
    for seed in range(3):
        plan = plan_schedule(ps, 6, [4, 4, 4], seed=seed)
        stats = schedule_stats(plan)
        assert (stats.repeated_pairs, stats.max_meetings) == (42, 3)
        met = {frozenset((a, b)) for rnd in plan for t in rnd for a in t for b in t if a != b}
        assert len(met) == 66
        hist = []
        evening = Evening()
        for r in range(6):
            hist.append(evening.seat(ps, hist, [4, 4, 4], seed=seed * 10 + r, n_rounds=6))
        assert schedule_stats(hist).repeated_pairs == 42


# --- the search's conflicts in dense fields -----------------------------------------------------------


def search_over(n: int, sizes: list[int], rounds: list[list[list[int]]]) -> _Search:
    """A search over ``rounds`` (indices) of ``n`` players without history or odd tables."""
    ctx = _Context(players(n, start=0), [], sizes, sizes[0])
    levels0 = ctx.levels()
    for rnd in rounds:
        ctx.add_round(rnd)
    return _Search(ctx, rounds, levels0, [False] * len(rounds), random.Random(0))


def copy_rounds(rounds: list) -> list:
    return [[list(t) for t in rnd] for rnd in rounds]


def random_rounds(n: int, sizes: list[int], count: int, rng: random.Random) -> list[list[list[int]]]:
    rounds = []
    for _ in range(count):
        order = rng.sample(range(n), n)
        cuts = [sum(sizes[:i]) for i in range(len(sizes) + 1)]
        rounds.append([order[a:b] for a, b in itertools.pairwise(cuts)])
    return rounds


def conflicts(search: _Search) -> set[tuple[int, int]]:
    return {divmod(key, search.n) for key in search.conf_items}


def test_a_dense_plan_at_the_bound_has_no_conflict_and_one_above_it_only_the_pairs_met_too_often():
    # 4 players at two tables of 2 over 5 rounds: 10 meetings over 6 pairs, so the bound makes four
    # pairs meet twice.  A plan with every pair at one or two meetings is optimal: nobody conflicts
    # (with "twice is too often" everybody did, and the search wandered among optimal plans).
    one_factor = [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 3], [1, 2]]]
    at_bound = search_over(4, [2, 2], [*copy_rounds(one_factor), [[0, 1], [2, 3]], [[0, 2], [1, 3]]])
    assert (at_bound.level, at_bound.low, at_bound.threshold) == (2, 0, 3)
    assert conflicts(at_bound) == set()
    # 0-1 and 2-3 meet three times: they conflict in the three rounds they meet, nobody else does
    third = search_over(4, [2, 2], [*copy_rounds(one_factor), [[0, 1], [2, 3]], [[0, 1], [2, 3]]])
    assert conflicts(third) == {(r, p) for r in (0, 3, 4) for p in range(4)}
    # while 0-3 and 1-2 never meet, a pair meeting twice is too often again
    unmet = search_over(4, [2, 2], [[[0, 1], [2, 3]]] * 3 + [[[0, 2], [1, 3]]] * 2)
    assert (unmet.low, unmet.threshold) == (2, 2)
    assert conflicts(unmet) == {(r, p) for r in range(5) for p in range(4)}


@pytest.mark.parametrize(
    ("n", "sizes", "n_rounds", "level"),
    [(14, [4, 4, 3, 3], 9, 2), (8, [4, 4], 6, 3), (40, [4] * 10, 6, 1), (14, [4, 4, 3, 3], 5, 1)],
)
def test_the_top_level_of_the_bound(n, sizes, n_rounds, level):
    # 14 at 2x4+2x3 over 9 rounds: 162 meetings over 91 pairs, 71 pairs meet twice; 8 at 2x4 over 6
    # rounds: 72 meetings over 28 pairs, 16 pairs meet three times; 14 over 5 rounds: 90 < 91 pairs
    rounds = random_rounds(n, sizes, n_rounds, random.Random(n_rounds))
    ctx = _Context(players(n, start=0), [], sizes, 4)
    for rnd in rounds:
        ctx.add_round(rnd)
    assert _top_level(ctx, rounds) == level


@pytest.mark.parametrize(
    ("n", "sizes", "n_rounds", "floor", "most"),
    [
        # 8 at 2x4 over 6 rounds: 72 meetings over 28 pairs, so 16 pairs meet three times
        (8, [4, 4], 6, 28 * 10 + 16 * 12, 3),
        # 14 at 2x4+2x3 over 10 rounds: 180 meetings over 91 pairs, 89 pairs meet twice
        (14, [4, 4, 3, 3], 10, 89 * 10, 2),
        # 13 at 5+4+4 over 6 rounds: 132 meetings, 54 repeats, none of them a third meeting
        (13, [5, 4, 4], 6, 54 * 10, 2),
    ],
)
def test_the_floor_says_whether_counting_forces_a_third_meeting(n, sizes, n_rounds, floor, most):
    ctx = _Context(players(n, start=0), [], sizes, 4)
    assert _floor_fill(ctx, n_rounds) == (floor, most)
    assert _floor(ctx, n_rounds) == floor


def test_a_pair_meeting_three_times_is_found_in_the_rounds_given():
    rounds = [[[0, 1], [2, 3]], [[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 1], [2, 3]]]
    ctx = _Context(players(4, start=0), [], [2, 2], 2)
    for rnd in rounds:
        ctx.add_round(rnd)
    assert _meets_thrice(ctx.M, rounds)  # 0-1 and 2-3 meet three times
    assert not _meets_thrice(ctx.M, rounds[2:3])  # 0-2 and 1-3 met once


@pytest.mark.parametrize(
    ("n", "sizes", "n_rounds", "again"),
    # with 40,000 evaluations the starts end above the floor with pairs meeting three times.  14 at
    # 2x4+2x3 over 10 rounds: counting does not force it, so the best plan is searched again with a
    # quarter of the budget; 10 at 4+3+3 over 8 rounds (96 meetings over 45 pairs: six meet three
    # times): counting forces it, nothing more is searched
    [(14, [4, 4, 3, 3], 10, True), (10, [4, 3, 3], 8, False)],
)
def test_a_third_meeting_counting_does_not_force_gets_a_new_search(monkeypatch, n, sizes, n_rounds, again):
    runs = []
    run = _Search.run

    def spy(self, budget, target=0, sample=0, patience=None):
        cost = run(self, budget, target, sample, patience)
        if len(self.rounds) == n_rounds:
            runs.append((budget, patience, self.snapshot(), cost))
        return cost

    monkeypatch.setattr(_Search, "run", spy)
    base = _Context(players(n, start=0), [], sizes, 4)
    budget = 40_000
    target = _floor(base, n_rounds)
    cost, rounds = _search_rounds(base, n_rounds, [False] * n_rounds, random.Random(3), budget, target)
    starts = [b for b in runs if b[1] == budget // 2 // _STARTS // 2]
    assert 1 <= len(starts) <= _STARTS
    assert len(runs) == len(starts) + 1 + again  # the best start searches on, then the further search
    searched_on = runs[len(starts)][3]
    assert searched_on <= min(c for *_, c in starts)
    if again:
        extra_budget, patience, plan, extra_cost = runs[-1]
        assert extra_budget == patience == budget // _THIRD_MEETING_SHARE
        assert (cost, rounds) == (extra_cost, plan)
        assert cost <= searched_on
    else:
        assert cost == searched_on


def test_the_starts_race_for_half_the_budget_and_the_best_searches_on(monkeypatch):
    # 17 players at 4+4+3+3+3 over 6 rounds: the counting bound (0) is out of reach (the odd-table rule
    # forces repeats), so no search stops at the target and every start runs
    runs, greedy = [], []
    run = _Search.run

    def spy(self, budget, target=0, sample=0, patience=None):
        cost = run(self, budget, target, sample, patience)
        if len(self.rounds) == 6:
            runs.append((self, budget, patience, cost, self.evals))
        else:  # a greedy starting round: its evaluations and one per table count against the budget
            greedy.append(self.evals + len(self.rounds[0]))
        return cost

    monkeypatch.setattr(_Search, "run", spy)
    base = _Context(players(17, start=0), [], [4, 4, 3, 3, 3], 4)
    budget = 1_600_000
    per_start = budget // 2 // _STARTS
    cost, rounds = _search_rounds(base, 6, [False] * 6, random.Random(5), budget, _floor(base, 6))
    starts, (on, *further) = runs[:_STARTS], runs[_STARTS:]
    assert [(b, p) for _s, b, p, *_ in starts] == [(per_start, per_start // 2)] * _STARTS
    assert len({id(s) for s, *_ in starts}) == _STARTS  # independent starts
    assert len(greedy) == 6 * _STARTS
    best = min(starts, key=lambda r: r[3])
    assert on[0] is best[0]  # the best start (the first of those as good) searches on
    # with what the starts' greedy rounds and searches left (the greedy rounds of dense fields are dear)
    assert on[1] == budget - sum(greedy) - sum(evals + 1 for *_, evals in starts) > 0
    assert on[2] == on[1] // 2
    assert on[3] <= best[3]
    assert cost <= on[3] and len(further) <= 1
    assert sorted(p for t in rounds[0] for p in t) == list(range(17))


def test_a_repaired_plan_is_searched_further_for_third_meetings(monkeypatch):
    # a re-plan's repair (its pairs of the old plan anchored) goes through the same further search
    calls = []
    further = plan_module._search_third_meetings

    def spy(**kwargs):
        calls.append(kwargs)
        return further(**kwargs)

    monkeypatch.setattr(plan_module, "_search_third_meetings", spy)
    sizes = [4, 4, 3, 3]
    plan = plan_schedule(players(14), 6, sizes, seed=2, effort=CHEAP)
    calls.clear()
    again = plan_schedule(players(14), 6, sizes, seed=2, history=plan[:2], previous_plan=plan, effort=CHEAP)
    assert len(again) == 4
    repairs = [c for c in calls if c["anchors"] is not None]
    assert len(repairs) == 1
    assert len(repairs[0]["rounds"]) == 4 and repairs[0]["target"] == -(10**18)


def test_the_top_level_counts_rounds_added_before_the_search():
    # a search over the last rounds of a plan whose first rounds were added to the context but are
    # not its history (greedy starting rounds, a design's rounds): 4 players at two tables of 2, three
    # rounds in which everybody met everybody, two more rounds searched: four pairs meet twice
    rounds = [[[0, 1], [2, 3]], [[0, 2], [1, 3]], [[0, 3], [1, 2]], [[0, 1], [2, 3]], [[0, 2], [1, 3]]]
    ctx = _Context(players(4, start=0), [], [2, 2], 2)
    for rnd in rounds:
        ctx.add_round(rnd)
    assert _top_level(ctx, rounds[3:]) == 2
    assert _top_level(ctx, rounds[4:]) == 2


@PROPERTY
@given(st.integers(5, 30), st.integers(1, 8), st.integers(3, 6), st.booleans(), st.integers(0, 2**31))
def test_the_cost_changes_follow_every_swap_and_restore(n, n_rounds, width, groups, seed):
    # the join and leave costs and the group counts a swap's cost change is read from are kept up to
    # date swap by swap and by a restore: the cost change of every swap is the change of the cost
    # counted from scratch, and the kept costs are what a build from scratch gives.  With ``groups``
    # the players have clubs (kept apart in round 1), teams and tables of a previous plan.
    rng = random.Random(seed)
    sizes = [width] * (n // width) + [n % width] * (n % width > 0)
    if len(sizes) < 2:
        sizes = [n - n // 2, n // 2]
    field = [
        SeatingPlayer(i, club=f"c{rng.randrange(4)}" if groups else "", team=f"t{rng.randrange(6)}" * groups)
        for i in range(n)
    ]
    ctx = _Context(field, [], sizes, sizes[0])
    levels0 = ctx.levels()
    rounds = random_rounds(n, sizes, n_rounds, rng)
    for rnd in rounds:
        ctx.add_round(rnd)
    anchors = [[rng.randrange(-1, 3) for _ in range(n)] for _ in rounds] if groups else None
    clubs = [groups and r == 0 for r in range(n_rounds)]
    search = _Search(ctx, rounds, levels0, clubs, rng, anchors, stick=[1 + r for r in range(n_rounds)])
    start = search.snapshot()
    cost = search.cost()
    for step in range(30):
        r = rng.randrange(n_rounds)
        a, b = rng.sample(range(n), 2)
        if search.where[r][a] == search.where[r][b]:
            continue
        change = search.delta(r, a, b)
        search.swap(r, a, b)
        assert search.cost() == cost + change
        cost += change
        if step == 20:
            search._restore(start)
            cost = search.cost()
        join, leave = search.join, search.leave
        counts = [[c.count for _, c in kinds] for kinds in search.groups]
        search._build_gains()
        search._build_groups()
        assert (join, leave) == (search.join, search.leave)
        assert counts == [[c.count for _, c in kinds] for kinds in search.groups]


@PROPERTY
@given(st.integers(6, 16), st.integers(4, 10), st.integers(0, 2**31))
def test_the_conflicts_follow_every_swap_in_a_dense_field(n, n_rounds, seed):
    # the pairs below the level and the threshold are kept up to date swap by swap: after every swap
    # they, and the conflicts, are what a count from scratch gives
    rng = random.Random(seed)
    sizes = [4] * (n // 4) + [n % 4] * (n % 4 > 0)
    search = search_over(n, sizes, random_rounds(n, sizes, n_rounds, rng))
    M = search.ctx.M
    for _ in range(40):
        r = rng.randrange(n_rounds)
        a, b = rng.sample(range(n), 2)
        if search.where[r][a] != search.where[r][b]:
            search.swap(r, a, b)
        low = sum(M[x][y] <= search.level - 2 for x in range(n) for y in range(x + 1, n))
        assert search.low == (low if search.level >= 2 else 0)
        threshold = 2 if search.level < 2 else search.level + (low == 0)
        assert search.threshold == threshold
        expected = {
            (r2, p)
            for r2, rnd in enumerate(search.rounds)
            for t in rnd
            for p in t
            if any(q != p and M[p][q] >= threshold for q in t)
        }
        assert conflicts(search) == expected


# --- properties over formats: planned sizes, seeds, the odd-table rule ------------------------------


@st.composite
def formats(draw):
    """A field, a table format (preferred size 3..6, filled with smaller or larger tables) and a short
    tournament in which players withdraw and arrive."""
    preferred = draw(st.integers(3, 6))
    fill = draw(st.sampled_from(["smaller", "larger"]))
    lo, hi = max(2, preferred - 1), preferred + 1
    n = draw(st.integers(2 * preferred, 30))
    rounds = draw(st.integers(1, 4))
    change = st.tuples(st.integers(0, 2), st.integers(0, 2))  # players leaving, arriving
    changes = draw(st.lists(change, min_size=rounds, max_size=rounds))
    seed = draw(st.integers(0, 2**31))
    return preferred, fill, lo, hi, n, changes, seed


def play(preferred, fill, lo, hi, n, changes, seed, by_plan=False, told_rounds=False):
    """Seat the rounds one by one; before each round (but the first) some players leave and arrive.
    ``told_rounds``: each call knows the tournament's rounds, as the app's calls do (the rounds then
    follow one plan, after a change one of the rounds since)."""
    active = players(n)
    nxt = n + 1
    history = []
    evening = Evening()
    seen = []  # (active ids, sizes) per round
    for r, (leave, arrive) in enumerate(changes):
        if r:
            active = active[leave:] + [SeatingPlayer(i) for i in range(nxt, nxt + arrive)]
            nxt += arrive
        try:
            sizes = table_plan(len(active), preferred=preferred, min_size=lo, max_size=hi, fill=fill)
        except SeatingError:
            break
        if by_plan:
            rnd = plan_schedule(
                active, r + 1, sizes, seed=seed + r, history=history, preferred=preferred, effort=CHEAP
            )[0]
        elif told_rounds:
            rnd = evening.seat(active, history, sizes, seed=seed + r, preferred=preferred, effort=CHEAP,
                               n_rounds=len(changes))  # fmt: skip
        else:
            rnd = seat_round(active, history, sizes, seed=seed + r, preferred=preferred, effort=CHEAP)
        history.append(rnd)
        seen.append(([p.id for p in active], sizes))
    return history, seen


def assert_odd_table_rule(history, preferred):
    """Before every round, every player at an odd table was due at least as much as every player at a
    table of the preferred size: odd tables so far minus the fair share for the rounds played."""
    odd: Counter = Counter()
    played: Counter = Counter()
    for rnd in history:
        ids = [p for t in rnd for p in t]
        k = sum(len(t) for t in rnd if len(t) != preferred)
        n = len(ids)
        if 0 < k < n:
            level = {p: odd[p] * n - k * played[p] for p in ids}
            at_odd = [level[p] for t in rnd if len(t) != preferred for p in t]
            at_preferred = [level[p] for t in rnd if len(t) == preferred for p in t]
            assert max(at_odd) <= min(at_preferred)
        for t in rnd:
            for p in t:
                played[p] += 1
                odd[p] += len(t) != preferred


# Found by hypothesis: two of seven players withdraw after round 1, so their tables of three and four
# shrink to two and three; by today's sizes the odd table of four looked preferred and the table of
# three odd, and the next round gave the odd seats to the wrong players.
@example(f=(3, "larger", 2, 4, 7, [(0, 0), (2, 0), (0, 0), (1, 0)], 208), told_rounds=False)
@PROPERTY
@given(formats(), st.booleans())
def test_every_seating_is_a_partition_into_the_planned_sizes_and_keeps_the_odd_table_rule(f, told_rounds):
    history, seen = play(*f, told_rounds=told_rounds)
    for rnd, (ids, sizes) in zip(history, seen, strict=True):
        assert_valid_round(rnd, ids, sizes)
    assert_odd_table_rule(history, f[0])
    full = [p for p in seen[0][0] if all(p in ids for ids, _ in seen)] if seen else []
    if full and len({tuple(s) for _, s in seen}) == 1:  # the same field all along: spread at most 1
        odd = Counter(p for rnd in history for t in rnd if len(t) != f[0] for p in t)
        assert max(odd[p] for p in full) - min(odd[p] for p in full) <= 1


@PROPERTY
@given(st.integers(3, 6), st.sampled_from(["smaller", "larger"]), st.integers(6, 40), st.integers(2, 8),
       st.integers(0, 2**31))  # fmt: skip
def test_an_evening_that_follows_the_canonical_plan_keeps_the_sizes_and_the_odd_table_rule(
    preferred, fill, n, n_rounds, seed
):
    # the app's path: every call knows the rounds, nobody leaves or arrives, so from round 2 on the
    # rounds come from the canonical plan (renamed onto the field), not from a search
    sizes = table_plan(n, preferred=preferred, min_size=2, max_size=preferred + 1, fill=fill)
    ps = players(n)
    history: list = []
    evening = Evening()
    for r in range(n_rounds):
        history.append(evening.seat(ps, history, sizes, seed=seed + r, preferred=preferred, n_rounds=n_rounds,
                                    effort=CHEAP))  # fmt: skip
        assert_valid_round(history[-1], [p.id for p in ps], sizes)
    assert_odd_table_rule(history, preferred)
    assert schedule_stats(history, preferred).small_table_spread <= 1


@SLOW
@given(formats())
def test_plans_are_partitions_into_the_planned_sizes_and_keep_the_odd_table_rule(f):
    preferred, fill, lo, hi, n, changes, seed = f
    sizes = table_plan(n, preferred=preferred, min_size=lo, max_size=hi, fill=fill)
    plan = plan_schedule(players(n), len(changes), sizes, seed=seed, preferred=preferred, effort=CHEAP)
    for rnd in plan:
        assert_valid_round(rnd, list(range(1, n + 1)), sizes)
    assert_odd_table_rule(plan, preferred)
    assert schedule_stats(plan, preferred).small_table_spread <= 1
    history, _seen = play(*f, by_plan=True)
    assert_odd_table_rule(history, preferred)


@SLOW
@given(formats())
def test_the_same_seed_gives_the_same_seating_in_every_format(f):
    assert play(*f) == play(*f)
    assert play(*f, told_rounds=True) == play(*f, told_rounds=True)
    preferred, fill, lo, hi, n, _changes, seed = f
    sizes = table_plan(n, preferred=preferred, min_size=lo, max_size=hi, fill=fill)
    ps = players(n)
    assert plan_schedule(ps, 3, sizes, seed=seed, preferred=preferred, effort=CHEAP) == plan_schedule(
        list(reversed(ps)), 3, sizes, seed=seed, preferred=preferred, effort=CHEAP
    )


# --- teams: team-mates never at one table while a seating keeps them apart ----------------------------


# Fields with odd tables make keeping teams apart a search: judged at a third of the app's budget, which
# every seed tried manages (the app, at the full budget, has room to spare).
TEAM_EFFORT = 0.3


@st.composite
def team_fields(draw):
    """A field of full tables with teams of 2 to 6 players, none larger than the number of tables (so
    every round has a seating that keeps all of them apart), the rest without a team; 2 to 6 rounds.
    (With odd tables the odd-table rule decides who may sit where, and whether every team can sit apart
    depends on the rounds before: those fields are tested below, at TEAM_EFFORT.)"""
    preferred = draw(st.integers(3, 6))
    sizes = [preferred] * draw(st.integers(2, 30 // preferred))
    n = sum(sizes)
    team_sizes = draw(st.lists(st.integers(2, min(6, len(sizes))), min_size=1, max_size=6))
    while sum(team_sizes) > n:
        team_sizes.pop()
    team = [f"team {t}" for t, size in enumerate(team_sizes) for _ in range(size)]
    order = draw(st.permutations(range(n)))  # team-mates need not have neighbouring ids
    ps = [SeatingPlayer(order[i] + 1, club=f"club {i % 3}", team=team[i] if i < len(team) else "")
          for i in range(n)]
    return ps, sizes, preferred, draw(st.integers(2, 6)), draw(st.integers(0, 2**31))


def team_pairs(schedule, ps):
    team = {p.id: p.team for p in ps if p.team}
    return [(a, b) for rnd in schedule for t in rnd for i, a in enumerate(t) for b in t[i + 1:]
            if a in team and team[a] == team.get(b)]


@PROPERTY
@given(team_fields())
def test_team_mates_never_sit_at_one_table_in_either_mode(f):
    ps, sizes, preferred, rounds, seed = f
    history = []
    evening = Evening()
    for r in range(rounds):
        history.append(evening.seat(ps, history, sizes, seed=seed + r, preferred=preferred, n_rounds=rounds,
                                    effort=CHEAP))
    plan = plan_schedule(ps, rounds, sizes, seed=seed, preferred=preferred, effort=CHEAP)
    for schedule in (history, plan):
        for rnd in schedule:
            assert_valid_round(rnd, [p.id for p in ps], sizes)
        assert team_pairs(schedule, ps) == []


def test_teams_filling_every_table_keep_apart():
    """Five teams of four at five tables of four: every table must hold one player of each team, in
    every round; the rest of the search still avoids repeats (16 opponents for 18 seats: at least 2
    repeats a player, so at least 20 in all)."""
    ps = [SeatingPlayer(i + 1, team=f"T{i % 5}") for i in range(20)]
    sizes = table_plan(20)
    history = []
    evening = Evening()
    for r in range(6):
        history.append(evening.seat(ps, history, sizes, seed=11 + r, n_rounds=6, effort=TEAM_EFFORT))
    plan = plan_schedule(ps, 6, sizes, seed=11, effort=TEAM_EFFORT)
    for schedule in (history, plan):
        assert team_pairs(schedule, ps) == []
        assert 20 <= schedule_stats(schedule).repeated_pairs <= 30


@pytest.mark.parametrize(("n", "team_sizes", "preferred", "rounds"), [
    (14, [4, 3, 3, 2], 4, 6),  # tables of 4, 4, 3, 3: the team of four has two players at odd tables always
    (22, [4, 5, 2, 5], 5, 2),  # found by hypothesis: round 1's odd seats decide whether round 2 can
])
def test_teams_keep_apart_with_odd_tables(n, team_sizes, preferred, rounds):
    team = [f"team {t}" for t, size in enumerate(team_sizes) for _ in range(size)]
    ps = [SeatingPlayer(i + 1, club=f"club {i % 3}", team=team[i] if i < len(team) else "") for i in range(n)]
    sizes = table_plan(n, preferred=preferred)
    history = []
    evening = Evening()
    for r in range(rounds):
        history.append(evening.seat(ps, history, sizes, seed=3 + r, preferred=preferred, n_rounds=rounds,
                                    effort=TEAM_EFFORT))
    plan = plan_schedule(ps, rounds, sizes, seed=3, preferred=preferred, effort=TEAM_EFFORT)
    for schedule in (history, plan):
        assert team_pairs(schedule, ps) == []
        assert schedule_stats(schedule, preferred).small_table_spread <= 1


def test_a_team_larger_than_the_tables_meets_as_little_as_possible():
    """Four team-mates at three tables: one pair of them must meet in every round, never more."""
    ps = [SeatingPlayer(i + 1, team="T" if i < 4 else "") for i in range(12)]
    history = []
    evening = Evening()
    for r in range(4):
        history.append(evening.seat(ps, history, table_plan(12), seed=5 + r, n_rounds=4, effort=TEAM_EFFORT))
    assert [len(team_pairs([rnd], ps)) for rnd in history] == [1, 1, 1, 1]


# --- re-planning: within 2 repeats of a fresh plan ------------------------------------------------------


@pytest.mark.parametrize(
    ("n", "gone", "new"),
    [(17, [3], []), (23, [4], [50, 51]), (28, [1, 2, 3], []), (30, [], [50, 51, 52]),
     # fields of a design (44 = 4 x 11) before or after the change: the rounds played are not the field
     (44, [1, 2], []), (42, [], [50, 51]), (44, [5], [50])],
)
def test_replanning_stays_within_two_repeats_of_a_fresh_plan(n, gone, new):
    ps = players(n)
    plan = plan_schedule(ps, 6, table_plan(n), seed=3)
    played = plan[:2]
    active = [p for p in ps if p.id not in gone] + [SeatingPlayer(i) for i in new]
    sizes = table_plan(len(active))
    replan = plan_schedule(active, 6, sizes, seed=4, history=played, previous_plan=plan)
    for rnd in replan:
        assert_valid_round(rnd, [p.id for p in active], sizes)
    fresh = plan_schedule(active, 6, sizes, seed=5, history=played)
    with_fresh = schedule_stats([*played, *fresh]).repeated_pairs
    assert schedule_stats([*played, *replan]).repeated_pairs <= with_fresh + 2


# --- the grid of bench/seating.py against the best-known values, on a cheap subset --------------------

BEST_KNOWN = json.loads((ROOT / "bench" / "data" / "seating_best_known.json").read_text())["instances"]
CHEAP_GRID = [
    (12, 6, 4, "smaller"),
    (15, 6, 4, "smaller"),
    (16, 6, 4, "smaller"),
    (19, 6, 4, "smaller"),
    (20, 6, 4, "smaller"),
    (23, 6, 4, "smaller"),
    (26, 6, 4, "smaller"),
    (41, 6, 4, "smaller"),
    (64, 6, 4, "smaller"),
    (24, 3, 4, "smaller"),
    (40, 4, 4, "smaller"),
    (24, 9, 4, "smaller"),
    (14, 9, 4, "smaller"),  # every pair must meet, 71 of them twice: none three times
    (14, 10, 4, "smaller"),  # no slack at two meetings: the exact search (engine/seating/exact.py)
    (40, 6, 3, "larger"),
    (70, 6, 5, "smaller"),
    (100, 6, 6, "smaller"),
    (45, 6, 4, "larger"),
]


@pytest.mark.parametrize(("n", "rounds", "preferred", "fill"), CHEAP_GRID)
def test_grid_targets_against_best_known(n, rounds, preferred, fill):
    """As bench/seating.py runs them: round by round within 1 of best-known, the whole plan equal to it,
    no third meeting where best-known has none, the odd-table spread at most 1."""
    known = BEST_KNOWN[f"{n}-{rounds}-{preferred}-{fill}"]
    lo, hi = max(2, preferred - 1), preferred + 1
    sizes = table_plan(n, preferred=preferred, min_size=lo, max_size=hi, fill=fill)
    ps = [SeatingPlayer(i + 1, club=f"club{i % 7}") for i in range(n)]
    hist = []
    evening = Evening()
    for r in range(rounds):
        hist.append(evening.seat(ps, hist, sizes, seed=1 + r, preferred=preferred, n_rounds=rounds))
    plan = plan_schedule(ps, rounds, sizes, seed=1, preferred=preferred)
    for sched in (hist, plan):
        stats = schedule_stats(sched, preferred)
        assert stats.small_table_spread <= 1
        if known["best_max_meetings"] <= 2:
            assert stats.max_meetings <= 2
    assert schedule_stats(hist, preferred).repeated_pairs <= known["best"] + 1
    assert schedule_stats(plan, preferred).repeated_pairs <= known["best"]
    assert known["bound"] <= known["best"]


@pytest.mark.parametrize("seed", range(3))
def test_a_searched_plan_of_84_players_is_matched_after_two_and_three_rounds(seed):
    # two rounds of a plan without repeats look alike everywhere (every table meets six others in one
    # player each): a search that only narrowed the players' points ran out of nodes on round 3 of 84
    # players, and the round-by-round mode fell back to a search after a fixed history (36 repeats
    # over 10 rounds instead of 13); colour refinement tells the players apart
    plan = plan_schedule(players(84), 3, [6] * 14, seed=seed, effort=CHEAP)
    rng = random.Random(seed)
    label = list(range(1, 85))
    rng.shuffle(label)
    design = [[[p - 1 for p in t] for t in rnd] for rnd in plan]
    for h in (2, 3):
        history = [[[label[x] - 1 for x in t] for t in rnd] for rnd in design[:h]]
        assign = _match_prefix(history, 84, design, random.Random(seed), node_limit=2000)
        assert assign is not None and sorted(assign) == list(range(84))
        for rnd, drnd in zip(history, design, strict=False):
            assert {frozenset(assign[p] for p in t) for t in rnd} == {frozenset(t) for t in drnd}


def _partitions(rounds) -> list:
    return [_partition(rnd) for rnd in rounds]


@pytest.mark.parametrize("n", [58, 84, 120, 160])
def test_round_by_round_follows_one_plan_in_fields_up_to_200(n):
    # from round 2 on, every round comes from the canonical plan, made at round 2 and renamed onto the
    # players by round 1: the rounds played are its beginning
    sizes = table_plan(n, preferred=6, min_size=5, max_size=7)
    ps = players(n)
    hist: list = []
    evening = Evening()
    for r in range(5):
        hist.append(evening.seat(ps, hist, sizes, seed=r + 1, preferred=6, n_rounds=9, effort=CHEAP))
        if r == 1:
            made = evening.plan
    plan = evening.plan
    assert plan is made and plan.kind == PlanKind.FOLLOWED and (plan.from_round, plan.last_round) == (1, 9)
    assert plan.seed == 2 and plan.players == tuple(p.id for p in ps) and plan.sizes == tuple(sizes)
    assert _partitions(plan.rounds[:5]) == _partitions(hist)


def _forbid_searching_after_the_history(monkeypatch):
    """A round searched after the history (not taken from a plan) fails the test."""

    def no_search(*args, **kwargs):
        raise AssertionError("searched the round after the history")

    monkeypatch.setattr(plan_module, "_soft_history", no_search)


def _forbid_planning(monkeypatch):
    """A plan made again (not read from the stored one) fails the test."""

    def no_plan(*args, **kwargs):
        raise AssertionError("made the plan again")

    monkeypatch.setattr(plan_module, "_followed_plan", no_plan)


def test_later_rounds_follow_the_stored_plan_and_neither_search_nor_plan(monkeypatch):
    # from round 3 on, the stored plan (renamed at round 2) gives the round: the rounds since are only
    # checked, nothing is searched or planned again, in whatever process the call runs
    sizes = table_plan(160, preferred=6, min_size=5, max_size=7)
    ps = players(160)
    evening = Evening()
    hist: list = [evening.seat(ps, [], sizes, seed=1, preferred=6, n_rounds=8, effort=CHEAP)]
    _forbid_searching_after_the_history(monkeypatch)
    hist.append(evening.seat(ps, hist, sizes, seed=2, preferred=6, n_rounds=8, effort=CHEAP))
    plan = evening.plan
    _forbid_planning(monkeypatch)
    for r in range(2, 8):
        hist.append(evening.seat(ps, hist, sizes, seed=r + 1, preferred=6, n_rounds=8, effort=CHEAP))
    assert evening.plan is plan and _partitions(plan.rounds) == _partitions(hist)
    assert schedule_stats(hist, 6).repeated_pairs == 0
    # a redraw of round 3 with another seed gives the same tables
    again, kept = seat_following(ps, hist[:2], sizes, seed=99, plan=plan, preferred=6, n_rounds=8,
                                 effort=CHEAP)  # fmt: skip
    assert kept is plan and _partition(again) == _partition(hist[2])


def test_a_redraw_of_round_two_draws_another_renaming_of_the_plan():
    # round 2's seed picks one of 8 renamings: a redraw mostly gives other tables, and the rounds after
    # it follow the new plan
    sizes = table_plan(40, preferred=6, min_size=5, max_size=7)
    ps = players(40)
    first = [Evening().seat(ps, [], sizes, seed=1, preferred=6, n_rounds=8, effort=CHEAP)]
    plan = None
    seconds, plans = [], []
    for x in range(8):  # the app redraws the drafted round 2 with the plan stored by the last draw
        second, plan = seat_following(ps, first, sizes, seed=x, plan=plan, preferred=6, n_rounds=8,
                                      effort=CHEAP)  # fmt: skip
        seconds.append(second)
        plans.append(plan)
        assert plan.seed == x and _partition(plan.rounds[1]) == _partition(second)
    assert len({_partition(second) for second in seconds}) >= 4
    for second, plan in zip(seconds, plans, strict=True):
        third, kept = seat_following(ps, [*first, second], sizes, seed=5, plan=plan, preferred=6, n_rounds=8,
                                     effort=CHEAP)  # fmt: skip
        assert kept is plan and _partition(third) == _partition(plan.rounds[2])


def test_with_teams_round_by_round_follows_one_plan_from_round_2(monkeypatch):
    # the canonical plan knows nothing of teams: with them, the rounds after round 1 come from one plan
    # of them, made with the teams after round 1 (no seed: the rounds before it give one)
    ps = [SeatingPlayer(i + 1, team=f"t{i // 3}") for i in range(36)]
    sizes = table_plan(36)
    evening = Evening()
    hist = [evening.seat(ps, [], sizes, seed=1, n_rounds=8, effort=CHEAP)]
    hist.append(evening.seat(ps, hist, sizes, seed=2, n_rounds=8, effort=CHEAP))
    assert evening.plan.from_round == 2
    # the same field with other ids in the same order (a tournament rebuilt) is seated the same
    moved = [SeatingPlayer(p.id + 100, team=p.team) for p in ps]
    again: list = []
    rebuilt = Evening()
    for r in range(3):
        again.append(rebuilt.seat(moved, again, sizes, seed=r + 1, n_rounds=8, effort=CHEAP))
    _forbid_searching_after_the_history(monkeypatch)
    _forbid_planning(monkeypatch)
    for r in range(2, 8):
        hist.append(evening.seat(ps, hist, sizes, seed=r + 1, n_rounds=8, effort=CHEAP))
    team = {p.id: p.team for p in ps}
    assert not [(a, b) for rnd in hist for t in rnd for a in t for b in t if a < b and team[a] == team[b]]
    assert schedule_stats(hist).repeated_pairs <= 2
    assert again == [[[p + 100 for p in t] for t in rnd] for rnd in hist[:3]]


def test_round_by_round_leaves_the_plan_after_a_manual_swap():
    sizes = table_plan(37)  # (no design for 37 players)
    ps = players(37)
    evening = Evening()
    hist = [evening.seat(ps, [], sizes, seed=1, n_rounds=6, effort=CHEAP)]
    hist.append(evening.seat(ps, hist, sizes, seed=2, n_rounds=6, effort=CHEAP))

    def next_from_plan(history):
        return plan_module._follow(_Context(ps, history, sizes, None), evening.plan)

    assert next_from_plan(hist) is not None
    swapped = [list(t) for t in hist[1]]
    swapped[0][0], swapped[1][0] = swapped[1][0], swapped[0][0]  # the organizer swaps two players
    assert next_from_plan([hist[0], swapped]) is None
    # the stored plan is kept (it is the plan these rounds make), and the round is searched
    third, kept = seat_following(ps, [hist[0], swapped], sizes, seed=3, plan=evening.plan, n_rounds=6,
                                 effort=CHEAP)  # fmt: skip
    assert kept is evening.plan
    assert_valid_round(third, [p.id for p in ps], sizes)


def _seat_rounds(active, hist, sizes, first, last, **kwargs):
    """Rounds ``first`` .. ``last - 1`` after ``hist``, as an app that has no plan stored yet."""
    hist = list(hist)
    evening = Evening()
    for r in range(first, last):
        hist.append(evening.seat(active, hist, sizes, seed=r + 1, effort=CHEAP, **kwargs))
    return hist


@pytest.mark.parametrize(("n", "gone", "arrived", "preferred"), [(40, 1, 0, 4), (33, 2, 1, 4), (84, 1, 0, 6)])
def test_after_a_change_of_the_field_round_by_round_follows_one_plan(n, gone, arrived, preferred):
    # the rounds after the change come from one plan of them, made from the rounds until the change
    # (before, each was fitted into a fixed history: 84 players at tables of 6 with one gone after
    # round 3 had 36 repeats over 10 rounds, 17 with a fresh plan, 18 now)
    def sizes_for(count):
        return table_plan(count, preferred=preferred, min_size=preferred - 1, max_size=preferred + 1)

    ps = players(n)
    before = _seat_rounds(ps, [], sizes_for(n), 0, 3, n_rounds=8, preferred=preferred)
    active = [*ps[gone:], *players(arrived, start=500)]
    sizes = sizes_for(len(active))
    hist = _seat_rounds(active, before, sizes, 3, 8, n_rounds=8, preferred=preferred)
    for rnd in hist[3:]:
        assert_valid_round(rnd, [p.id for p in active], sizes)
    base = tuple(tuple(tuple(t) for t in rnd) for rnd in before)
    plan = _plan_after(tuple(active), base, tuple(sizes), 8, preferred, CHEAP)
    ids = sorted(p.id for p in active)
    planned = [{frozenset(ids[x] for x in t) for t in rnd} for rnd in plan]
    assert [{frozenset(t) for t in rnd} for rnd in hist[3:]] == planned


def test_after_a_change_and_a_manual_swap_round_by_round_searches_again():
    ps = players(30)
    before = _seat_rounds(ps, [], table_plan(30), 0, 2, n_rounds=6)
    active = ps[1:]
    sizes = table_plan(29)
    hist = _seat_rounds(active, before, sizes, 2, 3, n_rounds=6)
    swapped = [list(t) for t in hist[2]]
    swapped[0][0], swapped[1][0] = swapped[1][0], swapped[0][0]  # the organizer swaps two players
    rest = _seat_rounds(active, [*before, swapped], sizes, 3, 6, n_rounds=6)
    for rnd in rest[3:]:
        assert_valid_round(rnd, [p.id for p in active], sizes)
    assert schedule_stats(rest).max_meetings <= 2
