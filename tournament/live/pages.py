"""The hall's polled pages drawn once per change of their evening and answered 304 when nothing changed.

A public page or projector slide is the same for every phone that asks for the same address in the
same language at the same version of the evening (`standings.versioning`), except for three things
drawn fresh on every answer: the CSRF token (each browser its own; the stored page holds a mark in its
place), the round clock (its seconds left), and for a logged-in person their own header (their pages
are stored apart, per user). The stored page lives in the database (`PageSnapshot`), so every app
server serves what one of them drew. A browser that sends the ETag of what it shows gets 304 after a
handful of queries and no rendering; the ETag holds the seconds left while a clock runs, so a running
clock is never frozen by a 304.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils.cache import patch_cache_control
from django.utils.translation import get_language

from tournament.clock.selectors import ClockState
from tournament.standings.versioning import stored

# Stands for the CSRF token in a stored page; a real token is 64 letters and digits, never this.
CSRF_MARK = "csrf-token-drawn-per-answer"
CLOCK_TEMPLATE = "tournament/_clock.html"
MAX_PATH = 200


@dataclass(frozen=True)
class StoredPage:
    body: str
    clock_html: str  # the clock as drawn in `body`, replaced by the current one on every answer
    # The page shows a clock drawn otherwise than `_clock_html` draws it: it cannot be spliced, so the
    # page is drawn on every answer rather than ever showing a clock's old seconds.
    drawn_per_answer: bool = False


def _digest(*parts: Any) -> str:
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:32]


def _clock_html(request: HttpRequest, clock: ClockState | None) -> str:
    return render_to_string(CLOCK_TEMPLATE, {"clock": clock}, request) if clock is not None else ""


def _clock_signature(clock: ClockState | None) -> tuple:
    """The clock's part of the ETag: its state and seconds left, so a running clock is never answered
    with a 304 that would show the seconds the browser was given earlier."""
    return () if clock is None else (clock.status, clock.remaining, clock.total)


def _storable(request: HttpRequest, params: frozenset[str]) -> bool:
    """Only an address made of the parameters the page reads, and short, is stored: made-up parameters
    would otherwise add rows at will (they are answered, drawn for that request only)."""
    return set(request.GET) <= params and len(request.get_full_path()) <= MAX_PATH


def conditional_page(
    request: HttpRequest, *, kind: str, tournament_id: int, version: tuple, clock: ClockState | None,
    render: Callable[[dict[str, Any]], str], params: frozenset[str] = frozenset(),
) -> HttpResponse:
    """The page for `request`: 304 when the browser already has it, else the stored page at `version`
    (drawn by `render(extra_context)` when none is stored) with this answer's token and clock.

    `version` holds everything the page shows besides the clock: the evening's (and season's) version
    and whatever else the caller's page depends on (settings on the tournament row, the sign-up state,
    the expected end); `params` the query parameters the page reads. Pending messages are shown once, so
    such an answer is drawn and never stored."""
    if len(get_messages(request)):
        return HttpResponse(render({}))
    user = request.user.pk if request.user.is_authenticated else None
    due = bool(user and request.session.get("password_change_due"))
    scope = _digest(kind, tournament_id, get_language(), request.get_host(), request.get_full_path(),
                    bool(getattr(request, "htmx", False)), request.headers.get("HX-Target", ""), user, due)
    # The clock's state is part of the version: what a page offers around it (pause or resume) changes
    # with it, also when it runs out without anybody's doing.
    page_key = _digest(scope, version, clock.status if clock is not None else None)
    etag = f'"{_digest(page_key, _clock_signature(clock))}"'
    if etag in [tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponseNotModified()
    else:
        def draw() -> StoredPage:
            body, clock_html = render({"csrf_token": CSRF_MARK}), _clock_html(request, clock)
            if clock_html not in body:
                return StoredPage(body, "", drawn_per_answer="data-clock" in body or "round-clock" in body)
            return StoredPage(body, clock_html)

        page = stored(tournament_id, f"{kind}:{tournament_id}:{scope}", page_key, draw) \
            if settings.STORED_PAGES and _storable(request, params) else None
        if page is None or page.drawn_per_answer:
            response = HttpResponse(render({}))
        else:
            body = page.body.replace(CSRF_MARK, str(get_token(request)))
            if page.clock_html:
                body = body.replace(page.clock_html, _clock_html(request, clock), 1)
            response = HttpResponse(body)
    response["ETag"] = etag
    # Stored by the browser, asked again every time: the page is current on every reload.
    patch_cache_control(response, no_cache=True, private=True)
    return response
