"""Prize money: the settings and the prize list over the current standings."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from tournament.permissions import Capability
from tournament.prizes.forms import PrizeSettingsForm
from tournament.prizes.selectors import prize_list
from tournament.prizes.services import prizes_update
from tournament.standings.selectors import standings

from .base import OrganizerPage, error_text


class PrizesView(OrganizerPage):
    capability = Capability.VIEW

    template_name = "tournament/organizer/prizes.html"
    section = "prizes"

    def start_numbers(self) -> set[int]:
        return set(self.tournament.registrations.values_list("start_number", flat=True))

    def get_context_data(self, form: PrizeSettingsForm | None = None, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds, lines = standings(self.tournament)
        context.update(
            form=form or PrizeSettingsForm(
                initial=PrizeSettingsForm.initial_for(self.tournament), start_numbers=set()
            ),
            prizes=prize_list(self.tournament, lines),
            rounds=rounds,
        )
        return context

    def post(self, request, *args, **kwargs):
        form = PrizeSettingsForm(request.POST, start_numbers=self.start_numbers())
        if form.is_valid():
            try:
                prizes_update(tournament=self.tournament, user=request.user, **form.settings())
            except ValidationError as error:
                form.add_error(None, error_text(error))
            else:
                messages.success(request, _("Prize money saved."))
                return redirect("organizer:prizes", self.tournament.pk)
        return self.render_to_response(self.get_context_data(form=form), status=400)
