"""The series of a tournament: create or join one, its ranking rule in words and as a form, the
season standings with the club and category rankings, their exports; leave the series."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django_tables2 import RequestConfig

from tournament.live.pages import conditional_page
from tournament.live.selectors import page_settings
from tournament.models import Series
from tournament.permissions import Capability, organizes, role_of
from tournament.series.exports import all_lines, csv_lines, title
from tournament.series.forms import SeriesForm, SeriesJoinForm
from tournament.series.selectors import series_of, series_of_user, series_standings
from tournament.series.services import series_create, series_join, series_leave, series_update
from tournament.series.tables import SeasonTable, season_rows
from tournament.standings.exports import lines_csv, sheets_xlsx
from tournament.standings.versioning import series_version

from .base import CATEGORY_LINES, ActionMixin, OrganizerAction, OrganizerPage, error_text

SEASON_PAGE_SIZE = 50


class SeriesPageMixin:
    def series(self) -> Series | None:
        """Read once per request (the stored page's version and the page both ask)."""
        if not hasattr(self, "_series"):
            self._series = series_of(self.tournament)
        return self._series


class SeriesView(SeriesPageMixin, OrganizerPage):
    capability = Capability.VIEW

    template_name = "tournament/organizer/series.html"
    section = "series"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        series = self.series()
        user = self.request.user
        context["series"] = series
        if series is None:
            context["create_form"] = kwargs.get("create_form") or SeriesForm(
                initial={"name": _("Season %(year)s") % {"year": self.tournament.date.year}}
            )
            context["join_form"] = SeriesJoinForm(queryset=series_of_user(user))
            return context
        data = series_standings(series)
        table = SeasonTable(data, season_rows(data))
        # 50 lines a page keep a season of 200 players quick to render; exports and PDF have all.
        RequestConfig(self.request, paginate={"per_page": SEASON_PAGE_SIZE}).configure(table)
        context.update(
            data=data, table=table, may_change=organizes(user, series), category_lines=CATEGORY_LINES,
            rule_form=kwargs.get("rule_form") or SeriesForm(instance=series),
        )
        return context

    def get(self, request, *args, **kwargs):
        """The season's page, drawn once per change of any of its evenings for each organizer
        (`live.pages`), 304 when the browser has it."""
        series = self.series()
        if series is None:
            return super().get(request, *args, **kwargs)

        def draw(extra: dict) -> str:
            return render_to_string(
                self.get_template_names(), {**self.get_context_data(**kwargs), **extra}, request
            )

        return conditional_page(
            request, kind="series", tournament_id=self.tournament.pk,
            version=(series_version(series.pk), page_settings(series), page_settings(self.tournament),
                     role_of(request.user, self.tournament)),
            clock=None, render=draw, params=frozenset({"page", "sort"}),
        )

    def page_with_errors(self, **forms):
        return self.render_to_response(self.get_context_data(**forms), status=400)


class SeriesCreateView(ActionMixin, SeriesView):
    def post(self, request, tournament_pk: int):
        form = SeriesForm(request.POST)
        if form.is_valid():
            try:
                series_create(tournament=self.tournament, user=request.user, **form.settings())
            except ValidationError as exc:
                form.add_error(None, error_text(exc))
            else:
                messages.success(request, _("Series created: this tournament is its first evening."))
                return redirect("organizer:series", self.tournament.pk)
        return self.page_with_errors(create_form=form)


class SeriesJoinView(OrganizerAction):
    def post(self, request, tournament_pk: int):
        form = SeriesJoinForm(request.POST, queryset=series_of_user(request.user))
        if not form.is_valid():
            messages.error(request, _("Choose one of your series."))
        else:
            try:
                series_join(tournament=self.tournament, user=request.user, series=form.cleaned_data["series"])
                messages.success(request, _("The tournament is now an evening of the series."))
            except ValidationError as exc:
                self.fail(exc)
        return redirect("organizer:series", self.tournament.pk)


class SeriesRuleView(ActionMixin, SeriesView):
    def post(self, request, tournament_pk: int):
        series = self.series()
        if series is None:
            messages.error(request, _("This tournament is not part of a series."))
            return redirect("organizer:series", self.tournament.pk)
        # The form gets its own copy: cleaning changes the instance, and the page shows the rule in force.
        form = SeriesForm(request.POST, instance=series_of(self.tournament))
        if form.is_valid():
            try:
                series_update(
                    series=series, tournament=self.tournament, user=request.user, changes=form.settings()
                )
            except ValidationError as exc:
                form.add_error(None, error_text(exc))
            else:
                messages.success(request, _("Ranking rule saved."))
                return redirect("organizer:series", self.tournament.pk)
        return self.page_with_errors(rule_form=form)


class SeriesLeaveView(OrganizerAction):
    def post(self, request, tournament_pk: int):
        try:
            series_leave(tournament=self.tournament, user=request.user)
            messages.success(request, _("The tournament no longer counts for the series."))
        except ValidationError as exc:
            self.fail(exc)
        return redirect("organizer:series", self.tournament.pk)


class SeriesExportView(SeriesPageMixin, OrganizerPage):
    """`?format=xlsx` (one sheet per ranking) or CSV (the default, the rankings one under the other)."""

    capability = Capability.VIEW

    def get(self, request, *args, **kwargs):
        series = self.series()
        if series is None:
            messages.error(request, _("This tournament is not part of a series."))
            return redirect("organizer:series", self.tournament.pk)
        data = series_standings(series)
        base = slugify(f"{series.name}-{_('season')}") or "season"
        if request.GET.get("format") == "xlsx":
            response = HttpResponse(
                sheets_xlsx(all_lines(data), title=title(data)),
                content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            )
            response["Content-Disposition"] = f'attachment; filename="{base}.xlsx"'
            return response
        response = HttpResponse(lines_csv(csv_lines(data)), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{base}.csv"'
        return response

