"""Every field of the sign-up, door, team, series, prize, sign-up settings and merge forms over HTTP
(#40): control characters, bidi overrides, formula starts after a control character, over-long
values, extreme numbers and dates, ids no column holds. Each is a clear error (a form error or an
error message), never a 500, and the database is as it was.

The findings of #40 are reproduced by name: the sign-up that stored a formula behind a control
character, the deadline of the year 1 and the team member id of 31 digits (both 500s before).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client

from tests.tournament.test_bad_input import (
    FORM_ERROR,
    MESSAGE_ERROR,
    BadWorld,
    bad_world,  # noqa: F401 (a fixture)
    dump,
)
from tests.tournament.urlmap import refreshed
from tournament.models import Signup

CONTROL_FORMULA = '\x01=HYPERLINK("http://x","klick")'
TEXT = {
    "control formula": CONTROL_FORMULA,
    "bidi override": "Anna\u202eakiM",
    "isolate": "An\u2066na",
    "escape": "\x1b[2J",
    "NUL": "Ann\x00a",
    "over-long": "x" * 5000,
}
NUMBER = {
    "31 digits": "1000000000000000000000000000000",
    "1e309": "1e309",
    "negative huge": "-99999999999999999999",
    "Arabic digits": "١٢",
}
DATETIME = {
    "year 1": "0001-01-01T00:00", "year 9999": "9999-12-31T23:59", "year 1 spaced": "0001-01-01 00:00",
}
RECORD = {"31 digits": "1000000000000000000000000000000", "negative huge": "-99999999999999999999",
          "text": "eins"}


@dataclass(frozen=True)
class FormSpec:
    name: str
    url: Callable[[BadWorld], str]
    data: Callable[[BadWorld], dict]
    text: tuple[str, ...] = ()
    numbers: tuple[str, ...] = ()
    datetimes: tuple[str, ...] = ()
    records: tuple[str, ...] = ()
    anonymous: bool = False


def t(path: str) -> Callable[[BadWorld], str]:
    return lambda w: f"/{w.tournament.pk}/{path}"


def signup_data(w: BadWorld) -> dict:
    return {"first_name": "Sara", "last_name": "Signup", "club": "", "birth_year": "1990",
            "email": "", "phone": "", "website": "", "membership": "member"}


def series_data(w: BadWorld) -> dict:
    return {
        "name": "Jahreswertung", "points": "field", "points_table_text": "", "best_of": "5",
        "min_evenings": "0", "attendance_bonus": "0", "free_misses": "0", "miss_deduction": "0",
        "tiebreak_order": "", "club_best": "3", "club_value": "sum", "junior_under": "18",
        "senior_from": "60",
    }


def two_players(w: BadWorld) -> list[str]:
    return [str(pk) for pk in w.tournament.registrations.order_by("pk").values_list("pk", flat=True)[6:8]]


FORMS = [
    FormSpec("sign-up", lambda w: f"/p/{w.signup_tournament.pk}/signup/", signup_data,
             text=("first_name", "last_name", "club", "phone", "email"), numbers=("birth_year",),
             anonymous=True),
    FormSpec("sign-up settings", t("signups/"),
             lambda w: {"signup_open": "on", "signup_capacity": "10", "signup_deadline": ""},
             numbers=("signup_capacity",), datetimes=("signup_deadline",)),
    FormSpec("walk-in", t("door/walk-in/"),
             lambda w: {"first_name": "Wanda", "last_name": "Walk", "club": "", "birth_year": "",
                        "amount": "8", "method": "cash", "paid": "on", "membership": "guest"},
             text=("first_name", "last_name", "club"), numbers=("birth_year", "amount")),
    FormSpec("door payment", lambda w: f"/{w.tournament.pk}/door/players/{w.registration.pk}/",
             lambda w: {"amount": "8", "method": "cash", "paid": "on"}, numbers=("amount",)),
    FormSpec("team", t("teams/"), lambda w: {"name": "Die Neuen", "members": two_players(w)},
             text=("name",), records=("members",)),
    FormSpec("series rule", t("series/rule/"), series_data,
             text=("name", "points_table_text"),
             numbers=("best_of", "min_evenings", "attendance_bonus", "free_misses", "miss_deduction",
                      "club_best", "junior_under", "senior_from")),
    FormSpec("prizes", t("prizes/"),
             lambda w: {"entry_fee": "8", "payout_percent": "80", "prize_kind": "percent",
                        "prize_table": "50/30/20", "shared_places": "split", "goods_prizes": "Pokal",
                        "overrides": ""},
             text=("prize_table", "goods_prizes", "overrides"), numbers=("entry_fee", "payout_percent")),
    FormSpec("merge", t("players/merge/"),
             lambda w: {"keep": str(w.registration.player_id),
                        "duplicate": str(w.foreign_registration.player_id)},
             records=("keep", "duplicate")),
]


def cases():
    for spec in FORMS:
        for fields, values in ((spec.text, TEXT), (spec.numbers, NUMBER), (spec.datetimes, DATETIME),
                               (spec.records, RECORD)):
            for field in fields:
                for label, value in values.items():
                    yield pytest.param(spec, field, value, id=f"{spec.name}.{field}: {label}")


@pytest.fixture
def world(bad_world, db) -> BadWorld:  # noqa: F811 (bad_world is the imported fixture)
    return refreshed(bad_world)


@pytest.mark.parametrize(("spec", "field", "value"), list(cases()))
def test_every_field_refuses_the_extremes_clearly_and_stores_nothing(
    world, organizer_client, spec, field, value
):
    client = Client() if spec.anonymous else organizer_client
    data = spec.data(world)
    data[field] = [value] if isinstance(data.get(field), list) else value
    before = dump()
    response = client.post(spec.url(world), data, follow=True)
    assert response.status_code < 500
    page = response.content.decode()
    assert FORM_ERROR in page or MESSAGE_ERROR in page, (spec.name, field)
    assert dump() == before


def test_the_anonymous_formula_sign_up_is_refused(world):
    """#40 finding 1 as it was sent: the sign-up is refused, nothing is stored, the export stays clean."""
    data = {**signup_data(world), "first_name": CONTROL_FORMULA, "last_name": "Ctrl"}
    response = Client().post(f"/p/{world.signup_tournament.pk}/signup/", data)
    assert response.status_code == 400
    assert "Control characters" in response.content.decode()
    assert not Signup.objects.filter(last_name="Ctrl").exists()
