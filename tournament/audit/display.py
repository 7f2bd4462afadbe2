"""The audit log in words: a recorded snapshot as lines a person reads, in the page's language.

Snapshots hold values as stored: a round's status "open", a result's source "captain", start numbers,
registration ids. Here keys are named by the models' fields (`verbose_name`), choice values by the
fields' `choices` (never retyped), engine keys without a model field (deck, tie-breaks, clock status) by
the labels kept beside them, per-player lines by start number and name, seatings as tables of start
numbers. Pure formatting: the names come in from the page's one read (`selectors.audit_registrations`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils import formats, timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from engine.cards import DECKS
from engine.notation import localise_hand
from engine.series import SEASON_TIEBREAKS
from engine.standings import TIEBREAKS
from tournament.clock.selectors import CLOCK_STATUS_LABELS, format_seconds
from tournament.models import (
    AuditEntry,
    Invitation,
    Membership,
    Payment,
    Player,
    PrizeHandover,
    Registration,
    Round,
    Series,
    Signup,
    Submission,
    SubmissionEntry,
    Team,
    Tournament,
)
from tournament.templatetags.money import euros

from .actions import AuditAction

NESTING = " \u203a "  # a small arrow between a key and the key inside it
YES, NO = "\u2713", "\u2013"  # check mark, en dash
SEPARATOR = ", "
TABLES_SEPARATOR = " | "  # between the tables of a seating; the page keeps each table on one line

# Keys of snapshots that are no model field, or whose field's name says less than this.
KEY_LABELS = {
    "name": _("name"), "tables": _("tables"), "round": _("round"), "seed": _("seating seed"),
    "players": _("players"), "sizes": _("table sizes"), "remaining": _("time left"),
    "seconds": _("clock set to"), "changed_in": _("changed in the tournament"), "keep": _("kept record"),
    "duplicate": _("merged record"), "duplicate_id": _("number of the merged record"),
    "player": _("player"), "player_id": _("number of the record"),
    "registrations_moved": _("registrations moved"), "position": _("place on the waiting list"),
    "exported_at": _("backup made at"), "format_version": _("backup format"), "team": _("team"),
    "series": _("series"), "prize_overrides": _("prizes set by hand"),
    "require_second_entry": _("require a second entry"), "amount_cents": _("amount"),
    "entry_fee_cents": _("entry fee"), "cash_float_cents": _("opening float"),
    "cash_counted_cents": _("cash counted"),
    "person": _("person"), "people": _("people"),
}


def _labelled(labels: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    return {key: _(label) for key, label in labels}


@dataclass(frozen=True)
class Vocabulary:
    """What one action's snapshot keys are: fields of `models` (the first that has the key); a bare
    before/after value is the field `scalar`; `values` labels keys that are no model's choices."""

    models: tuple[type[models.Model], ...] = ()
    scalar: str = ""
    values: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    durations: frozenset[str] = frozenset()
    # Seatings and player lists hold registration ids, not start numbers (the stored seating plan).
    registration_ids: bool = False
    # The snapshot's "name" says whom the entry is about (a sign-up, a payment).
    named: bool = False

    def model_field(self, key: str) -> models.Field | None:
        for model in self.models:
            found = _model_field(model, key)
            if found is not None:
                return found
        return None

    def label(self, key: str) -> str:
        if key in KEY_LABELS:
            return str(KEY_LABELS[key])
        found = self.model_field(key)
        if found is not None:
            return str(found.verbose_name)
        return key.replace("_", " ")

    def ordered(self, items: Iterable[tuple[str, Any]]) -> list[tuple[str, Any]]:
        """A snapshot's keys in the models' field order, other keys after them by name: PostgreSQL's
        jsonb does not keep the order in which they were recorded, so the page may not rely on it."""
        return sorted(items, key=lambda item: (self._position(item[0]), item[0]))

    def _position(self, key: str) -> tuple[int, int]:
        for index, model in enumerate(self.models):
            found = _model_field(model, key)
            if found is not None:
                return index, _field_index(model, found.name)
        return len(self.models), 0

    def value_labels(self, key: str) -> Mapping[str, Any] | None:
        if key in self.values:
            return self.values[key]
        found = self.model_field(key)
        return _choice_labels(found) if found is not None and found.choices else None


