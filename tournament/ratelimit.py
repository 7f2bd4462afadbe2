"""Rate limiting of wrong captain links, per client address.

A captain link is a 256-bit token, so guessing one is hopeless; the limit is defence in depth: a
device that keeps asking for links that do not exist (a scanner, a broken bookmark in a loop) is
told to wait instead of being answered, and it learns nothing about which tokens exist because a
blocked address is refused *before* the token is looked up.

Counts live in Django's default cache (fixed window). The default is a LocMemCache (see settings):
the hall runs one process, nothing extra has to be set up, and with several gunicorn workers each
keeps its own count, so the limit is at most multiplied by the number of workers - still a hard
bound. Point CACHES at a shared cache (database, Redis) if exact counting across processes matters.
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


def record_wrong_token(request: HttpRequest) -> int:
    """Count one unknown link for this address; returns the count in the current window."""
    key = _key(request)
    if cache.add(key, 1, timeout=window_seconds()):
        return 1
    try:
        return cache.incr(key)
    except ValueError:  # expired between add() and incr()
        cache.set(key, 1, timeout=window_seconds())
        return 1
