"""Malformed input against every form and endpoint: a clear refusal, never a 500, and nothing stored.

Each case names the status it must answer and what the answer must show: a 4xx status, or a form
error (`errorlist`) / an error message on the page. Before and after, the tournament tables are dumped
row by row and must be identical.
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests.factories import RegistrationFactory, TournamentFactory, seated_round, tournament_form_data
from tests.tournament.urlmap import World, refreshed
from tournament.backup.format import FORMAT, FORMAT_VERSION
from tournament.models import (
    AuditEntry,
    Club,
    Payment,
    Player,
    Registration,
    Round,
    Seat,
    Signup,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
)
from tournament.players.services import player_register
from tournament.rounds.services import table_regenerate_token

FORM_ERROR = "errorlist"
MESSAGE_ERROR = 'class="message error"'
RESULT_ERROR = '<li class="error">'  # an issue next to a row of the organizer's result form
HUGE = "x" * 100_000
ODD_UNICODE = "\u202eR7\u200b \u200dB5\ufeff"  # right-to-left override, zero-width space/joiner, BOM
SQL = "'; DROP TABLE tournament_player;--"
SCRIPT = "<script>alert(1)</script>"


@dataclass
class BadWorld(World):
    draft_tournament: Tournament | None = None
    draft_round: Round | None = None
    foreign_registration: Registration | None = None
    signup_tournament: Tournament | None = None


@pytest.fixture(scope="module")
def bad_world(module_world) -> BadWorld:
    """The URL map's world and a draft, a foreign and a sign-up tournament, built once for the module."""
    base, organizer = module_world, module_world.organizer
    draft_tournament = TournamentFactory(organizers=[organizer], name="Draft cup")
    regs = [RegistrationFactory(tournament=draft_tournament, start_number=i + 1) for i in range(8)]
    draft_round = seated_round(draft_tournament, regs, status=Round.Status.DRAFT)
    foreign = RegistrationFactory(tournament=TournamentFactory(name="Elsewhere"), start_number=1)
    return BadWorld(
        **vars(base), draft_tournament=draft_tournament, draft_round=draft_round,
        foreign_registration=foreign,
        signup_tournament=TournamentFactory(name="Open sign-up", signup_open=True, signup_capacity=2),
    )


@pytest.fixture
def world(bad_world, db) -> BadWorld:
    return refreshed(bad_world)


def dump() -> dict[str, list[dict[str, Any]]]:
    """Every row of the tables a bad request could touch."""
    models = (
        Tournament, Club, Player, Registration, Round, Table, Seat, Submission, SubmissionEntry,
        Signup, Payment,
    )
    rows = {model.__name__: list(model.objects.order_by("pk").values()) for model in models}
    rows["AuditEntry"] = list(AuditEntry.objects.order_by("pk").values("pk", "action"))
    return rows


# --- the cases ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    path: Callable[[BadWorld], str]
    data: Callable[[BadWorld], dict] | None = None  # POST data; None: a GET
    status: int = 200
    shows: str = FORM_ERROR  # must appear in the answer (after following redirects)
    anonymous: bool = False
    follow: bool = False
    extra: dict = field(default_factory=dict)


def t(path: str) -> Callable[[BadWorld], str]:
    """A path under the world's tournament: t("players/") → /<pk>/players/."""
    return lambda w: f"/{w.tournament.pk}/{path}"


def captain(w: BadWorld) -> str:
    return w.waiting_table.get_captain_url()


def seat_ids(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("registration_id", flat=True))


def report(
    w: BadWorld,
    *,
    cards: str = "R7",
    points: str = "",
    outcome: str | None = None,
    key: str = "bad-key",
    table: Table | None = None,
) -> dict:
    """A captain's POST for the waiting table with the same text in every loser's field."""
    ids = seat_ids(table or w.waiting_table)
    data = {"idempotency_key": key, "outcome": str(ids[0]) if outcome is None else outcome}
    for reg_id in ids[1:]:
        data[f"cards-{reg_id}"] = cards
        data[f"points-{reg_id}"] = points
    return data


