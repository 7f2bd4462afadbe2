"""Plain data of the seating optimiser: players, rounds, the error (docs/rules.md §4)."""

from __future__ import annotations

from dataclasses import dataclass


class SeatingError(ValueError):
    """The seating cannot be made (e.g. fewer players than the minimum table size)."""


@dataclass(frozen=True)
class SeatingPlayer:
    """``club``: kept apart from club-mates in club-separated rounds; ``team``: kept apart from
    team-mates in every round, before anything else (docs/rules.md §4)."""

    id: int
    club: str = ""
    team: str = ""


Round = list[list[int]]
