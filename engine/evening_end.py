"""When does the evening end? An estimate from what has happened so far (docs/rules.md §9).

Plain data in (each round's timestamps), a time out. The method, in words:

- A round's *play* runs from publishing its seating to the moment its last table reported (each
  table's first report counts). A *turnaround* runs from a round's last report to the next round's
  publishing (confirming, closing, seating, a break). The *closing* runs from the last report of a
  round to its close.
- The typical play is the mean of the complete rounds' plays (a table slow every round is in it);
  the typical turnaround is the median of the turnarounds so far, leaving out breaks (more than 15
  minutes longer than the shortest: a dinner is not expected again), 10 minutes while there is none;
  the typical closing likewise, 5 minutes while there is none. With a time limit, a round's play is
  at most the limit plus 5 minutes (starting the clock, the reports).
- The current round ends at its publishing plus the typical play, at the latest when its running
  clock ends plus 5 minutes, and never before now. Each round still to come adds a turnaround and a
  play (a turnaround under way counts at least as long as it has lasted); the last adds the closing.
- No estimate before every table of round 1 has reported, nor once the last round is closed.

The shown time is rounded to 5 minutes ("gegen 22:40").
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

DEFAULT_TURNAROUND = timedelta(minutes=10)
DEFAULT_CLOSING = timedelta(minutes=5)
CLOCK_ALLOWANCE = timedelta(minutes=5)  # from publishing to the clock's start and from its end to the reports
ROUND_TO = timedelta(minutes=5)
BREAK = timedelta(minutes=15)  # a turnaround this much longer than the shortest is a break


@dataclass(frozen=True)
class RoundTimes:
    """One round's timestamps: `reports` holds each reported table's first report (len <= tables)."""

    number: int
    tables: int
    published_at: datetime | None = None
    reports: tuple[datetime, ...] = field(default_factory=tuple)
    closed_at: datetime | None = None
    clock_started_at: datetime | None = None
    clock_seconds: int | None = None  # the running clock's length from clock_started_at (None: no clock)
    clock_paused: bool = False

    @property
    def complete(self) -> bool:
        """Published and every table has reported."""
        return self.published_at is not None and self.tables > 0 and len(self.reports) >= self.tables

    @property
    def last_report(self) -> datetime | None:
        return max(self.reports) if self.complete else None


def _mean(values: list[timedelta]) -> timedelta:
    return timedelta(seconds=statistics.fmean(v.total_seconds() for v in values))


def _typical(values: list[timedelta], default: timedelta) -> timedelta:
    """The median, leaving out breaks: values more than BREAK longer than the shortest."""
    if not values:
        return default
    usual = [v for v in values if v <= min(values) + BREAK]
    return timedelta(seconds=statistics.median(v.total_seconds() for v in usual))


def round_time(moment: datetime, step: timedelta = ROUND_TO) -> datetime:
    """`moment` to the nearest multiple of `step` (22:37:30 → 22:40, 22:37:29 → 22:35)."""
    seconds = step.total_seconds()
    base = moment.replace(second=0, microsecond=0, minute=0)
    offset = (moment - base).total_seconds()
    return base + timedelta(seconds=int(offset / seconds + 0.5) * seconds)


def estimate_end(
    rounds: Sequence[RoundTimes], *, planned_rounds: int, now: datetime,
    time_limit_minutes: int | None = None,
) -> datetime | None:
    """The expected end (the last round's close), unrounded; None before round 1 has a result at every
    table, once the last planned round is closed, or with no rounds at all."""
    rounds = sorted(rounds, key=lambda r: r.number)
    if not rounds or rounds[0].number != 1 or not rounds[0].complete:
        return None
    last = rounds[-1]
    if last.number >= planned_rounds and last.closed_at is not None:
        return None

    complete = [r for r in rounds if r.complete]
    play = _mean([r.last_report - r.published_at for r in complete])
    if time_limit_minutes:
        play = min(play, timedelta(minutes=time_limit_minutes) + CLOCK_ALLOWANCE)
    by_number = {r.number: r for r in rounds}
    turnarounds = [
        by_number[r.number + 1].published_at - r.last_report
        for r in complete
        if r.number + 1 in by_number and by_number[r.number + 1].published_at is not None
    ]
    turnaround = _typical(turnarounds, DEFAULT_TURNAROUND)
    closing = _typical(
        [r.closed_at - r.last_report for r in complete if r.closed_at is not None], DEFAULT_CLOSING
    )

    # Where the evening stands: the end of the current round's play, or of the last complete one.
    if last.published_at is None:  # a drafted round: its turnaround is under way
        previous = by_number.get(last.number - 1)
        finish = previous.last_report if previous is not None and previous.complete else now
        start = max(now, finish + turnaround)
        finish = start + play
    elif last.complete:
        finish = last.last_report
    else:
        finish = last.published_at + play
        if last.clock_started_at is not None and last.clock_seconds and not last.clock_paused:
            clock_end = last.clock_started_at + timedelta(seconds=last.clock_seconds)
            finish = min(finish, clock_end + CLOCK_ALLOWANCE)
        finish = max(now, finish)
    done = last.number

    if done >= planned_rounds:
        return max(now, finish + closing) if last.complete else finish + closing
    # Rounds still to come: the first one's turnaround may be under way already.
    start = max(now, finish + turnaround) if last.complete else finish + turnaround
    remaining = planned_rounds - done
    end_of_play = start + play + (remaining - 1) * (turnaround + play)
    return end_of_play + closing
