"""The import is bounded while it reads, refuses control characters, and summarises long previews
(#15 items 3, 5, 6, 7)."""

import io
import re
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tournament.models import Player
from tournament.players.imports import MAX_LINES, MAX_ROWS, parse_csv, parse_xlsx


def csv_of(count: int) -> bytes:
    return ("Vorname;Nachname\n" + "".join(f"Vor{i};Nach{i}\n" for i in range(count))).encode()


def xlsx(rows) -> bytes:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_exactly_the_limit_is_imported_one_more_refuses_the_file():
    assert len(parse_csv(csv_of(MAX_ROWS)).rows) == MAX_ROWS
    refused = parse_csv(csv_of(MAX_ROWS + 1))
    assert refused.rows == []
    assert [e.message for e in refused.errors] == [f"More than {MAX_ROWS} players."]
    assert refused.errors[0].line == MAX_ROWS + 2  # the header, then the first line too many


def test_a_long_csv_stops_at_the_first_line_too_many():
    refused = parse_csv(csv_of(100_000))
    assert refused.rows == [] and refused.errors[0].line == MAX_ROWS + 2


def test_a_long_xlsx_stops_at_the_first_line_too_many():
    rows = [(f"V{i}", f"N{i}") for i in range(MAX_ROWS + 500)]
    refused = parse_xlsx(xlsx([("Vorname", "Nachname"), *rows]))
    assert refused.rows == [] and "More than" in refused.errors[0].message


def test_a_sheet_claiming_a_million_rows_is_not_read_to_the_end():
    workbook = Workbook()
    workbook.active.append(("Vorname", "Nachname"))
    workbook.active.append(("Anna", "Alt"))
    workbook.active.cell(row=1_000_000, column=1, value="x")
    buffer = io.BytesIO()
    workbook.save(buffer)
    refused = parse_xlsx(buffer.getvalue())
    assert refused.rows == []
    assert refused.errors[0].message == f"The file has more than {MAX_LINES} lines."


def test_an_xlsx_whose_number_cell_holds_text_is_a_clear_error():
    data = xlsx([("Vorname", "Nachname", "Geburtsjahr"), ("Anna", "Alt", 1970)])
    broken = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(broken, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                cell = rb'<c r="C2"( t="n")?><v>1970</v></c>'
                content = re.sub(cell, b'<c r="C2" t="n"><v>abc</v></c>', content)
                assert b"abc" in content
            target.writestr(item, content)
    result = parse_xlsx(broken.getvalue())
    assert result.rows == [] and result.errors[0].message == "This is not an Excel workbook (.xlsx)."


@pytest.mark.parametrize("ch", ["\x00", "\x1b", "\x0b", "\x07", "\x0c"])
def test_control_characters_in_a_cell_refuse_the_line(ch):
    result = parse_csv(f"Vorname;Nachname\nAn{ch}na;Alt\nBen;Berg\n".encode())
    assert [r.name for r in result.rows] == ["Ben Berg"]
    assert [(e.line, e.message) for e in result.errors] == [
        (2, "This line contains control characters (such as NUL or escape).")
    ]


def test_names_from_a_file_are_nfc():
    result = parse_csv("Vorname;Nachname\nJo\u0308rg;Mu\u0308ller\n".encode())
    assert (result.rows[0].first_name, result.rows[0].last_name) == ("Jörg", "Müller")


def test_unicode_digits_are_no_year_of_birth():
    result = parse_csv("Vorname;Nachname;Geburtsjahr\nAnna;Alt;\uff11\uff19\uff17\uff10\n".encode())
    assert result.rows == [] and "is not a year" in result.errors[0].message


def test_a_long_preview_is_summarised(organizer_client, tournament):
    response = organizer_client.post(
        reverse("organizer:players_import", args=[tournament.pk]),
        {"file": SimpleUploadedFile("players.csv", csv_of(500) + b";Ohne\n" * 300)},
    )
    html = response.content.decode()
    assert html.count("<tr><td class=\"num\">") == 100
    assert "… and 400 more players." in html
    assert "300 lines cannot be imported" in html and "… and 200 more lines with a problem." in html
    assert "Import 500 players" in html
    assert not Player.objects.exists()


def test_a_refused_long_file_stores_nothing_and_names_the_limit(organizer_client, tournament):
    response = organizer_client.post(
        reverse("organizer:players_import", args=[tournament.pk]),
        {"file": SimpleUploadedFile("players.csv", csv_of(MAX_ROWS + 1))},
    )
    assert f"More than {MAX_ROWS} players." in response.content.decode()
    assert 'name="rows"' not in response.content.decode()
    assert not Player.objects.exists()
