"""One evening's rankings beside the players' own: clubs (best K, sum or average), teams and the
categories; and the teams page where teams are declared before the evening."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.rankings import GroupValue
from tournament.documents.prizes import category_prizes
from tournament.fields import NumberField
from tournament.models import Series, Team
from tournament.permissions import Capability
from tournament.standings.exports import lines_csv, rankings_sheets, sheets_xlsx
from tournament.standings.selectors import standings, tournament_rankings
from tournament.teams.forms import TeamForm, TeamsSeparateForm
from tournament.teams.selectors import teams
from tournament.teams.services import team_create, team_delete, teams_separate

from .base import OrganizerAction, OrganizerPage, error_text


class ClubRankingForm(forms.Form):
    best = NumberField(label=gettext_lazy("Players per club that count"), min_value=1, max_value=20,
                       required=False)
    value = forms.ChoiceField(
        label=gettext_lazy("Club value"), choices=Series.CLUB_VALUE_CHOICES, required=False
    )


class RankingsView(OrganizerPage):
    capability = Capability.VIEW

    template_name = "tournament/organizer/rankings.html"
    section = "rankings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = ClubRankingForm(self.request.GET or None)
        best = value = None
        if form.is_bound and form.is_valid():
            best = form.cleaned_data["best"]
            value = GroupValue(form.cleaned_data["value"]) if form.cleaned_data["value"] else None
        rounds, lines = standings(self.tournament)
        data = tournament_rankings(self.tournament, lines, best=best, value=value)
        if not form.is_bound:
            form = ClubRankingForm(initial={"best": data.club_best, "value": data.club_value})
        context.update(rounds=rounds, data=data, form=form,
                       category_certificates=bool(lines) and bool(category_prizes(self.tournament, data)))
        return context


class TeamsView(OrganizerPage):
    capability = Capability.VIEW

    template_name = "tournament/organizer/teams.html"
    section = "teams"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            teams=teams(self.tournament),
            form=kwargs.get("form") or TeamForm(tournament=self.tournament),
            separate_form=TeamsSeparateForm(initial={"separate_teams": self.tournament.separate_teams}),
        )
        return context

    def post(self, request, *args, **kwargs):
        form = TeamForm(request.POST, tournament=self.tournament)
        if form.is_valid():
            try:
                team = team_create(
                    tournament=self.tournament, user=request.user, name=form.cleaned_data["name"],
                    members=list(form.cleaned_data["members"]),
                )
            except ValidationError as exc:
                form.add_error(None, error_text(exc))
            else:
                messages.success(request, _("Team %(name)s declared.") % {"name": team.name})
                return redirect("organizer:teams", self.tournament.pk)
        return self.render_to_response(self.get_context_data(form=form), status=400)


class TeamDeleteView(OrganizerAction):
    def post(self, request, tournament_pk: int, team_pk: int):
        team = get_object_or_404(Team, tournament=self.tournament, pk=team_pk)
        team_delete(team=team, user=request.user)
        messages.success(request, _("Team %(name)s removed.") % {"name": team.name})
        return redirect("organizer:teams", self.tournament.pk)


class TeamsSeparateView(OrganizerAction):
    def post(self, request, tournament_pk: int):
        form = TeamsSeparateForm(request.POST)
        form.is_valid()
        teams_separate(
            tournament=self.tournament, user=request.user,
            separate=form.cleaned_data.get("separate_teams", False),
        )
        messages.success(request, _("Saved."))
        return redirect("organizer:teams", self.tournament.pk)


class RankingsExportView(OrganizerPage):
    """The evening's club, team and category rankings: `?format=xlsx` (a sheet each) or CSV."""

    capability = Capability.VIEW

    def get(self, request, *args, **kwargs):
        _rounds, lines = standings(self.tournament)
        sheets = rankings_sheets(tournament_rankings(self.tournament, lines))
        base = slugify(f"{self.tournament.name}-{_('rankings')}") or "rankings"
        if request.GET.get("format") == "xlsx":
            response = HttpResponse(
                sheets_xlsx(sheets, title=self.tournament.name),
                content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
            response["Content-Disposition"] = f'attachment; filename="{base}.xlsx"'
            return response
        rows: list = []
        for name, part in sheets:
            rows += [[name], *part, []]
        response = HttpResponse(lines_csv(rows), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{base}.csv"'
        return response