@cache
def _model_field(model: type[models.Model], key: str) -> models.Field | None:
    try:
        found = model._meta.get_field(key)
    except FieldDoesNotExist:
        return None
    return found if getattr(found, "concrete", False) else None


@cache
def _field_index(model: type[models.Model], name: str) -> int:
    return [f.name for f in model._meta.concrete_fields].index(name)


@cache
def _choice_labels(model_field: models.Field) -> dict[str, Any]:
    """A field's values and their (lazy) labels, straight from its `choices`."""
    return dict(model_field.flatchoices)


_TOURNAMENT_VALUES = {
    "deck": _labelled((key, deck.name) for key, deck in DECKS.items()),
    "tiebreaks": _labelled((key, tiebreak.label) for key, tiebreak in TIEBREAKS.items()),
}
TOURNAMENT = Vocabulary((Tournament,), values=_TOURNAMENT_VALUES)
PLAYER = Vocabulary((Registration, Player))
SIGNUP = Vocabulary((Signup, Registration), named=True)
PAYMENT = Vocabulary((Payment,), named=True)
HANDOVER = Vocabulary((PrizeHandover,), named=True)
ROUND = Vocabulary((Round,), scalar="status")
CLOCK = Vocabulary(
    (Round,), values={"status": dict(CLOCK_STATUS_LABELS)}, durations=frozenset({"remaining", "seconds"})
)
RESULT = Vocabulary((Submission, SubmissionEntry))
SERIES = Vocabulary((Series,), values={"tiebreaks": _labelled(SEASON_TIEBREAKS.items())})
TEAM = Vocabulary((Team, Tournament))
# Who is in the evening's team: "person" is a user name, "role" the role's label (all three roles).
PEOPLE = Vocabulary((Invitation, Membership))

A = AuditAction
VOCABULARIES: dict[str, Vocabulary] = {
    **dict.fromkeys(
        (A.TOURNAMENT_CREATE, A.TOURNAMENT_UPDATE, A.TOURNAMENT_LOGO, A.TOURNAMENT_RESTORE,
         A.PRIZES_UPDATE, A.SERIES_JOIN, A.SERIES_LEAVE, A.CASH_UPDATE, A.STANDINGS_REVEAL), TOURNAMENT),
    A.SEATING_PLAN: Vocabulary((Tournament,), registration_ids=True),
    **dict.fromkeys(
        (A.REGISTRATION_ADD, A.REGISTRATION_UPDATE, A.CHECK_IN, A.CHECK_IN_UNDO, A.WITHDRAW, A.READMIT,
         A.PLAYER_UPDATE_SHARED, A.PLAYER_MERGE, A.WALK_IN), PLAYER),
    **dict.fromkeys(
        (A.SIGNUP, A.SIGNUP_WITHDRAW, A.SIGNUP_PROMOTE, A.SIGNUP_REFUSE, A.SIGNUP_MOVE, A.SIGNUP_CHECK_IN,
         A.SIGNUP_TO_WAITING), SIGNUP),
    **dict.fromkeys((A.PAYMENT, A.PAYMENT_UNDO), PAYMENT),
    **dict.fromkeys((A.PRIZE_HANDOVER, A.PRIZE_HANDOVER_UNDO), HANDOVER),
    **dict.fromkeys(
        (A.ROUND_SEAT, A.ROUND_SWAP, A.ROUND_PUBLISH, A.ROUND_OPEN, A.ROUND_CLOSE, A.ROUND_REOPEN,
         A.ROUND_DELETE, A.TOKEN_NEW), ROUND),
    **dict.fromkeys((A.CLOCK_START, A.CLOCK_PAUSE, A.CLOCK_RESUME, A.CLOCK_RESET), CLOCK),
    **dict.fromkeys(
        (A.RESULT_SUBMIT, A.RESULT_CONFIRM, A.RESULT_PLAYER_CONFIRM, A.RESULT_DISPUTE, A.DISPUTE_RESOLVE),
        RESULT,
    ),
    **dict.fromkeys((A.SERIES_CREATE, A.SERIES_UPDATE), SERIES),
    **dict.fromkeys((A.TEAM_CREATE, A.TEAM_DELETE, A.TEAMS_SEPARATE), TEAM),
    **dict.fromkeys(
        (A.PERSON_ADD, A.PERSON_REMOVE, A.INVITATION_CREATE, A.INVITATION_ACCEPT, A.INVITATION_WITHDRAW,
         A.SERIES_TEAM_TAKE), PEOPLE
    ),
}
del A


