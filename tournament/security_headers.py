"""Security headers on every response: Content-Security-Policy, Permissions-Policy (and, from Django's
SecurityMiddleware, Referrer-Policy and X-Content-Type-Options; see settings.py).

The pages satisfy the policy: scripts and styles come only from the app's static files (no inline
<script>, no style="" attribute, no inline event handlers; data for scripts is JSON in
<script type="application/json">, which is data, not script). htmx's inline indicator style is
switched off with <meta name="htmx-config"> and the indicator classes live in app.css. Everything is
served from the app itself, so the hall works offline and nothing else is allowed.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

DEFAULT_CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# No page uses any of these: the QR codes are scanned with the phone's own camera app.
DEFAULT_PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), bluetooth=(), "
    "magnetometer=(), gyroscope=(), accelerometer=(), interest-cohort=()"
)


def csp_header() -> str:
    directives = {**DEFAULT_CSP, **getattr(settings, "CONTENT_SECURITY_POLICY", {})}
    return "; ".join(f"{name} {value}" for name, value in directives.items() if value)


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csp = csp_header()
        self.permissions = getattr(settings, "PERMISSIONS_POLICY", DEFAULT_PERMISSIONS_POLICY)

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.csp)
        response.headers.setdefault("Permissions-Policy", self.permissions)
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        return response
