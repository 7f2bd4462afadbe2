"""The seating list of a round: every player by name with their table and seat."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string

from engine.text import person_sort_key
from tournament.documents.typography import html_to_pdf
from tournament.models import Round
from tournament.rounds.selectors import round_tables


@dataclass(frozen=True)
class SeatingLine:
    sort_name: str
    club: str
    start_number: int
    table: int
    seat: int
    sort_key: tuple = ()


def seating_lines(round_: Round) -> list[SeatingLine]:
    lines = [
        SeatingLine(
            sort_name=seat.registration.player.sort_name,
            club=seat.registration.player.club_name,
            start_number=seat.registration.start_number,
            table=table.number,
            seat=seat.position,
            sort_key=person_sort_key(seat.registration.player.last_name, seat.registration.player.first_name),
        )
        for table in round_tables(round_, with_results=False)
        for seat in table.seats.all()
    ]
    # The wall list a player looks for their name on: German order (Schäfer before Schröder).
    return sorted(lines, key=lambda line: (line.sort_key, line.start_number))


def seating_pdf(round_: Round, *, request: HttpRequest | None = None) -> bytes:
    context = {"tournament": round_.tournament, "round": round_, "lines": seating_lines(round_)}
    return html_to_pdf(render_to_string("print/seating.html", context, request=request))
