"""An invitation's page, `/invite/<token>/`: a logged-in user accepts it; a visitor creates an account
there (or logs in and comes back). Every refusal (unknown, used, expired link) is the same page with
its reason and status 410, or 404 for a link that never existed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views import View

from tournament.people.forms import AccountForm
from tournament.people.selectors import invitation_by_token
from tournament.people.services import invitation_accept, invitation_problem
from tournament.people.sessions import limit_helper_session

TEMPLATE = "tournament/invitation.html"


class InvitationView(View):
    def refused(self, request, error: ValidationError):
        status = 404 if error.code == "invitation_unknown" else 410
        return render(request, TEMPLATE, {"problem": error.messages[0]}, status=status)

    def get(self, request, invitation_token: str):
        invitation = invitation_by_token(invitation_token)
        problem = invitation_problem(invitation)
        if problem is not None:
            return self.refused(request, problem)
        return render(request, TEMPLATE, {
            "invitation": invitation, "form": None if request.user.is_authenticated else AccountForm(),
        })

    def post(self, request, invitation_token: str):
        invitation = invitation_by_token(invitation_token)
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
