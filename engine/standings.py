"""Tournament standings: totals, missed rounds and tie-breaks (docs/rules.md §3).

Tie-breaks are a registry of small metric functions so an organiser can reorder or drop them
per tournament without code changes; players still equal afterwards share a place (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .i18n import gettext_noop
from .scoring import ScoringFormat


@dataclass(frozen=True)
class RoundResult:
    """One player's score in one round."""

    player_id: int
    round_number: int
    score: int
    went_out: bool


class MissedRoundPolicy(StrEnum):
    """What a missed round means for the ranking."""

    RANK_AFTER = "after"
    CHARGE_HIGHEST = "charge"


@dataclass
class PlayerSummary:
    """Per-player figures the tie-break metrics read."""

    player_id: int
    per_round: dict[int, int | None] = field(default_factory=dict)
    charged: dict[int, int] = field(default_factory=dict)
    rounds_won: int = 0

    def scores(self) -> list[int]:
        """Scores that count: played rounds plus charged ones."""
        return [s for s in self.per_round.values() if s is not None] + list(self.charged.values())


@dataclass(frozen=True)
class Tiebreak:
    """A tie-break metric: a value per player and which direction is better."""

    key: str
    label: str
    metric: Callable[[PlayerSummary, ScoringFormat], int | None]
    higher_is_better: Callable[[ScoringFormat], bool]

    def sort_value(self, value: int | None, fmt: ScoringFormat) -> tuple[int, int]:
        """Ascending sort key for a metric value (better first); a missing value sorts last."""
        return self.order(value, self.higher_is_better(fmt))

    @staticmethod
    def order(value: int | None, higher_is_better: bool) -> tuple[int, int]:
        """`sort_value` with the direction known."""
        if value is None:
            return (1, 0)
        return (0, -value if higher_is_better else value)


def _worst_round(summary: PlayerSummary, fmt: ScoringFormat) -> int | None:
    scores = summary.scores()
    if not scores:
        return None
    return max(scores) if fmt.lower_is_better else min(scores)


TIEBREAKS: dict[str, Tiebreak] = {
    "rounds_won": Tiebreak(
        "rounds_won", gettext_noop("Rounds won"), lambda s, fmt: s.rounds_won, lambda fmt: True
    ),
    "worst_round": Tiebreak(
        "worst_round", gettext_noop("Worst round"), _worst_round, lambda fmt: not fmt.lower_is_better
    ),
}

DEFAULT_TIEBREAKS: tuple[str, ...] = ("rounds_won", "worst_round")


@dataclass(frozen=True)
class StandingsSettings:
    """Per-tournament choices that change the ranking."""

    fmt: ScoringFormat = ScoringFormat.MINUS_POINTS
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS
    missed_policy: MissedRoundPolicy = MissedRoundPolicy.RANK_AFTER


@dataclass(frozen=True)
class StandingRow:
    """One line of the standings table."""

    player_id: int
    rank: int
    shared: bool
    total: int
    per_round: dict[int, int | None]
    rounds_won: int
    worst_round: int | None
    rounds_played: int
    rounds_missed: int
    charged: dict[int, int]
    complete: bool
    tiebreak_values: dict[str, int | None]


def _collect(
    player_ids: Sequence[int], results: Iterable[RoundResult], rounds: list[int]
) -> dict[int, dict[int, RoundResult]]:
    """Best result per (player, counted round); duplicates resolve the same in any input order."""
    wanted, counted = set(player_ids), set(rounds)
    table: dict[int, dict[int, RoundResult]] = {pid: {} for pid in wanted}
    for result in results:
        if result.player_id not in wanted or result.round_number not in counted:
            continue
        row = table[result.player_id]
        old = row.get(result.round_number)
        if old is None or (result.score, result.went_out) > (old.score, old.went_out):
            row[result.round_number] = result
    return table


