"""Benchmark of the seating optimiser over a grid of fields and formats.

Run as ``python bench/seating.py`` (the whole grid, 3 to 4 minutes on one core) or
``python bench/seating.py --quick`` (every 8th instance).  For every instance it seats all rounds round
by round (``seat_following`` once per round with the history, ``n_rounds`` and the plan it follows,
as the app does, seeds 1, 2, ...) and as a whole plan (``plan_schedule``, seed 1), and prints

* the instance: players, rounds, preferred table size, fill and the table plan, e.g. 5x4+1x3;
* bound: the counting lower bound on repeated pairs; best: the best-known value from
  ``bench/data/seating_best_known.json`` (written by ``bench/seating_best_known.py``), ``*`` when it is
  proven optimal (it equals the bound or a known design gives it);
* for each mode: repeats (sum over pairs of meetings beyond the first), the most meetings of any pair,
  the odd-table spread (most minus fewest odd tables per player) and the seconds for all rounds.

It ends with a summary against the best-known values and the timing of the largest fields: one round of
200 players (5 rounds of history) and a whole 6-round plan of 400 players.

``python bench/seating.py --outside 36`` runs fields the grid does not have instead (36 of them, drawn
from a fixed seed: 8-90 players, 5-10 rounds, preferred size 3-6, either fill, at most twice as many
tables as rounds plus 4, so that repeats cannot all be avoided) and prints the same columns without a
best-known value, then the repeats of each mode added up: a check that the search is strong on fields
nobody tuned it for.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.seating import (
    SeatingError,
    SeatingPlayer,
    lower_bound_repeats,
    plan_schedule,
    schedule_stats,
    seat_following,
    seat_round,
    table_plan,
)

BEST_KNOWN = Path(__file__).resolve().parent / "data" / "seating_best_known.json"


def grid() -> list[tuple[int, int, int, str]]:
    """(players, rounds, preferred size, fill) of every instance; tables are preferred-1..preferred+1."""
    out = [(n, 6, 4, "smaller") for n in range(8, 121)]
    for rounds in (3, 4, 5, 7, 8, 9, 10):
        out += [(n, rounds, 4, "smaller") for n in (14, 24, 40)]
    out += [(n, 6, 3, "larger") for n in (9, 13, 17, 25, 40)] + [(20, 8, 3, "larger")]
    out += [(n, 6, 5, "smaller") for n in (15, 23, 31, 47, 70)]
    out += [(n, 6, 6, "smaller") for n in (18, 27, 40, 61, 100)]
    out += [(n, 6, 4, "larger") for n in (13, 17, 21, 25, 29, 31, 37, 45)]
    return out


def outside(count: int, seed: int = 2026) -> list[tuple[int, int, int, str]]:
    """``count`` instances the grid does not have, drawn from ``seed``: fields with a table plan, at
    least 3 tables, and at most twice as many tables as rounds plus 4 (bigger fields seat every round
    without a repeat)."""
    rng = random.Random(seed)
    known = set(grid())
    out: list[tuple[int, int, int, str]] = []
    while len(out) < count:
        inst = (rng.randint(8, 90), rng.randint(5, 10), rng.choice([3, 4, 5, 6]),
                rng.choice(["smaller", "larger"]))  # fmt: skip
        try:
            tables = len(sizes_for(inst[0], inst[2], inst[3]))
        except SeatingError:
            continue
        if inst not in known and 3 <= tables <= 2 * inst[1] + 4:
            out.append(inst)
    return out


def key(n: int, rounds: int, preferred: int, fill: str) -> str:
    return f"{n}-{rounds}-{preferred}-{fill}"


def sizes_for(n: int, preferred: int, fill: str) -> list[int]:
    lo, hi = max(2, preferred - 1), preferred + 1
    return table_plan(n, preferred=preferred, min_size=lo, max_size=hi, fill=fill)


def describe(sizes: list[int]) -> str:
    counts = Counter(sizes)
    return "+".join(f"{counts[s]}x{s}" for s in sorted(counts, reverse=True))


def field(n: int) -> list[SeatingPlayer]:
    return [SeatingPlayer(i + 1, club=f"club{i % 7}") for i in range(n)]


def by_round(n: int, rounds: int, preferred: int, fill: str, seed: int = 1, effort: int = 1):
    """The schedule seated round by round, as the app does (the plan it follows kept between rounds, as
    the app stores it), and the seconds it took."""
    sizes = sizes_for(n, preferred, fill)
    players = field(n)
    t0 = time.perf_counter()
    hist: list = []
    plan = None
    for r in range(rounds):
        rnd, plan = seat_following(
            players, hist, sizes, seed=seed + r, plan=plan, preferred=preferred, n_rounds=rounds,
            effort=effort,
        )
        hist.append(rnd)
    return hist, time.perf_counter() - t0


def whole_plan(n: int, rounds: int, preferred: int, fill: str, seed: int = 1, effort: int = 1):
    sizes = sizes_for(n, preferred, fill)
    t0 = time.perf_counter()
    plan = plan_schedule(field(n), rounds, sizes, seed=seed, preferred=preferred, effort=effort)
    return plan, time.perf_counter() - t0


HEAD = (
    f"{'players':>7} {'rnds':>4} {'pref':>4} {'fill':>7} {'tables':>13} {'bound':>5} {'best':>5} | "
    f"{'by-round':>8} {'max':>3} {'sprd':>4} {'time':>5} | {'plan':>4} {'max':>3} {'sprd':>4} {'time':>5}"
)


def line(inst, best: str, rbr, t_rbr, plan, t_plan) -> str:
    n, rounds, preferred, fill = inst
    sizes = sizes_for(n, preferred, fill)
    a = schedule_stats(rbr, preferred)
    b = schedule_stats(plan, preferred)
    return (
        f"{n:>7} {rounds:>4} {preferred:>4} {fill:>7} {describe(sizes):>13} "
        f"{lower_bound_repeats(n, sizes, rounds):>5} {best:>5} | "
        f"{a.repeated_pairs:>8} {a.max_meetings:>3} {a.small_table_spread:>4} {t_rbr:>5.2f} | "
        f"{b.repeated_pairs:>4} {b.max_meetings:>3} {b.small_table_spread:>4} {t_plan:>5.2f}"
    )


def main() -> None:
    if "--outside" in sys.argv:
        main_outside(int(sys.argv[sys.argv.index("--outside") + 1]))
        return
    quick = "--quick" in sys.argv
    known = json.loads(BEST_KNOWN.read_text())["instances"] if BEST_KNOWN.exists() else {}
    print(HEAD)
    print("-" * len(HEAD))
    insts = grid()[::8] if quick else grid()
    within1 = equal = worse3 = triples = compared = 0
    max_excess_rbr = max_excess_plan = 0
    for inst in insts:
        rbr, t_rbr = by_round(*inst)
        plan, t_plan = whole_plan(*inst)
        k = known.get(key(*inst))
        best = "?"
        if k:
            compared += 1
            best = f"{k['best']}{'*' if k['proven'] else ''}"
            a = schedule_stats(rbr, inst[2])
            b = schedule_stats(plan, inst[2])
            ex_a = a.repeated_pairs - k["best"]
            ex_b = b.repeated_pairs - k["best"]
            within1 += ex_a <= 1
            worse3 += ex_a > 3
            equal += ex_b <= 0
            max_excess_rbr = max(max_excess_rbr, ex_a)
            max_excess_plan = max(max_excess_plan, ex_b)
            if k["best_max_meetings"] <= 2 and max(a.max_meetings, b.max_meetings) >= 3:
                triples += 1
        print(line(inst, best, rbr, t_rbr, plan, t_plan), flush=True)
    if compared:
        print(
            f"\n{compared} instances: round by round within 1 of best-known on {within1} "
            f"({100 * within1 / compared:.1f} %), more than 3 above on {worse3}, "
            f"most above {max_excess_rbr}; "
            f"whole plan equal to best-known on {equal} ({100 * equal / compared:.1f} %), "
            f"most above {max_excess_plan}; a third meeting where best-known has none: {triples}"
        )
    timing()


def main_outside(count: int) -> None:
    print(HEAD)
    print("-" * len(HEAD))
    totals = [0, 0]
    for inst in outside(count):
        rbr, t_rbr = by_round(*inst)
        plan, t_plan = whole_plan(*inst)
        totals[0] += schedule_stats(rbr, inst[2]).repeated_pairs
        totals[1] += schedule_stats(plan, inst[2]).repeated_pairs
        print(line(inst, "-", rbr, t_rbr, plan, t_plan), flush=True)
    print(f"\n{count} fields outside the grid: {totals[0]} repeats round by round, "
          f"{totals[1]} in whole plans")  # fmt: skip


def timing() -> None:
    n = 200
    sizes = table_plan(n)
    players = field(n)
    hist = plan_schedule(players, 5, sizes, seed=7)
    t0 = time.perf_counter()
    seat_round(players, hist, sizes, seed=8, n_rounds=6)
    print(f"seat_round, 200 players, round 6 of 6: {time.perf_counter() - t0:.2f} s")
    t0 = time.perf_counter()
    seat_following(players, hist[:1], sizes, seed=8, plan=None, n_rounds=10)
    print(f"seat_round, 200 players, round 2 of 10 (making the plan): {time.perf_counter() - t0:.2f} s")
    hist, slowest, plan = [], 0.0, None
    for r in range(10):
        t0 = time.perf_counter()
        rnd, plan = seat_following(players, hist, sizes, seed=r + 1, plan=plan, n_rounds=10)
        hist.append(rnd)
        slowest = max(slowest, time.perf_counter() - t0)
    print(f"seat_round, 200 players, 10 rounds one after the other: slowest round {slowest:.2f} s")
    n = 400
    sizes = table_plan(n)
    t0 = time.perf_counter()
    plan_schedule(field(n), 6, sizes, seed=1)
    print(f"plan_schedule, 400 players, 6 rounds: {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
