"""Standings after any round: sortable, filtered by club, with the evening's club, team and category
rankings below the table; exported as CSV (a column of each player's categories) or XLSX (a sheet per
ranking)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from engine.numbers import parse_natural
from tournament.live.pages import conditional_page
from tournament.live.selectors import page_settings, reveal
from tournament.permissions import Capability, role_of
from tournament.standings.charts import chart_for_standings
from tournament.standings.exports import standings_csv, standings_xlsx
from tournament.standings.selectors import counted_rounds, standings_hidden, tournament_rankings
from tournament.standings.tables import StandingsData, StandingsTable, standings_data
from tournament.standings.versioning import evening_version
from tournament.tournaments.forms import RevealStepForm
from tournament.tournaments.services import reveal_step_set, standings_reveal

from .base import CATEGORY_LINES, OrganizerAction, OrganizerPage


class StandingsMixin:
    def chosen_round(self) -> int | None:
        return parse_natural(self.request.GET.get("after"))

    def data(self) -> StandingsData:
        return standings_data(self.tournament, after_round=self.chosen_round())

    def club(self) -> str:
        return self.request.GET.get("club", "")


class StandingsView(StandingsMixin, OrganizerPage):
    capability = Capability.VIEW

    template_name = "tournament/organizer/standings.html"
    section = "standings"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        data, club = self.data(), self.club()
        table = StandingsTable(data, data.filtered(club))
        RequestConfig(self.request, paginate=False).configure(table)
        # The club filter swaps only the table (htmx); another round reloads the page with its chart.
        table_only = bool(self.request.htmx) and self.request.htmx.target == "standings-table"
        # The rankings of the whole evening after the chosen round: the club filter narrows only the table.
        rankings = tournament_rankings(self.tournament, data.lines) if data.lines and not table_only else None
        context.update(
            data=data,
            table=table,
            club=club,
            closed_rounds=counted_rounds(self.tournament),
            after=data.rounds[-1] if data.rounds else None,
            chart_svg="" if table_only else chart_for_standings(data.rounds, data.lines),
            missed_any=any(row["rounds_missed"] for row in data.rows),
            rankings=rankings,
            category_lines=CATEGORY_LINES,
            standings_hidden=standings_hidden(self.tournament),
            reveal_url=reverse("public:projector", args=[self.tournament.pk]) + "?show=reveal",
            reveal=reveal(self.tournament) if self.tournament.standings_revealed else None,
            reveal_page="standings",
        )
        return context

    def get(self, request, *args, **kwargs):
        """Drawn once per change of the evening for each organizer (`live.pages`), 304 when unchanged."""
        if request.htmx and request.htmx.target == "standings-table":
            self.template_name = f"{self.template_name}#table"

        def draw(extra: dict) -> str:
            return render_to_string(
                self.get_template_names(), {**self.get_context_data(**kwargs), **extra}, request
            )

        return conditional_page(
            request, kind="standings", tournament_id=self.tournament.pk,
            version=(evening_version(self.tournament), page_settings(self.tournament),
                     role_of(request.user, self.tournament)),
            clock=None, render=draw, params=frozenset({"after", "club", "sort"}),
        )


class StandingsExportView(StandingsMixin, OrganizerPage):
    """`?format=xlsx` or CSV (the default), with the same round and club choice as the page. The club
    choice narrows the standings' lines; the ranking sheets are the whole evening's."""

    capability = Capability.VIEW

    def get(self, request, *args, **kwargs):
        data, club = self.data(), self.club()
        rows = data.filtered(club)
        rankings = tournament_rankings(self.tournament, data.lines)
        after = data.rounds[-1] if data.rounds else 0
        base = slugify(f"{self.tournament.name}-{_('standings')}-{after}") or "standings"
        if request.GET.get("format") == "xlsx":
            title = _("%(name)s: standings after round %(n)s") % {"name": self.tournament.name, "n": after}
            response = HttpResponse(
                standings_xlsx(data, rows, title=title, rankings=rankings),
                content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
            response["Content-Disposition"] = f'attachment; filename="{base}.xlsx"'
            return response
        response = HttpResponse(standings_csv(data, rows, rankings), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{base}.csv"'
        return response


class StandingsRevealView(OrganizerAction):
    """The prize-giving: the hidden standings are shown to everybody again (audited), and the projector
    goes through the places from the last prize to the winner (docs/rules.md §9)."""

    def post(self, request, tournament_pk: int):
        try:
            standings_reveal(tournament=self.tournament, user=request.user)
        except ValidationError as error:
            self.fail(error)
            return redirect("organizer:standings", self.tournament.pk)
        return redirect(reverse("public:projector", args=[self.tournament.pk]) + "?show=reveal")


class RevealStepView(OrganizerAction):
    """Moves the prize-giving on every projector at once (the step is the evening's, docs/rules.md §9).
    From the organizer's page it returns there; the projector's own clicker (`static/js/reveal.js`,
    an htmx-style request) gets the step as JSON."""

    def post(self, request, tournament_pk: int):
        form = RevealStepForm(request.POST)
        asked = bool(request.htmx)
        if not form.is_valid():
            if asked:
                return JsonResponse({"errors": form.errors.get_json_data()}, status=400)
            self.fail(ValidationError(list(form.errors.get("step", [])) or _("Choose a step.")))
            return redirect("organizer:standings", self.tournament.pk)
        try:
            tournament = reveal_step_set(
                tournament=self.tournament, user=request.user, step=form.cleaned_data["step"]
            )
        except ValidationError as error:
            if asked:
                return JsonResponse({"errors": error.messages}, status=400)
            self.fail(error)
            tournament = self.tournament
        if asked:
            return JsonResponse({"step": tournament.reveal_step})
        page = form.cleaned_data.get("page") or "standings"
        return redirect(reverse(f"organizer:{page}", args=[self.tournament.pk]) + "#silent-rounds")
