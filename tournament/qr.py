"""QR codes as inline SVG (no image files, nothing fetched): organizer pages and printed sheets."""

import segno
from django.conf import settings
from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe


def absolute_url(path: str, request: HttpRequest | None = None) -> str:
    """The address phones can reach: PUBLIC_BASE_URL when set, else the host the request came to."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    if request is not None:
        return request.build_absolute_uri(path)
    return path


def qr_svg(data: str, *, scale: int = 4, border: int = 2) -> SafeString:
    svg = segno.make(data, error="m").svg_inline(scale=scale, border=border, dark="#000", light="#fff")
    return mark_safe(svg)  # segno's own markup, the data is encoded in the path, not inserted as text