def organizer_result(w: BadWorld, table: Table | None = None, **values: str) -> dict:
    """The organizer's keyboard form for a table: `went_out` and per-loser cards/points/count."""
    table = table or w.waiting_table
    ids = seat_ids(table)
    data = {"idempotency_key": "bad-organizer-key", "outcome": str(ids[0])}
    for reg_id in ids[1:]:
        for kind in ("cards", "points", "count"):
            data[f"{kind}-{reg_id}"] = values.get(kind, "")
    data.update({k: v for k, v in values.items() if k not in ("cards", "points", "count")})
    return data


def result_url(w: BadWorld, number: int = 2, table: Table | None = None) -> str:
    table = table or w.waiting_table
    return f"/{w.tournament.pk}/rounds/{number}/tables/{table.number}/result/"


def tournament_form(**changes: Any) -> Callable[[BadWorld], dict]:
    def build(w: BadWorld) -> dict:
        named = {"name": "Autumn cup", "date": "2026-11-29", "venue": "Hall"}
        data = tournament_form_data(**{**named, **changes})
        if "separate_clubs" not in changes:
            del data["separate_clubs"]  # the checkbox left off, as these cases always sent it
        return data

    return build


def player_form(**changes: Any) -> Callable[[BadWorld], dict]:
    def build(w: BadWorld) -> dict:
        data = {"first_name": "Nina", "last_name": "Neu", "club": "", "birth_date": "", "birth_year": ""}
        data.update(changes)
        return data

    return build


def upload(name: str, content: bytes) -> Callable[[BadWorld], dict]:
    return lambda w: {"file": SimpleUploadedFile(name, content)}


def xlsx_like_zip() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    return buffer.getvalue()


def swap(first: Callable[[BadWorld], Any], second: Callable[[BadWorld], Any]) -> Callable[[BadWorld], dict]:
    return lambda w: {"first": str(first(w)), "second": str(second(w))}


def draft_seat(index: int) -> Callable[[BadWorld], int]:
    return lambda w: list(w.draft_round.seats.order_by("pk").values_list("pk", flat=True))[index]


def draft(path: str) -> Callable[[BadWorld], str]:
    return lambda w: f"/{w.draft_tournament.pk}/{path}"


def backup_file(content: bytes) -> Callable[[BadWorld], dict]:
    return lambda w: {"file": SimpleUploadedFile("backup.json", content)}


def signup_form(**changes: Any) -> Callable[[BadWorld], dict]:
    base = {"first_name": "Sara", "last_name": "Signup", "club": "", "birth_year": "1990", "email": "",
            "phone": "", "website": "", "membership": "guest"}
    return lambda w: {**base, **changes}


def public(path: str) -> Callable[[BadWorld], str]:
    """A path of the tournament whose sign-up is open."""
    return lambda w: f"/p/{w.signup_tournament.pk}/{path}"


def pay(**changes: Any) -> Callable[[BadWorld], dict]:
    return lambda w: {"amount": "8", "method": "cash", "paid": "on", **changes}


def prize_form(**changes: Any) -> Callable[[BadWorld], dict]:
    base = {"entry_fee": "8", "payout_percent": "80", "prize_kind": "percent", "prize_table": "50/30/20",
            "shared_places": "split", "goods_prizes": "", "overrides": ""}
    return lambda w: {**base, **changes}


