"""The public tournament page (switched on by the organizer): where do I sit, seating, standings.

It shows names and clubs only; no captain links, start numbers or birth data ever reach it.
When the page is switched off it answers 404 to everybody but the tournament's organizers, who see
a preview.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views import View

from engine.rankings import Category
from tournament.clock.selectors import clock_state
from tournament.live import selectors as live
from tournament.live.pages import conditional_page
from tournament.models import Registration, Round, Tournament
from tournament.series.selectors import series_standings_of
from tournament.signup.selectors import signup_state
from tournament.standings.charts import PHONE_SIZE, chart_for_standings
from tournament.standings.selectors import standings_hidden
from tournament.standings.versioning import evening_version, series_version

TEMPLATE = "tournament/public/tournament.html"


def page_context(tournament: Tournament, rounds: list[Round]) -> dict[str, Any]:
    by_round = live.seating_by_table(rounds)
    # Silent final rounds: the standings are not read at all, so nothing of them can reach the page.
    hidden = standings_hidden(tournament)
    # The projector's basis (`live_standings`: every round whose tables are all confirmed): the hall
    # reads one "after round N" on the wall and on the phone.
    standing_rounds, lines = ([], []) if hidden else live.live_standings(tournament)
    return {
        "tournament": tournament,
        "preview": not tournament.public,
        "rounds": [(round_, by_round.get(round_.number, [])) for round_ in rounds],
        "current_round": rounds[0] if rounds else None,
        "clock": clock_state(rounds[0] if rounds else None),
        "standing_rounds": standing_rounds,
        "lines": lines,
        "standings_hidden": hidden,
        "chart_svg": chart_for_standings(standing_rounds, lines),
        "chart_svg_narrow": chart_for_standings(standing_rounds, lines, size=PHONE_SIZE),
        "lookup_url": reverse("public:seat_lookup", args=[tournament.pk]),
        "projector_url": reverse("public:projector", args=[tournament.pk]),
        "series_url": (
            reverse("public:series", args=[tournament.pk]) if tournament.series_id and not hidden else ""
        ),
        "signup_state": signup_state(tournament),
        "query": "",
        "results": [],
        "searched": False,
    }


def lookup_context(tournament: Tournament, rounds: list[Round], query: str) -> dict[str, Any]:
    found = live.find_players(tournament, query)
    seats = live.seats_of(found, rounds)
    results = [
        {
            "name": reg.player.name,
            "club": reg.player.club_name,
            "withdrawn": reg.status == Registration.Status.WITHDRAWN,
            "seats": [(round_.number, seats[reg.pk].get(round_.number)) for round_ in rounds],
        }
        for reg in found
    ]
    return {"query": query, "results": results, "searched": len(query) >= 2}


class PublicTournamentView(View):
    """Drawn once per change of the evening and shared by every phone (`live.pages`): a reload that
    finds nothing new is answered 304."""

    def get(self, request, tournament_pk: int):
        tournament = live.tournament_for_viewer(request.user, tournament_pk)
        rounds = live.published_rounds(tournament)
        current = rounds[0] if rounds else None

        def draw(extra: dict[str, Any]) -> str:
            context = page_context(tournament, rounds)
            return render_to_string(TEMPLATE, {**context, **extra}, request)

        return conditional_page(
            request, kind="public", tournament_id=tournament.pk,
            version=(evening_version(tournament), live.page_settings(tournament), signup_state(tournament)),
            clock=clock_state(current) if current is not None else None, render=draw,
        )


class SeatLookupView(View):
    """Search as you type (htmx: only the results), or the whole page with the results without script."""

    def get(self, request, tournament_pk: int):
        tournament = live.tournament_for_viewer(request.user, tournament_pk)
        rounds = live.published_rounds(tournament)
        context = lookup_context(tournament, rounds, request.GET.get("q", "").strip())
        if request.htmx:
            return render(request, f"{TEMPLATE}#lookup_results", {"tournament": tournament, **context})
        return render(request, TEMPLATE, {**page_context(tournament, rounds), **context})


# Age groups come from birth data, which never reaches the public page.
PUBLIC_CATEGORIES = (Category.WOMEN, Category.MEN, Category.NEWCOMER, Category.MEMBER, Category.GUEST)


def public_season(tournament: Tournament):
    """The public season of the tournament's series (404 without one, and while this evening's standings
    are hidden: the season counts it): the evenings whose public page is switched on; in its
    organizers' preview of a switched-off page, this evening as well."""
    if standings_hidden(tournament):
        raise Http404
    data = series_standings_of(tournament, public_only=True, preview=not tournament.public)
    if data is None:
        raise Http404
    return data


class PublicSeriesView(View):
    """The season standings of the tournament's series: names, clubs and season points only, of the
    evenings whose public page is switched on (a player of a private evening never shows here); each
    line with its evenings counted or dropped, bonus and deductions, and its gap to the line above."""

    def get(self, request, tournament_pk: int):
        tournament = live.tournament_for_viewer(request.user, tournament_pk)
        if standings_hidden(tournament) or not tournament.series_id:
            raise Http404

        def draw(extra: dict[str, Any]) -> str:
            data = public_season(tournament)
            categories = {key: rows[:10] for key, rows in data.categories.items() if key in PUBLIC_CATEGORIES}
            return render_to_string("tournament/public/series.html", {
                "tournament": tournament, "preview": not tournament.public, "data": data,
                "categories": categories, "running": data.running_pks,
                "back_url": reverse("public:tournament", args=[tournament.pk]), **extra,
            }, request)

        # Drawn once per change of any evening of the season (`live.pages`), 304 when unchanged.
        return conditional_page(
            request, kind="season", tournament_id=tournament.pk,
            version=(series_version(tournament.series_id), live.page_settings(tournament)),
            clock=None, render=draw,
        )


class PublicSeasonCardView(View):
    """One player's season card: their evenings of the public season (date, place, season points,
    counted or dropped), how the score adds up and how far they are from the line above. A player who
    played no public evening of the series has no card (404), even if they played a private one."""

    def get(self, request, tournament_pk: int, player_pk: int):
        tournament = live.tournament_for_viewer(request.user, tournament_pk)
        data = public_season(tournament)
        line = next((line for line in data.lines if line.player.pk == player_pk), None)
        if line is None:
            raise Http404
        return render(request, "tournament/public/season_card.html", {
            "tournament": tournament, "preview": not tournament.public, "data": data, "line": line,
            "running": data.running_pks,
            "series_url": reverse("public:series", args=[tournament.pk]),
        })