def _ranked(
    player_ids: Sequence[int],
    results: Iterable[RoundResult],
    round_numbers: Sequence[int],
    settings: StandingsSettings,
) -> tuple[list[int], list[tuple[int, bool, tuple]]]:
    """The counted rounds, and (rank, shared, entry) best first; an entry is (sort key, player id,
    summary, total, rounds played, complete, tie-break values, worst round)."""
    fmt = settings.fmt
    rounds = sorted(set(round_numbers))
    table = _collect(player_ids, results, rounds)
    charge = settings.missed_policy is MissedRoundPolicy.CHARGE_HIGHEST
    highest: dict[int, int] = {}
    if charge and fmt.lower_is_better:
        for row in table.values():
            for number, result in row.items():
                highest[number] = max(highest.get(number, 0), result.score)
    tiebreaks = [TIEBREAKS[key] for key in settings.tiebreaks if key in TIEBREAKS]
    lower = fmt.lower_is_better
    # Each metric's direction once per call, not once per player.
    directions = [(tb.key, tb.higher_is_better(fmt)) for tb in tiebreaks]

    entries = []
    for pid, row in table.items():
        summary = PlayerSummary(pid)
        per_round, charged = summary.per_round, summary.charged
        for number in rounds:
            result = row.get(number)
            if result is None:
                per_round[number] = None
                if charge:
                    charged[number] = highest.get(number, 0)
            else:
                per_round[number] = result.score
                if result.went_out:
                    summary.rounds_won += 1
        played = len(row)
        total = sum(summary.scores())
        complete = played == len(rounds)
        group = 1 if not complete and not charge else 0
        values = {tb.key: tb.metric(summary, fmt) for tb in tiebreaks}
        # The row shows the worst round whether or not it breaks ties: computed once either way.
        worst = values["worst_round"] if "worst_round" in values else _worst_round(summary, fmt)
        key = (
            group,
            total if lower else -total,
            -played if group else 0,
            *[Tiebreak.order(values[key], higher) for key, higher in directions],
        )
        entries.append((key, pid, summary, total, played, complete, values, worst))
    # By key, then player id: the ids differ, so the sort never compares further into an entry.
    entries.sort()

    placed: list[tuple[int, bool, tuple]] = []
    rank = 0
    for index, entry in enumerate(entries):
        key = entry[0]
        if index == 0 or key != entries[index - 1][0]:
            rank = index + 1
        shared = (index > 0 and key == entries[index - 1][0]) or (
            index + 1 < len(entries) and key == entries[index + 1][0]
        )
        placed.append((rank, shared, entry))
    return rounds, placed


def compute_standings(
    player_ids: Sequence[int],
    results: Iterable[RoundResult],
    round_numbers: Sequence[int],
    settings: StandingsSettings = StandingsSettings(),
) -> list[StandingRow]:
    """Rank players over the counted rounds; the order of the inputs does not matter."""
    rounds, placed = _ranked(player_ids, results, round_numbers, settings)
    return [
        StandingRow(
            player_id=pid,
            rank=rank,
            shared=shared,
            total=total,
            per_round=summary.per_round,
            rounds_won=summary.rounds_won,
            worst_round=worst,
            rounds_played=played,
            rounds_missed=len(rounds) - played,
            charged=summary.charged,
            complete=complete,
            tiebreak_values=values,
        )
        for rank, shared, (_key, pid, summary, total, played, complete, values, worst) in placed
    ]


def standing_places(
    player_ids: Sequence[int],
    results: Iterable[RoundResult],
    round_numbers: Sequence[int],
    settings: StandingsSettings = StandingsSettings(),
) -> list[tuple[int, int, int]]:
    """(player id, rank, total) of every player, best first: the ranks and totals of
    `compute_standings`, without building its rows (a series needs only these of every evening)."""
    _rounds, placed = _ranked(player_ids, results, round_numbers, settings)
    return [(entry[1], rank, entry[3]) for rank, _shared, entry in placed]
