"""What each audit action records: the payload keys its service writes and how each is shown.

One `Vocabulary` per `AuditAction` (`VOCABULARIES`). A key's `Show` says how the log page displays it
(money, a hand of cards, a seating, …), so the display never guesses from a key's name; a key shown
as `Show.FIELD` is named and valued by the models' field of that name (`verbose_name`, `choices`,
dates, check marks). tests/tournament/audit/test_audit_vocabulary.py fails when an action has no
vocabulary, or when a service writes a key its action does not declare.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

from django.core.exceptions import FieldDoesNotExist
from django.db import models
from django.utils.translation import gettext_lazy as _

from engine.cards import DECKS
from engine.series import SEASON_TIEBREAKS
from engine.standings import TIEBREAKS
from tournament.clock.selectors import CLOCK_STATUS_LABELS
from tournament.models import (
    Invitation,
    Payment,
    Player,
    PrizeHandover,
    Registration,
    Round,
    Series,
    Signup,
    Submission,
    SubmissionEntry,
    Table,
    Team,
    Tournament,
)

from .actions import AuditAction


class Show(StrEnum):
    """How the log shows one key's value."""

    FIELD = "field"  # by the models' field of the key's name: its choice labels, a date, a check mark
    MONEY = "money"  # cents as euros
    CARDS = "cards"  # a hand in the page's language's colour letters
    DURATION = "duration"  # seconds as minutes:seconds
    SEATING = "seating"  # tables of start numbers (of registration ids where the vocabulary says so)
    REGISTRATIONS = "registrations"  # registration ids, shown as start numbers
    PLAN = "plan"  # round number → its tables of registration ids: one line per round
    PRIZES = "prizes"  # start number → amount in cents: one line per player
    PLAYERS = "players"  # one line per player (start number and name) with that player's keys


# Keys of snapshots that are no model field, or whose field's name says less than this.
KEY_LABELS = {
    "username": _("user name"), "person": _("person"), "people": _("people"),
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
}


@dataclass(frozen=True)
class Vocabulary:
    """One action's payload: its `keys` and how each is shown; names and values of `Show.FIELD` keys
    from the fields of `models` (the first that has the key). `bare`: how a payload that is a single
    value, not a dict, is shown (a round's status, a seating, a logo's file name); None: never bare.
    `values` labels keys that are no model's choices."""

    models: tuple[type[models.Model], ...] = ()
    keys: Mapping[str, Show] = field(default_factory=dict)
    bare: Show | None = None
    scalar: str = ""  # the model field a bare value is a value of
    values: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    # Seatings and player lists hold registration ids, not start numbers (the stored seating plan).
    registration_ids: bool = False
    # The snapshot's "name" says whom the entry is about (a sign-up, a payment).
    named: bool = False

    def show(self, key: str) -> Show:
        return self.keys.get(key, Show.FIELD)

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


