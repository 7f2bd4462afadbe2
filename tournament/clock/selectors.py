"""Reading the round clock: a countdown kept in the database, so it survives a server restart.

State lives on the round (`clock_started_at`, `clock_seconds`, `clock_paused_remaining`):
- no clock: `clock_started_at` is empty;
- running: started, `clock_seconds` counted from `clock_started_at`, `clock_paused_remaining` empty;
- paused: `clock_paused_remaining` holds what was left (resuming restarts the count from now).

Pages get the remaining seconds from the server and count down locally (static/js/clock.js) without
polling every second. Whether the time is up is decided here, never by the browser.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Round, engine_choices

MAX_CLOCK_MINUTES = 600


class ClockStatus(StrEnum):
    NONE = "none"
    RUNNING = "running"
    PAUSED = "paused"
    EXPIRED = "expired"


# The clock's states in words (the audit log shows them), one label per member or start-up fails.
CLOCK_STATUS_LABELS = engine_choices(ClockStatus, {
    ClockStatus.NONE: _("no clock"),
    ClockStatus.RUNNING: _("running"),
    ClockStatus.PAUSED: _("paused"),
    ClockStatus.EXPIRED: _("time is up"),
})


@dataclass(frozen=True)
class ClockState:
    """What a page needs to show the clock: status, seconds left (None without a clock) and the length."""

    status: ClockStatus
    remaining: int | None = None
    total: int | None = None

    @property
    def display(self) -> str:
        """The time left as M:SS (H:MM:SS from an hour), as the page shows it before any script runs."""
        return format_seconds(self.remaining or 0)

    @property
    def shown(self) -> bool:
        return self.status is not ClockStatus.NONE

    @property
    def running(self) -> bool:
        return self.status is ClockStatus.RUNNING

    @property
    def paused(self) -> bool:
        return self.status is ClockStatus.PAUSED

    @property
    def expired(self) -> bool:
        return self.status is ClockStatus.EXPIRED


def format_seconds(seconds: int) -> str:
    hours, rest = divmod(max(0, seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def clock_remaining(round_: Round, now: datetime | None = None) -> int | None:
    """Whole seconds left (rounded up, never below 0), or None when no clock was started."""
    if round_.clock_started_at is None or round_.clock_seconds is None:
        return None
    if round_.clock_paused_remaining is not None:
        return round_.clock_paused_remaining
    elapsed = ((now or timezone.now()) - round_.clock_started_at).total_seconds()
    return max(0, math.ceil(round_.clock_seconds - elapsed))


def clock_expired(round_: Round, now: datetime | None = None) -> bool:
    """True once a started clock has run down to zero."""
    return clock_remaining(round_, now) == 0


def clock_state(round_: Round | None, now: datetime | None = None) -> ClockState:
    remaining = clock_remaining(round_, now) if round_ is not None else None
    if remaining is None:
        return ClockState(ClockStatus.NONE)
    if remaining == 0:
        status = ClockStatus.EXPIRED
    elif round_.clock_paused_remaining is not None:
        status = ClockStatus.PAUSED
    else:
        status = ClockStatus.RUNNING
    return ClockState(status, remaining, round_.clock_seconds)


def may_report_stopped_by_time(round_: Round, now: datetime | None = None) -> bool:
    """A table may report the round as stopped by the time limit (docs/rules.md §2): only when the
    tournament plays with a time limit and this round's clock has run out."""
    return bool(round_.tournament.time_limit_minutes) and clock_expired(round_, now)
