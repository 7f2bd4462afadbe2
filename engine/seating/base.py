"""Plain data of the seating optimiser: players, rounds, the error (docs/rules.md §4)."""

from __future__ import annotations

from dataclasses import dataclass


class SeatingError(ValueError):
    """The seating cannot be made (e.g. fewer players than the minimum table size)."""


@dataclass(frozen=True)
class SeatingPlayer:
    id: int
    club: str = ""


Round = list[list[int]]
