"""Every audit action has one declared vocabulary (#43 item 4), and what the services really write keeps
to it: each key declared, each value of the shape its `Show` displays, each shown in words.

The log is filled once per module by `services_log.drive_every_service` (the real services, no entry
written by hand), then read in German and English as the log page reads it (`Display`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import override_settings
from django.utils import translation

from tests.factories import UserFactory
from tournament.audit.actions import AuditAction
from tournament.audit.display import NESTING, Display, Players
from tournament.audit.selectors import audit_registrations
from tournament.audit.vocabulary import KEY_LABELS, VOCABULARIES, Show, Vocabulary
from tournament.models import AuditEntry, Tournament

from .services_log import drive_every_service

# Recorded by earlier versions only: no service of today writes it (the log of a restored backup may).
LEGACY = {AuditAction.ROUND_DELETE}


@pytest.fixture(scope="module")
def evening(module_db, tmp_path_factory) -> Tournament:
    with override_settings(MEDIA_ROOT=tmp_path_factory.mktemp("media")):
        return drive_every_service(UserFactory(username="orga"))


@pytest.fixture
def log(evening, db) -> list[AuditEntry]:
    return list(AuditEntry.objects.order_by("pk"))


# -- the declarations ------------------------------------------------------------------------------


@pytest.mark.parametrize("action", list(AuditAction))
def test_every_action_declares_its_vocabulary(action):
    words = VOCABULARIES.get(action)
    assert isinstance(words, Vocabulary), f"{action} has no vocabulary in tournament/audit/vocabulary.py"
    assert words.keys or words.bare is not None or action == AuditAction.TOKEN_NEW


@pytest.mark.parametrize("action", list(AuditAction))
def test_every_key_shown_by_its_field_has_a_name(action):
    """A key the display names by a model field must find one (or a label of its own): else the page
    would show the key's code ("player_check_reason") instead of words."""
    words = VOCABULARIES[action]
    unnamed = [
        key for key, show in words.keys.items()
        if show is Show.FIELD and key not in KEY_LABELS and words.model_field(key) is None
    ]
    assert unnamed == []


@pytest.mark.parametrize("action", list(AuditAction))
def test_amounts_in_cents_are_declared_as_money(action):
    """A key holding cents shown as a bare number would read as 600 instead of 6,00 €."""
    words = VOCABULARIES[action]
    assert [key for key in words.keys if key.endswith("_cents") and words.show(key) is not Show.MONEY] == []


# -- what the services write ----------------------------------------------------------------------


def test_the_services_write_every_action_of_today(log):
    assert {entry.action for entry in log} == set(AuditAction.values) - LEGACY


def _is_seating(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(table, list) and all(isinstance(n, int) for n in table) for table in value
    )


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


SHAPES = {
    Show.FIELD: lambda v: _scalar(v) or (isinstance(v, list) and all(_scalar(item) for item in v)),
    Show.MONEY: lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)),
    Show.CARDS: lambda v: isinstance(v, str),
    Show.DURATION: lambda v: v is None or isinstance(v, int),
    Show.SEATING: _is_seating,
    Show.REGISTRATIONS: lambda v: isinstance(v, list) and all(isinstance(n, int) for n in v),
    Show.PLAN: lambda v: isinstance(v, dict) and all(k.isdigit() and _is_seating(t) for k, t in v.items()),
    Show.PRIZES: lambda v: isinstance(v, dict) and all(
        k.isdigit() and isinstance(c, int) for k, c in v.items()
    ),
    Show.PLAYERS: lambda v: isinstance(v, list) and all(isinstance(row, dict) for row in v),
}


def _problems(words: Vocabulary, payload: Any) -> Iterator[str]:
    """Keys a payload holds that its vocabulary does not declare, and values of another shape."""
    if payload is None:
        return
    if not isinstance(payload, dict):
        if words.bare is None or not SHAPES[words.bare](payload):
            yield f"bare value {payload!r}"
        return
    for key, value in payload.items():
        if key not in words.keys:
            yield f"undeclared key {key!r}"
            continue
        show = words.keys[key]
        if not SHAPES[show](value):
            yield f"{key!r} is no {show}: {value!r}"
        elif show is Show.PLAYERS:
            for row in value:
                yield from _problems(words, row)


