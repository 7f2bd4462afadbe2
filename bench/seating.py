"""Benchmark of the seating optimiser: 6 rounds, tables of 4, filled with tables of 3.

Run as ``python bench/seating.py``.  Columns:

* tables: the table plan, e.g. 5x4+1x3
* bound: counting lower bound on repeated pairs
* random: average repeats of a random draw (20 seeds)
* plan: repeats reached by plan_schedule (seed 1); max: most meetings of any pair; spread: small-table
  spread; time: seconds for the whole 6-round plan
* by-round: repeats when seating round by round (seat_round 6 times, seed 1), with its max meetings,
  spread and total time
"""

from __future__ import annotations

import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.seating import (
    SeatingPlayer,
    lower_bound_repeats,
    plan_schedule,
    schedule_stats,
    seat_round,
    table_plan,
)

SIZES = [12, 16, 20, 23, 24, 32, 37, 48, 64, 100, 200, 400]
ROUNDS = 6


def describe(sizes: list[int]) -> str:
    counts = Counter(sizes)
    return "+".join(f"{counts[s]}x{s}" for s in sorted(counts, reverse=True))


def random_draw(n: int, sizes: list[int], rounds: int, seed: int) -> int:
    rng = random.Random(seed)
    sched = []
    for _ in range(rounds):
        ids = list(range(n))
        rng.shuffle(ids)
        rnd, i = [], 0
        for s in sizes:
            rnd.append(ids[i : i + s])
            i += s
        sched.append(rnd)
    return schedule_stats(sched).repeated_pairs


def main() -> None:
    head = (
        f"{'players':>7} {'tables':>12} {'bound':>5} {'random':>6} | {'plan':>4} {'max':>3} {'spread':>6} "
        f"{'time':>5} | {'by-round':>8} {'max':>3} {'spread':>6} {'time':>5}"
    )
    print(head)
    print("-" * len(head))
    for n in SIZES:
        sizes = table_plan(n)
        players = [SeatingPlayer(i + 1, club=f"club{i % 7}") for i in range(n)]
        rnd_avg = sum(random_draw(n, sizes, ROUNDS, s) for s in range(20)) / 20
        t0 = time.perf_counter()
        plan = plan_schedule(players, ROUNDS, sizes, seed=1)
        t_plan = time.perf_counter() - t0
        st = schedule_stats(plan)
        t0 = time.perf_counter()
        hist: list = []
        for _ in range(ROUNDS):
            hist.append(seat_round(players, hist, sizes, seed=1 + len(hist)))
        t_round = time.perf_counter() - t0
        st2 = schedule_stats(hist)
        print(
            f"{n:>7} {describe(sizes):>12} {lower_bound_repeats(n, sizes, ROUNDS):>5} {rnd_avg:>6.1f} | "
            f"{st.repeated_pairs:>4} {st.max_meetings:>3} {st.small_table_spread:>6} {t_plan:>5.2f} | "
            f"{st2.repeated_pairs:>8} {st2.max_meetings:>3} {st2.small_table_spread:>6} {t_round:>5.2f}"
        )
    n = 400
    sizes = table_plan(n)
    players = [SeatingPlayer(i + 1) for i in range(n)]
    hist = plan_schedule(players, 5, sizes, seed=7)
    t0 = time.perf_counter()
    seat_round(players, hist, sizes, seed=8)
    print(f"\nseat_round, 400 players, 5 rounds of history: {time.perf_counter() - t0:.2f} s")
    hist = [random_round(n, sizes, s) for s in range(5)]
    t0 = time.perf_counter()
    seat_round(players, hist, sizes, seed=8)
    print(f"seat_round, 400 players, 5 random rounds of history: {time.perf_counter() - t0:.2f} s")


def random_round(n: int, sizes: list[int], seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    ids = list(range(1, n + 1))
    rng.shuffle(ids)
    out, i = [], 0
    for s in sizes:
        out.append(ids[i : i + s])
        i += s
    return out


if __name__ == "__main__":
    main()
