"""No export cell is a live formula (#40 finding 1).

`safe_cell` strips the characters a spreadsheet drops *before* it tests for a formula start, and
looks past spaces and invisible characters. The HTTP test stores names as they were stored before
the forms refused control characters (straight into the database) and reads every CSV and XLSX the
app serves: no text cell may start with a formula sign unless it is made text by an apostrophe.
"""

from __future__ import annotations

import csv
import io
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tests.tournament.urlmap import CONTENT_TYPES, World, build_world, named_urls
from tournament.models import Payment, Signup
from tournament.spreadsheets import FORMULA_STARTS, csv_bytes, safe_cell

FORMULA_NAMES = [
    '\x01=HYPERLINK("http://x","klick")',
    "\x1b\x7f+SUM(A1:A9)",  # no NUL: PostgreSQL cannot store one (the unit test below has it)
    "\u200b=1+1",
    " \u202e@cmd",
    "\t-2+3",
    "\r=A1",
    "\uff1dWEBSERVICE(1)",
    "\u00a0=2*3",
]


def live_formula(cell: object) -> bool:
    """Whether a spreadsheet would read the cell as a formula: a text whose first visible character
    (after the control characters it drops, spaces and invisible marks) is a formula sign."""
    if not isinstance(cell, str) or cell.startswith("'"):
        return False
    text = "".join(ch for ch in cell if unicodedata.category(ch) != "Cc" or ch in "\t\r\n")
    invisible = " \u00a0\u200b\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\ufeff"
    text = text.lstrip(invisible)
    return text.startswith(FORMULA_STARTS)


@pytest.mark.parametrize("name", [*FORMULA_NAMES, "\x00=1+1"])
def test_a_formula_after_invisible_characters_gets_the_apostrophe(name):
    cell = safe_cell(name)
    assert cell.startswith("'") and not live_formula(cell)
    assert "\x01" not in cell and "\x00" not in cell and "\x1b" not in cell


@given(st.text(max_size=30))
def test_no_text_becomes_a_live_formula_in_a_csv(text):
    rows = list(csv.reader(io.StringIO(csv_bytes([[text]]).decode("utf-8-sig")), delimiter=";"))
    cells = [cell for row in rows for cell in row]
    assert not any(live_formula(cell) for cell in cells)


@pytest.fixture
def formula_world(db) -> World:
    """The URL map's world whose players, clubs, team, series and sign-up carry formula names, as
    stored before the forms refused control characters."""
    organizer = UserFactory(username="orga")
    tournament = TournamentFactory(organizers=[organizer], name="Formula cup")
    regs = [
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(
                first_name=FORMULA_NAMES[i % len(FORMULA_NAMES)], last_name=f"=Last{i}()",
                club__name=FORMULA_NAMES[(i + 3) % len(FORMULA_NAMES)] + f" {i % 3}",
            ),
        )
        for i in range(12)
    ]
    world = build_world(organizer=organizer, tournament=tournament, players=regs)
    Signup.objects.filter(pk=world.extra["signup"].pk).update(
        first_name=FORMULA_NAMES[0], last_name="+Ctrl", club="@Club", phone="=1+1", email="a@b.de"
    )
    tournament.series.__class__.objects.filter(pk=tournament.series_id).update(name="=Series()")
    world.extra["team"].__class__.objects.filter(pk=world.extra["team"].pk).update(name="-Team+1")
    for reg in regs[:6]:
        Payment.objects.create(tournament=tournament, registration=reg, amount_cents=800, method="cash")
    return world


def exported_cells(response) -> list[object]:
    content_type = response["Content-Type"]
    if content_type.startswith("text/csv"):
        text = response.content.decode("utf-8-sig")
        return [cell for row in csv.reader(io.StringIO(text), delimiter=";") for cell in row]
    workbook = load_workbook(io.BytesIO(response.content))
    return [cell.value for sheet in workbook.worksheets for row in sheet.iter_rows() for cell in row]


def test_no_export_of_the_app_holds_a_live_formula(formula_world, organizer_client):
    from django.urls import reverse

    urls = named_urls()
    exports = [name for name, kind in CONTENT_TYPES.items() if kind == "text/csv"]
    assert len(exports) >= 5
    checked = 0
    for name in exports:
        url = reverse(name, kwargs=formula_world.kwargs_for(urls[name]))
        for params in ({}, {"format": "xlsx"}):
            response = organizer_client.get(url, params)
            assert response.status_code == 200, (name, params)
            cells = exported_cells(response)
            assert not [cell for cell in cells if live_formula(cell)], (name, params)
            checked += len(cells)
    assert checked > 500
    tournament_pk = formula_world.tournament.pk
    standings = organizer_client.get(reverse("organizer:standings_export", args=[tournament_pk]))
    names = [cell for cell in exported_cells(standings) if isinstance(cell, str) and "Last0" in cell]
    assert names == ['\'=HYPERLINK("http://x","klick") =Last0()']
