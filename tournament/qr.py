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


def local_address(host: str) -> bool:
    """Whether `host` is an IP address of one of this machine's interfaces: only then can a socket be
    bound to it (nothing is sent)."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as probe:
            probe.bind((str(address), 0))
    except OSError:
        return False
    return True


def own_host(hostname: str) -> bool:
    """Whether a host name names this machine: a loopback name, an address of its own, or its name."""
    if is_loopback_host(hostname) or local_address(hostname):
        return True
    name = socket.gethostname().lower()
    return hostname.lower() in {name, f"{name}.local", socket.getfqdn().lower()}


def host_is_checked(request: HttpRequest) -> bool:
    """Whether the Host the request names may go into a link: Django checked it against ALLOWED_HOSTS
    (no wildcard there), or it names this machine. With the hall's `ALLOWED_HOSTS=*` anybody can send
    any Host, and a link built from it would send a private link to their site."""
    if "*" not in settings.ALLOWED_HOSTS:
        return True
    return own_host(urlsplit("//" + request.get_host()).hostname or "")


def absolute_url(path: str, request: HttpRequest | None = None) -> str:
    """The address phones can reach, for links that are printed, shown or mailed: PUBLIC_BASE_URL when
    set; else the host the request came to when it is checked (`host_is_checked`), with a loopback
    host (127.0.0.1, localhost, ::1) replaced by the machine's network address; else the machine's
    network address on the port the server listens on (PORT)."""
    if settings.PUBLIC_BASE_URL:
        return settings.PUBLIC_BASE_URL + path
    if request is None:
        return path
    scheme = "https" if request.is_secure() else "http"
    if not host_is_checked(request):
        port = settings.SERVER_PORT
        netloc = network_address() or "127.0.0.1"
        if port != {"http": 80, "https": 443}[scheme]:
            netloc = f"{netloc}:{port}"
        return urlunsplit((scheme, netloc, path, "", ""))
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