def test_every_payload_keeps_to_its_vocabulary(log):
    problems = {
        (entry.action, problem)
        for entry in log
        for payload in (entry.before, entry.after)
        for problem in _problems(VOCABULARIES[entry.action], payload)
    }
    assert problems == set()


def test_an_undeclared_key_is_found():
    """The check above can fail: a key or a shape the vocabulary does not know is reported."""
    words = VOCABULARIES[AuditAction.PAYMENT]
    assert list(_problems(words, {"name": "Anna", "amount_cents": "6", "tip_cents": 50})) == [
        "'amount_cents' is no money: '6'", "undeclared key 'tip_cents'",
    ]
    assert list(_problems(VOCABULARIES[AuditAction.RESULT_SUBMIT], {"entries": [{"seat": 1}]})) == [
        "undeclared key 'seat'"
    ]


# -- in words ---------------------------------------------------------------------------------------


def _lines(tournament: Tournament, language: str) -> dict[str, list[str]]:
    """Each action's entries as the page shows them: label, subject, then every change in one text."""
    display = Display(Players.of(audit_registrations(tournament)))
    lines: dict[str, list[str]] = {}
    with translation.override(language):
        for entry in AuditEntry.objects.filter(tournament=tournament).order_by("pk"):
            line = display.line(entry)
            changes = "; ".join(f"{c.key}: {c.before} → {c.after}".lstrip(": ") for c in line.changes)
            lines.setdefault(entry.action, []).append(f"{line.label} | {line.subject} | {changes}")
    return lines


EXPECTED = {
    "de": {
        AuditAction.TOURNAMENT_UPDATE: "Einstellungen geändert |  | Ort: Vereinsheim → Stadthalle; "
        "Zeitlimit pro Runde (Minuten):  → 20",
        AuditAction.SIGNUP_TO_WAITING: "auf die Warteliste gesetzt | Dora Dorn | Status: hat einen Platz → "
        "Warteliste; Reihenfolge: 3 → 4; Platz auf der Warteliste:  → 2",
        AuditAction.WALK_IN: "Nachmeldung vor Ort | Nr. 3 Emil Eck | ",
        AuditAction.PAYMENT_UNDO: "Zahlung zurückgenommen | Ben Berg | Betrag: 6,00 € → ; "
        "Zahlungsart: bar → ",
        AuditAction.PLAYER_MERGE: "zwei Spielereinträge zusammengeführt |  | Spieler:  → Hans Huber; "
        "Nummer des Eintrags:  → {keep}; übertragene Anmeldungen:  → 1; zusammengeführter Spielereintrag: "
        "Hans Hubr → ; Nummer des zusammengeführten Eintrags: {duplicate} → ; behaltener Spielereintrag: "
        "Hans Huber → ",
        AuditAction.PRIZES_UPDATE: "Preisgeld geändert |  | Startgeld: 0,00 € → 6,00 €; Ausschüttung in "
        "Prozent des Startgelds: 0 → 50; Preise nach Platz:  → 60, 40; Sachpreise:  → Pokal; von Hand "
        "gesetzte Preise{nesting}Nr. 1 Anna Alt:  → 15,00 €",
        AuditAction.CLOCK_START: "Rundenuhr gestartet |  | Status: keine Uhr → läuft; Restzeit:  → 20:00; "
        "Uhr gestellt auf:  → 20:00",
        AuditAction.ROUND_CLOSE: "Runde abgeschlossen |  | Ergebniseingabe offen → abgeschlossen",
        AuditAction.RESULT_DISPUTE: "Ergebnis am Tisch bestritten | {disputer} | Version:  → 1; "
        "Grund:  → Karten falsch gezählt",
        AuditAction.DISPUTE_RESOLVE: "Streitfall geklärt |  | Version:  → 1; Status: strittig → ",
        AuditAction.CASH_UPDATE: "Kassenbericht geändert |  | Wechselgeld zu Beginn: 0,00 € → 50,00 €",
    },
    "en": {
        AuditAction.TOURNAMENT_UPDATE: "settings changed |  | venue: Vereinsheim → Stadthalle; "
        "time limit per round (minutes):  → 20",
        AuditAction.SIGNUP_TO_WAITING: "moved to the waiting list | Dora Dorn | status: has a place → "
        "waiting list; order: 3 → 4; place on the waiting list:  → 2",
        AuditAction.WALK_IN: "walk-in registered | no. 3 Emil Eck | ",
        AuditAction.PAYMENT_UNDO: "payment undone | Ben Berg | amount: 6.00 € → ; payment method: cash → ",
        AuditAction.PLAYER_MERGE: "two player records merged |  | player:  → Hans Huber; "
        "number of the record:  → {keep}; registrations moved:  → 1; merged record: Hans Hubr → ; "
        "number of the merged record: {duplicate} → ; kept record: Hans Huber → ",
        AuditAction.PRIZES_UPDATE: "prize money changed |  | entry fee: 0.00 € → 6.00 €; payout percentage "
        "of the entry fees: 0 → 50; prizes by place:  → 60, 40; goods prizes:  → Pokal; prizes set by "
        "hand{nesting}no. 1 Anna Alt:  → 15.00 €",
        AuditAction.CLOCK_START: "round clock started |  | status: no clock → running; time left:  → 20:00; "
        "clock set to:  → 20:00",
        AuditAction.ROUND_CLOSE: "round closed |  | results open → closed",
        AuditAction.RESULT_DISPUTE: "result disputed at the table | {disputer} | version:  → 1; "
        "reason:  → Karten falsch gezählt",
        AuditAction.DISPUTE_RESOLVE: "dispute resolved |  | version:  → 1; status: disputed → ",
        AuditAction.CASH_UPDATE: "cash record changed |  | opening float: 0.00 € → 50.00 €",
    },
}


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_services_entries_read_in_words(evening, log, language):
    lines = _lines(evening, language)
    merge = next(e for e in log if e.action == AuditAction.PLAYER_MERGE and e.tournament_id == evening.pk)
    dispute = next(e for e in log if e.action == AuditAction.RESULT_DISPUTE)
    number = dispute.after["start_number"]
    name = evening.registrations.get(start_number=number).player.name
    disputer = f"{'Nr.' if language == 'de' else 'no.'} {number} {name}"
    for action, expected in EXPECTED[language].items():
        text = expected.format(keep=merge.after["player_id"], duplicate=merge.before["duplicate_id"],
                               disputer=disputer, nesting=NESTING)
        assert lines[action][0] == text


