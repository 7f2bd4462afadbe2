"""The hall's projector: seating (alphabetical) and standings, taking turns, refreshed by htmx.

The page polls its own URL; each answer is the next slide as a fragment that carries the URL of the
slide after it. Long lists are paged into columns, never scrolled, so nothing jumps on a refresh.
Reached by the tournament's organizers and, when the public page is on, by anyone.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.http import HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View

from engine.numbers import NumberError, parse_int
from tournament.clock.selectors import clock_state
from tournament.live import selectors as live
from tournament.live.pages import conditional_page
from tournament.permissions import organizes
from tournament.prizes.selectors import has_prizes, prize_list
from tournament.qr import absolute_url, qr_svg
from tournament.rounds.selectors import expected_end
from tournament.series.selectors import series_standings_of
from tournament.standings.charts import PROJECTOR_SIZE, chart_for_standings
from tournament.standings.selectors import evening_over, standings_hidden
from tournament.standings.versioning import evening_version, series_version
from tournament.tournaments.forms import RevealStepForm

ROWS_PER_COLUMN = live.ROWS_PER_COLUMN
SEATING_COLUMNS = 3
STANDINGS_COLUMNS = live.STANDINGS_COLUMNS
TOP_PLACES = live.TOP_PLACES
SHOW_CHOICES = ("all", "seating", "standings", "chart", "prizes", "series")
DEFAULT_SECONDS, MIN_SECONDS, MAX_SECONDS = 10, 2, 120


@dataclass
class Slide:
    kind: str  # "seating", "standings", "chart", "series" (the season standings) or "empty"
    heading: str
    columns: list[list[Any]] = field(default_factory=list)
    page: int = 1
    pages: int = 1


_columns = live.columns


def build_slides(
    *, show: str, round_, seating: list[live.SeatLine], rounds: list[int], lines: list, final: bool = False,
    prizes=None, season=None, hidden: bool = False,
) -> list[Slide]:
    """`final`: the tournament is over, the standings say so ("Final standings", not "after round 6");
    `prizes`: the prize list once it is over; `season`: the series' standings (`SeriesStandings`) when
    the tournament is an evening of one; `hidden`: silent final rounds, a slide saying so instead of the
    standings (whose lines the caller does not even read)."""
    slides: list[Slide] = []
    if show in ("all", "seating") and seating:
        heading = _("Round %(number)s: who sits where") % {"number": round_.number}
        pages = _columns(seating, ROWS_PER_COLUMN, SEATING_COLUMNS)
        slides += [
            Slide("seating", heading, columns, page=n, pages=len(pages)) for n, columns in enumerate(pages, 1)
        ]
    if hidden and show != "seating":
        slides.append(Slide("hidden", _("Standings")))
    if show in ("all", "standings") and lines:
        heading = _("Final standings") if final else _("Standings after round %(number)s") % {
            "number": rounds[-1]
        }
        pages = _columns(lines, ROWS_PER_COLUMN, STANDINGS_COLUMNS)
        slides += [
            Slide("standings", heading, cols, page=n, pages=len(pages)) for n, cols in enumerate(pages, 1)
        ]
    if show in ("all", "chart") and lines:
        slides.append(Slide("chart", _("Final standings") if final else _("Standings after round %(number)s")
                            % {"number": rounds[-1]}))
    if show in ("all", "prizes") and prizes is not None and prizes.rows:
        pages = _columns(prizes.rows, ROWS_PER_COLUMN, STANDINGS_COLUMNS)
        slides += [
            Slide("prizes", _("Prize list"), cols, page=n, pages=len(pages))
            for n, cols in enumerate(pages, 1)
        ]
    if show in ("all", "series") and season is not None and season.lines:
        ranked = [line for line in season.lines if line.row.ranked]
        pages = _columns(ranked, ROWS_PER_COLUMN, STANDINGS_COLUMNS)[:1]  # the top of the season
        title = f"{season.series.name} ({season.marker})" if season.provisional else season.series.name
        slides += [Slide("series", title, cols, page=1, pages=1) for cols in pages]
    return slides or [Slide("empty", _("Welcome!"))]


def _int(value: str | None, default: int) -> int:
    try:
        number = parse_int(value)
    except NumberError:
        return default
    return default if number is None else number


class ProjectorView(View):
    template_name = "tournament/projector/projector.html"

    def get(self, request, tournament_pk: int):
        tournament = live.tournament_for_viewer(request.user, tournament_pk)
        show = request.GET.get("show", "all")
        show = show if show in SHOW_CHOICES else "all"
        every = min(MAX_SECONDS, max(MIN_SECONDS, _int(request.GET.get("every"), DEFAULT_SECONDS)))
        index = max(0, _int(request.GET.get("slide"), 0))

        hidden = standings_hidden(tournament)
        if request.GET.get("show") == "reveal" and (not hidden or organizes(request.user, tournament)):
            return self.reveal(request, tournament)
        if request.htmx and request.GET.get("hidden") == "1" and not hidden and tournament.standings_revealed:
            # The organizer has just revealed the standings: the hall's projector, polling while they
            # were hidden, goes to the prize-giving once rather than showing the final standings.
            response = HttpResponse(status=204)
            response["HX-Redirect"] = f"{request.path}?show=reveal"
            return response
        round_ = live.shown_round(tournament)

        def draw(extra: dict[str, Any]) -> str:
            seating = live.seating_alphabetical(round_) if show in ("all", "seating") else []
            # Silent final rounds: the standings are not read at all, so nothing of them can reach the page.
            rounds, lines = live.live_standings(tournament) if show != "seating" and not hidden else ([], [])
            # Final only once the last round is closed (the live standings count confirmed tables earlier).
            final = bool(lines) and evening_over(tournament, rounds, lines, last_round=round_)
            prizes = prize_list(tournament, lines) if final and has_prizes(tournament) else None
            # Public: the season of the series' public evenings only (docs/rules.md §8).
            season = (
                series_standings_of(tournament, public_only=True)
                if show in ("all", "series") and not hidden else None
            )
            slides = build_slides(
                show=show, round_=round_, seating=seating, rounds=rounds, lines=lines, final=final,
                prizes=prizes, season=season, hidden=hidden,
            )
            slide = slides[index % len(slides)]
            next_query = urlencode({
                "show": show, "every": every, "slide": (index + 1) % len(slides),
                **({"hidden": 1} if hidden else {}),
            })
            public_url = absolute_url(reverse("public:tournament", args=[tournament.pk]), request)
            context = {
                "tournament": tournament,
                "round": round_,
                "clock": clock_state(round_),
                "expected_end": None if final or round_ is None else expected_end(tournament),
                "slide": slide,
                "slide_index": index % len(slides),
                "slide_count": len(slides),
                "every": every,
                "poll_url": f"{request.path}?{next_query}",
                "top_places": TOP_PLACES,
                "rows_per_column": ROWS_PER_COLUMN,
                "chart_svg": (
                    chart_for_standings(rounds, lines, top=TOP_PLACES, size=PROJECTOR_SIZE)
                    if slide.kind == "chart" else ""
                ),
                "public_url": public_url if tournament.public else "",
                "public_qr": (
                    qr_svg(public_url, scale=4) if tournament.public and slide.kind == "seating" else ""
                ),
            }
            template = f"{self.template_name}#stage" if request.htmx else self.template_name
            return render_to_string(template, {**context, **extra}, request)

        season = tournament.series_id if show in ("all", "series") and not hidden else None
        version = (
            evening_version(tournament), live.page_settings(tournament), hidden,
            series_version(season) if season else "",
            # The expected end moves with the time of day: a slide is drawn again at most once a minute.
            timezone.now().replace(second=0, microsecond=0) if round_ is not None else None,
        )
        return conditional_page(
            request, kind="projector", tournament_id=tournament.pk, version=version,
            clock=clock_state(round_), render=draw, params=frozenset({"show", "every", "slide", "hidden"}),
        )

    def reveal(self, request, tournament):
        """The prize-giving (docs/rules.md §9): one step per place from the last prize place up to the
        winner, each with name, club, total and prize, then the full table. The step shown is the
        evening's (`Tournament.reveal_step`), moved on by the organizer's POST; `static/js/reveal.js`
        polls it, so every screen on the projector follows. `?state=1` answers only the step."""
        plan = live.reveal(tournament)
        if request.GET.get("state") == "1":
            return JsonResponse({"step": plan.current, "count": plan.count})
        organizer = organizes(request.user, tournament)
        return render(request, "tournament/projector/reveal.html", {
            "tournament": tournament,
            "plan": plan,
            "steps": plan.steps,
            "pages": plan.pages,
            "rounds": plan.rounds,
            "top_places": TOP_PLACES,
            # An organizer's clicker on the projector moves the evening's step (a POST), not one screen's.
            "step_form": RevealStepForm(initial={"step": plan.current}) if organizer else None,
            "state_url": f"{request.path}?show=reveal&state=1",
        })
