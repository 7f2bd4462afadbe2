"""Starting, pausing, resuming and removing the round clock: each a locked write with an audit entry."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.models import Round

from ..audit.actions import AuditAction
from ..audit.services import audit
from .selectors import MAX_CLOCK_MINUTES, ClockStatus, clock_remaining, clock_state


def _snapshot(round_: Round, now: datetime) -> dict[str, Any]:
    state = clock_state(round_, now)
    return {"status": str(state.status), "remaining": state.remaining, "seconds": round_.clock_seconds}


def _locked_round(round_: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)


def _save_and_audit(
    round_: Round, *, user, action: AuditAction, before: dict[str, Any], now: datetime
) -> Round:
    round_.save(update_fields=["clock_started_at", "clock_seconds", "clock_paused_remaining"])
    audit(
        tournament=round_.tournament, user=user, round_=round_, action=action,
        before=before, after=_snapshot(round_, now),
    )
    return round_


@transaction.atomic
def clock_start(*, round_: Round, user, minutes: int | None = None) -> Round:
    """Start (or restart) the countdown: the given minutes, else the tournament's time limit."""
    round_ = _locked_round(round_)
    if not round_.accepts_desk_results:
        raise ValidationError(_("The clock runs only in a published or open round."))
    minutes = minutes or round_.tournament.time_limit_minutes
    if not minutes:
        raise ValidationError(_("This tournament has no time limit: enter the minutes for the clock."))
    if not 1 <= minutes <= MAX_CLOCK_MINUTES:
        raise ValidationError(
            _("The clock takes between 1 and %(max)s minutes.") % {"max": MAX_CLOCK_MINUTES}
        )
    now = timezone.now()
    before = _snapshot(round_, now)
    round_.clock_started_at, round_.clock_seconds, round_.clock_paused_remaining = now, minutes * 60, None
    return _save_and_audit(round_, user=user, action=AuditAction.CLOCK_START, before=before, now=now)


@transaction.atomic
def clock_pause(*, round_: Round, user) -> Round:
    round_ = _locked_round(round_)
    now = timezone.now()
    if clock_state(round_, now).status is not ClockStatus.RUNNING:
        raise ValidationError(_("The clock is not running."))
    before = _snapshot(round_, now)
    round_.clock_paused_remaining = clock_remaining(round_, now)
    return _save_and_audit(round_, user=user, action=AuditAction.CLOCK_PAUSE, before=before, now=now)


@transaction.atomic
def clock_resume(*, round_: Round, user) -> Round:
    round_ = _locked_round(round_)
    now = timezone.now()
    if clock_state(round_, now).status is not ClockStatus.PAUSED:
        raise ValidationError(_("The clock is not paused."))
    before = _snapshot(round_, now)
    round_.clock_started_at, round_.clock_seconds = now, round_.clock_paused_remaining
    round_.clock_paused_remaining = None
    return _save_and_audit(round_, user=user, action=AuditAction.CLOCK_RESUME, before=before, now=now)


@transaction.atomic
def clock_reset(*, round_: Round, user) -> Round:
    """Remove the clock from the round (the pages stop showing it)."""
    round_ = _locked_round(round_)
    now = timezone.now()
    if round_.clock_started_at is None:
        raise ValidationError(_("No clock has been started for this round."))
    before = _snapshot(round_, now)
    round_.clock_started_at = round_.clock_seconds = round_.clock_paused_remaining = None
    return _save_and_audit(round_, user=user, action=AuditAction.CLOCK_RESET, before=before, now=now)