@pytest.mark.parametrize("language, words", [
    ("de", {"cards": "Karten", "in_hand": "Karten auf der Hand", "value": "Handwert",
            "score": "Rundenergebnis", "out": "raus", "yellow": "Ge", "round": "Runde", "table": "Tisch",
            "players": "Spieler"}),
    ("en", {"cards": "cards", "in_hand": "cards in hand", "value": "hand value", "score": "round score",
            "out": "went out", "yellow": "Y", "round": "Round", "table": "Table", "players": "players"}),
])
def test_hands_and_seatings_read_in_words(evening, log, language, words):
    """Cards in the page's colour letters, one line per player; seatings and the plan in start numbers
    (the plan stores registration ids), one line per round."""
    lines = _lines(evening, language)
    w = words
    result = lines[AuditAction.RESULT_SUBMIT][0].split(" | ")[2]
    rows = sorted(part.split(":  → ", 1)[1] for part in result.split("; ") if ":  → " in part)
    assert f"{w['cards']}: {w['yellow']}0, {w['in_hand']}: 1, {w['value']}: 0, {w['score']}: 0" in rows
    assert f"{w['in_hand']}: 0, {w['value']}: 0, {w['score']}: 0, {w['out']}: ✓" in rows
    tables = rf"{w['table']} 1: (\d+), (\d+), (\d+), (\d+) \| {w['table']} 2: (\d+), (\d+), (\d+), (\d+)"
    plan = lines[AuditAction.SEATING_PLAN][0]
    for number in (1, 2):
        seated = re.search(rf"{w['round']} {number}:  → {tables}", plan)
        assert seated is not None, plan
        assert sorted(int(n) for n in seated.groups()) == list(range(1, 9))
    assert f"{w['players']}:  → 1, 2, 3, 4, 5, 6, 7, 8" in plan
    drawn = re.search(tables, lines[AuditAction.ROUND_SEAT][0])
    assert drawn is not None and sorted(int(n) for n in drawn.groups()) == list(range(1, 9))
    swapped = lines[AuditAction.ROUND_SWAP][0].split(" | ")[2].split("; ")
    assert len(swapped) == 2
    assert all(re.fullmatch(rf"\w+{NESTING}{w['table']} [12]: [\d, ]+ → [\d, ]+", s) for s in swapped)
