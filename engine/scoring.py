"""Round scores and the end of a tournament (docs/rules.md §3).

The Leonharder format (minus points, lowest total wins) is the default; the official Mattel
scoring (winner collects) is an option, so both live behind one small enum.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum


class ScoringFormat(StrEnum):
    """How a round's hands turn into scores."""

    MINUS_POINTS = "minus"
    WINNER_COLLECTS = "winner"

    @property
    def lower_is_better(self) -> bool:
        """Minus points rank the lowest total first; winner-collects the highest."""
        return self is ScoringFormat.MINUS_POINTS


class EndRule(StrEnum):
    """When a tournament is over: after a fixed number of rounds or at a points threshold."""

    ROUNDS = "rounds"
    THRESHOLD = "threshold"


def round_scores(fmt: ScoringFormat, hand_points: Mapping[int, int], winner: int | None) -> dict[int, int]:
    """Score of every player at a table for one round.

    Minus points: own hand value, 0 for the winner. Winner collects: the winner gets the sum of the
    other hands, everyone else 0. No winner (stopped by the clock): minus points still charge every
    hand; under winner-collects nobody collects anything.
    """
    if fmt is ScoringFormat.MINUS_POINTS:
        return {pid: 0 if pid == winner else points for pid, points in hand_points.items()}
    if winner is None:
        return dict.fromkeys(hand_points, 0)
    collected = sum(points for pid, points in hand_points.items() if pid != winner)
    return {pid: collected if pid == winner else 0 for pid in hand_points}


def is_finished(
    *,
    end_rule: EndRule,
    rounds_played: int,
    rounds_total: int,
    totals: Mapping[int, int],
    threshold: int | None,
) -> bool:
    """True when no further round should be played.

    ROUNDS: after ``rounds_total`` rounds. THRESHOLD: as soon as any total reaches ``threshold``
    (500 wins under winner-collects, 200 loses under minus points); ``rounds_total`` > 0 still acts
    as a cap so an evening cannot run forever.
    """
    if rounds_total > 0 and rounds_played >= rounds_total:
        return True
    if end_rule is EndRule.THRESHOLD and threshold is not None:
        return any(total >= threshold for total in totals.values())
    return False
