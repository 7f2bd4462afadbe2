"""The typography and plumbing every document shares: the one call to WeasyPrint (`html_to_pdf`), file
names and the Content-Disposition header, the logo, dates as the active language writes them, places
and points in words, and the type steps that keep long names on their line."""

from __future__ import annotations

import base64
import mimetypes
import re
import unicodedata
from datetime import date
from pathlib import Path
from urllib.parse import quote

from django.conf import settings
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.printing import LocalFileFetcher, render_pdf
from engine.scoring import ScoringFormat
from tournament.models import Tournament


def static_root() -> Path:
    """The source static folder: print.css lives there, so no collectstatic is needed to print."""
    return Path(settings.STATICFILES_DIRS[0])


def allowed_roots() -> list[Path]:
    """The only folders WeasyPrint may read from: the static files (the logo comes as a data: URI,
    read through its storage: `logo_uri`)."""
    roots = [Path(folder) for folder in settings.STATICFILES_DIRS]
    return [*roots, Path(settings.STATIC_ROOT)]


def html_to_pdf(html: str, *, fetcher: LocalFileFetcher | None = None) -> bytes:
    return render_pdf(
        html, base_url=static_root().as_uri() + "/", allowed_roots=allowed_roots(), fetcher=fetcher
    )


# In a file name a slash becomes a hyphen; control characters and those Windows refuses become a space.
_FILE_NAME_SLASHES = re.compile(r"[\\/]")
_FILE_NAME_REFUSED = re.compile(r'[\x00-\x1f\x7f:*?"<>|]')
DASH = " \N{EN DASH} "  # between a name and what follows it in titles and file names
_ASCII_LETTERS = str.maketrans({
    "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue", "ß": "ss",
    "\N{EN DASH}": "-", "\N{EM DASH}": "-",
})  # fmt: skip
FILE_NAME_LENGTH = 150


def file_name(tournament: Tournament, kind: str, *, extension: str = "pdf") -> str:
    """The evening's name, a dash and the document: 'UNO-Turnier 2026 - Tischzettel Runde 3 (A4).pdf'
    with an en dash. Safe in every file system; umlauts stay (`content_disposition` adds an ASCII
    spelling)."""
    evening, document = (
        " ".join(_FILE_NAME_REFUSED.sub(" ", _FILE_NAME_SLASHES.sub("-", text)).split())
        for text in (tournament.name, kind)
    )
    stem = f"{evening}{DASH}{document}" if evening else document
    return f"{stem[:FILE_NAME_LENGTH].strip(DASH + '.-')}.{extension}"


def ascii_file_name(name: str) -> str:
    """The name in plain ASCII for old clients: umlauts spelled out (ä → ae), other accents dropped."""
    spelled = unicodedata.normalize("NFKD", name.translate(_ASCII_LETTERS))
    plain = _FILE_NAME_REFUSED.sub(" ", _FILE_NAME_SLASHES.sub("-", spelled))
    plain = " ".join(plain.encode("ascii", "ignore").decode("ascii").split())
    stem, dot, extension = plain.rpartition(".")
    return plain if stem.strip(" .-") else f"document{dot}{extension if dot else 'pdf'}"


def content_disposition(name: str, *, download: bool = False) -> str:
    """`inline` (the browser shows the PDF, ready to print) or `attachment` (saved), with the file name
    in ASCII and, where it has other letters, as UTF-8 in filename* (RFC 6266), which browsers prefer."""
    header = f'{"attachment" if download else "inline"}; filename="{ascii_file_name(name)}"'
    if not name.isascii():
        header += f"; filename*=utf-8''{quote(name)}"
    return header


def titled(kind: str, name: str) -> str:
    """'Season standings', a dash and the name ('Jahreswertung - Wintercup'), or only the name where it
    says the kind already: 'Jahreswertung 2027', never 'Jahreswertung - Jahreswertung 2027'."""
    return name if kind.casefold() in name.casefold() else f"{kind}{DASH}{name}"


def logo_uri(tournament: Tournament) -> str:
    """The uploaded logo as a data: URI, or '' when none is set or the file is gone.

    Read through the logo's storage (STORAGES["default"]), never from a path on this machine's disk: with
    several app servers the logo may have been uploaded through another one, into shared storage."""
    if not tournament.logo:
        return ""
    try:
        with tournament.logo.storage.open(tournament.logo.name, "rb") as logo:
            data = logo.read()
    except (OSError, ValueError):
        return ""
    content_type = mimetypes.guess_type(tournament.logo.name)[0] or "application/octet-stream"
    return f"data:{content_type};base64,{base64.b64encode(data).decode('ascii')}"


def points_label(tournament: Tournament) -> str:
    if tournament.scoring == ScoringFormat.MINUS_POINTS:
        return _("Minus points")
    return _("Points")



def document_date(value: date, *, short: bool = False) -> str:
    """A date the way the active language writes it: '6. Dezember 2026', or with `short` '06.12.2026'
    (Django's DATE_FORMAT and SHORT_DATE_FORMAT). Every document prints its dates through this."""
    return formats.date_format(value, "SHORT_DATE_FORMAT" if short else "DATE_FORMAT")


# Lengths (characters) from which a document sets a text in the next smaller type (`text_size`).
CERTIFICATE_NAME_STEPS = (24, 36, 56)
CERTIFICATE_CLUB_STEPS = (60, 90, 120)
CERTIFICATE_EVENT_STEPS = (50, 80, 110)  # the evening's name on its certificates
PRIZE_EVENT_STEPS = (40, 60, 90)  # a season's or an evening's name on a prize certificate
SHEET_NAME_STEPS = (26, 34, 42)  # a player's name on a table sheet


def text_size(text: str, limits: tuple[int, int, int]) -> str:
    """A size class by length: '' up to the first limit, then 'long', 'longer', 'longest'."""
    for size, limit in zip(("", "long", "longer"), limits, strict=True):
        if len(text) <= limit:
            return size
    return "longest"


def ordinal(rank: int) -> str:
    """'1st', '2nd', '11th' in English, '1.', '2.', '11.' in German."""
    text = _("%(rank)sth")
    if rank % 100 not in (11, 12, 13):
        text = {1: _("%(rank)sst"), 2: _("%(rank)snd"), 3: _("%(rank)srd")}.get(rank % 10, text)
    return text % {"rank": rank}


def ordinal_place(rank: int) -> str:
    """'1st place', '1. Platz'."""
    return _("%(ordinal)s place") % {"ordinal": ordinal(rank)}



def points_text(value, *, minus: bool) -> str:
    """ "with 1 minus point", "with 12 points": the plural follows the number."""
    count = int(value)
    if minus:
        text = ngettext("with %(points)s minus point", "with %(points)s minus points", count)
    else:
        text = ngettext("with %(points)s point", "with %(points)s points", count)
    return text % {"points": value}

