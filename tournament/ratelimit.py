"""Rate limiting of wrong captain links, per client address.

A captain link is a 256-bit token, so guessing one is hopeless; the limit is defence in depth: a
device that keeps asking for links that do not exist (a scanner, a broken bookmark in a loop) is
told to wait instead of being answered, and it learns nothing about which tokens exist because a
blocked address is refused *before* the token is looked up.

Counts live in Django's default cache (fixed window), a file cache in var/ shared by the gunicorn
workers with nothing extra to set up. Its increments are not atomic across processes, so two
requests at the same moment may count once: a limit for scanners, not an exact counter. Point
CACHES at Redis or Memcached if exact counting matters. The login limit uses the same `hit()`.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

KEY_PREFIX = "captain-wrong-token:"


def failures_allowed() -> int:
    return int(getattr(settings, "CAPTAIN_WRONG_TOKENS_ALLOWED", 20))


def window_seconds() -> int:
    return int(getattr(settings, "CAPTAIN_WRONG_TOKEN_WINDOW", 600))


def client_ip(request: HttpRequest) -> str:
    """The address a request came from; behind a reverse proxy, the one the proxy recorded.

    X-Forwarded-For is trusted only when TRUST_X_FORWARDED_FOR is on (a proxy we run appends the
    real address as the last entry; anything before it could be forged by the client).
    """
    if getattr(settings, "TRUST_X_FORWARDED_FOR", False):
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        addresses = [part.strip() for part in forwarded.split(",") if part.strip()]
        if addresses:
            return addresses[-1]
    return request.META.get("REMOTE_ADDR", "") or "unknown"


def recorded_address(request: HttpRequest) -> str | None:
    """The client's address as stored with a result: a valid IP address, or None."""
    try:
        return str(ipaddress.ip_address(client_ip(request)))
    except ValueError:
        return None


def _key(request: HttpRequest) -> str:
    return KEY_PREFIX + client_ip(request)


def is_blocked(request: HttpRequest) -> bool:
    """True once this address asked for too many unknown links within the window."""
    return (cache.get(_key(request)) or 0) >= failures_allowed()


def hit(key: str, window: int) -> int:
    """Count one event under `key`; the window starts with the first one. Returns the count so far."""
    if cache.add(key, 1, timeout=window):
        return 1
    try:
        return cache.incr(key)  # keeps the expiry the first event set
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=window)
        return 1


def record_wrong_token(request: HttpRequest) -> int:
    """Count one unknown link for this address; returns the count in the current window."""
    return hit(_key(request), window_seconds())
