"""The exact search for plans that counting leaves no freedom (engine/seating/exact.py)."""

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
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.seating import SeatingPlayer, plan_schedule, schedule_stats
from engine.seating import plan as plan_module
from engine.seating.exact import (
    _involution,
    _mirrored_start,
    _renamed,
    _role_pattern,
    _rule_holds,
    _splits,
    _splits_count,
    _TableSearch,
    tight_cap,
    tight_plan,
)
from engine.seating.state import _special_sizes
from tests.engine.seating_helpers import Evening

ROOT = Path(__file__).resolve().parents[2]


def meetings(rounds) -> Counter:
    met: Counter = Counter()
    for rnd in rounds:
        for table in rnd:
            for a, b in itertools.combinations(sorted(table), 2):
                met[(a, b)] += 1
    return met


def odd_seats(rounds, special: frozenset[int]) -> list[int]:
    """Each round's players at odd tables, as a bit mask."""
    return [sum(1 << p for t in rnd if len(t) in special for p in t) for rnd in rounds]


def odd_tables_follow_the_rule(n: int, pattern: list[int]) -> bool:
    """Counted player by player: in every round the players at odd tables (bit mask) have had no
    more odd tables than anybody at a normal table."""
    odd = [0] * n
    for seats in pattern:
        at_odd = [p for p in range(n) if seats >> p & 1]
        if any(odd[p] > odd[q] for p in at_odd for q in range(n) if not seats >> q & 1):
            return False
        for p in at_odd:
            odd[p] += 1
    return True


@pytest.mark.parametrize(
    ("n", "sizes", "preferred", "m", "cap"),
    [
        # whoever has four tables of 3 meets 2 x 4 + 3 x 6 = 26 = 2 x 13 players
        (14, [4, 4, 3, 3], 4, 10, 2),
        (14, [3, 3, 4, 4], 3, 10, 2),  # the same tables, the fours are the odd ones
        # six or seven tables of 3 out of ten: 2 x 6 + 3 x 4 = 24 = 2 x 12
        (13, [4, 3, 3, 3], 4, 10, 2),
        (14, [4, 4, 3, 3], 4, 8, None),  # 2 x 3 + 3 x 5 = 21 < 26: slack
        (14, [4, 4, 3, 3], 4, 9, None),  # an odd number of rounds: the roles are mirrored
        (16, [4, 4, 4, 4], 4, 10, None),  # 2,627,625 ways to seat a round: too many
        (9, [4, 5], 4, 8, None),  # at most 4 x 4 + 4 x 3 = 29 meetings, 4 x 8 = 32 possible
        (9, [3, 3, 3], 3, 8, 2),  # no odd tables: 16 = 2 x 8 meetings
        (9, [3, 3, 3], 3, 4, 1),  # the affine plane of order 3: everybody meets everybody once
    ],
)
def test_tight_cap(n, sizes, preferred, m, cap):
    assert tight_cap(n, sizes, _special_sizes(sizes, preferred), m) == cap


