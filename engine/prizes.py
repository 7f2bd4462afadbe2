"""Prize money: the pot, its split by a table of percentages or fixed amounts, shared places, goods prizes.

All amounts are whole cents (ints); payouts are rounded down to whole euros and what is left over is
returned as the remainder, so the organizer sees exactly how much of the pot nobody was paid.
Places come from the standings (1, 2, 2, 4): players with the same place share their places' prizes by
the club's rule, either split equally or each paid the better place's prize in full.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

EURO = 100


class SharedPlaces(StrEnum):
    """How players on the same place are paid."""

    SPLIT = "split"  # the prizes of the places they occupy, shared equally
    BOTH_FULL = "full"  # each gets the prize of the best place they occupy


class PotBasis(StrEnum):
    """What the pot is a percentage of."""

    COLLECTED = "collected"  # the entry fees actually taken (reduced and waived fees as they were paid)
    NOMINAL = "nominal"  # the entry fee times the paying players


class TableKind(StrEnum):
    PERCENT = "percent"  # each row a percentage of the pot
    FIXED = "fixed"  # each row an amount in whole euros


@dataclass(frozen=True)
class Payout:
    """Amount per player (cents, whole euros), the pot and what is left of it (negative: a shortfall)."""

    pot: int
    amounts: dict[int, int]
    remainder: int


def pot(*, fee_cents: int, paying_players: int, payout_percent: int) -> int:
    """Entry fee times paying players times payout percentage, in cents (rounded down to a cent)."""
    if fee_cents < 0 or paying_players < 0 or not 0 <= payout_percent <= 100:
        raise ValueError("fee, players and percentage must be non-negative, the percentage at most 100")
    return fee_cents * paying_players * payout_percent // 100


def pot_of_collected(*, collected_cents: int, payout_percent: int) -> int:
    """The payout percentage of the entry fees actually taken, in cents (rounded down to a cent)."""
    if collected_cents < 0 or not 0 <= payout_percent <= 100:
        raise ValueError("the amount must be non-negative, the percentage between 0 and 100")
    return collected_cents * payout_percent // 100


def place_prizes(*, pot_cents: int, kind: TableKind, table: Sequence[int]) -> list[int]:
    """The prize of each place (1 first) before shared places: cents, rounded down to whole euros."""
    if any(value < 0 for value in table):
        raise ValueError("prize table values must not be negative")
    if kind is TableKind.PERCENT:
        if sum(table) > 100:
            raise ValueError("percentages add up to more than 100")
        return [(pot_cents * percent // 100) // EURO * EURO for percent in table]
    return [euros * EURO for euros in table]


def split(
    *,
    pot_cents: int,
    kind: TableKind,
    table: Sequence[int],
    places: Sequence[tuple[int, int]],
    shared: SharedPlaces = SharedPlaces.SPLIT,
    overrides: Mapping[int, int] | None = None,
) -> Payout:
    """Pay the players: `places` lists (player_id, place) in standings order (places like 1, 2, 2, 4).

    `overrides` maps a player to a manually set amount (cents, whole euros) that replaces the computed
    one; the remainder is recomputed from whatever is paid.
    """
    prizes = place_prizes(pot_cents=pot_cents, kind=kind, table=table)
    groups: dict[int, list[int]] = {}
    for player_id, place in places:
        groups.setdefault(place, []).append(player_id)
    amounts: dict[int, int] = {}
    for place, members in sorted(groups.items()):
        covered = prizes[place - 1 : place - 1 + len(members)]
        if not covered:
            continue
        full = shared is SharedPlaces.BOTH_FULL
        each = covered[0] if full else sum(covered) // len(members) // EURO * EURO
        if each > 0:
            for player_id in members:
                amounts[player_id] = each
    for player_id, amount in (overrides or {}).items():
        if amount < 0 or amount % EURO:
            raise ValueError("an override must be a non-negative amount of whole euros")
        if amount:
            amounts[player_id] = amount
        else:
            amounts.pop(player_id, None)
    return Payout(pot=pot_cents, amounts=amounts, remainder=pot_cents - sum(amounts.values()))


def goods_pick_order(places: Sequence[tuple[int, int]], goods: Sequence[str]) -> list[tuple[int, str]]:
    """Goods prizes (Sachpreise): players pick in order of place, one item each while items last.

    Returns (player_id, item) pairs: the item is what is left at that player's turn if everyone before
    picked in list order; on the day players choose freely, the order is what counts.
    """
    ordered = sorted(places, key=lambda pair: pair[1])  # stable: standings order within a place
    return [(player_id, item) for (player_id, _place), item in zip(ordered, goods, strict=False)]


def euros(cents: int) -> str:
    """Cents as a plain amount with two decimals ("-" sign for a shortfall), for CSV and PDF."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100}.{cents % 100:02d}"
