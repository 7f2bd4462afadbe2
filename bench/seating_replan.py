"""Re-planning after withdrawals and arrivals, against a fresh plan for the same rounds.

Run as ``python bench/seating_replan.py`` (240 random cases, 4 to 8 minutes on one core) or with
``--cases N``.  Each case is a field of 9-120 players with 3-10 rounds, preferred table size 3-6,
filled with smaller or larger tables, planned as a whole (``plan_schedule``); after 1 to rounds-1
rounds, 1-3 players withdraw and 0-3 arrive (or only arrive).  The remaining rounds are re-planned from
the stored plan (``previous_plan``, as the app does) and, for comparison, planned afresh with another
seed.  It prints every case where the re-plan has more repeats (over all rounds) than the fresh plan,
and at the end how many cases are within 1 and within 2 repeats of the fresh plan, the largest excess
and the slowest re-plan.  ``--round-by-round`` also seats the rounds after the change round by round,
as the app does without a plan, and compares them with the same fresh plan (twice as long).
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from seating import sizes_for

from engine.seating import SeatingError, SeatingPlayer, plan_schedule, schedule_stats, seat_following


def cases(count: int, seed: int = 7) -> list[tuple[int, int, int, int, int, int, str]]:
    """(players, rounds, rounds played, withdrawals, arrivals, preferred size, fill)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        rounds = rng.randint(3, 10)
        gone, new = rng.randint(0, 3), rng.randint(0, 3)
        out.append((rng.randint(9, 120), rounds, rng.randint(1, rounds - 1), gone or (0 if new else 1), new,
                    rng.choice([3, 4, 4, 5, 6]), rng.choice(["smaller", "larger"])))  # fmt: skip
    return out


def run(
    case: tuple[int, int, int, int, int, int, str], seed: int, by_round: bool = False
) -> tuple[int, int, float, int | None] | None:
    """(repeats with the re-plan, repeats with a fresh plan, seconds of the re-plan, repeats when the
    rounds after the change are seated round by round, or None without ``by_round``); None when the
    changed field has no table plan in this format."""
    n, rounds, played, gone, new, preferred, fill = case
    rng = random.Random(seed)
    field = [SeatingPlayer(i + 1) for i in range(n)]
    plan = plan_schedule(field, rounds, sizes_for(n, preferred, fill), seed=seed, preferred=preferred)
    history = plan[:played]
    left = set(rng.sample([p.id for p in field], gone))
    active = [p for p in field if p.id not in left] + [SeatingPlayer(1000 + i) for i in range(new)]
    try:
        sizes = sizes_for(len(active), preferred, fill)
    except SeatingError:
        return None
    t0 = time.perf_counter()
    replan = plan_schedule(active, rounds, sizes, seed=seed + 1, history=history, previous_plan=plan,
                           preferred=preferred)  # fmt: skip
    seconds = time.perf_counter() - t0
    fresh = plan_schedule(active, rounds, sizes, seed=seed + 2, history=history, preferred=preferred)
    repeats = [schedule_stats([*history, *rest], preferred).repeated_pairs for rest in (replan, fresh)]
    seated = None
    if by_round:
        rounds_seated = list(history)
        followed = None  # (the rounds before were planned all at once: no plan to follow yet)
        for r in range(played, rounds):
            nxt, followed = seat_following(active, rounds_seated, sizes, seed=seed + 3 + r, plan=followed,
                                           preferred=preferred, n_rounds=rounds)  # fmt: skip
            rounds_seated.append(nxt)
        seated = schedule_stats(rounds_seated, preferred).repeated_pairs
    return repeats[0], repeats[1], seconds, seated


def main() -> None:
    count = int(sys.argv[sys.argv.index("--cases") + 1]) if "--cases" in sys.argv else 240
    by_round = "--round-by-round" in sys.argv
    print(f"{'players':>7} {'rnds':>4} {'played':>6} {'gone':>4} {'new':>3} {'pref':>4} {'fill':>7} | "
          f"{'re-plan':>7} {'fresh':>5} {'time':>5}" + (f" {'by round':>8}" if by_round else ""))  # fmt: skip
    done = within1 = within2 = seated_within2 = 0
    worst, slowest, seated_worst = 0, 0.0, 0
    for i, case in enumerate(cases(count)):
        result = run(case, seed=i + 1, by_round=by_round)
        if result is None:
            continue
        replanned, fresh, seconds, seated = result
        done += 1
        within1 += replanned <= fresh + 1
        within2 += replanned <= fresh + 2
        worst = max(worst, replanned - fresh)
        slowest = max(slowest, seconds)
        if seated is not None:
            seated_within2 += seated <= fresh + 2
            seated_worst = max(seated_worst, seated - fresh)
        if replanned > fresh or (seated is not None and seated > fresh + 2):
            n, rounds, played, gone, new, preferred, fill = case
            print(f"{n:>7} {rounds:>4} {played:>6} {gone:>4} {new:>3} {preferred:>4} {fill:>7} | "
                  f"{replanned:>7} {fresh:>5} {seconds:>5.2f}" + (f" {seated:>8}" if by_round else ""),
                  flush=True)  # fmt: skip
    print(f"\n{done} re-plans: within 1 repeat of a fresh plan {within1} ({100 * within1 / done:.1f} %), "
          f"within 2 {within2} ({100 * within2 / done:.1f} %), most above {worst}; slowest {slowest:.2f} s")
    if by_round:
        print(f"round by round after the change: within 2 repeats of the fresh plan {seated_within2} "
              f"({100 * seated_within2 / done:.1f} %), most above {seated_worst}")


if __name__ == "__main__":
    main()
