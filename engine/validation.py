"""Validation of one table's end-of-round report (docs/rules.md §5).

Reports are typed by players at the table, so everything here is about catching typos early and
explaining them: all problems are collected (never raised) and each names the player concerned.
Errors refuse the report; warnings only ask for a confirmation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import CLASSIC, Card, Deck
from .i18n import gettext_noop
from .notation import Hand, NotationError, format_card, hand_value, parse_hand
from .numbers import NumberError, parse_int, shown

ERROR = "error"
WARNING = "warning"

LARGE_HAND_CARDS = 25
LARGE_HAND_POINTS = 200


MESSAGES: dict[str, str] = {
    "unknown_card": gettext_noop("%(player)s: the card %(token)s is unknown."),
    "bad_notation": gettext_noop("%(player)s: cannot read %(token)s."),
    "no_winner": gettext_noop("Nobody went out. Mark the player who laid their last card."),
    "several_winners": gettext_noop("Only one player can go out, but %(players)s are marked."),
    "winner_with_cards": gettext_noop("%(player)s went out, so no cards or points can be left in hand."),
    "winner_missing_flag": gettext_noop(
        "%(player)s reported 0 cards and is taken as the player who went out."
    ),
    "stopped_with_winner": gettext_noop(
        "The round was stopped by the clock, so nobody can have gone out (%(player)s)."
    ),
    "time_limit_not_allowed": gettext_noop(
        "This tournament has no time limit, so a round cannot be stopped by the clock."
    ),
    "empty_hand": gettext_noop("%(player)s did not go out, so they must have at least one card left."),
    "missing_entry": gettext_noop("%(player)s: enter the cards or the points left in hand."),
    "points_missing": gettext_noop(
        "%(player)s: a card count alone is not enough; enter the cards or the points."
    ),
    "too_many_copies": gettext_noop(
        "%(card)s appears %(count)s times at this table, but the deck has only %(allowed)s (%(players)s)."
    ),
    "too_many_cards": gettext_noop(
        "The hands hold %(count)s card together, but at most %(allowed)s are possible."
    ),
    "points_invalid": gettext_noop("%(player)s: the points %(value)s are not a whole number."),
    "points_negative": gettext_noop("%(player)s: the points cannot be negative (%(value)s)."),
    "points_too_high": gettext_noop(
        "%(player)s: %(value)s points is more than any hand can be worth (at most %(maximum)s)."
    ),
    "points_total_too_high": gettext_noop(
        "%(players)s: these hands are worth %(value)s points together, but with the listed cards and "
        "the card on the discard pile taken out the deck holds at most %(maximum)s."
    ),
    "points_count_mismatch": gettext_noop(
        "%(player)s: %(count)s card is worth between %(minimum)s and %(maximum)s points, not %(value)s."
    ),
    "cards_points_mismatch": gettext_noop(
        "%(player)s: the cards are worth %(computed)s points, but %(value)s were entered."
    ),
    "count_invalid": gettext_noop(
        "%(player)s: the card count %(value)s is not a whole number of zero or more."
    ),
    "count_too_high": gettext_noop(
        "%(player)s: %(value)s cards are more than the deck holds (at most %(allowed)s in one hand)."
    ),
    "count_mismatch": gettext_noop(
        "%(player)s: %(computed)s card was entered, but the card count says %(value)s."
    ),
    "not_seated": gettext_noop("%(player)s is not seated at this table."),
    "duplicate_player": gettext_noop("%(player)s is reported more than once."),
    "large_hand": gettext_noop(
        "%(player)s has a very large hand (%(count)s card, %(points)s points). Is that right?"
    ),
    "always_winner": gettext_noop(
        "%(player)s has won every round so far (%(rounds)s) and wins again. Is that right?"
    ),
    "zero_points": gettext_noop(
        "%(player)s did not go out but has 0 points (only zeros in hand). Is that right?"
    ),
}

# Messages that count cards come in two grammatical numbers ("1 card", "2 cards"): MESSAGES holds the
# singular, this the plural and the parameter whose number chooses (Django translates with ngettext).
PLURALS: dict[str, tuple[str, str]] = {
    "too_many_cards": (
        gettext_noop("The hands hold %(count)s cards together, but at most %(allowed)s are possible."),
        "count",
    ),
    "points_count_mismatch": (
        gettext_noop(
            "%(player)s: %(count)s cards are worth between %(minimum)s and %(maximum)s points, not %(value)s."
        ),
        "count",
    ),
    "count_mismatch": (
        gettext_noop("%(player)s: %(computed)s cards were entered, but the card count says %(value)s."),
        "computed",
    ),
    "large_hand": (
        gettext_noop("%(player)s has a very large hand (%(count)s cards, %(points)s points). Is that right?"),
        "count",
    ),
}


@dataclass
class SeatReport:
    """What a table typed for one player; values may be raw form strings."""

    player_id: int
    cards: str | None = None
    points: int | str | None = None
    card_count: int | str | None = None
    went_out: bool = False


@dataclass
class ReportContext:
    """Tournament facts the checks need but the table report does not contain."""

    deck: Deck = CLASSIC
    time_limit: bool = False
    wins_so_far: Mapping[int, int] = field(default_factory=dict)
    rounds_before: int = 0
    player_names: Mapping[int, str] = field(default_factory=dict)


@dataclass
class TableReport:
    """One table's report: who sits there and what each seat reported."""

    seated: Sequence[int]
    seats: Sequence[SeatReport]
    stopped_by_time: bool = False


