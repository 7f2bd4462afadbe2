"""Reads for the hall's live pages (projector, public page): a fixed number of queries each.

Only names and clubs leave this module for the public: no start numbers, tokens or birth data.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from engine.text import search_words
from tournament.models import Registration, Round, Seat, Table, Tournament
from tournament.players.selectors import registrations
from tournament.standings.selectors import StandingLine, standings


@dataclass(frozen=True)
class SeatLine:
    """Where one player sits in a round."""

    name: str
    sort_name: str
    club: str
    table: int
    position: int


def shown_round(tournament: Tournament) -> Round | None:
    """The round the hall plays now: the newest one whose seating is published."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()


def published_rounds(tournament: Tournament) -> list[Round]:
    return list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number"))


def _seat_line(seat: Seat) -> SeatLine:
    player = seat.registration.player
    return SeatLine(
        name=player.name, sort_name=player.sort_name, club=player.club_name,
        table=seat.table.number, position=seat.position,
    )


def seating_alphabetical(round_: Round | None) -> list[SeatLine]:
    """Who sits where, by last name: what players look for on the projector (one query)."""
    if round_ is None:
        return []
    seats = Seat.objects.filter(round=round_).select_related("registration__player__club", "table")
    return sorted(
        (_seat_line(seat) for seat in seats), key=lambda line: (line.sort_name.casefold(), line.table)
    )


def seating_by_table(rounds: list[Round]) -> dict[int, list[tuple[int, list[SeatLine]]]]:
    """For each round number, its tables in order with their seats (one query for all rounds)."""
    result: dict[int, dict[int, list[SeatLine]]] = {round_.number: {} for round_ in rounds}
    seats = (
        Seat.objects.filter(round__in=rounds)
        .select_related("registration__player__club", "table", "round")
        .order_by("round__number", "table__number", "position")
    )
    for seat in seats:
        result[seat.round.number].setdefault(seat.table.number, []).append(_seat_line(seat))
    return {number: sorted(tables.items()) for number, tables in result.items()}


def live_round_numbers(tournament: Tournament) -> list[int]:
    """Rounds the projector counts: closed ones and published/open ones whose every table is confirmed.

    Confirming a round's last result shows on the projector at once, before the organizer closes the
    round; a half-reported round never does (its missing players would look like missed rounds).
    """
    rows = (
        tournament.rounds.exclude(status=Round.Status.DRAFT)
        .annotate(
            table_count=Count("tables"),
            pending=Count("tables", filter=~Q(tables__status=Table.Status.CONFIRMED)),
        )
        .order_by("number")
        .values_list("number", "status", "table_count", "pending")
    )
    counted = []
    for number, status, table_count, pending in rows:
        if status != Round.Status.CLOSED and (table_count == 0 or pending):
            break
        counted.append(number)
    return counted


def live_standings(tournament: Tournament) -> tuple[list[int], list[StandingLine]]:
    """Standings over the rounds `live_round_numbers` counts (four queries, none when nothing counts)."""
    numbers = live_round_numbers(tournament)
    if not numbers:
        return [], []
    return standings(tournament, after_round=numbers[-1], include_open=True)


def find_players(tournament: Tournament, query: str, *, limit: int = 12) -> list[Registration]:
    """Registrations whose first or last name contains every word typed ("anna mül" finds Anna Müller)."""
    words = search_words(query)
    if not words or len(" ".join(words)) < 2:
        return []
    condition = Q()
    for word in words:
        condition &= Q(player__first_name__icontains=word) | Q(player__last_name__icontains=word)
    return list(
        registrations(tournament).filter(condition)
        .order_by("player__last_name", "player__first_name")[:limit]
    )


def seats_of(registrations: list[Registration], rounds: list[Round]) -> dict[int, dict[int, SeatLine]]:
    """registration id → {round number → seat} for the given rounds (one query)."""
    result: dict[int, dict[int, SeatLine]] = {reg.pk: {} for reg in registrations}
    if not registrations or not rounds:
        return result
    seats = Seat.objects.filter(registration__in=registrations, round__in=rounds).select_related(
        "registration__player__club", "table", "round"
    )
    for seat in seats:
        result[seat.registration_id][seat.round.number] = _seat_line(seat)
    return result


def tournament_for_viewer(user, pk: int) -> Tournament:
    """The tournament when its public page is switched on, or for its own organizers; else 404.

    A switched-off tournament must not even be confirmed to exist, hence 404 rather than 403.
    """
    tournament = get_object_or_404(Tournament, pk=pk)
    if not tournament.public and not tournament.is_organizer(user):
        raise Http404
    return tournament


def page_settings(row) -> tuple:
    """A tournament's (or series') row as the stored pages read it (settings, name, logo, public): part
    of their version, read from the row already loaded, so a change shows at once even where no audit
    entry records it."""
    return tuple(getattr(row, field.attname) for field in type(row)._meta.concrete_fields)
