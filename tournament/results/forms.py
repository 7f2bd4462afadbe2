"""The one form for a table's result, whoever types it: the captain on a phone or the organizer at the desk.

Per seat it carries what was typed, as typed: the cards (notation), or the points with an optional
card count; for the table, who went out (or that the clock stopped the round), the page's idempotency
key and the confirmation of warnings. The form checks only the shape (lengths, a choice that is at this
table); every rule about the report itself is the engine's (`engine.validation`), and the engine's
issues are put next to the rows they name here, once, for both pages.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django import forms
from django.utils.translation import get_language, gettext, ngettext
from django.utils.translation import gettext_lazy as _

from engine.notation import localise_hand
from engine.roles import table_roles
from engine.validation import Issue, SeatReport, Validation
from tournament.fields import NumberField, RecordChoiceField, TextField
from tournament.models import Seat, Submission, SubmissionEntry

OUTCOME_FIELD = "outcome"
STOPPED_BY_TIME = "time"  # the outcome when the round clock stopped the round and nobody went out
KEY_FIELD = "idempotency_key"
CONFIRM_FIELD = "confirm_warnings"
MAX_CARDS_LENGTH = 1000  # a whole deck in the long notation fits; anything longer is not a hand
MAX_NUMBER_LENGTH = 12
_KEY_CHARS = re.compile(r"[^A-Za-z0-9_-]")


def new_idempotency_key() -> str:
    return secrets.token_hex(16)


def clean_idempotency_key(raw: str | None) -> str:
    """The page's key, limited to what the database column holds; a fresh one if missing."""
    key = _KEY_CHARS.sub("", raw or "")[:64]
    return key or new_idempotency_key()


def field_name(kind: str, registration_id: int) -> str:
    return f"{kind}-{registration_id}"


def issue_text(issue: Issue) -> str:
    """The engine's message in the reader's language (the engine keeps English templates; a card it
    names is written with the language's colour letters)."""
    params = dict(issue.params)
    if isinstance(params.get("card"), str):
        params["card"] = localise_hand(params["card"], get_language())
    if issue.count is not None:
        return ngettext(issue.message, issue.plural, issue.count) % params
    return gettext(issue.message) % params


@dataclass
class ResultRow:
    """One seat as both pages show it: typed values, roles, and the messages that belong next to it."""

    seat: Seat
    cards: forms.BoundField
    points: forms.BoundField
    count: forms.BoundField
    went_out: bool
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
    def outcome_value(self) -> str:
        return str(self.seat.registration_id)

    @property
    def points_only(self) -> bool:
        """Points or a count were typed: the page opens that part of the row."""
        return bool(self.points.value() or self.count.value())


