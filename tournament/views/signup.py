"""The public sign-up (/p/<tournament>/signup/) and each registrant's private status link.

No account: CSRF (Django's middleware), a honeypot field, a generous rate limit per address (a club's
members share the hall's one public address) and a tight one per name keep bots out; the organizer's
list marks likely duplicates.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from engine.text import person_key
from tournament import ratelimit
from tournament.qr import absolute_url
from tournament.signup import selectors
from tournament.signup.forms import SignupForm, SignupWithdrawForm
from tournament.signup.mail import mail_status_link
from tournament.signup.services import signup_create, signup_withdraw

TEMPLATE = "tournament/public/signup.html"
STATUS_TEMPLATE = "tournament/public/signup_status.html"


def signups_allowed() -> int:
    return int(getattr(settings, "SIGNUPS_PER_ADDRESS", 200))


def signups_per_name() -> int:
    return int(getattr(settings, "SIGNUPS_PER_NAME", 3))


def name_key(tournament_pk: int, first_name: str, last_name: str) -> str:
    """The rate limit's key of one name in one tournament: hashed (no name is kept in the counts) and
    the same however it is spelled in case or spacing."""
    name = person_key(first_name, last_name)
    return f"signup-name:{tournament_pk}:{hashlib.sha256(name.encode()).hexdigest()[:32]}"


def signup_window() -> int:
    return int(getattr(settings, "SIGNUP_WINDOW", 3600))


def signup_context(tournament, form, error: str = "") -> dict:
    state = selectors.signup_state(tournament)
    return {
        "tournament": tournament,
        "form": form,
        "error": error,
        "counts": selectors.signup_counts(tournament),
        "accepting": state == selectors.SignupState.OPEN,
        "signup_state": state,
    }


class SignupView(View):
    def get(self, request, tournament_pk: int):
        tournament = selectors.tournament_for_signup(request.user, tournament_pk)
        return render(request, TEMPLATE, signup_context(tournament, SignupForm()))

    def post(self, request, tournament_pk: int):
        tournament = selectors.tournament_for_signup(request.user, tournament_pk)
        key = f"signup:{tournament.pk}:{ratelimit.client_ip(request)}"
        if ratelimit.hit(key, signup_window()).count > signups_allowed():
            context = signup_context(tournament, SignupForm(request.POST), error="rate_limited")
            return render(request, TEMPLATE, context, status=429)
        form = SignupForm(request.POST)
        if not signup_context(tournament, form)["accepting"]:
            return render(request, TEMPLATE, signup_context(tournament, form, error="closed"), status=400)
        if not form.is_valid():
            return render(request, TEMPLATE, signup_context(tournament, form), status=400)
        data = form.cleaned_data
        if ratelimit.hit(
            name_key(tournament.pk, data["first_name"], data["last_name"]), signup_window()
        ).count > signups_per_name():
            context = signup_context(tournament, form, error="rate_limited_name")
            return render(request, TEMPLATE, context, status=429)
        try:
            signup = signup_create(tournament=tournament, **form.signup_data())
        except ValidationError as error:
            form.add_error(None, error)
            return render(request, TEMPLATE, signup_context(tournament, form), status=400)
        # The status page says a mail was sent only when one was (a signed message, not a query string).
        address = {"email": signup.email}
        if mail_status_link(signup, absolute_url(signup.get_status_url(), request)):
            messages.success(request, _("We have also sent the link to %(email)s.") % address)
        elif signup.email:
            messages.warning(request, _(
                "No e-mail could be sent to %(email)s: please keep this link yourself, e.g. as a bookmark."
            ) % address)
        return redirect(signup.get_status_url() + "?new=1")


class SignupStatusView(View):
    """GET: where the registrant stands; POST: withdraw, in two steps. The first POST (the button on
    the page) answers with the question "Really withdraw?" and a form carrying `confirm=1`; only that
    second POST withdraws (`signup_withdraw` refuses without it)."""

    def context(self, signup, **extra) -> dict:
        return {
            "tournament": signup.tournament,
            "signup": signup,
            "waiting_position": selectors.waiting_position(signup),
            "status_url": absolute_url(signup.get_status_url(), self.request),
            **extra,
        }

    def get(self, request, tournament_pk: int, signup_token: str):
        tournament = selectors.tournament_for_signup(request.user, tournament_pk)
        signup = selectors.signup_by_token(tournament, signup_token)
        return render(request, STATUS_TEMPLATE, self.context(signup, new=request.GET.get("new") == "1"))

    def post(self, request, tournament_pk: int, signup_token: str):
        tournament = selectors.tournament_for_signup(request.user, tournament_pk)
        signup = selectors.signup_by_token(tournament, signup_token)
        form = SignupWithdrawForm(request.POST)
        try:
            signup_withdraw(tournament=tournament, token=signup_token, confirmed=form.confirmed)
        except ValidationError as error:
            signup.refresh_from_db()
            if error.code == "not_confirmed":
                return render(request, STATUS_TEMPLATE, self.context(signup, confirming=True))
            return render(request, STATUS_TEMPLATE, self.context(signup, error=" ".join(error.messages)),
                          status=400)
        return redirect(signup.get_status_url())
