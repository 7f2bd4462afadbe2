"""The organizer's clock buttons: start, pause, resume, reset. Each answers htmx with the controls."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views import View

from tournament.clock.forms import ClockStartForm, clock_controls_context
from tournament.clock.services import clock_pause, clock_reset, clock_resume, clock_start
from tournament.models import Round
from tournament.permissions import Capability, TournamentOrganizerMixin

from .base import RoundMixin

CONTROLS_TEMPLATE = "tournament/organizer/_clock_controls.html"


class ClockActionView(TournamentOrganizerMixin, RoundMixin, View):
    """POST only. Without htmx, the browser goes back to the page the button was on."""

    capability = Capability.SEAT
    write_capability = Capability.SEAT

    http_method_names = ["post"]

    def act(self, round_: Round) -> None:
        raise NotImplementedError

    def post(self, request, tournament_pk: int, number: int):
        round_ = self.round
        self.form = None
        error = ""
        try:
            self.act(round_)
        except ValidationError as exc:
            error = " ".join(exc.messages)
        round_.refresh_from_db()
        if request.htmx:
            context = clock_controls_context(round_, form=self.form, error=error)
            return render(request, CONTROLS_TEMPLATE, context)
        if error:
            messages.error(request, error)
        for target in (request.POST.get("next", ""), request.headers.get("Referer", "")):
            if target and url_has_allowed_host_and_scheme(
                target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
            ):
                return redirect(target)
        return redirect(round_.tournament.get_absolute_url())


class ClockStartView(ClockActionView):
    def act(self, round_: Round) -> None:
        self.form = ClockStartForm(self.request.POST)
        if not self.form.is_valid():
            raise ValidationError([e for errors in self.form.errors.values() for e in errors])
        clock_start(round_=round_, user=self.request.user, minutes=self.form.cleaned_data["minutes"])
        self.form = None


class ClockPauseView(ClockActionView):
    def act(self, round_: Round) -> None:
        clock_pause(round_=round_, user=self.request.user)


class ClockResumeView(ClockActionView):
    def act(self, round_: Round) -> None:
        clock_resume(round_=round_, user=self.request.user)


class ClockResetView(ClockActionView):
    def act(self, round_: Round) -> None:
        clock_reset(round_=round_, user=self.request.user)
