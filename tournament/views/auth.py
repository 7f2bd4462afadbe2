"""Login with limits on failed attempts that a stranger cannot turn against the organizer.

Three counts, each in the database (`tournament.ratelimit`), each counted *before* the password is
checked so that parallel attempts cannot pass together:

- **address and user name together**: after LOGIN_FAILURE_LIMIT failures within the window, this
  address may not try this name again until the window ends (HTTP 429);
- **address**: after LOGIN_ADDRESS_FAILURE_LIMIT failures for any names, this address may not try at
  all (one device spraying names);
- **user name, from everywhere**: past LOGIN_FAILURE_LIMIT failures the name is *slowed*, never
  locked: from a device it has not logged in on, one attempt per LOGIN_SLOW_SECONDS.

A device the user has logged in on before (a signed cookie naming them) and the server's own machine
(a loopback address: the hall laptop's browser) are not slowed by the name's count: a flood of wrong
passwords from the hall's phones cannot keep the organizer out of the laptop.
"""

from __future__ import annotations

import hashlib
import math

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.core import signing
from django.db import transaction
from django.forms.utils import ErrorDict
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament import ratelimit
from tournament.accounts import selectors
from tournament.qr import is_loopback_host

DEVICE_COOKIE = "uno_device"
DEVICE_SALT = "tournament.login.device"
DEVICE_MAX_AGE = 400 * 24 * 3600  # the longest a browser keeps a cookie
DEVICE_USERS = 8  # user names one shared device remembers


def _user_key(request: HttpRequest) -> str:
    username = request.POST.get("username", "").strip().lower()
    return hashlib.sha256(username.encode()).hexdigest() if username else ""


def _device_users(request: HttpRequest) -> list[str]:
    try:
        users = signing.loads(
            request.COOKIES.get(DEVICE_COOKIE, ""), salt=DEVICE_SALT, max_age=DEVICE_MAX_AGE
        )
    except signing.BadSignature:
        return []
    return [user for user in users if isinstance(user, str)] if isinstance(users, list) else []


def known_device(request: HttpRequest) -> bool:
    """Whether this browser logged in with the name before, or runs on the server's own machine."""
    user = _user_key(request)
    return bool(user) and (user in _device_users(request) or is_loopback_host(ratelimit.client_ip(request)))


def _pair_key(request: HttpRequest) -> str:
    return f"login-fail:pair:{ratelimit.client_ip(request)}:{_user_key(request)}"


def _address_key(request: HttpRequest) -> str:
    return f"login-fail:ip:{ratelimit.client_ip(request)}"


def _name_key(request: HttpRequest) -> str:
    return f"login-fail:user:{_user_key(request)}"


def refused_for(request: HttpRequest) -> int:
    """Count this attempt under each limit that applies; the seconds to wait when one of them refuses
    it, else 0. All counts in one transaction, always in the same order, so parallel attempts are
    counted one after the other alike."""
    window = settings.LOGIN_FAILURE_WINDOW
    with transaction.atomic():
        pair = ratelimit.hit(_pair_key(request), window)
        address = ratelimit.hit(_address_key(request), window)
        refused = [w for w, limit in ((pair, settings.LOGIN_FAILURE_LIMIT),
                                      (address, settings.LOGIN_ADDRESS_FAILURE_LIMIT)) if w.count > limit]
        if refused:  # refused here: it takes no turn of the name's slowed attempts
            return max(w.retry_after() for w in refused)
        if _user_key(request) and not known_device(request):
            name = ratelimit.hit(_name_key(request), window)
            if name.count > settings.LOGIN_FAILURE_LIMIT:
                slot = ratelimit.hit("login-slow:" + _user_key(request), settings.LOGIN_SLOW_SECONDS)
                if slot.count > 1:
                    return slot.retry_after()
    return 0


def remember_device(request: HttpRequest, response: HttpResponse) -> None:
    users = [user for user in _device_users(request) if user != _user_key(request)]
    users = [_user_key(request), *users][:DEVICE_USERS]
    response.set_cookie(
        DEVICE_COOKIE, signing.dumps(users, salt=DEVICE_SALT), max_age=DEVICE_MAX_AGE, httponly=True,
        samesite="Lax", secure=settings.SESSION_COOKIE_SECURE,
    )


class RateLimitedLoginView(auth_views.LoginView):
    """Django's login behind the module's limits: a refused attempt answers 429 without checking the
    password and says when to try again; a successful one clears its address's count for the name and
    remembers the device."""

    def post(self, request, *args, **kwargs):
        seconds = refused_for(request)
        if seconds:
            form = self.get_form()
            # Not form.errors.clear(): reading form.errors validates the form, i.e. checks the password.
            form._errors, form.cleaned_data = ErrorDict(), {}
            if seconds < 60:
                message = _("Too many failed attempts. Please wait %(seconds)s seconds and try again.") % {
                    "seconds": seconds
                }
            else:
                message = _("Too many failed attempts. Please wait %(minutes)s minutes and try again.") % {
                    "minutes": math.ceil(seconds / 60)
                }
            form.add_error(None, message)
            response = self.render_to_response(self.get_context_data(form=form))
            response.status_code = 429
            response["Retry-After"] = str(seconds)
            return response
        return super().post(request, *args, **kwargs)

    def get_success_url(self) -> str:
        """Somebody whose password was made up for them (the first organizer) chooses their own
        first: the account page, with a banner on every page until they do."""
        if selectors.password_change_due(self.request.user):
            self.request.session[selectors.DUE_SESSION_KEY] = True
            return reverse("account")
        return super().get_success_url()

    def form_valid(self, form):
        ratelimit.clear(_pair_key(self.request))
        ratelimit.forgive(_address_key(self.request))
        if not known_device(self.request):
            ratelimit.forgive(_name_key(self.request))
        response = super().form_valid(form)
        remember_device(self.request, response)
        return response
