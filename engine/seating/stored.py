"""A seating plan as it is stored between requests: the one typed form and its one serialiser.

A plan is written once, when it is made, and read back by every later request (in any server process),
so two app servers seat the next round identically and no worker has to remember or remake it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engine.seating.base import SeatingError


class PlanKind(StrEnum):
    """Who a stored plan is for."""

    ALL = "all"  # the organizer planned every remaining round (start cards list them)
    FOLLOWED = "followed"  # round by round follows it (made at round 2, or after a change of the field)


@dataclass(frozen=True)
class StoredPlan:
    """Planned rounds ``from_round`` .. ``from_round + len(rounds) - 1``, each a tuple of tables of
    player ids in seat order.

    ``kind``: see :class:`PlanKind`.  ``players``
    (sorted ids) and ``sizes`` are the field the plan was made for: another field does not follow it.
    ``seed``: the seed the plan was drawn with (a redraw of the round that made it draws another)."""

    kind: PlanKind
    players: tuple[int, ...]
    sizes: tuple[int, ...]
    seed: int
    from_round: int
    rounds: tuple[tuple[tuple[int, ...], ...], ...]

    def __post_init__(self) -> None:
        if self.kind not in set(PlanKind):
            raise SeatingError(f"unknown plan kind {self.kind!r}")
        if self.from_round < 1:
            raise SeatingError("a plan starts at round 1 or later")

    @property
    def last_round(self) -> int:
        return self.from_round + len(self.rounds) - 1

    def round(self, number: int) -> list[list[int]] | None:
        """Round ``number`` as lists of tables (None when the plan does not hold it)."""
        if not self.from_round <= number <= self.last_round:
            return None
        return [list(table) for table in self.rounds[number - self.from_round]]

    def numbered_rounds(self) -> dict[int, list[list[int]]]:
        return {self.from_round + i: [list(t) for t in rnd] for i, rnd in enumerate(self.rounds)}

    def to_json(self) -> dict[str, Any]:
        """Plain JSON data (lists and numbers); ``from_json`` reads it back equal."""
        return {
            "kind": str(self.kind),
            "players": list(self.players),
            "sizes": list(self.sizes),
            "seed": self.seed,
            "from_round": self.from_round,
            "rounds": [[list(table) for table in rnd] for rnd in self.rounds],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> StoredPlan:
        return cls(
            kind=PlanKind(data["kind"]),
            players=tuple(int(p) for p in data["players"]),
            sizes=tuple(int(s) for s in data["sizes"]),
            seed=int(data["seed"]),
            from_round=int(data["from_round"]),
            rounds=tuple(tuple(tuple(int(p) for p in table) for table in rnd) for rnd in data["rounds"]),
        )

    @classmethod
    def build(
        cls,
        *,
        kind: PlanKind | str,
        players: list[int] | tuple[int, ...],
        sizes: list[int] | tuple[int, ...],
        seed: int,
        from_round: int,
        rounds: list,
    ) -> StoredPlan:
        """A plan from lists (as the engine makes them), players sorted."""
        return cls(
            kind=PlanKind(kind),
            players=tuple(sorted(players)),
            sizes=tuple(sizes),
            seed=seed,
            from_round=from_round,
            rounds=tuple(tuple(tuple(table) for table in rnd) for rnd in rounds),
        )
