"""Start cards: one A6 card per planned player (four on an A4 page) with their table and seat in every
round, seated rounds as stored and later ones as planned."""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string

from engine.seating import StoredPlan
from tournament.documents.typography import html_to_pdf, points_label
from tournament.models import Registration, Seat, Tournament
from tournament.rounds.selectors import planned_rounds

CARDS_PER_PAGE = 4  # A6 cards, two by two on an A4 page, cut along the dashed lines
CARD_ROWS = 12  # rounds listed in one column of a card; longer tournaments get two columns


@dataclass(frozen=True)
class StartCardRound:
    number: int
    table: int | None  # None: not seated in that round (withdrawn, or not in the plan)
    seat: int | None


@dataclass
class StartCard:
    start_number: int
    name: str
    club: str
    rounds: list[StartCardRound]

    @property
    def columns(self) -> list[list[StartCardRound]]:
        """The rounds in one column, or in two side by side when they do not fit one below the other."""
        if len(self.rounds) <= CARD_ROWS:
            return [self.rounds]
        half = math.ceil(len(self.rounds) / 2)
        return [self.rounds[:half], self.rounds[half:]]


def planned_seats(
    tournament: Tournament, plan: StoredPlan | None
) -> dict[int, dict[int, tuple[int, int]]]:
    """round number -> registration id -> (table, seat): seated rounds as stored, later ones as `plan`
    (the plan of all rounds).

    A round already seated wins over the plan, so a swap made by hand is what the card shows.
    """
    by_round: dict[int, dict[int, tuple[int, int]]] = {}
    for number, tables in (plan.numbered_rounds() if plan is not None else {}).items():
        by_round[number] = {
            reg_id: (table_no, seat_no)
            for table_no, table in enumerate(tables, start=1)
            for seat_no, reg_id in enumerate(table, start=1)
        }
    seated: dict[int, dict[int, tuple[int, int]]] = {}
    for number, reg_id, table_no, seat_no in Seat.objects.filter(round__tournament=tournament).values_list(
        "round__number", "registration_id", "table__number", "position"
    ):
        seated.setdefault(number, {})[reg_id] = (table_no, seat_no)
    by_round.update(seated)
    return by_round


def start_cards(tournament: Tournament) -> list[StartCard]:
    """One card per planned player, by start number, with their table and seat in every round."""
    plan = planned_rounds(tournament)
    plan_players = plan.players if plan is not None else ()
    seats = planned_seats(tournament, plan)
    numbers = range(1, tournament.rounds_total + 1)
    registrations = (
        Registration.objects.filter(pk__in=plan_players).select_related("player__club").order_by("start_number")
    )
    cards = []
    for reg in registrations:
        rounds = []
        for number in numbers:
            table, seat = seats.get(number, {}).get(reg.pk, (None, None))
            rounds.append(StartCardRound(number=number, table=table, seat=seat))
        player = reg.player
        cards.append(
            StartCard(start_number=reg.start_number, name=player.name, club=player.club_name, rounds=rounds)
        )
    return cards


def card_density(rounds_total: int) -> str:
    """Row height class of the cards: as tall as the A6 card allows for the rows in one column."""
    rows = rounds_total if rounds_total <= CARD_ROWS else math.ceil(rounds_total / 2)
    if rows <= 6:
        return "roomy"
    if rows <= 9:
        return "normal"
    return "tight" if rows <= CARD_ROWS else "dense"


def start_cards_html(tournament: Tournament, *, request: HttpRequest | None = None) -> str:
    cards = start_cards(tournament)
    pages = [cards[i : i + CARDS_PER_PAGE] for i in range(0, len(cards), CARDS_PER_PAGE)]
    context = {
        "tournament": tournament,
        "pages": pages,
        "points_label": points_label(tournament),
        "density": card_density(tournament.rounds_total),
    }
    return render_to_string("print/start_cards.html", context, request=request)


def start_cards_pdf(tournament: Tournament, *, request: HttpRequest | None = None) -> bytes:
    return html_to_pdf(start_cards_html(tournament, request=request))
