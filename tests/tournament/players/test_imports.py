"""Player lists from CSV and XLSX: delimiters, encodings, column names, dates, line-numbered errors."""

import io
from datetime import date, datetime
from pathlib import Path

from openpyxl import Workbook

from tournament.players.imports import parse_csv, parse_upload, parse_xlsx

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def test_german_semicolon_cp1252_with_dates_and_years():
    data = (
        "Vorname;Nachname;Verein;Geburtsdatum\nJörg;Müller;Kartenclub Süd;31.12.1970\nAnna;Öz;;1985-02-03\n"
    )
    result = parse_csv(data.encode("cp1252"))
    assert result.ok
    assert [(r.line, r.first_name, r.last_name, r.club) for r in result.rows] == [
        (2, "Jörg", "Müller", "Kartenclub Süd"),
        (3, "Anna", "Öz", ""),
    ]
    assert result.rows[0].birth_date == date(1970, 12, 31)
    assert result.rows[0].birth_year == 1970
    assert result.rows[1].birth_date == date(1985, 2, 3)


def test_english_comma_utf8_with_bom_and_year_column():
    data = "\ufeffFirst name,Last name,Club,Year of birth\nMary,Smith,UNO Club,1966\n"
    result = parse_csv(data.encode("utf-8"))
    assert result.ok
    row = result.rows[0]
    assert (row.first_name, row.last_name, row.club, row.birth_year, row.birth_date) == (
        "Mary",
        "Smith",
        "UNO Club",
        1966,
        None,
    )
    assert result.columns["first_name"] == "First name"


def test_errors_name_the_line_and_good_rows_are_kept():
    data = (
        "Vorname;Nachname;Verein;Geburtsjahr;Geburtsdatum\n"
        "Anna;Huber;A;1960;\n"
        ";Maier;A;;\n"
        "Carl;Bach;A;19x0;\n"
        "Dora;Dorn;A;;32.01.1990\n"
        "\n"
        "Anna;Huber;A;;\n"
        "Emil;Ernst;A;1971;01.01.1970\n"
        "Fritz;Frei;B;;\n"
    )
    result = parse_csv(data.encode("utf-8"))
    assert [r.name for r in result.rows] == ["Anna Huber", "Fritz Frei"]
    assert [(e.line) for e in result.errors] == [3, 4, 5, 7, 8]
    messages = {e.line: e.message for e in result.errors}
    assert "First and last name" in messages[3]
    assert "19x0" in messages[4]
    assert "32.01.1990" in messages[5]
    assert "line 2" in messages[7]
    assert "does not match" in messages[8]
    assert result.rows[1].line == 9


def test_missing_name_columns_is_an_error_on_the_header_line():
    result = parse_csv(b"Spieler;Ort\nAnna;Wien\n")
    assert not result.rows
    assert result.errors[0].line == 1
    assert "Spieler" in result.errors[0].message


def test_empty_file_and_header_only():
    assert parse_csv(b"").errors[0].line == 1
    assert "no players" in parse_csv(b"Vorname;Nachname\n").errors[0].message


def test_xlsx_with_date_cells_and_numeric_years():
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["Vorname", "Nachname", "Verein", "Geburtsdatum", "Geburtsjahr"])
    sheet.append(["Anna", "Huber", "UNO-Freunde", datetime(1961, 3, 14), None])
    sheet.append(["Bernd", "Maier", None, None, 1957])
    sheet.append(["Carl", None, None, None, None])
    buffer = io.BytesIO()
    workbook.save(buffer)
    result = parse_upload("liste.xlsx", buffer.getvalue())
    assert [(r.name, r.birth_date, r.birth_year) for r in result.rows] == [
        ("Anna Huber", date(1961, 3, 14), 1961),
        ("Bernd Maier", None, 1957),
    ]
    assert [(e.line) for e in result.errors] == [4]


def test_not_a_workbook():
    result = parse_xlsx(b"PK\x03\x04 this is no zip")
    assert result.errors and result.errors[0].line == 1


def test_fixture_files_import_cleanly():
    demo = parse_csv((FIXTURES / "demo_players.csv").read_bytes())
    sample = parse_csv((FIXTURES / "sample_players.csv").read_bytes())
    assert demo.ok and len(demo.rows) == 23
    assert sample.ok and len(sample.rows) == 8
    assert sample.rows[3].club == "Spielefreunde Süd"
