"""How good is "voraussichtliches Ende gegen …"? Replays the timestamps of made-up but realistic evenings
and prints the estimate's error (the shown, rounded time minus the real end) after each round.

    .venv/bin/python bench/evening_end.py [--seeds 20]

Evenings (6 rounds, 8 tables, 19:00 start; seeded, so every run prints the same figures):
- steady: an evening's pace of 32-48 minutes of play a round (the same players all evening), each
  round within 4 minutes of it, the tables reporting spread over its last 12 minutes, 8-12 minutes
  between a round's last report and the next round's publishing;
- one slow table: as steady, but one table reports 10-16 minutes after the others every round;
- a long break: as steady, with a 40-minute dinner break after round 2;
- a time limit: a round clock of 35 minutes started 1-3 minutes after publishing, the tables
  reporting up to 4 minutes after it ends (rounds without it would take the pace plus 8 minutes).
"After round N" is the moment round N is closed. The target: from round 3 on within 10 minutes.
Printed per kind: the error on the first evening (seed 1), and over all seeds the median error, the
share of evenings within 10 minutes and the largest error. What is left after round 3 is mostly the
three rounds still to come varying by themselves, which no estimate knows beforehand.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.evening_end import RoundTimes, estimate_end, round_time

ROUNDS, TABLES = 6, 8
START = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)
TARGET_MINUTES, TARGET_FROM_ROUND = 10, 3


def evening(kind: str, seed: int) -> tuple[list[RoundTimes], int | None]:
    """The rounds of one evening as they were in the end, and its time limit."""
    rnd = random.Random(f"{kind}-{seed}")
    limit = 35 if kind == "time limit" else None
    rounds, published = [], START
    pace = rnd.uniform(32, 48)  # this evening's pace: the same players all evening
    for number in range(1, ROUNDS + 1):
        clock_start = None
        if limit:
            clock_start = published + timedelta(minutes=rnd.uniform(1, 3))
            last = clock_start + timedelta(minutes=limit + rnd.uniform(1, 4))
            play = min((last - published).total_seconds() / 60, pace + 8 + rnd.uniform(-4, 4))
        else:
            play = pace + rnd.uniform(-4, 4)
        reports = sorted(published + timedelta(minutes=play - rnd.uniform(0, 12)) for _ in range(TABLES - 1))
        reports.append(published + timedelta(minutes=play))
        if kind == "one slow table":
            reports[-1] += timedelta(minutes=rnd.uniform(10, 16))
        last_report = max(reports)
        closed = last_report + timedelta(minutes=rnd.uniform(2, 5))
        rounds.append(RoundTimes(
            number=number, tables=TABLES, published_at=published, reports=tuple(sorted(reports)),
            closed_at=closed, clock_started_at=clock_start, clock_seconds=limit * 60 if limit else None,
        ))
        gap = rnd.uniform(8, 12) + (40 if kind == "a long break" and number == 2 else 0)
        published = last_report + timedelta(minutes=gap)
    return rounds, limit


def errors(kind: str, seed: int) -> list[float]:
    """The estimate's error in minutes at the close of rounds 1 .. ROUNDS - 1."""
    rounds, limit = evening(kind, seed)
    end = rounds[-1].closed_at
    figures = []
    for done in range(1, ROUNDS):
        now = rounds[done - 1].closed_at
        known = rounds[:done]
        estimate = estimate_end(known, planned_rounds=ROUNDS, now=now, time_limit_minutes=limit)
        figures.append((round_time(estimate) - end).total_seconds() / 60)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=200)
    args = parser.parse_args()
    kinds = ["steady", "one slow table", "a long break", "time limit"]
    header = "".join(f"{'after ' + str(n):>9}" for n in range(1, ROUNDS))
    print(f"error of the shown end in minutes (shown - real end), {ROUNDS} rounds, {TABLES} tables,"
          f" {args.seeds} evenings of each kind")
    print(f"{'':<30}{header}")
    summary = []
    for kind in kinds:
        spread = [errors(kind, seed) for seed in range(1, args.seeds + 1)]
        columns = [[s[i] for s in spread] for i in range(ROUNDS - 1)]
        rows = {
            "seed 1": [f"{e:>+9.0f}" for e in spread[0]],
            "median |error|": [f"{statistics.median(abs(e) for e in c):>9.0f}" for c in columns],
            f"within {TARGET_MINUTES} min": [
                f"{sum(abs(e) <= TARGET_MINUTES for e in c) / len(c):>9.0%}" for c in columns
            ],
            "largest |error|": [f"{max(abs(e) for e in c):>9.0f}" for c in columns],
        }
        for n, (label, cells) in enumerate(rows.items()):
            print(f"{kind if n == 0 else '':<15}{label:<15}" + "".join(cells))
        late = [abs(e) for c in columns[TARGET_FROM_ROUND - 1:] for e in c]
        summary.append((kind, max(abs(e) for e in spread[0][TARGET_FROM_ROUND - 1:]),
                        sum(e <= TARGET_MINUTES for e in late) / len(late)))
    print(f"target: from round {TARGET_FROM_ROUND} on within {TARGET_MINUTES} minutes")
    for kind, first, share in summary:
        verdict = "met" if first <= TARGET_MINUTES else "NOT met"
        print(f"  {kind:<15} seed 1: largest error {first:.0f} min ({verdict});"
              f" all {args.seeds} evenings: {share:.0%} of the estimates after rounds"
              f" {TARGET_FROM_ROUND}-{ROUNDS - 1} within {TARGET_MINUTES} min")


if __name__ == "__main__":
    main()