@given(st.integers(4, 9), st.data())
@settings(max_examples=40, deadline=None)
def test_splits_are_every_partition_once(at_most, data):
    size = data.draw(st.integers(1, 3))
    tables = max(1, at_most // size)
    players = sorted(data.draw(st.sets(st.integers(0, 30), min_size=size * tables, max_size=size * tables)))
    splits = list(_splits(players, [size] * tables))
    assert len(splits) == _splits_count(len(players), [size] * tables)
    keys = set()
    for tables_ in splits:
        assert sorted(p for t in tables_ for p in t) == players
        assert all(len(t) == size and t == sorted(t) for t in tables_)
        keys.add(frozenset(frozenset(t) for t in tables_))
    assert len(keys) == len(splits)


def test_the_involution_swaps_pairs_and_keeps_the_last_players():
    assert _renamed(0b1, _involution(14)) == 0b10
    assert _renamed(0b1100_0000_0000_00, _involution(14)) == 0b1100_0000_0000_00  # 12, 13 kept
    assert _renamed(1 << 12, _involution(13)) == 1 << 12
    for n in (9, 13, 14):
        sigma = _involution(n)
        for seats in range(1 << min(n, 10)):
            assert _renamed(_renamed(seats, sigma), sigma) == seats
            assert _renamed(seats, sigma).bit_count() == seats.bit_count()


@given(st.integers(3, 12), st.integers(1, 8), st.data())
@settings(max_examples=200, deadline=None)
def test_the_fast_rule_check_agrees_with_counting(n, m, data):
    k = data.draw(st.integers(1, n - 1))
    rng = random.Random(data.draw(st.integers(0, 10**6)))
    noise = data.draw(st.floats(0, 1))
    odd = [0] * n
    pattern = []
    for _ in range(m):
        # mostly the lowest counts first (so that the rule often holds), sometimes anyone
        def key(p: int) -> float:
            return odd[p] + rng.random() * (3 if rng.random() < noise else 1)

        order = sorted(range(n), key=key)
        seats = order[:k]
        for p in seats:
            odd[p] += 1
        pattern.append(sum(1 << p for p in seats))
    assert _rule_holds(n, pattern) == odd_tables_follow_the_rule(n, pattern)


@pytest.mark.parametrize("seed", range(3))
def test_role_patterns_are_mirrored_and_keep_the_rule(seed):
    pattern = _role_pattern(14, 10, 6, random.Random(seed))
    assert pattern is not None and len(pattern) == 10
    assert all(len(seats) == 6 for seats in pattern)
    sigma = _involution(14)
    for first, second in zip(pattern[:5], pattern[5:], strict=True):
        assert _renamed(sum(1 << p for p in first), sigma) == sum(1 << p for p in second)
    masks = [sum(1 << p for p in seats) for seats in pattern]
    assert odd_tables_follow_the_rule(14, masks)
    assert Counter(sum(p in seats for seats in pattern) for p in range(14)) == {4: 10, 5: 4}


def test_the_table_search_refutes_impossible_roles_at_once():
    # 9 players at three tables of 3 meet 2 others a round: 10 over 5 rounds, but only 8 others to
    # meet once each
    search = _TableSearch(9, [set()] * 5, [], [3, 3, 3], 1, random.Random(1))
    assert search.run(1_000, {}) is None
    assert search.work == 0  # refuted before any split was looked at


def test_the_table_search_finds_the_affine_plane_of_order_3():
    # 9 players at tables of 3 over 4 rounds, nobody twice: the resolvable design AG(2, 3)
    search = _TableSearch(9, [set()] * 4, [], [3, 3, 3], 1, random.Random(1))
    rounds = search.run(100_000, {})
    assert rounds is not None
    assert len(rounds) == 4 and all(sorted(p for t in rnd for p in t) == list(range(9)) for rnd in rounds)
    assert max(meetings(rounds).values()) == 1 and len(meetings(rounds)) == 36


@pytest.mark.parametrize(("sizes", "preferred", "seed"), [([4, 4, 3, 3], 4, 1), ([3, 3, 4, 4], 3, 2)])
def test_tight_plan_14_players_10_rounds_nobody_meets_three_times(sizes, preferred, seed):
    special = _special_sizes(sizes, preferred)
    rounds = tight_plan(14, sizes, special, 10, 2, random.Random(seed))
    assert rounds is not None
    for rnd in rounds:
        assert [len(t) for t in rnd] == sizes
        assert sorted(p for t in rnd for p in t) == list(range(14))
    met = meetings(rounds)
    # 180 meetings: every pair meets, all but two pairs twice (the counting bound, 89 repeats)
    assert max(met.values()) == 2 and len(met) == 91
    assert sum(v - 1 for v in met.values()) == 89
    assert odd_tables_follow_the_rule(14, odd_seats(rounds, special))
    assert tight_plan(14, sizes, special, 10, 2, random.Random(seed)) == rounds  # the same seed


@pytest.mark.parametrize(("n", "k"), [(14, 6), (14, 8), (13, 9), (15, 3), (12, 5)])
@pytest.mark.parametrize("seed", range(5))
def test_a_mirrored_start_keeps_the_rule_in_both_halves(n, k, seed):
    # 14 at 3+3 odd: 2 players end the first half with one more odd table; at 4+4 odd, 12 do (2 with
    # one fewer); 13 at 3+3+3: 6 and 7 (one kept player); 15 at one table of 3; 12 at 5
    start = _mirrored_start(n, 5, k, _involution(n), random.Random(seed))
    assert start is not None and all(seats.bit_count() == k for seats in start)
    assert odd_tables_follow_the_rule(n, start + [_renamed(s, _involution(n)) for s in start])


_SUBPROCESS = """
import json, random, sys
sys.path.insert(0, {root!r})
from engine.seating.exact import tight_plan
print(json.dumps(tight_plan(14, [4, 4, 3, 3], frozenset({{3}}), 10, 2, random.Random(5))))
"""


def test_the_exact_search_does_not_depend_on_the_hash_seed():
    # (sets of players decide nothing: they are sorted or only asked for membership)
    outputs = []
    for hashseed in ("0", "4321"):
        env = {**os.environ, "PYTHONHASHSEED": hashseed}
        code = _SUBPROCESS.format(root=str(ROOT))
        cmd = [sys.executable, "-c", code]
        res = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
        outputs.append(json.loads(res.stdout))
    assert outputs[0] is not None and outputs[0] == outputs[1]


def test_plans_of_14_players_over_10_rounds_have_no_third_meeting():
    """Both modes of the app, as bench/seating.py runs them (they need the exact search)."""
    ps = [SeatingPlayer(i + 1, club=f"club{i % 7}") for i in range(14)]
    sizes = [4, 4, 3, 3]
    plan = plan_schedule(ps, 10, sizes, seed=7, preferred=4)
    history: list = []
    evening = Evening()
    for r in range(10):
        history.append(evening.seat(ps, history, sizes, seed=1 + r, preferred=4, n_rounds=10))
    for schedule in (plan, history):
        stats = schedule_stats(schedule, 4)
        assert stats.max_meetings == 2
        assert stats.repeated_pairs == 89
        assert stats.small_table_spread == 1


def test_the_exact_search_runs_only_where_the_searched_plan_meets_too_often(monkeypatch):
    calls = []
    real = plan_module.tight_plan

    def spy(*args, **kwargs):
        calls.append(args[:4])
        return real(*args, **kwargs)

    monkeypatch.setattr(plan_module, "tight_plan", spy)
    ps = [SeatingPlayer(i + 1) for i in range(14)]
    plan_schedule(ps, 8, [4, 4, 3, 3], seed=1, preferred=4, effort=0.1)  # not tight
    plan_schedule(ps, 10, [4, 4, 3, 3], seed=1, preferred=4, effort=0.1)
    assert calls == [(14, [4, 4, 3, 3], frozenset({3}), 10)]
