"""The one place the app writes CSV and XLSX files: every cell is made safe for spreadsheet programs.

A text cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by
Excel and LibreOffice ("CSV injection"): a player named `=HYPERLINK("http://x","klick")` would become
a live link in the organizer's spreadsheet. Such a cell gets a leading apostrophe (OWASP's advice; the
apostrophe shows, the formula never runs), and in XLSX it is written as a string, never a formula.
Numbers stay numbers (a negative score is not text).

The order matters: control characters (which XML cannot hold, and which a spreadsheet drops when it
reads the cell) are removed *first*, and the test looks past leading spaces and invisible characters
(zero-width spaces, bidi marks) and takes the full-width signs for what they are, so `\x01=…` or
` =…` cannot slip a formula past it. Every CSV and XLSX cell the app writes goes through `safe_cell`.
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Sequence
from decimal import Decimal
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def _without_control_characters(text: str) -> str:
    return "".join(ch for ch in text if ch in "\t\n\r" or not (ord(ch) < 32 or 0x7F <= ord(ch) < 0xA0))


def _visible_start(text: str) -> str:
    """The text from its first character a spreadsheet would not skip: spaces and invisible format
    characters (zero-width space, bidi marks, BOM) are passed over."""
    for index, ch in enumerate(text):
        if ch in "\t\r\n":
            return text[index:]
        if not (ch.isspace() or unicodedata.category(ch) == "Cf"):
            return text[index:]
    return ""


def safe_cell(value: Any) -> Any:
    """The value as it may go into a spreadsheet: numbers as they are, text never a formula."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, int | float | Decimal):
        return value  # a number, never a formula (a negative amount stays a number)
    text = _without_control_characters(str(value))
    if text.startswith(FORMULA_STARTS) or _visible_start(text).startswith(FORMULA_STARTS):
        text = "'" + text
    return text


def safe_row(row: Iterable[Any]) -> list[Any]:
    return [safe_cell(value) for value in row]


def csv_bytes(rows: Iterable[Sequence[Any]]) -> bytes:
    """CSV as German Excel reads it: `;` between cells, UTF-8 with BOM, CRLF."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    for row in rows:
        writer.writerow(safe_row(row))
    return buffer.getvalue().encode("utf-8-sig")


def new_workbook(sheet_title: str):
    """An openpyxl workbook whose active sheet is named (at most 31 characters, as Excel allows)."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.title = "".join(ch for ch in sheet_title if ch not in "[]:*?/\\")[:31] or "Sheet"
    return workbook


def append_row(sheet, row: Iterable[Any]) -> None:
    """Append one row; text cells are strings (never formulas), whatever they start with."""
    sheet.append(safe_row(row))
    for cell in sheet[sheet.max_row]:
        if cell.data_type == "f":  # openpyxl reads any text starting with "=" as a formula
            cell.data_type = "s"


def workbook_bytes(workbook) -> bytes:
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


class DecimalComma(Decimal):
    """A number cell written with a decimal comma ("8,50", "-3,00"), as a German spreadsheet reads a
    number from CSV. Still a number to `safe_cell` (never taken for a formula, however it starts)."""

    def __str__(self) -> str:
        return format(self, "f").replace(".", ",")
