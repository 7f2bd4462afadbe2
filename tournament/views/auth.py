"""Login with a limit on failed attempts, per client address and per user name."""

from __future__ import annotations

import hashlib
import math

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.db import transaction
from django.forms.utils import ErrorDict
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
    return max((ratelimit.current(key).count for key in _keys(request)), default=0)


def count_attempt(request: HttpRequest) -> list[ratelimit.Window]:
    """Count this attempt *before* the password is checked: parallel attempts cannot pass together.

    Both keys are counted in one transaction, always in the same order, so parallel attempts are
    counted one after the other under both keys alike (else one could be 3rd by address and 6th by
    name while another is 6th and 3rd, and both would be refused)."""
    with transaction.atomic():
        return [ratelimit.hit(key, settings.LOGIN_FAILURE_WINDOW) for key in _keys(request)]


def clear_failures(request: HttpRequest) -> None:
    ratelimit.clear(*_keys(request))


class RateLimitedLoginView(auth_views.LoginView):
    """Django's login; after too many failures the form is refused with 429 without checking the password.

    Every attempt counts (a successful one then clears the counts), so of many parallel attempts only
    LOGIN_FAILURE_LIMIT reach the password check; the refusal says when the window really ends.
    """

    def post(self, request, *args, **kwargs):
        over = [w for w in count_attempt(request) if w.count > settings.LOGIN_FAILURE_LIMIT]
        if over:
            seconds = max(w.retry_after() for w in over)
            form = self.get_form()
            # Not form.errors.clear(): reading form.errors validates the form, i.e. checks the password.
            form._errors, form.cleaned_data = ErrorDict(), {}
            form.add_error(None, _(
                "Too many failed attempts. Please wait %(minutes)s minutes and try again."
            ) % {"minutes": max(1, math.ceil(seconds / 60))})
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            response["Retry-After"] = str(seconds)
            return response
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        clear_failures(self.request)
        return super().form_valid(form)