@dataclass(frozen=True)
class Issue:
    """One problem; ``message`` is an untranslated template filled from ``params``.

    A message that counts something also has a ``plural`` template; ``params[number]`` chooses."""

    code: str
    severity: str
    message: str
    params: dict[str, Any]
    player_id: int | None
    plural: str | None = None
    number: str | None = None

    @property
    def count(self) -> int | None:
        """The number that chooses singular or plural (None for a message without plural)."""
        if self.plural is None or self.number is None:
            return None
        value = self.params.get(self.number)
        return value if isinstance(value, int) else 2  # "?" or text: the plural reads right

    def text(self) -> str:
        """The English message with its parameters filled in."""
        template = self.plural if self.count is not None and self.count != 1 else self.message
        return template % self.params


@dataclass
class Validation:
    """Everything found, plus the figures the scoring needs when the report is acceptable."""

    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    hands: dict[int, Hand | None] = field(default_factory=dict)
    points: dict[int, int] = field(default_factory=dict)
    card_counts: dict[int, int | None] = field(default_factory=dict)
    winner: int | None = None

    @property
    def ok(self) -> bool:
        """True when nothing refuses the report."""
        return not self.errors

    @property
    def needs_confirmation(self) -> bool:
        """True when the report is acceptable but looks like a typo somewhere."""
        return not self.errors and bool(self.warnings)

    def issues_for(self, player_id: int) -> list[Issue]:
        """Errors and warnings that concern one player, for showing next to their row."""
        return [issue for issue in (*self.errors, *self.warnings) if issue.player_id == player_id]


def _parse_int(raw: object) -> tuple[int | None, bool]:
    """(value, valid) for a form value; None/blank is (None, True). The app's one rule (engine.numbers)."""
    try:
        return parse_int(raw), True
    except NumberError:
        return None, False


def _too_large(raw: object) -> bool:
    try:
        parse_int(raw)
    except NumberError as exc:
        return exc.code == "too_large"
    return False


def _given(raw: object) -> bool:
    return not (raw is None or (isinstance(raw, str) and not raw.strip()))


