"""The table captain's report: reading the form and showing the engine's issues next to each player.

Kept apart from the views so the organizer's table page and the tests use the same rules. Every
rule about the report itself lives in the engine; this module only translates between the form,
the engine's plain data and what the page shows.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext

from engine.roles import table_roles
from engine.validation import Issue, SeatReport, Validation

from .models import Seat, Submission, SubmissionEntry

OUTCOME_FIELD = "outcome"
STOPPED_BY_TIME = "time"
KEY_FIELD = "idempotency_key"
CONFIRM_FIELD = "confirm_warnings"
MAX_FIELD_LENGTH = 1000  # a whole deck in long notation fits; anything longer is not a hand
_KEY_CHARS = re.compile(r"[^A-Za-z0-9_-]")


# --- The form ---------------------------------------------------------------------------------

def field_name(kind: str, registration_id: int) -> str:
    return f"{kind}-{registration_id}"


def new_idempotency_key() -> str:
    return secrets.token_hex(16)


def clean_idempotency_key(raw: str | None) -> str:
    """The page's key, limited to what the database column holds; a fresh one if missing."""
    key = _KEY_CHARS.sub("", raw or "")[:64]
    return key or new_idempotency_key()


@dataclass
class SeatValues:
    """What was typed for one player, exactly as typed (so nothing is ever lost on a re-render)."""

    cards: str = ""
    points: str = ""
    count: str = ""


@dataclass
class ReportForm:
    """A table's report as the page shows it: typed values, the outcome, the page's key."""

    values: dict[int, SeatValues] = field(default_factory=dict)
    outcome: str = ""
    idempotency_key: str = ""
    confirm_warnings: bool = False

    @property
    def stopped_by_time(self) -> bool:
        return self.outcome == STOPPED_BY_TIME

    def seat_reports(self, registration_ids: Iterable[int]) -> list[SeatReport]:
        return [
            SeatReport(
                player_id=reg_id,
                cards=self.values[reg_id].cards,
                points=self.values[reg_id].points,
                card_count=self.values[reg_id].count,
                went_out=self.outcome == str(reg_id),
            )
            for reg_id in registration_ids
        ]


def read_form(data: Mapping[str, str], registration_ids: Sequence[int]) -> ReportForm:
    """Only the seated players' fields are read: a form cannot report for another table."""

    def text(name: str) -> str:
        return str(data.get(name, ""))[:MAX_FIELD_LENGTH]

    return ReportForm(
        values={
            reg_id: SeatValues(
                cards=text(field_name("cards", reg_id)),
                points=text(field_name("points", reg_id)).strip(),
                count=text(field_name("count", reg_id)).strip(),
            )
            for reg_id in registration_ids
        },
        outcome=text(OUTCOME_FIELD),
        idempotency_key=clean_idempotency_key(data.get(KEY_FIELD)),
        confirm_warnings=bool(data.get(CONFIRM_FIELD)),
    )


def form_from_submission(
    submission: Submission | None,
    registration_ids: Sequence[int],
    entries: Sequence[SubmissionEntry] | None = None,
) -> ReportForm:
    """A correction starts from the last report: cards where they were given, else the points.

    Pass the submission's `entries` when they are already loaded."""
    form = ReportForm(
        values={reg_id: SeatValues() for reg_id in registration_ids}, idempotency_key=new_idempotency_key()
    )
    if submission is None:
        return form
    for entry in submission.entries.all() if entries is None else entries:
        if entry.registration_id not in form.values:
            continue
        if entry.went_out:
            form.outcome = str(entry.registration_id)
        elif entry.cards:
            form.values[entry.registration_id] = SeatValues(cards=entry.cards)
        else:
            form.values[entry.registration_id] = SeatValues(
                points=str(entry.hand_points), count="" if entry.card_count is None else str(entry.card_count)
            )
    if submission.stopped_by_time:
        form.outcome = STOPPED_BY_TIME
    return form


# --- What the page shows ---------------------------------------------------------------------

def issue_text(issue: Issue) -> str:
    """The engine's message in the reader's language (the engine keeps English templates)."""
    return gettext(issue.message) % issue.params


@dataclass
class PlayerRow:
    """One seat on the captain's page, with the messages that belong next to it."""

    seat: Seat
    values: SeatValues
    deals: bool = False
    starts: bool = False
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    @property
    def registration_id(self) -> int:
        return self.seat.registration_id

    @property
    def player(self):
        return self.seat.registration.player

    @property
    def went_out_value(self) -> str:
        return str(self.seat.registration_id)

    def field(self, kind: str) -> str:
        return field_name(kind, self.seat.registration_id)


@dataclass
class PageIssues:
    """Issues that name no single player (who went out, the table's card total) go on top."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def player_rows(
    seats: Sequence[Seat], form: ReportForm, validation: Validation | None = None
) -> tuple[list[PlayerRow], PageIssues]:
    roles = table_roles({s.registration_id: s.registration.player.born for s in seats})
    rows = []
    for seat in seats:
        row = PlayerRow(
            seat=seat, values=form.values.get(seat.registration_id, SeatValues()),
            deals=seat.registration_id == roles.dealer, starts=seat.registration_id == roles.starter,
        )
        rows.append(row)
    table_issues = PageIssues()
    if validation is not None:
        by_id = {row.registration_id: row for row in rows}
        for issues, severity in ((validation.errors, "errors"), (validation.warnings, "warnings")):
            for issue in issues:
                row = by_id.get(issue.player_id) if issue.player_id is not None else None
                target = row if row is not None else table_issues
                getattr(target, severity).append(issue_text(issue))
    return rows, table_issues
