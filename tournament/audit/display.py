"""The audit log in words: a recorded snapshot as lines a person reads, in the page's language.

Snapshots hold values as stored: a round's status "open", a result's source "captain", start numbers,
registration ids. Here keys are named by the models' fields (`verbose_name`), choice values by the
fields' `choices` (never retyped), engine keys without a model field (deck, tie-breaks, clock status) by
the labels kept beside them, per-player lines by start number and name, seatings as tables of start
numbers. How each key is shown is declared per action (`vocabulary.py`), never guessed from its name.
Pure formatting: the names come in from the page's one read (`selectors.audit_registrations`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import models
from django.utils import formats, timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.translation import get_language, gettext

from engine.notation import localise_hand
from tournament.clock.selectors import format_seconds
from tournament.models import AuditEntry, Registration
from tournament.templatetags.money import euros

from .actions import AuditAction
from .vocabulary import Show, Vocabulary, vocabulary

NESTING = " \u203a "  # a small arrow between a key and the key inside it
YES, NO = "\u2713", "\u2013"  # check mark, en dash
SEPARATOR = ", "
TABLES_SEPARATOR = " | "  # between the tables of a seating; the page keeps each table on one line


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
        words = vocabulary(entry.action)
        subject, implied = self._subject(words, entry.before, entry.after)
        return AuditLine(
            entry, _actor(entry), str(entry.get_action_display()), subject,
            self.changes(words, entry.before, entry.after, implied=implied),
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
            show = vocabulary.show(key)
            if show is Show.PLAN and isinstance(item, dict):  # round number → tables
                for number, tables in sorted(item.items(), key=lambda pair: _number_key(str(pair[0]))):
                    flat[gettext("Round %(number)s") % {"number": number}] = _Flat("tables", tables)
            elif show is Show.PRIZES and isinstance(item, dict):  # start number → amount
                for number, cents in item.items():
                    player = self.players.label(int(number)) if str(number).isdigit() else str(number)
                    flat[f"{path}{NESTING}{player}"] = _Flat(key, cents)
            elif show is Show.PLAYERS and _is_player_list(item):
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
        show = vocabulary.show(key)
        if show is Show.CARDS and isinstance(value, str):
            return localise_hand(value, get_language())
        if isinstance(value, bool):
            return YES if value else NO
        if show in (Show.MONEY, Show.PRIZES) and isinstance(value, int):
            return euros(value)
        if show is Show.DURATION and isinstance(value, int):
            return format_seconds(value)
        if isinstance(value, str):
            return _stored_text(vocabulary.model_field(key), value)
        if _is_seating(value):
            return self._seating(vocabulary, value)
        if isinstance(value, list):
            if show is Show.REGISTRATIONS:
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
    words = vocabulary(action)
    _subject, implied = display._subject(words, before, after)
    return display.changes(words, before, after, implied=implied)
