"""The standings: after a round or final, per round and by tie-break, with the chart, the prizes on the
final standings and the evening's club, team and category rankings after the table."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from engine.standings import TIEBREAKS
from tournament.documents.typography import html_to_pdf, points_label
from tournament.models import Tournament
from tournament.prizes.selectors import PrizeList, has_prizes, prize_list
from tournament.standings.charts import chart_for_standings
from tournament.standings.selectors import (
    StandingLine,
    TournamentRankings,
    counted_rounds,
    evening_over,
    standings,
    standings_settings,
    tournament_rankings,
)


@dataclass
class StandingsDocument:
    tournament: Tournament
    rounds: list[int]
    lines: list[StandingLine]
    tiebreaks: list[tuple[str, str]] = field(default_factory=list)
    final: bool = False
    prizes: PrizeList | None = None  # on the final standings, when prizes are set
    rankings: TournamentRankings | None = None  # clubs, teams and categories, after the table

    @property
    def after_round(self) -> int | None:
        return self.rounds[-1] if self.rounds else None


def standings_document(tournament: Tournament, *, after_round: int | None = None) -> StandingsDocument:
    rounds, lines = standings(tournament, after_round=after_round)
    keys = [key for key in standings_settings(tournament).tiebreaks if key in TIEBREAKS]
    final = (
        bool(rounds)
        and rounds == counted_rounds(tournament)
        and evening_over(tournament, rounds, lines)
    )
    return StandingsDocument(
        tournament=tournament,
        rounds=rounds,
        lines=lines,
        tiebreaks=[(key, _(TIEBREAKS[key].label)) for key in keys],
        final=final,
        prizes=prize_list(tournament, lines) if final and has_prizes(tournament) else None,
        rankings=tournament_rankings(tournament, lines) if lines else None,
    )


def standings_html(document: StandingsDocument, *, request: HttpRequest | None = None) -> str:
    rows = [
        {
            "line": line,
            "per_round": [
                (line.row.per_round.get(number), line.row.charged.get(number)) for number in document.rounds
            ],
            "tiebreaks": [line.row.tiebreak_values.get(key) for key, _label in document.tiebreaks],
        }
        for line in document.lines
    ]
    # Landscape once rounds and tie-breaks make more than 4 columns: long names keep to one line.
    columns = len(document.rounds) + len(document.tiebreaks)
    context = {
        "tournament": document.tournament,
        "document": document,
        "rows": rows,
        "landscape": columns > 4,
        "points_label": points_label(document.tournament),
        "prizes": document.prizes,
        "rankings": document.rankings,
        # The chart the README promises: top places in colour, on the page after the table.
        "chart_svg": chart_for_standings(document.rounds, document.lines),
    }
    return render_to_string("print/standings.html", context, request=request)


def standings_pdf(
    tournament: Tournament, *, after_round: int | None = None, request: HttpRequest | None = None
) -> tuple[StandingsDocument, bytes]:
    document = standings_document(tournament, after_round=after_round)
    return document, html_to_pdf(standings_html(document, request=request))