@dataclass(frozen=True)
class Players:
    """The tournament's registrations for the log: name by start number, start number by id."""

    names: Mapping[int, str] = field(default_factory=dict)
    numbers: Mapping[int, int] = field(default_factory=dict)

    @classmethod
    def of(cls, registrations: Iterable[Registration]) -> Players:
        regs = list(registrations)
        return cls(
            names={reg.start_number: reg.player.name for reg in regs},
            numbers={reg.pk: reg.start_number for reg in regs},
        )

    def label(self, number: Any, fallback: str = "") -> str:
        """"no. 14 Anna Müller" (the start number alone when the name is not known)."""
        name = self.names.get(number, fallback) if isinstance(number, int) else fallback
        return f"{gettext('no. %(number)s') % {'number': number}} {name}".strip()

    def start_number(self, registration_id: Any) -> str:
        return str(self.numbers.get(registration_id, "?"))


@dataclass(frozen=True)
class Change:
    """One line of an entry's diff: a (possibly nested) key with its value before and after."""

    key: str
    before: str
    after: str

    @property
    def added(self) -> bool:
        return self.before == "" and self.after != ""

    @property
    def removed(self) -> bool:
        return self.after == "" and self.before != ""

    @property
    def before_parts(self) -> list[str]:
        """A seating's tables, the pieces its line may break between (empty for any other value)."""
        return _parts(self.before)

    @property
    def after_parts(self) -> list[str]:
        return _parts(self.after)


def _parts(text: str) -> list[str]:
    parts = text.split(TABLES_SEPARATOR)
    return parts if len(parts) > 1 else []


@dataclass(frozen=True)
class AuditLine:
    """One entry as the page shows it: who, the action's label, whom it is about, what changed."""

    entry: AuditEntry
    actor: str
    label: str
    subject: str
    changes: list[Change]


def _is_seating(value: Any) -> bool:
    return (
        isinstance(value, list) and bool(value)
        and all(isinstance(table, list) and all(isinstance(n, int) for n in table) for table in value)
    )


def _is_player_list(value: Any) -> bool:
    return (
        isinstance(value, list) and bool(value)
        and all(isinstance(item, dict) and "start_number" in item for item in value)
    )


@dataclass(frozen=True)
class _Flat:
    """A flattened value: the snapshot key it was stored under (for its formatting) and the value."""

    name: str
    value: Any


