"""The app's seating against a simple tabu search given a fixed time, on fields the grid does not have.

Run as ``python bench/seating_baseline.py`` (40 fields of ``bench/seating.py --outside``, drawn from
seed 77, about a minute on two cores), with ``--count N --seed S --seconds T``, or with ``--issue``
(the seven fields issue #18 names).  This is the yardstick
of issue #18 ("against a simple tabu search given 1.5 s per instance"): a whole plan, a start whose
odd-table roles follow the rule (ties at random), then swaps of two players of one round between
tables of one kind, the best of those of up to 20 players at a table with a repeat (not tabu unless it
beats the best so far; tenure 4 to 7), until the time is up.  It minimises repeated pairs, the figure
both columns show.  Its time is wall-clock, so its figures vary a little from run to run; the app's
are deterministic.

``--spread-only`` lets the baseline move players between odd and normal tables too, as long as every
player ends with as many odd tables as any other, give or take one.  That breaks the rule of
docs/rules.md §4 ("nobody gets one twice before everybody has had one": after round 2 some players
have had two odd tables and others none) and reports fewer repeats in fields where most seats are odd
(17 players at tables of 4, 4, 3, 3, 3 over 6 rounds: about 5 instead of 10 to 12).  The app keeps
the rule, so its figures are compared with the baseline that keeps it too.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from seating import by_round, outside, sizes_for, whole_plan

from engine.seating import schedule_stats

# the fields issue #18 names (6 rounds unless said): 17, 18 and 21 players at tables of 4 (3 to fill),
# 21 and 25 filled with larger tables, 28 over 7 and over 8 rounds
ISSUE_FIELDS = [(17, 6, 4, "smaller"), (18, 6, 4, "smaller"), (21, 6, 4, "smaller"), (21, 6, 4, "larger"),
                (25, 6, 4, "larger"), (28, 7, 4, "smaller"), (28, 8, 4, "smaller")]  # fmt: skip
_SAMPLE = 20  # conflicting players looked at per move
_TENURE = 4  # tabu tenure, plus a random part below as large


def baseline(n: int, rounds: int, preferred: int, fill: str, *, seconds: float, seed: int,
             spread_only: bool = False) -> list[list[list[int]]]:  # fmt: skip
    """A whole plan of ``rounds`` rounds for players ``0 .. n-1``, searched for ``seconds``."""
    rng = random.Random(seed)
    sizes = sizes_for(n, preferred, fill)
    odd_table = [s != preferred for s in sizes]
    plan: list[list[list[int]]] = []
    odd_count = [0] * n
    k = sum(s for s, odd in zip(sizes, odd_table, strict=True) if odd)  # odd seats a round
    for _ in range(rounds):
        order = sorted(range(n), key=lambda p: (odd_count[p], rng.random()))
        pools = {True: order[:k], False: order[k:]}
        for pool in pools.values():
            rng.shuffle(pool)
        plan.append([[pools[odd].pop() for _ in range(s)] for s, odd in zip(sizes, odd_table, strict=True)])
        for p in order[:k]:
            odd_count[p] += 1
    met = [[0] * n for _ in range(n)]
    where = [[0] * n for _ in plan]
    for r, rnd in enumerate(plan):
        for ti, table in enumerate(rnd):
            for p in table:
                where[r][p] = ti
                for q in table:
                    met[p][q] += p != q
    repeats = best = sum(max(0, met[p][q] - 1) for p in range(n) for q in range(p + 1, n))
    best_plan = [[list(t) for t in rnd] for rnd in plan]
    tabu: dict[tuple[int, int, int], int] = {}
    it = 0
    end = time.perf_counter() + seconds
    while best and time.perf_counter() < end:
        it += 1
        conflicts = [(r, p) for r, rnd in enumerate(plan) for t in rnd for p in t
                     if any(met[p][q] > 1 for q in t if q != p)]  # fmt: skip
        moves: list[tuple[int, int, int]] = []
        best_delta = 0
        for r, a in rng.sample(conflicts, min(len(conflicts), _SAMPLE)):
            ta = where[r][a]
            for tb, other in enumerate(plan[r]):
                cross = odd_table[ta] != odd_table[tb]
                if tb == ta or (cross and not spread_only):
                    continue
                for b in other:
                    if cross and not _spread_kept(odd_count, a, b, odd_table[ta]):
                        continue
                    delta = sum((met[b][x] >= 1) - (met[a][x] >= 2) for x in plan[r][ta] if x != a)
                    delta += sum((met[a][y] >= 1) - (met[b][y] >= 2) for y in other if y != b)
                    if tabu.get((r, a, tb), 0) > it and repeats + delta >= best:
                        continue
                    if not moves or delta < best_delta:
                        moves, best_delta = [(r, a, b)], delta
                    elif delta == best_delta:
                        moves.append((r, a, b))
        if not moves:
            continue
        r, a, b = rng.choice(moves)
        ta, tb = where[r][a], where[r][b]
        table_a, table_b = plan[r][ta], plan[r][tb]
        for x, y, table in ((a, b, table_a), (b, a, table_b)):
            for z in table:
                if z != x:
                    met[x][z] -= 1
                    met[z][x] -= 1
                    met[y][z] += 1
                    met[z][y] += 1
        if odd_table[ta] != odd_table[tb]:
            odd_count[a] += -1 if odd_table[ta] else 1
            odd_count[b] += 1 if odd_table[ta] else -1
        table_a[table_a.index(a)], table_b[table_b.index(b)] = b, a
        where[r][a], where[r][b] = tb, ta
        for p, t in ((a, ta), (b, tb)):
            tabu[(r, p, t)] = it + _TENURE + rng.randrange(_TENURE)
        repeats += best_delta
        if repeats < best:
            best, best_plan = repeats, [[list(t) for t in rnd] for rnd in plan]
    return best_plan


def _spread_kept(odd_count: list[int], a: int, b: int, a_at_odd: bool) -> bool:
    """After ``a`` and ``b`` trade an odd and a normal table, is everybody's count of odd tables still
    within one of everybody else's?"""
    counts = list(odd_count)
    counts[a] += -1 if a_at_odd else 1
    counts[b] += 1 if a_at_odd else -1
    return max(counts) - min(counts) <= 1


