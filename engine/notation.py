"""Card notation (docs/rules.md §6): parse what a table typed, print it back canonically.

Players type hands quickly and in German or English, so the parser is lenient about spelling,
case and separators but strict about anything it cannot read: an unknown token is reported by
name instead of being guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .cards import CLASSIC, Card, Deck

Hand = tuple[Card, ...]

COLOUR_ALIASES: dict[str, str] = {
    "r": "R", "red": "R", "rot": "R",
    "y": "Y", "yellow": "Y", "gelb": "Y", "ge": "Y",
    "g": "G", "green": "G", "gruen": "G", "gr": "G",
    "b": "B", "blue": "B", "blau": "B",
}  # fmt: skip

RANK_ALIASES: dict[str, str] = {
    **{str(n): str(n) for n in range(10)},
    "+2": "+2", "d2": "+2", "draw2": "+2", "drawtwo": "+2", "zieh2": "+2", "ziehzwei": "+2",
    "zweiziehen": "+2",
    "s": "S", "skip": "S", "aussetzen": "S", "stopp": "S", "stop": "S",
    "rev": "Rev", "reverse": "Rev", "retour": "Rev", "ret": "Rev", "richtungswechsel": "Rev",
    "w": "W", "wild": "W", "farbwahl": "W", "farbenwahl": "W", "farbwechsel": "W", "joker": "W", "j": "W",
    "farbwunsch": "W",
    "+4": "+4", "w+4": "+4", "wild4": "+4", "wild+4": "+4", "wilddraw4": "+4", "wilddrawfour": "+4",
    "zieh4": "+4", "ziehvier": "+4", "vierziehen": "+4", "d4": "+4", "draw4": "+4", "drawfour": "+4",
}  # fmt: skip

# Multi-word names, matched only when the words are separated by spaces (not commas), so that
# "W, 4" stays a Wild and a four while "wild 4" is a Wild Draw Four.
PHRASES: dict[tuple[str, ...], str] = {
    ("zieh", "2"): "+2", ("zieh", "zwei"): "+2", ("zwei", "ziehen"): "+2",
    ("draw", "2"): "+2", ("draw", "two"): "+2",
    ("zieh", "4"): "+4", ("zieh", "vier"): "+4", ("vier", "ziehen"): "+4",
    ("draw", "4"): "+4", ("draw", "four"): "+4", ("wild", "4"): "+4",
    ("wild", "draw", "4"): "+4", ("wild", "draw", "four"): "+4",
}  # fmt: skip
_MAX_PHRASE = max(len(p) for p in PHRASES)

_COUNT_WORDS = {"x", "\u00d7", "*"}
_GLUED_COUNT = re.compile(r"([0-9]{1,4})[x\u00d7*](.*)", re.ASCII)
_NUMBER = re.compile(r"[0-9]{1,4}", re.ASCII)
_TOKEN = re.compile(r"[^\s,;]+")
_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


class NotationError(ValueError):
    """A hand that cannot be read; ``token`` is the offending text exactly as typed."""

    def __init__(self, token: str, reason: str = "unknown card") -> None:
        super().__init__(f"{reason}: {token!r}")
        self.token = token
        self.reason = reason


@dataclass(frozen=True)
class _Token:
    raw: str
    norm: str
    glued_to_next: bool  # only whitespace between this token and the next


def _normalise(word: str) -> str:
    return word.casefold().translate(_UMLAUTS)


def _tokens(text: str) -> list[_Token]:
    matches = list(_TOKEN.finditer(text))
    result = []
    for i, match in enumerate(matches):
        gap = text[match.end() : matches[i + 1].start()] if i + 1 < len(matches) else ","
        result.append(_Token(match.group(), _normalise(match.group()), not re.search(r"[,;]", gap)))
    return result


def _rank_aliases(deck: Deck) -> dict[str, str]:
    aliases = {alias: code for alias, code in RANK_ALIASES.items() if deck.has_rank(code)}
    for spec in deck.ranks:  # other editions: their own codes and labels always work
        aliases.setdefault(_normalise(spec.code), spec.code)
        aliases.setdefault(_normalise(spec.label).replace(" ", ""), spec.code)
    return aliases


def _colour_aliases(deck: Deck) -> dict[str, str]:
    aliases = {alias: code for alias, code in COLOUR_ALIASES.items() if code in deck.colours}
    for code in deck.colours:
        aliases.setdefault(_normalise(code), code)
    return aliases


def _read_word(word: str, ranks: dict[str, str], colours: dict[str, str]) -> tuple[str | None, str | None]:
    """Split one word into (colour, rank); rank None means a bare colour word, both None unknown.

    Exact names win over colour prefixes, so "rev" is Reverse, "rot" is red and "rs" is red Skip.
    """
    if word in ranks:
        return None, ranks[word]
    if word in colours:
        return colours[word], None
    for alias in sorted(colours, key=len, reverse=True):
        if word.startswith(alias) and word[len(alias) :] in ranks:
            return colours[alias], ranks[word[len(alias) :]]
    return None, None


def parse_hand(text: str, deck: Deck = CLASSIC) -> Hand:
    """Read a typed hand into canonical sorted order; raise NotationError naming a bad token."""
    return sort_hand(read_cards(text, deck), deck)


def read_cards(text: str, deck: Deck = CLASSIC) -> list[Card]:
    """The cards of a typed hand in the order typed (the phone shows them so, one chip each)."""
    ranks, colours = _rank_aliases(deck), _colour_aliases(deck)
    tokens = _tokens(text or "")
    cards: list[Card] = []
    count: int | None = None
    count_raw: list[str] = []
    colour: str | None = None
    colour_raw: list[str] = []
    i = 0
    while i < len(tokens):
        token = tokens[i]
        # a count: "2x7", "2x", "2 x 7"
        if _NUMBER.fullmatch(token.norm) and i + 1 < len(tokens) and tokens[i + 1].norm in _COUNT_WORDS:
            if count is not None or colour is not None:
                raise NotationError(token.raw, "misplaced count")
            count, count_raw = int(token.norm), [token.raw, tokens[i + 1].raw]
            i += 2
            continue
        glued = _GLUED_COUNT.fullmatch(token.norm)
        word, raw = token.norm, token.raw
        if glued:
            if count is not None or colour is not None:
                raise NotationError(token.raw, "misplaced count")
            count, count_raw = int(glued.group(1)), [token.raw]
            word = glued.group(2)
            if not word:
                i += 1
                continue
        # multi-word names: "zieh 2", "wild 4"
        rank: str | None = None
        word_colour: str | None = None
        consumed = 1
        for length in range(_MAX_PHRASE, 1, -1):
            group = tokens[i : i + length]
            if len(group) == length and all(t.glued_to_next for t in group[:-1]):
                words = (word, *(t.norm for t in group[1:]))
                if words in PHRASES and deck.has_rank(PHRASES[words]):
                    rank, consumed = PHRASES[words], length
                    raw = " ".join(t.raw for t in group)
                    break
        if rank is None:
            word_colour, rank = _read_word(word, ranks, colours)
            if word_colour is None and rank is None:
                raise NotationError(token.raw)
            if rank is None:  # a colour word before the card: "rot 7"
                if colour is not None:
                    raise NotationError(token.raw, "two colours")
                colour, colour_raw = word_colour, [token.raw]
                i += 1
                continue
        if colour is not None and word_colour is not None:
            raise NotationError(" ".join([*colour_raw, raw]), "two colours")
        card_colour = word_colour or colour
        shown = " ".join([*count_raw, *colour_raw, raw]) if not glued else " ".join([*colour_raw, raw])
        if card_colour is not None and deck.rank(rank).is_black:
            raise NotationError(shown, "black card with a colour")
        if count is not None and not 1 <= count <= deck.size:
            raise NotationError(" ".join([*count_raw, raw]) if not glued else raw, "bad count")
        cards.extend([Card(rank, card_colour)] * (1 if count is None else count))
        count, count_raw, colour, colour_raw = None, [], None, []
        i += consumed
    if colour is not None:
        raise NotationError(colour_raw[0], "colour without a card")
    if count is not None:
        raise NotationError(" ".join(count_raw), "count without a card")
    return cards


def sort_hand(cards: list[Card] | tuple[Card, ...], deck: Deck = CLASSIC) -> Hand:
    """Canonical order, so equal hands compare equal however they were typed."""
    return tuple(sorted(cards, key=deck.sort_key))


@dataclass(frozen=True)
class Notation:
    """How one language writes cards (docs/rules.md §6): a colour's letters and a rank's short name,
    by code; a code without an entry is written as the code. `parse_hand` reads every language's
    notation back, so a hand typed on a German page and shown on an English one is the same hand."""

    colours: dict[str, str]
    ranks: dict[str, str]

    def card(self, card: Card) -> str:
        colour = self.colours.get(card.colour, card.colour) if card.colour else ""
        return f"{colour}{self.ranks.get(card.rank, card.rank)}"


# The one notation table per language: the captain's picker, the chips, the stored report as shown,
# the desk, the log and the documents all write cards from here. In German "G" reads "gelb", so yellow
# is "Ge" and green "Gr"; Skip is "Stop", Reverse "Ret" (Retour), Wild "J" (Joker).
CODES = Notation(colours={}, ranks={})
NOTATIONS: dict[str, Notation] = {
    "en": CODES,
    "de": Notation(colours={"Y": "Ge", "G": "Gr"}, ranks={"S": "Stop", "Rev": "Ret", "W": "J"}),
}
# The example every notation hint shows, written in the page's language ("R7 GRev W" / "R7 GrRet J").
EXAMPLE_HAND: Hand = (Card("7", "R"), Card("Rev", "G"), Card("W"))


def notation(language: str | None) -> Notation:
    """The notation of a language code ("de", "de-at", "en"); other languages write the codes."""
    return NOTATIONS.get((language or "").split("-")[0].lower(), CODES)


def colour_letters(language: str | None) -> dict[str, str]:
    """A language's colour letters by colour code (empty: the codes themselves)."""
    return notation(language).colours


def format_card(card: Card, written: Notation | None = None) -> str:
    """Short form of one card: colour letter glued to the rank (``GRev``, ``Y+2``, ``W``); with
    ``written`` (notation(language)) as that language writes it (``GrRet``, ``J``)."""
    return (written or CODES).card(card)


def format_hand(hand: Hand, written: Notation | None = None) -> str:
    """Canonical short form, e.g. ``R7 GRev W +4 7``; parse_hand reads it back unchanged."""
    return " ".join(format_card(card, written) for card in hand)


def notation_example(language: str | None) -> str:
    """The example hand of every notation hint, in the language's notation."""
    return format_hand(EXAMPLE_HAND, notation(language))


def localise_hand(text: str, language: str | None, deck: Deck = CLASSIC) -> str:
    """A stored (canonical) hand as the page's language writes it; text it cannot read stays as is."""
    written = notation(language)
    if written == CODES or not text:
        return text
    try:
        return format_hand(tuple(read_cards(text, deck)), written)
    except NotationError:
        return text


def hand_value(hand: Hand, deck: Deck = CLASSIC) -> int:
    """Points the cards are worth (docs/rules.md §1)."""
    return sum(deck.value(card) for card in hand)
