"""PDF documents: the one place that calls WeasyPrint (finished HTML in, PDF bytes out).

The caller renders its template to HTML; this module only lays it out. Nothing is ever fetched over
the network: a ``LocalFileFetcher`` serves files below a few allowed folders (static files, uploaded
logos) and refuses every other address, so a stray ``http://`` link in a template can neither slow
printing down nor reach the app or the internet. Fonts come from the system (fontconfig).
"""

from __future__ import annotations

import mimetypes
import threading
from collections.abc import Iterable, Sequence
from pathlib import Path
from urllib.parse import unquote, urlsplit

from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration
from weasyprint.urls import URLFetcher, URLFetcherResponse

__all__ = ["FetchRefused", "LocalFileFetcher", "render_pdf"]


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