Field = tuple[int, int, int, str]


def _compare(job: tuple[Field, float, bool]) -> tuple[Field, int, int, int]:
    """(field, repeats of the baseline, of the app round by round, of the app's whole plan)."""
    inst, seconds, spread_only = job
    base = baseline(*inst, seconds=seconds, seed=1, spread_only=spread_only)
    return (
        inst,
        schedule_stats(base, inst[2]).repeated_pairs,
        schedule_stats(by_round(*inst)[0], inst[2]).repeated_pairs,
        schedule_stats(whole_plan(*inst)[0], inst[2]).repeated_pairs,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--seed", type=int, default=77)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--spread-only", action="store_true")
    parser.add_argument("--issue", action="store_true", help="the fields issue #18 names instead")
    args = parser.parse_args()
    fields = ISSUE_FIELDS if args.issue else outside(args.count, args.seed)
    jobs = [(inst, args.seconds, args.spread_only) for inst in fields]
    print(f"{'players':>7} {'rnds':>4} {'pref':>4} {'fill':>7} | {'baseline':>8} {'by-round':>8} {'plan':>4}")
    worse = [0, 0]
    totals = [0, 0, 0]
    with Pool(2) as pool:
        for (n, rounds, preferred, fill), base, rbr, plan in pool.imap(_compare, jobs):
            worse[0] += rbr > base
            worse[1] += plan > base
            for i, value in enumerate((base, rbr, plan)):
                totals[i] += value
            mark = "  more than the baseline" if rbr > base or plan > base else ""
            row = f"{n:>7} {rounds:>4} {preferred:>4} {fill:>7} | {base:>8} {rbr:>8} {plan:>4}"
            print(row + mark, flush=True)
    print(
        f"\n{len(jobs)} fields, repeats added up: baseline {totals[0]}, by round {totals[1]}, "
        f"plan {totals[2]}; more repeats than the baseline: by round in {worse[0]}, whole plan in {worse[1]}"
    )


if __name__ == "__main__":
    main()