def _labelled(labels: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    return {key: _(label) for key, label in labels}


def _keys(*names: str, **shown: Show) -> dict[str, Show]:
    """Keys shown by their fields (`names`) and keys shown otherwise (`shown`)."""
    return {**dict.fromkeys(names, Show.FIELD), **shown}


# The snapshots the services write (tournaments/services.py TOURNAMENT_SETTINGS, players/services.py
# registration_snapshot, signup/services.py signup_snapshot, series/services.py SERIES_SETTINGS, …).
_SETTINGS = _keys(
    "name", "date", "venue", "rounds_total", "table_size", "table_min", "table_max", "fill", "scoring",
    "end_rule", "threshold", "tiebreaks", "missed_rounds", "time_limit_minutes", "deck", "separate_clubs",
    "plan_all_rounds", "require_second_entry", "table_confirmation", "public", "standings_hidden_from",
    entry_fee_cents=Show.MONEY,
)
_SIGNUP_SETTINGS = _keys("signup_open", "signup_capacity", "signup_deadline")
_REGISTRATION = _keys(
    "start_number", "status", "name", "club", "birth_year", "birth_date", "withdrawn_after_round", "gender",
    "member",
)
_SIGNUP = _keys("name", "club", "birth_year", "member", "gender", "status", "queue")
_SERIES = _keys(
    "name", "points", "points_table", "best_of", "min_evenings", "attendance_bonus", "free_misses",
    "miss_deduction", "members_only", "tiebreaks", "club_best", "club_value", "junior_under", "senior_from",
)
_PERSON = _keys("name", "start_number")
_PAYMENT = _keys("name", "method", "reason", amount_cents=Show.MONEY)
_HANDOVER = _keys("name", "place", "goods", amount_cents=Show.MONEY)
_CLOCK = _keys("status", remaining=Show.DURATION, seconds=Show.DURATION)
_RESULT = _keys(
    "version", "source", "stopped_by_time", "confirmed", "start_number", "card_count", "hand_points", "score",
    "went_out", entries=Show.PLAYERS, cards=Show.CARDS,
)
_TABLE_CHECK = _keys("version", "start_number", "name")

_TOURNAMENT_VALUES = {
    "deck": _labelled((key, deck.name) for key, deck in DECKS.items()),
    "tiebreaks": _labelled((key, tiebreak.label) for key, tiebreak in TIEBREAKS.items()),
}


def _tournament(keys: Mapping[str, Show], **extra: Any) -> Vocabulary:
    return Vocabulary((Tournament,), keys=keys, values=_TOURNAMENT_VALUES, **extra)


def _round(keys: Mapping[str, Show] | None = None, bare: Show | None = Show.FIELD) -> Vocabulary:
    return Vocabulary((Round,), keys=keys or {}, bare=bare, scalar="status")


def _player(keys: Mapping[str, Show]) -> Vocabulary:
    return Vocabulary((Registration, Player), keys=keys)


def _signup(keys: Mapping[str, Show]) -> Vocabulary:
    return Vocabulary((Signup, Registration), keys=keys, named=True)


def _result(keys: Mapping[str, Show]) -> Vocabulary:
    """A result's keys; a player's by start number (the line's or the entry's subject)."""
    return Vocabulary((Submission, SubmissionEntry, Registration), keys=keys)


A = AuditAction
VOCABULARIES: dict[str, Vocabulary] = {
    A.TOURNAMENT_CREATE: _tournament(_SETTINGS),
    A.TOURNAMENT_UPDATE: _tournament({**_SETTINGS, **_SIGNUP_SETTINGS}),
    A.TOURNAMENT_LOGO: _tournament({}, bare=Show.FIELD),  # the file's name before and after
    A.TOURNAMENT_RESTORE: _tournament(_keys("exported_at", "format_version")),
    A.PRIZES_UPDATE: _tournament(_keys(
        "payout_percent", "prize_kind", "prize_table", "shared_places", "goods_prizes", "pot_basis",
        entry_fee_cents=Show.MONEY, prize_overrides=Show.PRIZES,
    )),
    A.SERIES_JOIN: _tournament(_keys("series")),
    A.SERIES_LEAVE: _tournament(_keys("series")),
    A.CASH_UPDATE: _tournament(_keys(
        "cash_note", cash_float_cents=Show.MONEY, cash_counted_cents=Show.MONEY
    )),
    A.STANDINGS_REVEAL: _tournament(_keys("standings_revealed")),
    A.REVEAL_STEP: _tournament(_keys("reveal_step")),
    A.SEATING_PLAN: Vocabulary((Tournament,), keys=_keys(
        "sizes", "seed", players=Show.REGISTRATIONS, rounds=Show.PLAN, tables=Show.SEATING
    ), registration_ids=True),
    A.REGISTRATION_ADD: _player(_REGISTRATION),
    A.REGISTRATION_UPDATE: _player(_REGISTRATION),
    A.CHECK_IN: _player(_REGISTRATION),
    A.CHECK_IN_UNDO: _player(_REGISTRATION),
    A.WITHDRAW: _player(_REGISTRATION),
    A.READMIT: _player(_REGISTRATION),
    A.PLAYER_UPDATE_SHARED: _player({**_REGISTRATION, **_keys("changed_in")}),
    A.PLAYER_MERGE: _player(_keys(
        "keep", "duplicate", "duplicate_id", "player", "player_id", "registrations_moved"
    )),
    A.WALK_IN: _player(_PERSON),
    A.SIGNUP: _signup(_SIGNUP),
    A.SIGNUP_WITHDRAW: _signup(_SIGNUP),
    A.SIGNUP_PROMOTE: _signup(_SIGNUP),
    A.SIGNUP_REFUSE: _signup(_SIGNUP),
    A.SIGNUP_MOVE: _signup({**_SIGNUP, **_keys("position")}),
    A.SIGNUP_TO_WAITING: _signup({**_SIGNUP, **_keys("position")}),
    A.SIGNUP_CHECK_IN: _signup(_PERSON),
    A.PAYMENT: Vocabulary((Payment,), keys=_PAYMENT, named=True),
    A.PAYMENT_UNDO: Vocabulary((Payment,), keys=_PAYMENT, named=True),
    A.PRIZE_HANDOVER: Vocabulary((PrizeHandover,), keys=_HANDOVER, named=True),
    A.PRIZE_HANDOVER_UNDO: Vocabulary((PrizeHandover,), keys=_HANDOVER, named=True),
    A.ROUND_SEAT: _round(_keys("seed", tables=Show.SEATING), bare=Show.SEATING),  # before: the old seating
    A.ROUND_SWAP: _round(bare=Show.SEATING),
    A.ROUND_PUBLISH: _round(),
    A.ROUND_OPEN: _round(),
    A.ROUND_CLOSE: _round(),
    A.ROUND_REOPEN: _round(),
    A.ROUND_DELETE: _round(),  # entries of earlier versions
    A.TOKEN_NEW: _round(bare=None),  # the new link is no value for the log
    A.CLOCK_START: Vocabulary((Round,), keys=_CLOCK, values={"status": dict(CLOCK_STATUS_LABELS)}),
    A.CLOCK_PAUSE: Vocabulary((Round,), keys=_CLOCK, values={"status": dict(CLOCK_STATUS_LABELS)}),
    A.CLOCK_RESUME: Vocabulary((Round,), keys=_CLOCK, values={"status": dict(CLOCK_STATUS_LABELS)}),
    A.CLOCK_RESET: Vocabulary((Round,), keys=_CLOCK, values={"status": dict(CLOCK_STATUS_LABELS)}),
    A.RESULT_SUBMIT: _result(_RESULT),
    A.RESULT_CONFIRM: _result(_keys("version")),
    A.RESULT_PLAYER_CONFIRM: _result(_TABLE_CHECK),
    A.RESULT_DISPUTE: _result({**_TABLE_CHECK, **_keys("player_check_reason")}),
    # The table's status before ("disputed"), the version confirmed after.
    A.DISPUTE_RESOLVE: Vocabulary((Table, Submission), keys=_keys("status", "version")),
    A.SERIES_CREATE: Vocabulary(
        (Series,), keys=_SERIES, values={"tiebreaks": _labelled(SEASON_TIEBREAKS.items())}
    ),
    A.SERIES_UPDATE: Vocabulary(
        (Series,), keys=_SERIES, values={"tiebreaks": _labelled(SEASON_TIEBREAKS.items())}
    ),
    A.TEAM_CREATE: Vocabulary((Team, Tournament), keys=_keys("team", "players")),  # players: their names
    A.TEAM_DELETE: Vocabulary((Team, Tournament), keys=_keys("team", "players")),
    A.TEAMS_SEPARATE: Vocabulary((Team, Tournament), keys=_keys("separate_teams")),
    # The evening's team: "person" a user name, "role" one of the three roles (the invitation's field).
    A.PERSON_ADD: Vocabulary((Invitation,), keys=_keys("person", "role", "series")),  # series: its team's
    A.PERSON_REMOVE: Vocabulary((Invitation,), keys=_keys("person", "role", "series")),
    A.INVITATION_CREATE: Vocabulary((Invitation,), keys=_keys("role", "expires_at")),
    A.INVITATION_ACCEPT: Vocabulary((Invitation,), keys=_keys("person", "role")),
    A.INVITATION_WITHDRAW: Vocabulary((Invitation,), keys=_keys("role", "expires_at")),
    A.SERIES_TEAM_TAKE: Vocabulary((Tournament,), keys=_keys("series", "people")),  # people: user names
    # Entries of no tournament: read in the Django admin, never on a tournament's log page.
    A.ACCOUNT_PASSWORD_CHANGE: Vocabulary(keys=_keys("username")),
    A.ACCOUNT_RESET_LINK: Vocabulary(keys=_keys("username")),
    A.ACCOUNT_PASSWORD_RESET: Vocabulary(keys=_keys("username")),
}
del A

# Any other action (none today: test_audit_vocabulary checks) is shown plainly.
UNDECLARED = Vocabulary()


def vocabulary(action: str) -> Vocabulary:
    return VOCABULARIES.get(action, UNDECLARED)
