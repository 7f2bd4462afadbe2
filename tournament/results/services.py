"""Storing and confirming table results: the one path for the captain's phone and the organizer's desk.

A result is a new `Submission` version with one entry per seat, never overwritten. `result_submit` does
each check once: the engine validates the report before any lock (it needs only the seats, fixed once
a round is published, and the wins of earlier rounds), so a wrong report never waits for the lock;
then, under the table's row lock, the repeated report (idempotency key), whether the round accepts
results, and the store with its audit entry and the table's new status. Only the table's row is
locked, so fifty captains at once do not queue on the round's or the tournament's row.

Refusals are `ValidationError`s with a stable `code` (see `RefusalCode`), so pages decide what to say by
code, not by reading the state again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.cards import get_deck
from engine.notation import format_hand
from engine.scoring import ScoringFormat, round_scores
from engine.validation import Issue, ReportContext, SeatReport, TableReport, Validation, validate_table
from tournament import ratelimit
from tournament.models import Round, Seat, Submission, SubmissionEntry, Table, TableConfirmation

from ..audit.actions import AuditAction
from ..audit.services import audit
from ..clock.selectors import may_report_stopped_by_time
from .selectors import entries_signature, table_seats


class RefusalCode(StrEnum):
    ROUND_NOT_OPEN = "round_not_open"  # drafted or published (captains), nothing to report yet
    ROUND_CLOSED = "round_closed"
    RESULT_FINAL = "result_final"  # confirmed: only the organizer changes it now
    NEWER_VERSION = "newer_version"  # a confirmation of a version that is no longer the newest
    SECOND_ENTRY_MISSING = "second_entry_missing"
    # A second player's check at the table (`result_player_check`):
    CHECK_OFF = "check_off"  # the tournament has no confirmation at the table
    NOTHING_TO_CHECK = "nothing_to_check"  # no captain's report is the table's newest version
    ALREADY_CHECKED = "already_checked"  # another player checked this version a moment ago
    UNKNOWN_NUMBER = "unknown_number"  # no player of this tournament has that start number
    CAPTAIN_NUMBER = "captain_number"  # the captain's own number: a second player must confirm
    OTHER_TABLE = "other_table"  # a player of another table
    TOO_MANY_TRIES = "too_many_tries"  # too many wrong numbers at this table: the organizer checks
    DISPUTED = "disputed"  # a player disputed the table: only the organizer resolves it
    REASON_MISSING = "reason_missing"


@dataclass
class SubmitOutcome:
    """What `result_submit` did: the stored version (or the earlier one a repeated report matched)."""

    validation: Validation | None = None
    submission: Submission | None = None
    duplicate: bool = False
    needs_confirmation: bool = False
    # The entries just stored, in seat order (empty for a duplicate): the answer needs no new query.
    entries: list[SubmissionEntry] = field(default_factory=list)
    # The table's versions, newest first, as read under the lock (stored or duplicate only).
    versions: list[Submission] = field(default_factory=list)

    @property
    def stored(self) -> bool:
        return self.submission is not None

    @property
    def errors(self) -> list[Issue]:
        return self.validation.errors if self.validation is not None else []


def _validate(
    table: Table, seats: Sequence[Seat], reports: Sequence[SeatReport], *, stopped_by_time: bool,
    captain: bool,
) -> Validation:
    round_, tournament = table.round, table.round.tournament
    context = ReportContext(
        deck=get_deck(tournament.deck),
        time_limit=bool(tournament.time_limit_minutes),
        wins_so_far={seat.registration_id: seat.wins_before for seat in seats if seat.wins_before},
        rounds_before=round_.number - 1,
        player_names={seat.registration_id: seat.registration.player.name for seat in seats},
    )
    validation = validate_table(
        TableReport(
            seated=[seat.registration_id for seat in seats], seats=list(reports),
            stopped_by_time=stopped_by_time,
        ),
        context,
    )
    clock_running = tournament.time_limit_minutes and not may_report_stopped_by_time(round_)
    if stopped_by_time and captain and clock_running:
        # The server decides, not the phone's clock: only a run-out round clock stops a round.
        # (Without a time limit at all the engine already refuses a stopped round.)
        validation.errors.append(Issue(
            code="clock_running", severity="error", params={}, player_id=None,
            message=gettext_noop("The round clock has not run out: the round cannot be reported as stopped."),
        ))
    return validation


def result_submit(
    *,
    table: Table,
    seats: Sequence[SeatReport],
    source: str,
    user=None,
    token: str = "",
    ip_address: str | None = None,
    idempotency_key: str = "",
    stopped_by_time: bool = False,
    confirm_warnings: bool = False,
    seated: Sequence[Seat] | None = None,
) -> SubmitOutcome:
    """Validate a table's report with the engine and store it as the table's next version.

    Pass the table with its round and tournament (select_related). A caller that has read the seats
    with `selectors.table_seats` passes them as `seated`. Under the lock the table's and the round's
    statuses are read again and written onto `table`, so the caller's answer shows the fresh state.
    A repeated report (same idempotency key) returns the version stored the first time. An organizer's
    entry is confirmed at once unless the tournament requires a second entry.
    """
    captain = source == Submission.Source.CAPTAIN
    seated = table_seats(table) if seated is None else seated
    validation = _validate(table, seated, seats, stopped_by_time=stopped_by_time, captain=captain)
    if not validation.ok or (validation.needs_confirmation and not confirm_warnings):
        # Nothing is stored, so no lock is needed: a wrong report never waits for it. The state as
        # read decides only which refusal the page shows (a closed round rather than the errors).
        _check_accepts(table, table.round, captain=captain)
        return SubmitOutcome(validation=validation, needs_confirmation=validation.ok)
    return _store(
        table=table, seated=seated, validation=validation, source=source, user=user, token=token,
        ip_address=ip_address, idempotency_key=idempotency_key, stopped_by_time=stopped_by_time,
    )


@transaction.atomic
def _store(
    *, table: Table, seated: Sequence[Seat], validation: Validation, source: str, user, token: str,
    ip_address: str | None, idempotency_key: str, stopped_by_time: bool,
) -> SubmitOutcome:
    round_, tournament = table.round, table.round.tournament
    locked = Table.objects.select_for_update(of=("self",)).select_related("round").only(
        "status", "round__status"
    ).get(pk=table.pk)
    table.status, round_.status = locked.status, locked.round.status
    versions = list(table.submissions.order_by("-version"))
    earlier = next((s for s in versions if idempotency_key and s.idempotency_key == idempotency_key), None)
    if earlier is not None:
        # The same report again: a double tap, or the phone sending again after a lost answer.
        return SubmitOutcome(submission=earlier, duplicate=True, versions=versions)
    _check_accepts(table, round_, captain=source == Submission.Source.CAPTAIN)
    scores = round_scores(ScoringFormat(tournament.scoring), validation.points, validation.winner)
    submission = Submission.objects.create(
        table=table, version=versions[0].version + 1 if versions else 1, source=source,
        created_by=user if user is not None and user.is_authenticated else None,
        token=token, ip_address=ip_address, idempotency_key=idempotency_key,
        stopped_by_time=stopped_by_time, warnings_confirmed=bool(validation.warnings),
    )
    entries = SubmissionEntry.objects.bulk_create(
        SubmissionEntry(
            submission=submission,
            registration=seat.registration,
            cards=format_hand(validation.hands[seat.registration_id]) if validation.hands.get(
                seat.registration_id) else "",
            card_count=validation.card_counts.get(seat.registration_id),
            hand_points=validation.points[seat.registration_id],
            score=scores[seat.registration_id],
            went_out=validation.winner == seat.registration_id,
        )
        for seat in seated
    )
    start_numbers = {seat.registration_id: seat.registration.start_number for seat in seated}
    audit(
        tournament=tournament, user=user,
        actor="" if user else _("captain, table %(n)s") % {"n": table.number},
        round_=round_, table=table, action=AuditAction.RESULT_SUBMIT,
        after={
            "version": submission.version, "source": submission.source,
            "stopped_by_time": submission.stopped_by_time, "confirmed": False,
            "entries": [
                {"start_number": start_numbers[e.registration_id], "cards": e.cards,
                 "card_count": e.card_count, "hand_points": e.hand_points, "score": e.score,
                 "went_out": e.went_out}
                for e in sorted(entries, key=lambda e: start_numbers[e.registration_id])
            ],
        },
    )
    status = _status_after_store(table, submission, entries, user=user)
    if table.status == Table.Status.DISPUTED and status == Table.Status.CONFIRMED:
        _audit_resolution(table, submission, user=user)
    if status != table.status:
        table.status = status
        Table.objects.filter(pk=table.pk).update(status=status)
    return SubmitOutcome(
        validation=validation, submission=submission, entries=entries, versions=[submission, *versions]
    )


def _check_accepts(table: Table, round_: Round, *, captain: bool) -> None:
    """Whether this table takes a new version now, decided on the rows read under the lock."""
    if round_.status == Round.Status.CLOSED:
        raise ValidationError(_("This round is closed."), code=RefusalCode.ROUND_CLOSED)
    if not (round_.accepts_captain_results if captain else round_.accepts_desk_results):
        raise ValidationError(_("This round does not accept results."), code=RefusalCode.ROUND_NOT_OPEN)
    if captain and table.status in (Table.Status.CONFIRMED, Table.Status.CORRECTED):
        raise ValidationError(
            _("This result has been confirmed; only the organizer can correct it now."),
            code=RefusalCode.RESULT_FINAL,
        )


def _status_after_store(
    table: Table, submission: Submission, entries: Sequence[SubmissionEntry], *, user
) -> str:
    """The table's status once `submission` is its newest version.

    Without a second entry an organizer's version is confirmed at once. Any other new version of a
    table that has a confirmed one is a correction after the confirmation: the confirmed version keeps
    counting until the organizer confirms again (docs/rules.md §7).
    """
    tournament = table.round.tournament
    if submission.source == Submission.Source.ORGANIZER and not tournament.require_second_entry:
        _confirm(submission, table=table, user=user)
        return Table.Status.CONFIRMED
    if is_organizers(table) and submission.source == Submission.Source.CAPTAIN:
        # A captain's correction of a disputed table is one more thing for the organizer to look at:
        # the dispute ends only by the organizer's confirmation or entry.
        return Table.Status.DISPUTED
    has_confirmed = table.status in (Table.Status.CONFIRMED, Table.Status.CORRECTED)
    if tournament.require_second_entry:
        other = (
            table.submissions.exclude(source=submission.source).exclude(pk=submission.pk)
            .prefetch_related("entries").order_by("-version").first()
        )
        if other is None:
            return Table.Status.CORRECTED if has_confirmed else Table.Status.REPORTED
        if entries_signature(other) == entries_signature(submission, entries):
            _confirm(submission, table=table, user=user)
            return Table.Status.CONFIRMED
        return Table.Status.CORRECTED if has_confirmed else Table.Status.DISPUTED
    return Table.Status.CORRECTED if has_confirmed else Table.Status.REPORTED


def is_organizers(table: Table) -> bool:
    """A disputed table is the organizer's until they resolve it: no captain's correction and no
    player's "Stimmt" takes it out of their hands (the one rule, for every path that writes a table)."""
    return table.status == Table.Status.DISPUTED


