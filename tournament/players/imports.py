"""Player lists from CSV or XLSX files: parsed rows plus errors that name the line of the file.

Club secretaries export member lists from whatever they have: German or English column names, `;` or
`,` as delimiter, UTF-8 with or without BOM or Windows' cp1252, dates as dd.mm.yyyy or ISO. Nothing is
stored here; the organizer sees a preview first and the import view registers the rows through services.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from typing import Any

from django.utils.translation import gettext as _

from engine.numbers import NumberError, parse_int
from engine.rankings import parse_gender
from engine.text import TextError, clean_text, forbidden, name_key, person_key
from tournament.models import Club, Player

# Header spellings, compared after lower-casing and dropping everything but letters.
COLUMN_ALIASES: dict[str, tuple[str, ...]] = {
    "first_name": ("vorname", "firstname", "first", "givenname", "prenom"),
    "last_name": ("nachname", "lastname", "last", "surname", "familyname", "familienname", "name"),
    "club": ("verein", "club", "klub", "team", "mannschaft"),
    "birth_year": ("geburtsjahr", "jahrgang", "yearofbirth", "birthyear", "year", "jahr"),
    "gender": ("geschlecht", "gender", "sex"),
    "birth_date": ("geburtsdatum", "dateofbirth", "birthdate", "birthday", "geboren", "dob", "born"),
}
REQUIRED = ("first_name", "last_name")
# The columns' lengths (Player.first_name/last_name, Club.name): a longer cell is a line error here,
# not a database error at import time.
MAX_LENGTHS = {
    "first_name": Player._meta.get_field("first_name").max_length,
    "last_name": Player._meta.get_field("last_name").max_length,
    "club": Club._meta.get_field("name").max_length,
}
MAX_ROWS = 2000  # lines with content after the header; a longer file is refused while it is read
MAX_LINES = 10 * MAX_ROWS  # blank lines included: reading stops there (a sheet may claim a million rows)
MAX_COLUMNS = 50  # cells beyond this column are not read (a sheet may claim 16,384 columns)

_DATE_DE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{4})", re.ASCII)
_DATE_ISO = re.compile(r"(\d{4})-(\d{1,2})-(\d{1,2})", re.ASCII)


@dataclass
class ImportRow:
    """One player read from the file, with the line it came from."""

    line: int
    first_name: str
    last_name: str
    club: str = ""
    birth_year: int | None = None
    birth_date: date | None = None
    gender: str = ""  # optional, as engine.rankings.parse_gender reads it

    @property
    def name(self) -> str:
        return f"{self.first_name} {self.last_name}"

    @property
    def identity(self) -> tuple[str, str]:
        """Who the row is, as the database finds a person (name and club keys, `engine.text`)."""
        return person_key(self.first_name, self.last_name), name_key(self.club)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["birth_date"] = self.birth_date.isoformat() if self.birth_date else None
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ImportRow:
        data = dict(data)
        data["birth_date"] = date.fromisoformat(data["birth_date"]) if data.get("birth_date") else None
        return cls(**data)


@dataclass
class ImportProblem:
    """A problem with one line of the file (line 1 is the header)."""

    line: int
    message: str


@dataclass
class ImportResult:
    rows: list[ImportRow] = field(default_factory=list)
    errors: list[ImportProblem] = field(default_factory=list)
    columns: dict[str, str] = field(default_factory=dict)  # field -> header as written in the file

    @property
    def ok(self) -> bool:
        return not self.errors


def _key(header: Any) -> str:
    return re.sub(r"[^a-z]", "", str(header or "").lower().replace("ä", "ae").replace("ü", "ue"))


def match_columns(headers: list[Any]) -> dict[str, int]:
    """Field name -> column index for the headers this module recognises (first match wins)."""
    found: dict[str, int] = {}
    keys = [_key(h) for h in headers]
    for field_name, aliases in COLUMN_ALIASES.items():
        for alias in aliases:
            if alias in keys and keys.index(alias) not in found.values():
                found[field_name] = keys.index(alias)
                break
    return found


def decode(data: bytes) -> str:
    """UTF-8 (a BOM is dropped) or, failing that, Windows-1252 as Excel writes it in Germany."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


