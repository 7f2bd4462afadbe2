"""Exports are formula-safe: the files are opened (csv, openpyxl) and no cell is a formula (#15 item 2)."""

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import play_round
from tournament.models import Club, Player
from tournament.spreadsheets import append_row, csv_bytes, new_workbook, safe_cell, workbook_bytes

NASTY = ['=HYPERLINK("http://x","klick")', "+SUM(1,2)", "-2+3", "@cmd", "\tTab", "\rReturn"]


@pytest.mark.parametrize("text", NASTY)
def test_a_cell_that_starts_like_a_formula_gets_an_apostrophe(text):
    assert safe_cell(text) == "'" + text


def test_numbers_and_harmless_text_stay_as_they_are():
    assert [safe_cell(v) for v in (-3, 0, 2.5, "Anna", "1.", None)] == [-3, 0, 2.5, "Anna", "1.", ""]


def test_control_characters_are_dropped_so_the_xlsx_can_be_written():
    workbook = new_workbook("Test")
    append_row(workbook.active, ["A\x1bB\x0b\x07\x0cC"])
    sheet = load_workbook(io.BytesIO(workbook_bytes(workbook))).active
    assert sheet["A1"].value == "ABC"


def test_the_module_writes_no_formula_cell_whatever_the_text():
    workbook = new_workbook("Test")
    append_row(workbook.active, NASTY)
    sheet = load_workbook(io.BytesIO(workbook_bytes(workbook))).active
    assert all(cell.data_type == "s" for cell in sheet[1])
    rows = list(csv.reader(io.StringIO(csv_bytes([NASTY]).decode("utf-8-sig"), newline=""), delimiter=";"))
    assert all(value.startswith("'") for value in rows[0])


@pytest.fixture
def formula_tournament(tournament, players, organizer):
    tournament.name = '=HYPERLINK("http://x","klick")'
    tournament.save()
    registered = Player.objects.filter(registrations__tournament=tournament)
    for player, text in zip(registered, NASTY[:4], strict=False):
        player.first_name = text
        player.club = Club.objects.create(name=text + " club")
        player.save()
    play_round(tournament, organizer, seed=1, points=(0, 10, 20, 30))
    return tournament


def test_standings_csv_has_no_cell_a_spreadsheet_would_run(organizer_client, formula_tournament):
    response = organizer_client.get(reverse("organizer:standings_export", args=[formula_tournament.pk]))
    lines = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    cells = [cell for line in lines for cell in line]
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for cell in cells)
    assert any(cell.startswith("'=HYPERLINK") for cell in cells)
    assert any(cell.startswith("'+SUM") for cell in cells)


def test_standings_xlsx_has_no_formula_cell(organizer_client, formula_tournament):
    response = organizer_client.get(
        reverse("organizer:standings_export", args=[formula_tournament.pk]), {"format": "xlsx"}
    )
    sheet = load_workbook(io.BytesIO(response.content)).active
    cells = [cell for row in sheet.iter_rows() for cell in row if cell.value is not None]
    assert not [cell.coordinate for cell in cells if cell.data_type == "f"]
    assert str(sheet["A1"].value).startswith("'=HYPERLINK")
    assert not any(str(cell.value).startswith(("=", "+", "@")) for cell in cells if cell.data_type == "s")
