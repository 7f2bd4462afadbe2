"""The organizer's sign-up list: settings, approve, refuse, move on or to the waiting list, export."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.models import Signup
from tournament.permissions import Capability
from tournament.qr import absolute_url
from tournament.signup import selectors
from tournament.signup.exports import signups_csv
from tournament.signup.forms import SignupActionForm, SignupSettingsForm
from tournament.signup.services import (
    signup_approve,
    signup_move,
    signup_refuse,
    signup_settings_update,
    signup_to_waiting,
)

from .base import ActionMixin, OrganizerPage, error_text


class SignupsView(OrganizerPage):
    """GET: the list and the settings; POST: save the settings."""

    capability = Capability.VIEW
    write_capability = Capability.PLAYERS

    template_name = "tournament/organizer/signups.html"
    section = "signups"
    form: SignupSettingsForm | None = None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        signups = selectors.signup_list(self.tournament)
        context.update(
            form=self.form or SignupSettingsForm(instance=self.tournament),
            signups=signups,
            duplicates=sum(1 for s in signups if s.duplicate),
            counts=selectors.signup_counts(self.tournament),
            state=selectors.signup_state(self.tournament),
            public_url=absolute_url(reverse("public:signup", args=[self.tournament.pk]), self.request),
        )
        return context

    def post(self, request, *args, **kwargs):
        form = SignupSettingsForm(request.POST, instance=self.tournament)
        if not form.is_valid():
            self.form = form
            return self.render_to_response(self.get_context_data(), status=400)
        signup_settings_update(tournament=self.tournament, user=request.user, **form.settings())
        messages.success(request, _("Sign-up settings saved."))
        return redirect("organizer:signups", self.tournament.pk)


class SignupActionView(ActionMixin, SignupsView):
    """approve · refuse · up · down · top · waiting for one sign-up; htmx gets the refreshed list."""

    capability = Capability.PLAYERS
    write_capability = Capability.PLAYERS

    def post(self, request, tournament_pk: int, signup_pk: int):
        signup = get_object_or_404(Signup, tournament=self.tournament, pk=signup_pk)
        form = SignupActionForm(request.POST)
        if not form.is_valid():
            if "action" in form.errors:
                messages.error(request, _("Unknown action."))
            else:
                messages.error(request, " ".join(" ".join(errors) for errors in form.errors.values()))
        else:
            action, user = form.cleaned_data["action"], request.user
            try:
                if action == "approve":
                    signup_approve(signup=signup, user=user)
                elif action == "refuse":
                    signup_refuse(signup=signup, user=user)
                elif action in ("top", "waiting"):
                    signup_to_waiting(signup=signup, user=user, position=form.position_wanted())
                else:
                    signup_move(signup=signup, user=user, up=action == "up")
            except ValidationError as error:
                messages.error(request, error_text(error))
        if request.htmx:
            return self.render_partial("list")
        return redirect("organizer:signups", self.tournament.pk)


class SignupsExportView(OrganizerPage):
    capability = Capability.VIEW

    def get(self, request, *args, **kwargs):
        response = HttpResponse(
            signups_csv(selectors.signup_list(self.tournament)), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = f'attachment; filename="signups-{self.tournament.pk}.csv"'
        return response
