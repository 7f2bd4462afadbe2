"""Which of the evening's documents can be made now, and why not: a link is offered only to a document
that answers a PDF; where one cannot be made yet, the page says why instead of offering it."""

from __future__ import annotations

from dataclasses import dataclass

from tournament.models import Tournament
from tournament.standings.selectors import StandingLine, tournament_rankings


@dataclass(frozen=True)
class DocumentsReady:
    """`category_certificates`: some category has a certain best (docs/rules.md §8);
    `season_certificates`: the evening is in a series and the season has a ranked line."""

    category_certificates: bool
    season_certificates: bool
    in_series: bool

    @property
    def category_reason(self) -> str:
        return "" if self.category_certificates else "no_category"

    @property
    def season_reason(self) -> str:
        return "" if self.season_certificates or not self.in_series else "no_season_round"


def documents_ready(tournament: Tournament, lines: list[StandingLine]) -> DocumentsReady:
    """Asks what the PDF views ask (`category_prizes`, `season_prizes`), so an offered link never
    answers a redirect."""
    from tournament.series.selectors import series_standings_of

    from .prizes import category_prizes
    from .season import season_prizes

    categories = bool(lines) and bool(category_prizes(tournament, tournament_rankings(tournament, lines)))
    season = series_standings_of(tournament) if tournament.series_id else None
    return DocumentsReady(
        category_certificates=categories,
        season_certificates=season is not None and bool(season_prizes(season)),
        in_series=season is not None,
    )
