"""Create, see, change and delete a tournament."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView

from tournament.documents.selectors import documents_ready
from tournament.organizations.forms import OrganizationChoiceForm
from tournament.permissions import Capability, OrganizingAccountMixin
from tournament.permissions.scopes import administered_clubs, own_club
from tournament.rounds.selectors import evening, expected_end, table_counts
from tournament.series.forms import SeriesChoiceForm
from tournament.series.selectors import series_of_user
from tournament.series.services import series_join
from tournament.tournaments.forms import TournamentDeleteForm, TournamentForm
from tournament.tournaments.services import tournament_create, tournament_delete, tournament_update

from .base import OrganizerFormPage, OrganizerPage, error_text


class TournamentCreateView(OrganizingAccountMixin, FormView):
    template_name = "tournament/organizer/tournament_create.html"
    form_class = TournamentForm

    def series_form(self) -> SeriesChoiceForm:
        return SeriesChoiceForm(
            self.request.POST or None, queryset=series_of_user(self.request.user), prefix="series"
        )

    def organization_form(self) -> OrganizationChoiceForm | None:
        """Only for an admin of several clubs; with one, the tournament is that club's by itself."""
        clubs = administered_clubs(self.request.user)
        if clubs.count() < 2:
            return None
        return OrganizationChoiceForm(
            self.request.POST or None, queryset=clubs, prefix="club",
            initial={"organization": own_club(self.request.user)},
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        choice = self.series_form()
        context["series_form"] = choice if choice.fields["series"].queryset.exists() else None
        context["organization_form"] = self.organization_form()
        return context

    def form_valid(self, form):
        choice = self.series_form()
        club_choice = self.organization_form()
        if not choice.is_valid() or (club_choice is not None and not club_choice.is_valid()):
            return self.form_invalid(form)
        owner = {} if club_choice is None else {"organization": club_choice.cleaned_data["organization"]}
        try:
            with transaction.atomic():
                tournament = tournament_create(user=self.request.user, **form.settings(), **owner)
                if choice.cleaned_data["series"] is not None:
                    series_join(
                        tournament=tournament, user=self.request.user, series=choice.cleaned_data["series"]
                    )
        except ValidationError as exc:
            form.add_error(None, error_text(exc))
            return self.form_invalid(form)
        messages.success(self.request, _("Tournament created. Now add the players."))
        return redirect("organizer:players", tournament.pk)


class TournamentOverviewView(OrganizerPage):
    """Where the evening stands and its next step, from the first player to the prize-giving."""

    capability = Capability.VIEW

    template_name = "tournament/organizer/overview.html"
    section = "overview"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        state = evening(self.tournament)
        current = state.current
        context.update(
            evening=state,
            rounds=state.rounds,
            table_counts=table_counts(current) if current is not None else None,
            ready=documents_ready(self.tournament, state.lines) if state.over else None,
            expected_end=None if state.over else expected_end(self.tournament, rounds=state.rounds),
        )
        return context


class TournamentEditView(OrganizerFormPage):
    template_name = "tournament/organizer/tournament_form.html"
    form_class = TournamentForm
    section = "settings"

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        kwargs["instance"] = self.tournament
        return kwargs

    def form_valid(self, form):
        # The form wrote its values onto the instance while validating; the service re-reads the old ones.
        tournament = self.tournament
        try:
            tournament_update(tournament=tournament, user=self.request.user, changes=form.settings())
        except ValidationError as exc:
            form.add_error(None, error_text(exc))
            return self.form_invalid(form)
        messages.success(self.request, _("Settings saved."))
        return redirect("organizer:tournament", tournament.pk)


class TournamentDeleteView(OrganizerFormPage):
    """A confirmation page; the POST deletes the tournament (players and clubs stay)."""

    capability = Capability.DELETE
    write_capability = Capability.DELETE

    template_name = "tournament/organizer/tournament_delete.html"
    section = "settings"
    form_class = TournamentDeleteForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "tournament": self.tournament}

    def form_valid(self, form):
        name = self.tournament.name
        tournament_delete(tournament=self.tournament, user=self.request.user)
        messages.success(self.request, _("The tournament “%(name)s” was deleted.") % {"name": name})
        return redirect(reverse("home"))

    def form_invalid(self, form):
        return self.render_to_response(self.get_context_data(form=form), status=400)