def _confirm(submission: Submission, *, table: Table, user) -> None:
    previous = table.submissions.filter(confirmed=True).exclude(pk=submission.pk).first()
    if previous is not None:
        previous.confirmed = False
        previous.save(update_fields=["confirmed"])
    submission.confirmed, submission.confirmed_at = True, timezone.now()
    submission.confirmed_by = user if user is not None and user.is_authenticated else None
    submission.save(update_fields=["confirmed", "confirmed_at", "confirmed_by"])
    audit(
        tournament=table.round.tournament, user=user, round_=table.round, table=table,
        action=AuditAction.RESULT_CONFIRM,
        before={"version": previous.version} if previous else None, after={"version": submission.version},
    )


@transaction.atomic
def result_confirm(*, submission: Submission, user) -> Submission:
    """The organizer's one click: this version is the table's result.

    The confirmation names its version: if a newer one has arrived since the page was shown (a
    captain's correction racing the click), nothing is confirmed and the organizer sees the newer one.
    """
    table = Table.objects.select_for_update(of=("self",)).select_related("round__tournament").get(
        pk=submission.table_id
    )
    submission = table.submissions.prefetch_related("entries").get(pk=submission.pk)
    if table.round.status == Round.Status.CLOSED:
        raise ValidationError(_("The round is closed."), code=RefusalCode.ROUND_CLOSED)
    if table.round.tournament.require_second_entry:
        other = (
            table.submissions.exclude(source=submission.source).prefetch_related("entries")
            .order_by("-version").first()
        )
        if other is None or entries_signature(other) != entries_signature(submission):
            raise ValidationError(
                _("This tournament requires a second, matching entry before confirmation."),
                code=RefusalCode.SECOND_ENTRY_MISSING,
            )
    newest = table.submissions.order_by("-version").values_list("version", flat=True).first()
    if newest != submission.version:
        raise ValidationError(
            _("Version %(newer)s of table %(table)s has arrived since: check it before confirming.")
            % {"newer": newest, "table": table.number},
            code=RefusalCode.NEWER_VERSION,
        )
    if not submission.confirmed:
        _confirm(submission, table=table, user=user)
    if table.status == Table.Status.DISPUTED:
        _audit_resolution(table, submission, user=user)
    if table.status != Table.Status.CONFIRMED:
        table.status = Table.Status.CONFIRMED
        table.save(update_fields=["status"])
    return submission


