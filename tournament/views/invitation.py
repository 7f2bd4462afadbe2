"""An invitation's page, `/invite/<token>/`: a logged-in user accepts it; a visitor creates an account
there (or logs in and comes back). Every refusal (unknown, used, expired link) is the same page with
its reason and status 410, or 404 for a link that never existed.

Like a captain's and a reset link, every request is counted for its address before the token is
looked up and forgiven when the link exists, so an address guessing links is told to wait (429)."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournament import ratelimit
from tournament.people.forms import AccountForm
from tournament.people.selectors import invitation_by_token
from tournament.people.services import invitation_accept, invitation_problem
from tournament.people.sessions import limit_helper_session

TEMPLATE = "tournament/invitation.html"


def _guess_key(request) -> str:
    return "invitation:" + ratelimit.client_ip(request)


class InvitationView(View):
    def dispatch(self, request, invitation_token: str):
        window = ratelimit.hit(_guess_key(request), settings.INVITATION_FAILURE_WINDOW)
        if window.count > settings.INVITATION_FAILURE_LIMIT:
            response = render(request, TEMPLATE, {"problem": _(
                "Too many links that do not work were opened from this device. Please wait a few "
                "minutes and try again."
            )}, status=429)
            response["Retry-After"] = str(window.retry_after())
            return response
        self.invitation = invitation_by_token(invitation_token)
        if self.invitation is not None:
            ratelimit.forgive(_guess_key(request))
        return super().dispatch(request, invitation_token)

    def refused(self, request, error: ValidationError):
        status = 404 if error.code == "invitation_unknown" else 410
        return render(request, TEMPLATE, {"problem": error.messages[0]}, status=status)

    def get(self, request, invitation_token: str):
        invitation = self.invitation
        problem = invitation_problem(invitation)
        if problem is not None:
            return self.refused(request, problem)
        return render(request, TEMPLATE, {
            "invitation": invitation, "form": None if request.user.is_authenticated else AccountForm(),
        })

    def post(self, request, invitation_token: str):
        invitation = self.invitation
        problem = invitation_problem(invitation)
        if problem is not None:
            return self.refused(request, problem)
        form = None
        try:
            with transaction.atomic():
                if request.user.is_authenticated:
                    user = request.user
                else:
                    form = AccountForm(request.POST)
                    if not form.is_valid():
                        return render(request, TEMPLATE, {"invitation": invitation, "form": form}, status=400)
                    user = form.create_user()
                accepted = invitation_accept(token=invitation_token, user=user)
        except ValidationError as error:
            return self.refused(request, error)
        if not request.user.is_authenticated:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        limit_helper_session(request, user)
        name = accepted.tournament.name
        messages.success(request, _("Welcome to the team of “%(name)s”.") % {"name": name})
        return redirect("organizer:tournament", accepted.tournament_id)
