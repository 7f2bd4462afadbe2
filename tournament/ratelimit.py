"""Rate limiting of failed logins and wrong captain links, per client address (and per user name).

A captain link is a 256-bit token, so guessing one is hopeless; the limit is defence in depth: a
device that keeps asking for links that do not exist (a scanner, a broken bookmark in a loop) is
told to wait instead of being answered, and it learns nothing about which tokens exist because a
blocked address is refused *before* the token is looked up.

Counts live in the database (`RateLimitWindow`), shared by every gunicorn worker: a fixed window that
starts with the first event and ends exactly `window` seconds later (the row says when), and a count
that one UPDATE raises, so parallel requests are all counted. `attempt()` counts *before* the thing
it guards is tried (the password checked): of thirty parallel wrong passwords exactly `limit` are
checked. Every function takes `now` so tests control the clock.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import math
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F
from django.http import HttpRequest
from django.utils import timezone

from tournament.models import RateLimitWindow

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


def stored_key(key: str) -> str:
    """Keys longer than the column (a forged address) are stored as their hash."""
    return key if len(key) <= 100 else "sha256:" + hashlib.sha256(key.encode()).hexdigest()


@dataclass(frozen=True)
class Window:
    count: int
    ends: dt.datetime | None  # None: nothing counted in a running window

    def retry_after(self, now: dt.datetime | None = None) -> int:
        """Whole seconds until the window ends (at least 1 while it runs)."""
        if self.ends is None:
            return 0
        remaining = (self.ends - (now or timezone.now())).total_seconds()
        return max(1, math.ceil(remaining)) if remaining > 0 else 0


def current(key: str, *, now: dt.datetime | None = None) -> Window:
    """The count in the running window of `key` (0 once the window has ended)."""
    now = now or timezone.now()
    row = RateLimitWindow.objects.filter(key=stored_key(key), window_ends__gt=now).first()
    return Window(row.count, row.window_ends) if row else Window(0, None)


def hit(key: str, window: int, *, now: dt.datetime | None = None) -> Window:
    """Count one event under `key`; the window starts with the first one. Returns the count so far."""
    now = now or timezone.now()
    key = stored_key(key)
    for _attempt in range(3):
        with transaction.atomic():
            if RateLimitWindow.objects.filter(key=key, window_ends__gt=now).update(count=F("count") + 1):
                row = RateLimitWindow.objects.get(key=key)
                return Window(row.count, row.window_ends)
            # No running window: the first event starts one (an ended one is started afresh).
            ends = now + dt.timedelta(seconds=window)
            ended = RateLimitWindow.objects.filter(key=key, window_ends__lte=now)
            if ended.update(count=1, window_ends=ends):
                return Window(1, ends)
            try:
                with transaction.atomic():
                    RateLimitWindow.objects.create(key=key, count=1, window_ends=ends)
                return Window(1, ends)
            except IntegrityError:  # another request created it a moment ago: count in that one
                continue
    raise RuntimeError(f"rate limit row for {key!r} could not be counted")


def forgive(key: str, *, now: dt.datetime | None = None) -> None:
    """Take one event back from the running window of `key` (an attempt counted before it turned out
    to be no failure)."""
    running = RateLimitWindow.objects.filter(key=stored_key(key), window_ends__gt=now or timezone.now())
    running.filter(count__gt=0).update(count=F("count") - 1)


def clear(*keys: str) -> None:
    RateLimitWindow.objects.filter(key__in=[stored_key(key) for key in keys]).delete()


def forget_ended(*, now: dt.datetime | None = None) -> int:
    """Delete the rows of windows that ended (called now and then; they count nothing any more)."""
    return RateLimitWindow.objects.filter(window_ends__lte=now or timezone.now()).delete()[0]


def _key(request: HttpRequest) -> str:
    return KEY_PREFIX + client_ip(request)


def blocked_window(request: HttpRequest, *, now: dt.datetime | None = None) -> Window | None:
    """The running window when this address asked for too many unknown links, else None."""
    window = current(_key(request), now=now)
    return window if window.count >= failures_allowed() else None


def blocked_exists(request: HttpRequest, *, now: dt.datetime | None = None) -> Exists:
    """`blocked_window` as a subquery, so the captain link's own query can carry it (one query for the
    fifty phones of a round instead of two)."""
    return Exists(RateLimitWindow.objects.filter(
        key=stored_key(_key(request)), window_ends__gt=now or timezone.now(), count__gte=failures_allowed()
    ))

def record_wrong_token(request: HttpRequest, *, now: dt.datetime | None = None) -> int:
    """Count one unknown link for this address; returns the count in the current window."""
    if now is None and secrets.randbelow(50) == 0:
        forget_ended()
    return hit(_key(request), window_seconds(), now=now).count