def _audit_resolution(table: Table, submission: Submission, *, user) -> None:
    """A disputed table gets a confirmed version: the organizer resolved the dispute."""
    audit(
        tournament=table.round.tournament, user=user, round_=table.round, table=table,
        action=AuditAction.DISPUTE_RESOLVE,
        before={"status": Table.Status.DISPUTED}, after={"version": submission.version},
    )


# --- a second player's check at the table ----------------------------------------------------------

CHECK_KEY_PREFIX = "table-check-number:"
MAX_REASON_LENGTH = 300


def wrong_numbers_allowed() -> int:
    from django.conf import settings

    return int(getattr(settings, "TABLE_CHECK_WRONG_NUMBERS_ALLOWED", 5))


def _check_key(table: Table) -> str:
    return f"{CHECK_KEY_PREFIX}{table.pk}"


def check_blocked(table: Table) -> ratelimit.Window | None:
    """The running window when this table's phone typed too many wrong start numbers, else None."""
    window = ratelimit.current(_check_key(table))
    return window if window.count >= wrong_numbers_allowed() else None


def captain_seat(seats: Sequence[Seat]) -> Seat | None:
    """The table's captain: the player in seat 1 (the table sheet asks them to report)."""
    return min(seats, key=lambda seat: seat.position) if seats else None