def sniff_delimiter(text: str) -> str:
    """`;` (German Excel), `,` or tab: whichever occurs most in the header line."""
    header = text.splitlines()[0] if text else ""
    counts = {delimiter: header.count(delimiter) for delimiter in (";", ",", "\t")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] else ";"


def _text(value: Any) -> str:
    """A cell as text, its whitespace collapsed (headers, and values quoted in messages)."""
    if value is None:
        return ""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join("".join(ch if not forbidden(ch) else " " for ch in str(value)).split())


def _cleaned(value: Any) -> str:
    """A name or club cell through the app's one text rule (engine.text); TextError when refused."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return " ".join(clean_text(value).split())


def parse_birth_date(value: Any) -> date | None:
    """dd.mm.yyyy, yyyy-mm-dd, or a date cell from a spreadsheet; ValueError otherwise."""
    if value in (None, ""):
        return None
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    text = _text(value)
    if not text:
        return None
    if match := _DATE_DE.fullmatch(text):
        day, month, year = map(int, match.groups())
    elif match := _DATE_ISO.fullmatch(text.split("T")[0].split(" ")[0]):
        year, month, day = map(int, match.groups())
    else:
        raise ValueError(text)
    return date(year, month, day)


def parse_birth_year(value: Any) -> int | None:
    text = _text(value)
    if not text:
        return None
    try:
        year = parse_int(text)
    except NumberError:
        raise ValueError(text) from None
    if year is None or not 1900 <= year <= 2100:
        raise ValueError(text)
    return year


def rows_from_table(lines: list[tuple[int, list[Any]]]) -> ImportResult:
    """Turn (line number, cells) pairs, the first being the header, into rows and errors."""
    result = ImportResult()
    if not lines:
        result.errors.append(ImportProblem(1, _("The file is empty.")))
        return result
    header_line, headers = lines[0]
    columns = match_columns(headers)
    result.columns = {name: _text(headers[index]) for name, index in columns.items()}
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        result.errors.append(
            ImportProblem(
                header_line,
                _(
                    "The header must name the columns for first and last name "
                    "(e.g. 'Vorname;Nachname;Verein' or 'First name,Last name,Club'); found: %(headers)s."
                )
                % {"headers": ", ".join(_text(h) for h in headers if _text(h)) or "-"},
            )
        )
        return result
    seen: dict[tuple[str, str, str], int] = {}
    for line, cells in lines[1:]:

        def cell(name: str, cells: list[Any] = cells) -> Any:
            index = columns.get(name)
            return cells[index] if index is not None and index < len(cells) else None

        if not any(_text(c) for c in cells):
            continue  # blank lines are common at the end of exported lists
        try:
            first, last, club = (_cleaned(cell(name)) for name in ("first_name", "last_name", "club"))
        except TextError:
            result.errors.append(
                ImportProblem(line, _("This line contains control characters (such as NUL or escape)."))
            )
            continue
        if not first or not last:
            result.errors.append(ImportProblem(line, _("First and last name are both needed.")))
            continue
        too_long = [
            name for name, value in (("first_name", first), ("last_name", last), ("club", club))
            if len(value) > MAX_LENGTHS[name]
        ]
        if too_long:
            name = too_long[0]
            result.errors.append(
                ImportProblem(
                    line,
                    _("%(column)s is too long (at most %(max)s characters).")
                    % {"column": result.columns.get(name, name), "max": MAX_LENGTHS[name]},
                )
            )
            continue
        row = ImportRow(line=line, first_name=first, last_name=last, club=club)
        try:
            row.birth_date = parse_birth_date(cell("birth_date"))
        except ValueError:
            result.errors.append(
                ImportProblem(
                    line,
                    _("%(name)s: the date of birth '%(value)s' is not a date like 31.12.1970 or 1970-12-31.")
                    % {"name": row.name, "value": _text(cell("birth_date"))},
                )
            )
            continue
        try:
            row.birth_year = parse_birth_year(cell("birth_year"))
        except ValueError:
            result.errors.append(
                ImportProblem(
                    line,
                    _("%(name)s: the year of birth '%(value)s' is not a year between 1900 and 2100.")
                    % {"name": row.name, "value": _text(cell("birth_year"))},
                )
            )
            continue
        try:
            row.gender = parse_gender(_text(cell("gender")))
        except ValueError:
            result.errors.append(
                ImportProblem(
                    line,
                    _("%(name)s: the gender '%(value)s' is not one of w, m, d "
                      "(or weiblich, männlich, divers).")
                    % {"name": row.name, "value": _text(cell("gender"))},
                )
            )
            continue
        if row.birth_date and not row.birth_year:
            row.birth_year = row.birth_date.year
        if row.birth_date and row.birth_year != row.birth_date.year:
            result.errors.append(
                ImportProblem(
                    line,
                    _("%(name)s: the year of birth %(year)s does not match the date of birth.")
                    % {"name": row.name, "year": row.birth_year},
                )
            )
            continue
        identity = row.identity
        if identity in seen:
            result.errors.append(
                ImportProblem(
                    line,
                    _("%(name)s is listed twice (also on line %(other)s).")
                    % {"name": row.name, "other": seen[identity]},
                )
            )
            continue
        seen[identity] = line
        result.rows.append(row)
    if not result.rows and not result.errors:
        result.errors.append(ImportProblem(header_line, _("The file lists no players.")))
    return result


def too_many(line: int) -> ImportResult:
    """The answer for a file with more than MAX_ROWS lines: nothing of it is imported."""
    return ImportResult(errors=[ImportProblem(line, _("More than %(max)s players.") % {"max": MAX_ROWS})])


class TooManyLines(Exception):
    def __init__(self, line: int, result: ImportResult) -> None:
        self.line, self.result = line, result


def bounded(lines: Iterable[tuple[int, list[Any]]]) -> list[tuple[int, list[Any]]]:
    """The header and at most MAX_ROWS lines with content, read one by one: a longer file stops the
    reading at the first line too many (TooManyLines), before the rest is even looked at."""
    kept: list[tuple[int, list[Any]]] = []
    for count, (line, cells) in enumerate(lines, start=1):
        if count > MAX_LINES:
            raise TooManyLines(line, ImportResult(errors=[ImportProblem(
                line, _("The file has more than %(max)s lines.") % {"max": MAX_LINES})]))
        cells = list(cells[:MAX_COLUMNS])
        if any(_text(c) for c in cells):  # blank lines are not kept
            kept.append((line, cells))
            if len(kept) > MAX_ROWS + 1:  # the header is the first line with content
                raise TooManyLines(line, too_many(line))
    return kept


def parse_csv(data: bytes) -> ImportResult:
    text = decode(data)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sniff_delimiter(text))
    try:
        lines = bounded((reader.line_num, cells) for cells in reader)
    except TooManyLines as exc:
        return exc.result
    except csv.Error as exc:
        return ImportResult(
            errors=[ImportProblem(reader.line_num, _("The file cannot be read: %(error)s") % {"error": exc})]
        )
    return rows_from_table(lines)


def parse_xlsx(data: bytes) -> ImportResult:
    from openpyxl import load_workbook

    try:
        workbook = load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception:  # openpyxl raises many kinds for files that are not workbooks
        return ImportResult(errors=[ImportProblem(1, _("This is not an Excel workbook (.xlsx)."))])
    try:
        sheet = workbook.worksheets[0]
        rows = sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS)
        lines = bounded(enumerate(rows, start=1))
    except TooManyLines as exc:
        return exc.result
    except Exception:  # a damaged sheet (e.g. a number cell holding text) fails while it is read
        return ImportResult(errors=[ImportProblem(1, _("This is not an Excel workbook (.xlsx)."))])
    finally:
        workbook.close()
    # Skip leading empty rows so the header is the first line with content.
    while lines and not any(_text(c) for c in lines[0][1]):
        lines.pop(0)
    return rows_from_table(lines)


def parse_upload(filename: str, data: bytes) -> ImportResult:
    """Pick the parser by content: an XLSX file is a ZIP archive, anything else is read as CSV."""
    if data[:2] == b"PK" or filename.lower().endswith((".xlsx", ".xlsm")):
        return parse_xlsx(data)
    return parse_csv(data)
