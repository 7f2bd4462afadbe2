"""Prize certificates of categories and seasons (`Prize`): their titles by the player's grammatical
gender, the best of every category of one evening, and the certificates' PDF."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from engine.scoring import ScoringFormat
from tournament.documents.typography import (
    CERTIFICATE_CLUB_STEPS,
    CERTIFICATE_NAME_STEPS,
    PRIZE_EVENT_STEPS,
    document_date,
    html_to_pdf,
    logo_uri,
    points_text,
    text_size,
)
from tournament.models import Tournament


@dataclass(frozen=True)
class Prize:
    """One certificate of a season or a category: its title and who won it with which place."""

    title: str
    event: str
    when: str
    name: str
    club: str
    rank: int
    points: str
    marker: str = ""  # "provisional, evening 3 is running" while the season has a running evening

    @property
    def name_size(self) -> str:
        """Long names, clubs and event names get a smaller type, so that the certificate keeps to its
        page above the signature (as `Certificate` does)."""
        return text_size(self.name, CERTIFICATE_NAME_STEPS)

    @property
    def club_size(self) -> str:
        return text_size(self.club, CERTIFICATE_CLUB_STEPS)

    @property
    def event_size(self) -> str:
        return text_size(self.event, PRIZE_EVENT_STEPS)



# The grammatical gender of a category prize's title ("Beste Seniorin", "Bester Senior"); a player
# whose gender is not given (or diverse) gets a wording that assumes none ("Beste Platzierung: Senioren").
PRIZE_CONTEXTS = {"f": "female", "m": "male"}


def prize_title(category, gender: str) -> str:
    """The title of a category certificate for a player of `gender` (Player.gender, "" when unknown)."""
    from engine.rankings import CATEGORY_PRIZES, Category

    message = CATEGORY_PRIZES[category]
    if category in (Category.WOMEN, Category.MEN):
        return _(message)
    return pgettext(PRIZE_CONTEXTS.get(gender, "gender not given"), message)


def category_prizes(tournament: Tournament, rankings) -> list[Prize]:
    """The best of every category of one evening (`TournamentRankings`): the place printed is the one
    within the category."""
    minus = tournament.scoring == ScoringFormat.MINUS_POINTS
    when = document_date(tournament.date, short=True)
    return [
        Prize(prize_title(category, line.player.gender), tournament.name, when, line.player.name,
              line.player.club_name, rank, points_text(line.row.total, minus=minus))
        # A category every player is in (all members) would only crown the evening's winner again.
        for category, rows in rankings.listed_categories.items()
        for rank, _shared, line in rows if rank == 1
    ]


def prizes_pdf(
    tournament: Tournament, prizes: Sequence[Prize], *, request: HttpRequest | None = None
) -> bytes:
    context = {"tournament": tournament, "prizes": prizes, "logo": logo_uri(tournament)}
    return html_to_pdf(render_to_string("print/prize_certificates.html", context, request=request))

