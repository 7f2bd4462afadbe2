"""Login with a limit on failed attempts, per client address and per user name."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core.cache import cache
from django.http import HttpRequest
from django.utils.translation import gettext as _

from tournament import ratelimit


def _keys(request: HttpRequest) -> list[str]:
    username = request.POST.get("username", "").strip().lower()
    keys = [f"login-fail:ip:{ratelimit.client_ip(request)}"]
    if username:
        keys.append("login-fail:user:" + hashlib.sha256(username.encode()).hexdigest())
    return keys


def failures(request: HttpRequest) -> int:
    return max((cache.get(key, 0) for key in _keys(request)), default=0)


def record_failure(request: HttpRequest) -> None:
    for key in _keys(request):
        ratelimit.hit(key, settings.LOGIN_FAILURE_WINDOW)


def clear_failures(request: HttpRequest) -> None:
    cache.delete_many(_keys(request))


class RateLimitedLoginView(auth_views.LoginView):
    """Django's login; after too many failures the form is refused with 429 without checking the password."""

    def post(self, request, *args, **kwargs):
        if failures(request) >= settings.LOGIN_FAILURE_LIMIT:
            form = self.get_form()
            form.errors.clear()
            form.add_error(None, _(
                "Too many failed attempts. Please wait %(minutes)s minutes and try again."
            ) % {"minutes": max(1, settings.LOGIN_FAILURE_WINDOW // 60)})
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            return response
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form):
        record_failure(self.request)
        return super().form_invalid(form)

    def form_valid(self, form):
        clear_failures(self.request)
        return super().form_valid(form)