class Display:
    """Turns one tournament's entries into lines; `players` from one query for the whole page."""

    def __init__(self, players: Players | None = None) -> None:
        self.players = players or Players()

    def line(self, entry: AuditEntry) -> AuditLine:
        vocabulary = VOCABULARIES.get(entry.action, Vocabulary())
        subject, implied = self._subject(vocabulary, entry.before, entry.after)
        return AuditLine(
            entry, _actor(entry), str(entry.get_action_display()), subject,
            self.changes(vocabulary, entry.before, entry.after, implied=implied),
        )

    # -- what changed -------------------------------------------------------------------------------

    def changes(
        self, vocabulary: Vocabulary, before: Any, after: Any, *, implied: frozenset[str] = frozenset()
    ) -> list[Change]:
        """The keys that differ between before and after; a created or deleted thing shows all of them
        (but not the keys its subject already names)."""
        before, after = self._normalise(before), self._normalise(after)
        if not isinstance(before, dict | list) and not isinstance(after, dict | list):
            if before == after:
                return []
            return [Change("", self.text(vocabulary, vocabulary.scalar, before),
                           self.text(vocabulary, vocabulary.scalar, after))]
        old = self._flatten(vocabulary, before) if before is not None else {}
        new = self._flatten(vocabulary, after) if after is not None else {}
        changes: list[Change] = []
        for key in list(new) + [key for key in old if key not in new]:
            was, now = old.get(key), new.get(key)
            name = (now or was).name
            if name in implied and key == vocabulary.label(name) and (
                was is None or now is None or was.value == now.value
            ):
                continue
            if was is not None and now is not None and was.value == now.value:
                continue
            if was is not None and now is not None and _is_seating(was.value) and _is_seating(now.value):
                changes += self._seating_changes(vocabulary, key, was.value, now.value)
                continue
            change = Change(
                key,
                self.text(vocabulary, name, was.value) if was else "",
                self.text(vocabulary, name, now.value) if now else "",
            )
            if change.before != change.after:  # an empty value of a created thing says nothing
                changes.append(change)
        return changes

    @staticmethod
    def _normalise(value: Any) -> Any:
        """A bare seating (a redrawn or swapped round) is the round's tables."""
        return {"tables": value} if _is_seating(value) else value

    def _flatten(self, vocabulary: Vocabulary, value: Any, prefix: str = "") -> dict[str, _Flat]:
        """Nested snapshots as flat keys; per-player lines keyed by start number and name."""
        flat: dict[str, _Flat] = {}
        for key, item in vocabulary.ordered(value.items()) if isinstance(value, dict) else [("", value)]:
            label = vocabulary.label(key) if key else ""
            path = f"{prefix}{NESTING}{label}" if prefix and label else (label or prefix)
            if key == "rounds" and isinstance(item, dict):  # the seating plan: round number → tables
                for number, tables in sorted(item.items(), key=lambda pair: _number_key(str(pair[0]))):
                    flat[gettext("Round %(number)s") % {"number": number}] = _Flat("tables", tables)
            elif key == "prize_overrides" and isinstance(item, dict):  # start number → amount
                for number, cents in item.items():
                    player = self.players.label(int(number)) if str(number).isdigit() else str(number)
                    flat[f"{path}{NESTING}{player}"] = _Flat("amount_cents", cents)
            elif _is_player_list(item):
                # The list's own key ("entries") adds nothing to "no. 14 Anna Müller".
                for row in item:
                    rest = {k: v for k, v in row.items() if k != "start_number"}
                    flat[self.players.label(row["start_number"])] = _Flat("", rest)
            elif isinstance(item, dict) and item:
                flat.update(self._flatten(vocabulary, item, path))
            else:
                flat[path] = _Flat(key, item)
        return flat

    def _seating_changes(
        self, vocabulary: Vocabulary, key: str, before: list[list[int]], after: list[list[int]]
    ) -> list[Change]:
        """A changed seating table by table: only the tables whose players differ."""
        changes = []
        for index in range(max(len(before), len(after))):
            was = before[index] if index < len(before) else None
            now = after[index] if index < len(after) else None
            if was != now:
                table = gettext("Table %(n)s") % {"n": index + 1}
                changes.append(Change(
                    f"{key}{NESTING}{table}",
                    self._numbers(vocabulary, was) if was else "",
                    self._numbers(vocabulary, now) if now else "",
                ))
        return changes

    # -- whom it is about -----------------------------------------------------------------------------

    def _subject(self, vocabulary: Vocabulary, before: Any, after: Any) -> tuple[str, frozenset[str]]:
        """The player (start number and name), team or sign-up an entry is about, and the keys it names."""
        snapshot = after if isinstance(after, dict) else before if isinstance(before, dict) else None
        if snapshot is None:
            return "", frozenset()
        if isinstance(snapshot.get("start_number"), int):
            name = str(snapshot.get("name") or "")
            return self.players.label(snapshot["start_number"], name), frozenset({"start_number", "name"})
        if snapshot.get("team"):
            return str(snapshot["team"]), frozenset({"team"})
        if vocabulary.named and snapshot.get("name"):
            return str(snapshot["name"]), frozenset({"name"})
        return "", frozenset()

    # -- values ---------------------------------------------------------------------------------------

    def text(self, vocabulary: Vocabulary, key: str, value: Any) -> str:
        """A recorded value as short text in the page's language."""
        if value is None or value == "":
            return ""
        labels = vocabulary.value_labels(key)
        if labels is not None and isinstance(value, str | list):
            values = value if isinstance(value, list) else [value]
            return gettext(", then ").join(str(labels.get(v, v) if isinstance(v, str) else v) for v in values)
        if key == "cards" and isinstance(value, str):
            return localise_hand(value, get_language())
        if isinstance(value, bool):
            return YES if value else NO
        if isinstance(value, int) and key.endswith("_cents"):
            return euros(value)
        if isinstance(value, int) and key in vocabulary.durations:
            return format_seconds(value)
        if isinstance(value, str):
            return _stored_text(vocabulary.model_field(key), value)
        if _is_seating(value):
            return self._seating(vocabulary, value)
        if isinstance(value, list):
            if key == "players" and vocabulary.registration_ids:
                return SEPARATOR.join(sorted((self.players.start_number(v) for v in value), key=_number_key))
            return SEPARATOR.join(self.text(vocabulary, key, item) for item in value)
        if isinstance(value, dict):
            # One player's line of a result: its values in a row, the empty ones left out.
            parts = [
                (vocabulary.label(k), self.text(vocabulary, k, v))
                for k, v in vocabulary.ordered(value.items())
                if v is not None and v != "" and v is not False
            ]
            return SEPARATOR.join(f"{label}: {text}" for label, text in parts if text)
        return str(value)

    def _numbers(self, vocabulary: Vocabulary, table: list[int]) -> str:
        if vocabulary.registration_ids:
            return SEPARATOR.join(self.players.start_number(reg_id) for reg_id in table)
        return SEPARATOR.join(str(number) for number in table)

    def _seating(self, vocabulary: Vocabulary, tables: list[list[int]]) -> str:
        """"Table 1: 3, 7, 12, 15 | Table 2: …" in start numbers."""
        return TABLES_SEPARATOR.join(
            f"{gettext('Table %(n)s') % {'n': number}}: {self._numbers(vocabulary, table)}"
            for number, table in enumerate(tables, start=1)
        )


