"""QR codes as inline SVG (no image files, nothing fetched): organizer pages and printed sheets.

The address printed and encoded for phones is never a loopback address when the machine has a network
address: an organizer who opens the app as http://127.0.0.1:8000/ on the hall laptop prints links with
the laptop's address in the hall network instead (docs/deploy.md, PUBLIC_BASE_URL overrides it).
"""

import functools
import ipaddress
import socket
from urllib.parse import urlsplit, urlunsplit

import segno
from django.conf import settings
from django.http import HttpRequest
from django.utils.safestring import SafeString, mark_safe

# connect() on a UDP socket only picks the outgoing interface: no packet is sent to this address.
_PROBE_ADDRESS = ("10.254.254.254", 9)


def is_loopback_host(host: str) -> bool:
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def network_address() -> str | None:
    """This machine's IPv4 address in its network (None without one); sends no traffic."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE_ADDRESS)
            address = probe.getsockname()[0]
    except OSError:
        return None
    if not address or address == "0.0.0.0" or ipaddress.ip_address(address).is_loopback:
        return None
    return address


def absolute_url(path: str, request: HttpRequest | None = None) -> str:
    """The address phones can reach: PUBLIC_BASE_URL when set, else the host the request came to,
    with a loopback host (127.0.0.1, localhost, ::1) replaced by the machine's network address."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    if request is None:
        return path
    url = request.build_absolute_uri(path)
    parts = urlsplit(url)
    if parts.hostname and is_loopback_host(parts.hostname):
        address = network_address()
        if address is not None:
            netloc = f"{address}:{parts.port}" if parts.port else address
            url = urlunsplit(parts._replace(netloc=netloc))
    return url


def unreachable_address(request: HttpRequest | None) -> bool:
    """True when the printed links would still point at this machine only (no network address):
    the page then says plainly what to do."""
    if settings.PUBLIC_BASE_URL or request is None:
        return False
    host = urlsplit(request.build_absolute_uri("/")).hostname or ""
    return is_loopback_host(host) and network_address() is None


@functools.lru_cache(maxsize=512)
def qr_svg(data: str, *, scale: int = 4, border: int = 2) -> SafeString:
    """The code at its natural size with a viewBox, so CSS may scale it without clipping it. Kept for
    the addresses seen last: the captain links page draws one per table at every load, and encoding
    is the page's dearest part (a few milliseconds each)."""
    code = segno.make(data, error="m")
    width, height = code.symbol_size(scale=scale, border=border)
    svg = code.svg_inline(scale=scale, border=border, dark="#000", light="#fff", omitsize=True)
    svg = svg.replace("<svg ", f'<svg width="{width}" height="{height}" ', 1)
    return mark_safe(svg)  # segno's own markup, the data is encoded in the path, not inserted as text