def result_player_check(
    *,
    table: Table,
    version: int,
    start_number: int | None,
    agrees: bool,
    reason: str = "",
    ip_address: str | None = None,
) -> Submission:
    """A second player of the table checks the captain's report on the captain's phone.

    The player names themselves with their start number (printed on the table sheet beside their
    name): not the captain's (seat 1), not another table's. "Agrees" marks the version checked; with
    the tournament's `TableConfirmation.PLAYER_COUNTS` a version without warnings is then confirmed
    and the table CONFIRMED, no organizer click needed. "Disagrees" marks the table DISPUTED with the
    reason, for the organizer to resolve. `version` is the version the phone showed: a correction in
    between is refused (NEWER_VERSION) and needs its own check. A wrong number is counted per table
    (`ratelimit`); after `wrong_numbers_allowed()` the phone is refused for a while and nothing else
    is checked.
    """
    tournament = table.round.tournament
    if tournament.table_confirmation == TableConfirmation.OFF:
        raise ValidationError(
            _("This tournament has no confirmation at the table."), code=RefusalCode.CHECK_OFF
        )
    reason = (reason or "").strip()[:MAX_REASON_LENGTH]
    if not agrees and not reason:
        raise ValidationError(_("Please say briefly what is wrong."), code=RefusalCode.REASON_MISSING)
    if check_blocked(table) is not None:
        raise ValidationError(
            _("Too many wrong start numbers. Please ask the organizer to check the result."),
            code=RefusalCode.TOO_MANY_TRIES,
        )
    seats = table_seats(table)
    _check_number(table, seats, start_number)
    return _store_check(
        table=table, seats=seats, version=version, start_number=start_number, agrees=agrees, reason=reason,
    )