CASES = [
    # Public sign-up (no account) and the private link.
    Case("signup: no names", public("signup/"), signup_form(first_name="", last_name=""), status=400,
         anonymous=True),
    Case("signup: 100 kB name", public("signup/"), signup_form(first_name=HUGE), status=400, anonymous=True),
    Case("signup: script as club", public("signup/"), signup_form(club=SCRIPT * 30), status=400,
         anonymous=True),
    Case("signup: year 1e309", public("signup/"), signup_form(birth_year="1e309"), status=400,
         anonymous=True),
    Case("signup: born next century", public("signup/"), signup_form(birth_year="2150"), status=400,
         anonymous=True),
    Case("signup: e-mail is SQL", public("signup/"), signup_form(email=SQL), status=400, anonymous=True),
    Case("signup: phone with letters", public("signup/"), signup_form(phone="call me"), status=400,
         anonymous=True),
    Case("signup: honeypot filled", public("signup/"), signup_form(website="http://x"), status=400,
         anonymous=True),
    Case("signup: while sign-up is off", lambda w: f"/p/{w.tournament.pk}/signup/", signup_form(), status=400,
         shows=MESSAGE_ERROR, anonymous=True),
    Case("signup link: unknown token", public("signup/not-a-token/"), lambda w: {}, status=404, shows="",
         anonymous=True),
    Case("signup link: token of SQL", lambda w: f"/p/{w.tournament.pk}/signup/{SQL[:20]}x/", lambda w: {},
         status=404, shows="", anonymous=True),
    Case("signup settings: zero places", t("signups/"),
         lambda w: {"signup_open": "on", "signup_capacity": "0", "signup_deadline": ""}, status=400),
    Case("signup settings: deadline is text", t("signups/"),
         lambda w: {"signup_open": "on", "signup_capacity": "10", "signup_deadline": "soon"}, status=400),
    Case("signup action: unknown", lambda w: f"/{w.tournament.pk}/signups/{w.extra['signup'].pk}/",
         lambda w: {"action": SQL}, follow=True, shows=MESSAGE_ERROR),
    # At the door.
    Case("door: amount negative", lambda w: f"/{w.tournament.pk}/door/players/{w.registration.pk}/",
         pay(amount="-5"), follow=True, shows=MESSAGE_ERROR),
    Case("door: amount 1e309", lambda w: f"/{w.tournament.pk}/door/players/{w.registration.pk}/",
         pay(amount="1e309"), follow=True, shows=MESSAGE_ERROR),
    Case("door: amount is text", lambda w: f"/{w.tournament.pk}/door/players/{w.registration.pk}/",
         pay(amount="eight"), follow=True, shows=MESSAGE_ERROR),
    Case("door: unknown method", lambda w: f"/{w.tournament.pk}/door/players/{w.registration.pk}/",
         pay(method="bitcoin"), follow=True, shows=MESSAGE_ERROR),
    Case("door: waiting sign-up", lambda w: f"/{w.tournament.pk}/door/signups/{w.extra['signup'].pk}/",
         pay(), follow=True, shows=MESSAGE_ERROR),
    Case("walk-in: no name, huge amount", t("door/walk-in/"),
         lambda w: {"first_name": "", "last_name": "W", "amount": "99999", "method": "cash", "paid": "on"},
         status=400),
    # Membership is asked at the door and on the sign-up, never assumed (issue #42, 6).
    Case("walk-in: membership not chosen", t("door/walk-in/"),
         lambda w: {"first_name": "Wim", "last_name": "W", "amount": "8", "method": "cash", "paid": "on"},
         status=400, shows="Please choose club member or guest."),
    Case("walk-in: membership made up", t("door/walk-in/"),
         lambda w: {"first_name": "Wim", "last_name": "W", "amount": "8", "method": "cash", "paid": "on",
                    "membership": "honorary"}, status=400, shows="Select a valid choice."),
    Case("signup: membership not chosen", public("signup/"), signup_form(membership=""), status=400,
         anonymous=True, shows="Please choose club member or guest."),
    # Prize money.
    Case("prizes: percentages over 100", t("prizes/"), prize_form(prize_table="60/50"), status=400),
    Case("prizes: table of words", t("prizes/"), prize_form(prize_table="first/second"), status=400),
    Case("prizes: fee negative", t("prizes/"), prize_form(entry_fee="-8"), status=400),
    Case("prizes: payout 1e309", t("prizes/"), prize_form(payout_percent="1e309"), status=400),
    Case("prizes: override of nobody", t("prizes/"), prize_form(overrides="999=10"), status=400),
    Case("prizes: goods of 100 kB", t("prizes/"), prize_form(goods_prizes=HUGE), status=400),
    # Tournament create and edit.
    Case("create: empty name", lambda w: "/new/", tournament_form(name="")),
    Case("create: name of 100 kB", lambda w: "/new/", tournament_form(name=HUGE)),
    Case("create: 31 February", lambda w: "/new/", tournament_form(date="31.02.2026")),
    Case("create: date is text", lambda w: "/new/", tournament_form(date="tomorrow")),
    Case("create: zero rounds", lambda w: "/new/", tournament_form(rounds_total="0")),
    Case("create: negative rounds", lambda w: "/new/", tournament_form(rounds_total="-5")),
    Case("create: rounds 1e309", lambda w: "/new/", tournament_form(rounds_total="1e309")),
    Case("create: rounds beyond the column", lambda w: "/new/", tournament_form(rounds_total="99999999999")),
    Case("create: smallest above preferred", lambda w: "/new/", tournament_form(table_min="6")),
    Case("create: tables of 11", lambda w: "/new/", tournament_form(table_max="11")),
    Case("create: threshold rule without total", lambda w: "/new/", tournament_form(end_rule="threshold")),
    Case("create: unknown tie-break", lambda w: "/new/", tournament_form(tiebreak_order="coin_toss")),
    Case("create: unknown fill", lambda w: "/new/", tournament_form(fill="middle")),
    Case("create: negative time limit", lambda w: "/new/", tournament_form(time_limit_minutes="-1")),
    Case("edit: empty name, script", t("settings/"), tournament_form(name="", venue=SCRIPT)),
    Case("edit: table size 1", t("settings/"), tournament_form(table_size="1", table_min="1")),
    Case("edit: rounds as words", t("settings/"), tournament_form(rounds_total="six")),
    # Players.
    Case("player add: no names", t("players/add/"), player_form(first_name="", last_name="")),
    Case("player add: 100 kB name", t("players/add/"), player_form(first_name=HUGE)),
    Case("player add: club of 100 kB", t("players/add/"), player_form(club=HUGE)),
    Case("player add: born 1800", t("players/add/"), player_form(birth_year="1800")),
    Case("player add: year 1e309", t("players/add/"), player_form(birth_year="1e309")),
    Case("player add: month 13", t("players/add/"), player_form(birth_date="2026-13-45")),
    Case(
        "player add: date and year disagree",
        t("players/add/"),
        player_form(birth_date="1970-01-01", birth_year="1971"),
    ),
    Case(
        "player add: unknown player id",
        t("players/add/"),
        lambda w: {"known_player": "999999"},
        shows="Select a valid choice",
    ),
    Case(
        "player add: another tournament's player",
        t("players/add/"),
        lambda w: {"known_player": str(w.foreign_registration.player_id)},
        shows="Select a valid choice",
    ),
    Case(
        "player add: player id is text",
        t("players/add/"),
        lambda w: {"known_player": SQL},
        shows="Select a valid choice",
    ),
    Case(
        "player edit: empty last name",
        lambda w: f"/{w.tournament.pk}/players/{w.registration.pk}/",
        player_form(last_name=""),
    ),
    Case(
        "player edit: year is text",
        lambda w: f"/{w.tournament.pk}/players/{w.registration.pk}/",
        player_form(birth_year="nineteen"),
    ),
    Case(
        "player edit: another tournament's registration",
        lambda w: f"/{w.tournament.pk}/players/{w.foreign_registration.pk}/",
        player_form(),
        status=404,
        shows="",
    ),
    Case(
        "withdraw: another tournament's registration",
        lambda w: f"/{w.tournament.pk}/players/{w.foreign_registration.pk}/withdraw/",
        lambda w: {},
        status=404,
        shows="",
    ),
    # Import.
    Case("import: no file", t("players/import/"), lambda w: {}),
    Case("import: empty file", t("players/import/"), upload("players.csv", b"")),
    Case("import: garbage bytes", t("players/import/"), upload("players.csv", bytes(range(256)) * 40)),
    Case(
        "import: PNG named xlsx",
        t("players/import/"),
        upload("players.xlsx", b"\x89PNG\r\n\x1a\n" + b"\0" * 500),
        shows="not an Excel workbook",
    ),
    Case(
        "import: zip that is no workbook",
        t("players/import/"),
        upload("players.xlsx", xlsx_like_zip()),
        shows="not an Excel workbook",
    ),
    Case(
        "import: wrong columns",
        t("players/import/"),
        upload("players.csv", b"foo;bar\n1;2\n"),
        shows="The header must name the columns",
    ),
    Case(
        "import: header only",
        t("players/import/"),
        upload("players.csv", b"Vorname;Nachname\n"),
        shows="The file lists no players",
    ),
    Case(
        "import: over 2 MB",
        t("players/import/"),
        upload("players.csv", b"Vorname;Nachname\n" + b"Anna;Alt\n" * 300_000),
        status=413,
        shows="larger than 2 MB",
    ),
    Case(
        "import: a field beyond the csv limit",
        t("players/import/"),
        upload("players.csv", b'Vorname;Nachname\n"' + b"A" * 200_000 + b'";B\n'),
        shows="cannot be read",
    ),
    Case(
        "import: names and club too long",
        t("players/import/"),
        upload(
            "players.csv", ("Vorname;Nachname;Verein\nAnna;" + "L" * 200 + ";" + "C" * 300 + "\n").encode()
        ),
        shows="too long",
    ),
    Case(
        "import: tampered preview",
        t("players/import/"),
        lambda w: {"rows": "eyJmb28iOiJiYXIifQ:bad:sig"},
        follow=True,
        shows=MESSAGE_ERROR,
    ),
    # Check-in.
    Case(
        "check-in: another tournament's registration",
        lambda w: f"/{w.tournament.pk}/checkin/{w.foreign_registration.pk}/",
        lambda w: {},
        status=404,
        shows="",
    ),
    Case("check-in: unknown registration", t("checkin/999999/"), lambda w: {}, status=404, shows=""),
    # Swaps in a drafted round.
    Case("swap: same seat twice", draft("rounds/1/swap/"), swap(draft_seat(0), draft_seat(0))),
    Case(
        "swap: another tournament's seat",
        draft("rounds/1/swap/"),
        lambda w: {"first": str(w.open_table.seats.first().pk), "second": str(draft_seat(0)(w))},
    ),
    Case("swap: seat ids are text", draft("rounds/1/swap/"), lambda w: {"first": SQL, "second": "-1"}),
    Case(
        "swap: in an open round",
        t("rounds/2/swap/"),
        lambda w: {
            "first": str(w.open_table.seats.first().pk),
            "second": str(w.waiting_table.seats.first().pk),
        },
        follow=True,
        shows=MESSAGE_ERROR,
    ),
    # The organizer's result form.
    Case("result: nothing typed", result_url, lambda w: organizer_result(w), 422, RESULT_ERROR),
    Case(
        "result: negative points", result_url, lambda w: organizer_result(w, points="-5"), 422, RESULT_ERROR
    ),
    Case(
        "result: points 1e309", result_url, lambda w: organizer_result(w, points="1e309"), 422, RESULT_ERROR
    ),
    Case(
        "result: fractional points",
        result_url,
        lambda w: organizer_result(w, points="3.5"),
        422,
        RESULT_ERROR,
    ),
    Case(
        "result: script as cards", result_url, lambda w: organizer_result(w, cards=SCRIPT), 422, RESULT_ERROR
    ),
    Case("result: 100 kB of cards", result_url, lambda w: organizer_result(w, cards=HUGE), 422, RESULT_ERROR),
    Case(
        "result: SQL as card count",
        result_url,
        lambda w: organizer_result(w, points="5", count=SQL),
        422,
        RESULT_ERROR,
    ),
    Case(
        "result: another table's winner",
        result_url,
        lambda w: organizer_result(w, outcome=str(seat_ids(w.open_table)[0]), points="5"),
        422,
        RESULT_ERROR,
    ),
    Case(
        "result: table of a closed round",
        lambda w: result_url(w, 1, w.open_table),
        lambda w: organizer_result(
            w,
            table=Table.objects.get(
                round__number=1, number=w.open_table.number, round__tournament=w.tournament
            ),
            points="5",
        ),
        follow=True,
        shows=MESSAGE_ERROR,
    ),
    Case(
        "result: no such table",
        lambda w: f"/{w.tournament.pk}/rounds/2/tables/99/result/",
        lambda w: {},
        status=404,
        shows="",
    ),
    # The captain's report.
    Case("captain: empty POST", captain, lambda w: {}, anonymous=True),
    Case(
        "captain: 100 kB in every field",
        captain,
        lambda w: {**report(w, cards=HUGE, points=HUGE), "idempotency_key": HUGE, "outcome": HUGE},
        anonymous=True,
    ),
    Case(
        "captain: RTL and zero-width marks", captain, lambda w: report(w, cards=ODD_UNICODE), anonymous=True
    ),
    Case("captain: emoji", captain, lambda w: report(w, cards="🃏 🟥7 😀"), anonymous=True),
    Case("captain: NUL bytes", captain, lambda w: report(w, cards="R7\x00B5"), anonymous=True),
    Case("captain: negative points", captain, lambda w: report(w, cards="", points="-10"), anonymous=True),
    Case("captain: fractional points", captain, lambda w: report(w, cards="", points="2.5"), anonymous=True),
    Case("captain: points 1e309", captain, lambda w: report(w, cards="", points="1e309"), anonymous=True),
    Case(
        "captain: huge integer points",
        captain,
        lambda w: report(w, cards="", points="9" * 40),
        anonymous=True,
    ),
    Case(
        "captain: HTML and script", captain, lambda w: report(w, cards=f"<b>R7</b>{SCRIPT}"), anonymous=True
    ),
    Case(
        "captain: SQL everywhere",
        captain,
        lambda w: report(w, cards=SQL, points=SQL, outcome=SQL, key=SQL),
        anonymous=True,
    ),
    Case(
        "captain: wrong token",
        lambda w: "/t/not-a-real-token/",
        lambda w: report(w),
        status=404,
        anonymous=True,
        shows="",
    ),
    Case("captain: nobody went out, no clock", captain, lambda w: report(w, outcome="time"), anonymous=True),
    Case(
        "captain: winner from another table",
        captain,
        lambda w: report(w, outcome=str(seat_ids(w.open_table)[0])),
        anonymous=True,
    ),
    Case(
        "captain: only another table's players",
        captain,
        lambda w: report(w, table=w.open_table),
        anonymous=True,
    ),
    Case(
        "captain: closed round",
        lambda w: Table.objects.get(
            round__tournament=w.tournament, round__number=1, number=1
        ).get_captain_url(),
        lambda w: report(
            w, table=Table.objects.get(round__tournament=w.tournament, round__number=1, number=1)
        ),
        status=403,
        anonymous=True,
        shows="This result is final",
    ),
    Case(
        "captain: drafted round",
        lambda w: w.draft_round.tables.first().get_captain_url(),
        lambda w: report(w, table=w.draft_round.tables.first()),
        status=404,
        anonymous=True,
        shows="",
    ),
    # The clock.
    Case(
        "clock: minutes as words",
        t("rounds/2/clock/start/"),
        lambda w: {"minutes": "ten"},
        follow=True,
        shows=MESSAGE_ERROR,
    ),
    Case(
        "clock: negative minutes",
        t("rounds/2/clock/start/"),
        lambda w: {"minutes": "-5"},
        follow=True,
        shows=MESSAGE_ERROR,
    ),
    Case(
        "clock: minutes 1e309",
        t("rounds/2/clock/start/"),
        lambda w: {"minutes": "1e309"},
        follow=True,
        shows=MESSAGE_ERROR,
    ),
    Case(
        "clock: a week",
        t("rounds/2/clock/start/"),
        lambda w: {"minutes": "10080"},
        follow=True,
        shows=MESSAGE_ERROR,
    ),
    Case(
        "clock: no such round", t("rounds/99/clock/start/"), lambda w: {"minutes": "10"}, status=404, shows=""
    ),
    # Query parameters of read-only pages: refused, or ignored with the default shown.
    Case(
        "standings pdf: after=abc",
        lambda w: f"/print/{w.tournament.pk}/standings.pdf?after=abc",
        status=400,
        shows="positive whole number",
    ),
    Case(
        "standings pdf: after=-1",
        lambda w: f"/print/{w.tournament.pk}/standings.pdf?after=-1",
        status=400,
        shows="positive whole number",
    ),
    Case(
        "standings pdf: after=99999 prints the closed rounds",
        lambda w: f"/print/{w.tournament.pk}/standings.pdf?after=99999",
        shows="%PDF-",
    ),
    Case("standings page: after=abc shows all closed rounds", t("standings/?after=abc"), shows="Standings"),
    Case("standings page: after=99999", t("standings/?after=99999"), shows="Standings"),
    Case(
        "table sheets: unknown paper",
        lambda w: f"/print/{w.tournament.pk}/rounds/1/table-sheets.pdf?format=a0",
        status=400,
        shows="paper",
    ),
    Case(
        "certificates: ids=garbage",
        lambda w: f"/print/{w.tournament.pk}/certificates.pdf?ids=garbage",
        status=400,
        shows="whole numbers",
    ),
    Case(
        "certificates: top=-3",
        lambda w: f"/print/{w.tournament.pk}/certificates.pdf?top=-3",
        status=400,
        shows="whole numbers",
    ),
    Case(
        "certificates: another tournament's ids",
        lambda w: f"/print/{w.tournament.pk}/certificates.pdf?ids={w.foreign_registration.pk}",
        follow=True,
        shows="No certificates to print",
    ),
    Case(
        "projector: slide and every as text",
        lambda w: f"/p/{w.tournament.pk}/projector/?slide=x&every=1e309",
        anonymous=True,
        shows="projector",
    ),
    # Restore and login.
    Case("restore: broken JSON", lambda w: "/restore/", backup_file(b'{"format": "uno-tourn')),
    Case("restore: not a backup", lambda w: "/restore/", backup_file(b'["a list"]')),
    Case(
        "restore: future version",
        lambda w: "/restore/",
        backup_file(json.dumps({"format": FORMAT, "version": FORMAT_VERSION + 1}).encode()),
    ),
    Case(
        "restore: version as text",
        lambda w: "/restore/",
        backup_file(json.dumps({"format": FORMAT, "version": "1"}).encode()),
    ),
    Case(
        "restore: right header, damaged body",
        lambda w: "/restore/",
        backup_file(json.dumps({"format": FORMAT, "version": FORMAT_VERSION, "tournament": "x"}).encode()),
    ),
    Case("restore: deeply nested JSON", lambda w: "/restore/", backup_file(b"[" * 100_000 + b"]" * 100_000)),
    Case("restore: binary", lambda w: "/restore/", backup_file(bytes(range(256)) * 10)),
    Case(
        "login: 100 kB username",
        lambda w: "/accounts/login/",
        lambda w: {"username": HUGE, "password": "x"},
        anonymous=True,
    ),
    Case(
        "login: NUL in username",
        lambda w: "/accounts/login/",
        lambda w: {"username": "orga\x00", "password": "x"},
        anonymous=True,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_bad_input_is_refused_and_changes_nothing(case: Case, world, organizer_client):
    client = Client() if case.anonymous else organizer_client
    url = case.path(world)
    data = case.data(world) if case.data is not None else None
    before = dump()
    if data is None:
        response = client.get(url, follow=case.follow)
    else:
        response = client.post(url, data, follow=case.follow)
    assert response.status_code == case.status, (case.id, response.status_code)
    if case.shows:
        body = b"".join(response.streaming_content) if response.streaming else response.content
        assert case.shows.encode() in body, (case.id, body[:2000])
    assert dump() == before, case.id


def test_there_are_at_least_fifty_cases():
    assert len(CASES) >= 50


def test_a_valid_report_after_the_bad_ones_is_stored(world):
    """The same client, after junk, can still report properly: nothing got stuck."""
    client = Client()
    client.post(captain(world), report(world, cards=HUGE))
    good = {**report(world, cards="", points="12", key="good-key"), "confirm_warnings": "1"}
    response = client.post(captain(world), good, follow=True)
    assert response.status_code == 200
    assert Submission.objects.filter(table=world.waiting_table, idempotency_key="good-key").count() == 1


def test_regenerated_token_refuses_the_report(world):
    old = world.waiting_table.get_captain_url()
    table_regenerate_token(table=world.waiting_table, user=world.organizer)
    before = dump()
    response = Client().post(old, report(world))
    assert response.status_code == 404
    assert dump() == before


def test_a_club_name_longer_than_its_column_is_refused(world):
    """The service checks the length itself (SQLite stores anything, PostgreSQL would fail with a 500)."""
    from django.core.exceptions import ValidationError

    before = dump()
    with pytest.raises(ValidationError):
        player_register(
            tournament=world.tournament,
            user=world.organizer,
            first_name="Lena",
            last_name="Lang",
            club_name="C" * 121,
        )
    assert dump() == before