class _Checker:
    """Collects issues for one report; split in steps so each rule stays readable."""

    def __init__(self, report: TableReport, context: ReportContext) -> None:
        self.report = report
        self.ctx = context
        self.deck = context.deck
        self.result = Validation()
        self.seats: dict[int, SeatReport] = {}
        self.went_out: set[int] = set()

    def name(self, player_id: int) -> str:
        """Display name for messages; unnamed players show as #id."""
        return str(self.ctx.player_names.get(player_id) or f"#{player_id}")

    def add(self, code: str, severity: str, player_id: int | None = None, **params: Any) -> None:
        if player_id is not None:
            params.setdefault("player", self.name(player_id))
        plural, number = PLURALS.get(code, (None, None))
        issue = Issue(code, severity, MESSAGES[code], params, player_id, plural=plural, number=number)
        (self.result.errors if severity == ERROR else self.result.warnings).append(issue)

    def run(self) -> Validation:
        self.collect_seats()
        self.check_winner()
        for player_id in self.seats:
            self.check_seat(player_id)
        self.check_table_limits()
        self.check_warnings()
        return self.result

    def collect_seats(self) -> None:
        seated = list(dict.fromkeys(self.report.seated))
        for seat in self.report.seats:
            if seat.player_id not in seated:
                self.add("not_seated", ERROR, seat.player_id)
            elif seat.player_id in self.seats:
                self.add("duplicate_player", ERROR, seat.player_id)
            else:
                self.seats[seat.player_id] = seat
        for player_id in seated:
            seat = self.seats.get(player_id)
            if seat is None:
                self.add("missing_entry", ERROR, player_id)
                self.result.hands[player_id] = None
                self.result.card_counts[player_id] = None
            elif seat.went_out:
                self.went_out.add(player_id)

    def check_winner(self) -> None:
        if self.report.stopped_by_time:
            if not self.ctx.time_limit:
                self.add("time_limit_not_allowed", ERROR)
            for player_id in sorted(self.went_out):
                self.add("stopped_with_winner", ERROR, player_id)
            return
        if len(self.went_out) > 1:
            players = ", ".join(self.name(p) for p in self.report.seated if p in self.went_out)
            self.add("several_winners", ERROR, players=players)
            return
        if not self.went_out:
            # The sheet gives the player who went out a 0: a lone 0 in the points (nothing else in the
            # row) marks them, as the raus mark would (docs/rules.md §7).
            zero_points = [p for p, seat in self.seats.items() if _parse_int(seat.points)[0] == 0
                           and not _given(seat.cards)
                           and _parse_int(seat.card_count)[0] in (None, 0)]  # fmt: skip
            zero = [p for p, seat in self.seats.items() if _parse_int(seat.card_count)[0] == 0
                    and not _given(seat.cards) and not (_parse_int(seat.points)[0] or 0)]  # fmt: skip
            if len(zero_points) == 1 and len(zero) <= 1 and set(zero) <= set(zero_points):
                self.went_out.add(zero_points[0])
            elif len(zero) == 1:
                self.went_out.add(zero[0])
                self.add("winner_missing_flag", WARNING, zero[0])
            else:
                self.add("no_winner", ERROR)
                return
        self.result.winner = next(iter(self.went_out))

    def check_seat(self, player_id: int) -> None:
        seat = self.seats[player_id]
        points, points_ok = _parse_int(seat.points)
        count, count_ok = _parse_int(seat.card_count)
        if not points_ok and _too_large(seat.points):
            maximum = self.deck.dearest(self.deck.size, self.deck.rank_counts())
            self.add("points_too_high", ERROR, player_id,
                     value=shown(str(seat.points).strip()), maximum=maximum)  # fmt: skip
        elif not points_ok:
            self.add("points_invalid", ERROR, player_id, value=shown(str(seat.points).strip()))
        elif points is not None and points < 0:
            self.add("points_negative", ERROR, player_id, value=points)
            points, points_ok = None, False
        if not count_ok and _too_large(seat.card_count):
            self.add("count_too_high", ERROR, player_id, value=shown(str(seat.card_count).strip()),
                     allowed=self.deck.size - 1)  # fmt: skip
            count = None
        elif not count_ok or (count is not None and count < 0):
            self.add("count_invalid", ERROR, player_id, value=shown(str(seat.card_count).strip()))
            count = None
        hand: Hand | None = None
        if _given(seat.cards):
            try:
                hand = parse_hand(str(seat.cards), self.deck)
            except NotationError as exc:
                code = "unknown_card" if exc.reason == "unknown card" else "bad_notation"
                self.add(code, ERROR, player_id, token=exc.token)
                self.result.hands[player_id] = None
                self.result.card_counts[player_id] = count
                return
            hand = hand or None  # separators only: nothing entered

        if player_id in self.went_out:
            if hand or (points or 0) > 0 or (count or 0) > 0:
                self.add("winner_with_cards", ERROR, player_id)
            self.result.hands[player_id] = ()
            self.result.points[player_id] = 0
            self.result.card_counts[player_id] = 0
            return

        if hand is not None:
            computed = hand_value(hand, self.deck)
            if points is not None and points != computed:
                self.add("cards_points_mismatch", ERROR, player_id, computed=computed, value=points)
            if count is not None and count != len(hand):
                self.add("count_mismatch", ERROR, player_id, computed=len(hand), value=count)
            self.result.hands[player_id] = hand
            self.result.points[player_id] = computed
            self.result.card_counts[player_id] = len(hand)
            return

        self.result.hands[player_id] = None
        self.result.card_counts[player_id] = count
        if count == 0:
            self.add("empty_hand", ERROR, player_id)
        if points is None:
            if points_ok and count is None:
                self.add("missing_entry", ERROR, player_id)
            elif points_ok and count:
                self.add("points_missing", ERROR, player_id)
            return
        self.result.points[player_id] = points

    def available(self, exclude: int | None = None) -> dict[str, int]:
        """Copies per rank not accounted for by the other players' listed cards."""
        left = self.deck.rank_counts()
        for player_id, hand in self.result.hands.items():
            if player_id != exclude and hand:
                for card in hand:
                    left[card.rank] = left.get(card.rank, 0) - 1
        return left

    def check_points_ranges(self) -> None:
        too_high = False
        for player_id, points in self.result.points.items():
            if self.result.hands.get(player_id) is not None or player_id == self.result.winner:
                continue
            pool = self.available(player_id)
            count = self.result.card_counts.get(player_id)
            maximum = self.deck.dearest(self.deck.size, pool)
            if points > maximum:
                self.add("points_too_high", ERROR, player_id, value=points, maximum=maximum)
                too_high = True
            elif count:
                low, high = self.deck.cheapest(count, pool), self.deck.dearest(count, pool)
                if not low <= points <= high:
                    self.add("points_count_mismatch", ERROR, player_id,
                             count=count, value=points, minimum=low, maximum=high)  # fmt: skip
        if not too_high:
            self.check_points_together()

    def check_points_together(self) -> None:
        """All points-only hands of the table together must fit into the cards nobody listed, less
        the card on the discard pile (any one of them, so the cheapest is taken out)."""
        players = [p for p in self.report.seated if p in self.result.points
                   and self.result.hands.get(p) is None and p != self.result.winner]  # fmt: skip
        if len(players) < 2:
            return  # one hand alone is checked by points_too_high
        pool = self.available()
        n = sum(max(0, v) for v in pool.values()) - 1
        counts = [self.result.card_counts.get(p) for p in players]
        if all(c is not None for c in counts):
            n = min(n, sum(c for c in counts if c is not None))
        maximum = self.deck.dearest(n, pool)
        value = sum(self.result.points[p] for p in players)
        if value > maximum:
            self.add("points_total_too_high", ERROR, value=value, maximum=maximum,
                     players=", ".join(self.name(p) for p in players))  # fmt: skip

    def check_table_limits(self) -> None:
        self.check_points_ranges()
        holders: dict[Card, list[int]] = {}
        for player_id, hand in self.result.hands.items():
            for card in hand or ():
                keys = [Card(card.rank)] if card.colour is None else [card, Card(card.rank)]
                for key in keys:
                    players = holders.setdefault(key, [])
                    players.append(player_id)
        for card in sorted(holders, key=self.deck.sort_key):
            players = holders[card]
            allowed = self.deck.copies(card.rank, card.colour)
            if len(players) > allowed:
                distinct = list(dict.fromkeys(players))
                self.add("too_many_copies", ERROR, distinct[0] if len(distinct) == 1 else None,
                         card=format_card(card), rank=card.rank, count=len(players), allowed=allowed,
                         players=", ".join(self.name(p) for p in distinct))  # fmt: skip
        total = 0
        for player_id in self.seats:
            count = self.result.card_counts.get(player_id)
            total += count if count is not None else (0 if player_id == self.result.winner else 1)
        allowed = self.deck.size - 1
        if total > allowed:
            self.add("too_many_cards", ERROR, count=total, allowed=allowed)

    def check_warnings(self) -> None:
        for player_id in self.seats:
            count = self.result.card_counts.get(player_id)
            points = self.result.points.get(player_id)
            if (count or 0) > LARGE_HAND_CARDS or (points or 0) > LARGE_HAND_POINTS:
                self.add("large_hand", WARNING, player_id, count="?" if count is None else count,
                         points="?" if points is None else points)  # fmt: skip
            if points == 0 and player_id != self.result.winner and self.result.hands.get(player_id) is None:
                self.add("zero_points", WARNING, player_id)
        winner = self.result.winner
        before = self.ctx.rounds_before
        if winner is not None and before >= 2 and self.ctx.wins_so_far.get(winner, 0) >= before:
            self.add("always_winner", WARNING, winner, rounds=before)


def validate_table(report: TableReport, context: ReportContext | None = None) -> Validation:
    """Check a table report and return all errors and warnings; never raises for bad input."""
    return _Checker(report, context or ReportContext()).run()
