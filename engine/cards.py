"""Cards and decks as plain data.

A deck is data, not code: another edition (extra or white cards, other values) is just another
``Deck`` definition, so every rule that depends on counts or values asks the deck.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from engine.i18n import gettext_noop

COLOURS = ("R", "Y", "G", "B")


@dataclass(frozen=True, order=True)
class Card:
    """One card as reported: a rank code and, if given, its colour (None also for black cards)."""

    rank: str
    colour: str | None = None


@dataclass(frozen=True)
class RankSpec:
    """A rank of a deck: its point value and how many copies exist (per colour, and black ones)."""

    code: str
    value: int
    per_colour: int
    black: int
    label: str

    @property
    def is_black(self) -> bool:
        """Black cards (Wild, +4) exist without colour only, so a colour on them is a typo."""
        return self.per_colour == 0 and self.black > 0


@dataclass(frozen=True)
class Deck:
    """A deck edition: colours, ranks with counts and values, and derived limits."""

    key: str
    name: str
    colours: tuple[str, ...]
    ranks: tuple[RankSpec, ...]

    @cached_property
    def _by_code(self) -> dict[str, RankSpec]:
        return {spec.code: spec for spec in self.ranks}

    @cached_property
    def _rank_index(self) -> dict[str, int]:
        return {spec.code: i for i, spec in enumerate(self.ranks)}

    def has_rank(self, code: str) -> bool:
        """True if the deck knows this rank code."""
        return code in self._by_code

    def rank(self, code: str) -> RankSpec:
        """The spec of a rank code; KeyError for an unknown code (callers validate first)."""
        return self._by_code[code]

    def value(self, card: Card) -> int:
        """Point value of a card; values depend on the rank only."""
        return self._by_code[card.rank].value

    def copies(self, rank: str, colour: str | None = None) -> int:
        """Physical copies: per colour when a colour is given, else the total of that rank."""
        spec = self._by_code.get(rank)
        if spec is None:
            return 0
        if colour is not None:
            return spec.per_colour if colour in self.colours else 0
        return spec.per_colour * len(self.colours) + spec.black

    @cached_property
    def size(self) -> int:
        """Number of physical cards."""
        return sum(self.copies(spec.code) for spec in self.ranks)

    @cached_property
    def total_value(self) -> int:
        """Value of all cards together (1240 for the classic deck)."""
        return sum(spec.value * self.copies(spec.code) for spec in self.ranks)

    def cards(self) -> list[Card]:
        """Every physical card, coloured ones with their colour, black ones without."""
        result: list[Card] = []
        for spec in self.ranks:
            for colour in self.colours:
                result.extend(Card(spec.code, colour) for _ in range(spec.per_colour))
            result.extend(Card(spec.code) for _ in range(spec.black))
        return result

    def sort_key(self, card: Card) -> tuple[int, int, int, str]:
        """Canonical order: coloured cards by colour then rank, then black cards, then colourless."""
        ranks = self._rank_index
        rank_idx = ranks.get(card.rank, len(ranks))
        if card.colour is not None:
            colour_idx = self.colours.index(card.colour) if card.colour in self.colours else len(self.colours)
            return (colour_idx, 0, rank_idx, card.rank + card.colour)
        spec = self._by_code.get(card.rank)
        group = 0 if spec is not None and spec.is_black else 1
        return (len(self.colours) + 1, group, rank_idx, card.rank)

    def values(self, available: Mapping[str, int] | None = None) -> list[int]:
        """Sorted values of all cards, or of ``available`` copies per rank code."""
        result: list[int] = []
        for spec in self.ranks:
            count = self.copies(spec.code) if available is None else max(0, available.get(spec.code, 0))
            result.extend([spec.value] * count)
        result.sort()
        return result

    def cheapest(self, n: int, available: Mapping[str, int] | None = None) -> int:
        """Lowest possible value of ``n`` cards (from ``available`` copies per rank if given)."""
        return sum(self.values(available)[: max(0, n)])

    def dearest(self, n: int, available: Mapping[str, int] | None = None) -> int:
        """Highest possible value of ``n`` cards (from ``available`` copies per rank if given)."""
        values = self.values(available)
        return sum(values[len(values) - min(max(0, n), len(values)) :])

    def rank_counts(self) -> dict[str, int]:
        """Copies per rank code, the starting point for 'what is still available'."""
        return {spec.code: self.copies(spec.code) for spec in self.ranks}


def _classic_ranks() -> tuple[RankSpec, ...]:
    numbers = [RankSpec(str(n), n, 1 if n == 0 else 2, 0, str(n)) for n in range(10)]
    actions = [
        RankSpec("+2", 20, 2, 0, gettext_noop("Draw Two")),
        RankSpec("S", 20, 2, 0, gettext_noop("Skip")),
        RankSpec("Rev", 20, 2, 0, gettext_noop("Reverse")),
        RankSpec("W", 50, 0, 4, gettext_noop("Wild")),
        RankSpec("+4", 50, 0, 4, gettext_noop("Wild Draw Four")),
    ]
    return (*numbers, *actions)


CLASSIC = Deck(
    key="classic", name=gettext_noop("UNO classic (108 cards)"), colours=COLOURS, ranks=_classic_ranks()
)

DECKS: dict[str, Deck] = {"classic": CLASSIC}


def get_deck(key: str) -> Deck:
    """The deck for a tournament's deck key; unknown keys fall back to the classic deck."""
    return DECKS.get(key, CLASSIC)


def count_cards(cards: Iterable[Card]) -> dict[Card, int]:
    """Multiset of cards, used for copy-limit checks."""
    result: dict[Card, int] = {}
    for card in cards:
        result[card] = result.get(card, 0) + 1
    return result
