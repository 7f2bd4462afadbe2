"""The prize list: the pot (from the fees collected, or the nominal fee times the paying players), split
by the tournament's table over the standings."""

from __future__ import annotations

from dataclasses import dataclass

from engine.prizes import PotBasis, SharedPlaces, TableKind, goods_pick_order, pot, pot_of_collected, split
from tournament.cashdesk.selectors import fees_taken
from tournament.models import Tournament
from tournament.standings.selectors import StandingLine


@dataclass(frozen=True)
class PrizeRow:
    place: int
    name: str
    club: str
    start_number: int
    amount_cents: int
    goods: str


@dataclass(frozen=True)
class PrizeList:
    paying: int
    pot_cents: int
    rows: list[PrizeRow]
    remainder_cents: int
    shared: str
    basis: str = PotBasis.COLLECTED
    collected_cents: int = 0  # the entry fees actually taken
    collected_pot_cents: int = 0  # the pot from them
    nominal_pot_cents: int = 0  # the pot from the entry fee times the paying players

    @property
    def from_collected(self) -> bool:
        return self.basis == PotBasis.COLLECTED

    @property
    def paid_cents(self) -> int:
        return sum(row.amount_cents for row in self.rows)


def has_prizes(tournament: Tournament) -> bool:
    return bool(tournament.prize_table or tournament.goods_prizes)


def prize_list(tournament: Tournament, lines: list[StandingLine]) -> PrizeList:
    """Prizes for the given standings (one query: the payments); rows for paid places and goods. The pot
    follows the tournament's `pot_basis`; both pots are given, so the page can show them side by side."""
    paying, collected = fees_taken(tournament)
    nominal_pot = pot(
        fee_cents=tournament.entry_fee_cents, paying_players=paying, payout_percent=tournament.payout_percent
    )
    collected_pot = pot_of_collected(collected_cents=collected, payout_percent=tournament.payout_percent)
    pot_cents = collected_pot if tournament.pot_basis == PotBasis.COLLECTED else nominal_pot
    places = [(line.registration.pk, line.row.rank) for line in lines]
    by_number = {line.registration.start_number: line.registration.pk for line in lines}
    overrides = {
        by_number[int(number)]: cents
        for number, cents in (tournament.prize_overrides or {}).items()
        if int(number) in by_number
    }
    payout = split(
        pot_cents=pot_cents, kind=TableKind(tournament.prize_kind), table=tournament.prize_table or [],
        places=places, shared=SharedPlaces(tournament.shared_places), overrides=overrides,
    )
    goods = dict(goods_pick_order(places, tournament.goods_prizes or []))
    rows = [
        PrizeRow(
            place=line.row.rank, name=line.player.name, club=line.player.club_name,
            start_number=line.registration.start_number,
            amount_cents=payout.amounts.get(line.registration.pk, 0),
            goods=goods.get(line.registration.pk, ""),
        )
        for line in lines
        if payout.amounts.get(line.registration.pk) or line.registration.pk in goods
    ]
    return PrizeList(
        paying=paying, pot_cents=pot_cents, rows=rows, remainder_cents=payout.remainder,
        shared=tournament.get_shared_places_display(), basis=tournament.pot_basis, collected_cents=collected,
        collected_pot_cents=collected_pot, nominal_pot_cents=nominal_pot,
    )
