"""Answers /healthz before any other middleware.

A proxy's probe addresses the app server by its own address (`127.0.0.1:8001`), which is not in
ALLOWED_HOSTS on a server, and comes over plain HTTP, which the HTTPS redirect would answer with a 301:
either way a proxy would mark a healthy server down. So the probe is answered here, first in
MIDDLEWARE, before the host check (CommonMiddleware) and the redirect (SecurityMiddleware). It
reveals nothing but which check fails.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from .selectors import health_problems

HEALTH_PATH = "/healthz"


class HealthMiddleware:
    """200 "ok" when the server can serve requests, 503 with the failed checks otherwise."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.rstrip("/") != HEALTH_PATH:
            return self.get_response(request)
        if request.method not in {"GET", "HEAD"}:
            response = HttpResponse(status=405)
            response["Allow"] = "GET, HEAD"
            return response
        problems = health_problems()
        response = HttpResponse(
            "\n".join(problems or ["ok"]) + "\n",
            status=503 if problems else 200,
            content_type="text/plain; charset=utf-8",
        )
        response["Cache-Control"] = "no-store"
        return response