def _actor(entry: AuditEntry) -> str:
    """Who made the change; a captain in the page's language (the stored text is in the language the
    captain's phone had)."""
    if entry.action == AuditAction.RESULT_SUBMIT and entry.user_id is None and entry.table is not None:
        return gettext("captain, table %(n)s") % {"n": entry.table.number}
    at_table = (AuditAction.RESULT_PLAYER_CONFIRM, AuditAction.RESULT_DISPUTE)
    if entry.action in at_table and entry.table is not None:
        return gettext("player at table %(n)s") % {"n": entry.table.number}
    return entry.actor


def _number_key(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (1 << 30, text)


def _stored_text(model_field: models.Field | None, value: str) -> str:
    """A value stored as text: an ISO date or time in the page's format, "True" as a check mark."""
    if isinstance(model_field, models.BooleanField) and value in ("True", "False"):
        return YES if value == "True" else NO
    if isinstance(model_field, models.DateTimeField):
        moment = parse_datetime(value)
        if moment is not None:
            if timezone.is_aware(moment):
                moment = timezone.localtime(moment)
            return formats.date_format(moment, "SHORT_DATETIME_FORMAT")
    elif isinstance(model_field, models.DateField):
        day = parse_date(value)
        if day is not None:
            return formats.date_format(day, "SHORT_DATE_FORMAT")
    return value


def entry_changes(action: str, before: Any, after: Any, players: Players | None = None) -> list[Change]:
    """The diff of one recorded change, as the log page shows it."""
    display = Display(players)
    vocabulary = VOCABULARIES.get(action, Vocabulary())
    _subject, implied = display._subject(vocabulary, before, after)
    return display.changes(vocabulary, before, after, implied=implied)