@dataclass
class TableIssues:
    """Messages that name no single player (who went out, the table's card total, the form's own)."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


class OutcomeInput(forms.HiddenInput):
    """Every value of `outcome` (radios on the phone, checkboxes at the desk), comma-separated."""

    def value_from_datadict(self, data, files, name):
        values = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
        return ",".join(str(v) for v in values if v not in (None, ""))


class ResultForm(forms.Form):
    """A table's report; `report()` gives the keyword arguments of `results.services.result_submit`."""

    idempotency_key = TextField(required=False, max_length=64, widget=forms.HiddenInput)
    # A seated player's registration id, or STOPPED_BY_TIME. Anything else means nobody went out,
    # which the engine refuses with its own message. The desk marks "raus" with one checkbox per row
    # (each reachable with Tab), so several values arrive comma-separated and the engine names two
    # winners as such.
    outcome = TextField(required=False, max_length=200, widget=OutcomeInput)
    confirm_warnings = forms.BooleanField(required=False)

    def __init__(self, data=None, *, seats: Sequence[Seat], initial: dict[str, Any] | None = None) -> None:
        super().__init__(data, initial=initial)
        self.seats = list(seats)
        for seat in self.seats:
            reg_id = seat.registration_id
            self.fields[field_name("cards", reg_id)] = TextField(
                required=False, max_length=MAX_CARDS_LENGTH, strip=False, label=_("Cards left in hand")
            )
            for kind, label in (("points", _("Points")), ("count", _("Number of cards"))):
                self.fields[field_name(kind, reg_id)] = TextField(
                    required=False, max_length=MAX_NUMBER_LENGTH, label=label
                )
        if not self.is_bound:
            self.initial.setdefault(KEY_FIELD, new_idempotency_key())

    @classmethod
    def for_correction(
        cls, *, seats: Sequence[Seat], submission: Submission | None,
        entries: Sequence[SubmissionEntry] | None = None,
    ) -> ResultForm:
        """A correction starts from a stored version: cards where they were given, else the points.

        Pass the version's `entries` when they are already loaded."""
        initial: dict[str, Any] = {}
        if submission is not None:
            for entry in submission.entries.all() if entries is None else entries:
                reg_id = entry.registration_id
                if entry.went_out:
                    initial[OUTCOME_FIELD] = str(reg_id)
                elif entry.cards:
                    initial[field_name("cards", reg_id)] = localise_hand(entry.cards, get_language())
                else:
                    initial[field_name("points", reg_id)] = str(entry.hand_points)
                    if entry.card_count is not None:
                        initial[field_name("count", reg_id)] = str(entry.card_count)
            if submission.stopped_by_time:
                initial[OUTCOME_FIELD] = STOPPED_BY_TIME
        return cls(seats=seats, initial=initial)

    def clean_idempotency_key(self) -> str:
        return clean_idempotency_key(self.cleaned_data.get(KEY_FIELD))

    @property
    def key(self) -> str:
        """The key the page sends with its next attempt (the same one after a refusal)."""
        if self.is_bound:
            return clean_idempotency_key(self.data.get(KEY_FIELD))
        return self.initial[KEY_FIELD]

    stopped_by_time = STOPPED_BY_TIME  # the outcome's value for "stopped by the time limit", for pages

    @property
    def outcome_value(self) -> str:
        return str(self[OUTCOME_FIELD].value() or "")

    @property
    def outcome_values(self) -> set[str]:
        return {value.strip() for value in self.outcome_value.split(",") if value.strip()}

    def report(self) -> dict[str, Any]:
        """The cleaned report, for `result_submit(**form.report(), ...)`."""
        data = self.cleaned_data
        outcome = {value.strip() for value in (data.get(OUTCOME_FIELD) or "").split(",")}
        return {
            "seats": [
                SeatReport(
                    player_id=seat.registration_id,
                    cards=data.get(field_name("cards", seat.registration_id)) or None,
                    points=data.get(field_name("points", seat.registration_id)) or None,
                    card_count=data.get(field_name("count", seat.registration_id)) or None,
                    went_out=str(seat.registration_id) in outcome,
                )
                for seat in self.seats
            ],
            "stopped_by_time": STOPPED_BY_TIME in outcome,
            "confirm_warnings": bool(data.get(CONFIRM_FIELD)),
            "idempotency_key": data[KEY_FIELD],
        }

    def rows(self, validation: Validation | None = None) -> tuple[list[ResultRow], TableIssues]:
        """Every seat with its messages: the form's own first, then the engine's; the rest on top."""
        roles = table_roles({seat.registration_id: seat.registration.player.born for seat in self.seats})
        outcome = self.outcome_values
        errors = self.errors if self.is_bound else {}
        rows = {}
        for seat in self.seats:
            reg_id = seat.registration_id
            rows[reg_id] = ResultRow(
                seat=seat,
                cards=self[field_name("cards", reg_id)],
                points=self[field_name("points", reg_id)],
                count=self[field_name("count", reg_id)],
                went_out=str(reg_id) in outcome,
                deals=reg_id == roles.dealer,
                starts=reg_id == roles.starter,
                errors=[text for kind in ("cards", "points", "count")
                        for text in errors.get(field_name(kind, reg_id), [])],
            )
        table_issues = TableIssues(
            errors=[text for name in ("__all__", OUTCOME_FIELD, KEY_FIELD, CONFIRM_FIELD)
                    for text in errors.get(name, [])]
        )
        if validation is not None:
            for issues, severity in ((validation.errors, "errors"), (validation.warnings, "warnings")):
                for issue in issues:
                    target = rows.get(issue.player_id) if issue.player_id is not None else None
                    getattr(target or table_issues, severity).append(issue_text(issue))
        return list(rows.values()), table_issues


class PlayerCheckForm(forms.Form):
    """A second player's "Stimmt" / "Stimmt nicht" on the captain's phone (`result_player_check`)."""

    version = NumberField(min_value=1, max_value=10_000, widget=forms.HiddenInput)
    start_number = NumberField(label=_("Your start number"), min_value=1, max_value=100_000)
    # "1": the result is right; "0": it is not (then with a reason).
    agrees = forms.TypedChoiceField(choices=[("1", "1"), ("0", "0")], coerce=lambda v: v == "1")
    reason = TextField(label=_("What is wrong?"), required=False, max_length=300)


class TableActionForm(forms.Form):
    """The organizer's two actions on one table's page: confirm a version (of this table only) or give
    the table a new captain link."""

    action = forms.ChoiceField(choices=[("confirm", _("confirm")), ("regenerate", _("new link"))])
    submission = RecordChoiceField(queryset=Submission.objects.none(), required=False)

    def __init__(self, *args: Any, table, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["submission"].queryset = Submission.objects.filter(table=table)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "confirm" and not data.get("submission") and not self.errors:
            raise forms.ValidationError(_("Choose the version to confirm."), code="no_version")
        return data