def _check_number(table: Table, seats: Sequence[Seat], start_number: int | None) -> None:
    """Refuse a number that is not a second player of this table, counting the wrong try."""
    by_number = {seat.registration.start_number: seat for seat in seats}
    seat = by_number.get(start_number) if start_number is not None else None
    if seat is not None and seat != captain_seat(seats):
        return
    ratelimit.hit(_check_key(table), ratelimit.window_seconds())
    if seat is not None:
        raise ValidationError(
            _("That is the captain's start number. Another player of the table must confirm."),
            code=RefusalCode.CAPTAIN_NUMBER,
        )
    elsewhere = start_number is not None and table.round.seats.filter(
        registration__start_number=start_number
    ).exists()
    if elsewhere:
        raise ValidationError(
            _("Start number %(n)s does not play at this table.") % {"n": start_number},
            code=RefusalCode.OTHER_TABLE,
        )
    raise ValidationError(
        _("There is no player with start number %(n)s at this table.") % {"n": start_number or "?"},
        code=RefusalCode.UNKNOWN_NUMBER,
    )


@transaction.atomic
def _store_check(
    *, table: Table, seats: Sequence[Seat], version: int, start_number: int, agrees: bool, reason: str
) -> Submission:
    locked = Table.objects.select_for_update(of=("self",)).get(pk=table.pk)
    # The round's status read after the table's lock: a close waits for that lock (rounds.services).
    round_ = Round.objects.get(pk=table.round_id)
    table.status, table.round.status = locked.status, round_.status
    if round_.status == Round.Status.CLOSED:
        raise ValidationError(_("This round is closed."), code=RefusalCode.ROUND_CLOSED)
    if not round_.accepts_captain_results:
        raise ValidationError(_("This round does not accept results."), code=RefusalCode.ROUND_NOT_OPEN)
    if locked.status in (Table.Status.CONFIRMED, Table.Status.CORRECTED):
        raise ValidationError(
            _("This result has been confirmed; only the organizer can correct it now."),
            code=RefusalCode.RESULT_FINAL,
        )
    if is_organizers(table):
        raise ValidationError(
            _("This result is disputed: the organizer resolves it at the table."), code=RefusalCode.DISPUTED,
        )
    newest = table.submissions.order_by("-version").first()
    if newest is None or newest.source != Submission.Source.CAPTAIN:
        raise ValidationError(
            _("There is no report of the captain to check."), code=RefusalCode.NOTHING_TO_CHECK
        )
    if newest.version != version:
        raise ValidationError(
            _("The captain has corrected the report since: please check the new version."),
            code=RefusalCode.NEWER_VERSION,
        )
    if newest.player_check:
        raise ValidationError(
            _("This version has already been checked by a player of the table."),
            code=RefusalCode.ALREADY_CHECKED,
        )
    player = next(seat.registration for seat in seats if seat.registration.start_number == start_number)
    newest.player_check = "agreed" if agrees else "disputed"
    newest.player_check_by = player
    newest.player_check_at = timezone.now()
    newest.player_check_reason = "" if agrees else reason
    newest.save(update_fields=["player_check", "player_check_by", "player_check_at", "player_check_reason"])
    tournament = table.round.tournament
    snapshot = {"version": newest.version, "start_number": start_number, "name": player.player.name}
    if agrees:
        audit(
            tournament=tournament, round_=round_, table=table, action=AuditAction.RESULT_PLAYER_CONFIRM,
            actor=_("player at table %(n)s") % {"n": table.number}, after=snapshot,
        )
        counts = (
            tournament.table_confirmation == TableConfirmation.PLAYER_COUNTS
            and not newest.warnings_confirmed and not tournament.require_second_entry
        )
        if counts:
            _confirm(newest, table=table, user=None)
            status = Table.Status.CONFIRMED
        else:
            status = locked.status
    else:
        audit(
            tournament=tournament, round_=round_, table=table, action=AuditAction.RESULT_DISPUTE,
            actor=_("player at table %(n)s") % {"n": table.number},
            after={**snapshot, "player_check_reason": reason},
        )
        status = Table.Status.DISPUTED
    if status != locked.status:
        Table.objects.filter(pk=table.pk).update(status=status)
    table.status = status
    return newest
