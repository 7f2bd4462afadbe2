"""Reads for the hall's live pages (projector, public page): a fixed number of queries each.

Only names and clubs leave this module for the public: no start numbers, tokens or birth data.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404

from engine.text import matches, person_sort_key, search_words
from tournament.models import Registration, Round, Seat, Table, Tournament
from tournament.permissions import organizes
from tournament.players.selectors import registrations
from tournament.prizes.selectors import has_prizes, prize_list
from tournament.standings.selectors import StandingLine, standings


@dataclass(frozen=True)
class SeatLine:
    """Where one player sits in a round."""

    name: str
    sort_name: str
    club: str
    table: int
    position: int
    sort_key: tuple = ()


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
        sort_key=person_sort_key(player.last_name, player.first_name),
    )


def seating_alphabetical(round_: Round | None) -> list[SeatLine]:
    """Who sits where, by last name in German order: what players look for on the projector (one query)."""
    if round_ is None:
        return []
    seats = Seat.objects.filter(round=round_).select_related("registration__player__club", "table")
    return sorted(
        (_seat_line(seat) for seat in seats), key=lambda line: (line.sort_key, line.table)
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
    """Registrations whose first or last name holds every word typed, spelling forgiven as at the desk
    (`engine.text.matches`: "anna mül", "mueller" and "muller" find Anna Müller, "Yilmaz" the Turkish
    spelling); folded in Python, the same on every database (one query over the evening's players)."""
    words = search_words(query)
    if not words or len(" ".join(words)) < 2:
        return []
    found = [
        reg for reg in registrations(tournament)
        if matches(query, reg.player.first_name, reg.player.last_name)
    ]
    found.sort(key=lambda reg: (person_sort_key(reg.player.last_name, reg.player.first_name), reg.pk))
    return found[:limit]


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
    if not tournament.public and not organizes(user, tournament):
        raise Http404
    return tournament


# The projector's columns (also in static/css/projector.css: --rows; no inline style under the CSP).
ROWS_PER_COLUMN = 15
STANDINGS_COLUMNS = 2
TOP_PLACES = 3


def columns(items: list[Any], per_column: int, count: int) -> list[list[list[Any]]]:
    """Split a list into pages of columns: up to `count` lists of at most `per_column` items, a page's
    items spread evenly over all its columns (23 players: 8, 8, 7, not 15 and 8 with a column empty)."""
    per_page = per_column * count
    pages = [items[start:start + per_page] for start in range(0, len(items), per_page)]
    split = []
    for page in pages:
        height = -(-len(page) // count)  # ceiling division
        split.append([page[c:c + height] for c in range(0, len(page), height)])
    return split


@dataclass
class RevealLine:
    name: str
    club: str
    total: int
    amount_cents: int = 0
    goods: str = ""


@dataclass
class RevealStep:
    place: int
    lines: list[RevealLine]


def reveal_steps(lines: list[StandingLine], prize_rows: list) -> list[RevealStep]:
    """The places to announce, last first: every place down to the last one with a prize (or the top
    three without prizes); players sharing a place share its step."""
    prizes = {row.start_number: row for row in prize_rows}
    last = max((row.place for row in prize_rows), default=TOP_PLACES)
    by_place: dict[int, list[RevealLine]] = {}
    for line in lines:
        rank = line.row.rank
        if rank is None or rank > last:
            continue
        prize = prizes.get(line.registration.start_number)
        by_place.setdefault(rank, []).append(RevealLine(
            name=line.player.name, club=line.player.club_name, total=line.row.total,
            amount_cents=prize.amount_cents if prize else 0, goods=prize.goods if prize else "",
        ))
    return [RevealStep(place, by_place[place]) for place in sorted(by_place, reverse=True)]


@dataclass
class Reveal:
    """The prize-giving as every projector and the organizer's page see it: the opening, one step per
    place, the full table's pages; `current` is the evening's step (`Tournament.reveal_step`), kept
    within the steps there are."""

    steps: list[RevealStep]
    pages: list[list[list[StandingLine]]]
    rounds: list[int]
    current: int

    @property
    def count(self) -> int:
        return 1 + len(self.steps) + len(self.pages)

    @property
    def current_place(self) -> int | None:
        """The place shown now; None at the opening and on the full table."""
        return self.steps[self.current - 1].place if 1 <= self.current <= len(self.steps) else None


def reveal(tournament: Tournament) -> Reveal:
    """The prize-giving over the live standings (the queries of `live_standings` and the prize list)."""
    rounds, lines = live_standings(tournament)
    prizes = prize_list(tournament, lines) if lines and has_prizes(tournament) else None
    steps = reveal_steps(lines, prizes.rows if prizes is not None else [])
    pages = columns(lines, ROWS_PER_COLUMN, STANDINGS_COLUMNS)
    count = 1 + len(steps) + len(pages)
    return Reveal(steps=steps, pages=pages, rounds=rounds, current=min(tournament.reveal_step, count - 1))


def page_settings(row) -> tuple:
    """A tournament's (or series') row as the stored pages read it (settings, name, logo, public): part
    of their version, read from the row already loaded, so a change shows at once even where no audit
    entry records it."""
    return tuple(getattr(row, field.attname) for field in type(row)._meta.concrete_fields)
