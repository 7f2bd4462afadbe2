"""PDF documents: the one place that calls WeasyPrint (finished HTML in, PDF bytes out).

The caller renders its template to HTML; this module only lays it out. Nothing is ever fetched over
the network: a ``LocalFileFetcher`` serves files below a few allowed folders (static files, uploaded
logos) and refuses every other address, so a stray ``http://`` link in a template can neither slow
printing down nor reach the app or the internet. Fonts come from the system (fontconfig).

Also here: who deals and who starts at a table (RULES.md §2), which the table sheets print.
"""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

__all__ = ["FetchRefused", "LocalFileFetcher", "TableRoles", "render_pdf", "table_roles"]


class FetchRefused(ValueError):
    """An address outside the allowed folders (or not a local file at all) was asked for."""


class LocalFileFetcher(URLFetcher):
    """A WeasyPrint URL fetcher for local files only.

    ``file:`` URLs resolving below one of ``roots`` and ``data:`` URLs are served; anything else
    (http, https, ftp, files elsewhere, ``..`` escapes, symlinks out of a root) is refused and
    recorded in ``refused``, so tests can see what a template asked for.
    """

    def __init__(self, roots: Iterable[Path | str]) -> None:
        super().__init__(allowed_protocols={"file", "data"}, allow_redirects=False)
        self.roots = tuple(Path(root).resolve() for root in roots)
        self.refused: list[str] = []
        self.served: list[str] = []

    def fetch(self, url: str, headers=None) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme == "data":
            return super().fetch(url, headers)
        if parts.scheme != "file" or parts.netloc not in {"", "localhost"}:
            self.refused.append(url)
            raise FetchRefused(f"not a local file: {url}")
        path = Path(unquote(parts.path)).resolve()
        if not path.is_file() or not any(path.is_relative_to(root) for root in self.roots):
            self.refused.append(url)
            raise FetchRefused(f"outside the allowed folders: {url}")
        self.served.append(url)
        content_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        headers = {"Content-Type": content_type}
        return URLFetcherResponse(path.as_uri(), body=path.read_bytes(), headers=headers)


_font_config: FontConfiguration | None = None
_font_lock = threading.Lock()


def _shared_font_config() -> FontConfiguration:
    """One FontConfiguration per process: building it scans the system fonts, which costs time."""
    global _font_config
    with _font_lock:
        if _font_config is None:
            _font_config = FontConfiguration()
        return _font_config


def render_pdf(
    html: str,
    *,
    base_url: str,
    allowed_roots: Sequence[Path | str] = (),
    fetcher: LocalFileFetcher | None = None,
) -> bytes:
    """Lay out one complete HTML document (every page, breaks set in CSS) in a single pass.

    ``base_url`` resolves relative links (normally the static folder as a ``file:`` URI);
    ``allowed_roots`` are the only folders files may be read from. Pass your own ``fetcher`` to
    inspect afterwards what was served or refused.
    """
    fetcher = fetcher or LocalFileFetcher(allowed_roots)
    document = HTML(string=html, base_url=base_url, url_fetcher=fetcher)
    return document.write_pdf(font_config=_shared_font_config(), optimize_images=True)


# --- Who deals and who starts -------------------------------------------------------------------

Born = tuple[int, int, int]  # (year, month, day); month and day 0 when only the year is known


def _earliest(born: Born) -> date:
    year, month, day = born
    return date(year, month or 1, day or 1)


def _latest(born: Born) -> date:
    year, month, day = born
    if not month:
        return date(year, 12, 31)
    if not day:
        next_month = date(year + month // 12, month % 12 + 1, 1)
        return date.fromordinal(next_month.toordinal() - 1)
    return date(year, month, day)


@dataclass(frozen=True)
class TableRoles:
    """The seat keys of the dealer (oldest) and the starter (youngest); None: the table decides."""

    dealer: object | None
    starter: object | None


def table_roles(born_by_seat: Mapping[object, Born | None]) -> TableRoles:
    """The oldest player deals and the youngest starts, where the birth data decides it for sure.

    A role is left open (None) when anybody's birth data is missing, or when the data cannot tell
    two players apart (same day, or the same year with only the year known for one of them).
    """
    if len(born_by_seat) < 2 or any(born is None for born in born_by_seat.values()):
        return TableRoles(dealer=None, starter=None)
    spans = {key: (_earliest(born), _latest(born)) for key, born in born_by_seat.items()}

    def certainly_oldest(key) -> bool:
        return all(spans[key][1] < spans[other][0] for other in spans if other != key)

    def certainly_youngest(key) -> bool:
        return all(spans[key][0] > spans[other][1] for other in spans if other != key)

    dealer = next((key for key in spans if certainly_oldest(key)), None)
    starter = next((key for key in spans if certainly_youngest(key)), None)
    return TableRoles(dealer=dealer, starter=starter)
