"""Table plan: how many tables of which size for a number of players (docs/rules.md §4)."""

from __future__ import annotations

import math
from enum import StrEnum

from engine.seating.base import SeatingError


class TableFill(StrEnum):
    """Where the players go who do not make a full table of the preferred size."""

    SMALLER = "smaller"  # tables one smaller than preferred
    LARGER = "larger"  # tables one larger


def table_plan(
    n_players: int, preferred: int = 4, min_size: int = 3, max_size: int = 5,
    fill: str = TableFill.SMALLER,
) -> list[int]:
    """Table sizes for ``n_players``.

    As many tables of the preferred size as possible, the rest one smaller (``fill="smaller"``) or one
    larger (``fill="larger"``).  When that is impossible within ``[min_size, max_size]`` the number of
    tables is changed step by step (fewer tables for "smaller", more for "larger") and the players are
    split as evenly as possible, e.g. 5 players, preferred 4, min 3 -> ``[5]`` (error if max_size < 5);
    9 players -> ``[3, 3, 3]``; 23 -> ``[4, 4, 4, 4, 4, 3]``.

    Sizes are listed preferred-size tables first: largest first for "smaller", smallest first for
    "larger".  Raises :class:`SeatingError` if there is no plan.
    """
    if fill not in TableFill.__members__.values():
        raise SeatingError(f"fill must be one of {[str(f) for f in TableFill]}, not {fill!r}")
    if not 2 <= min_size <= preferred <= max_size:
        raise SeatingError(
            f"need 2 <= min_size <= preferred <= max_size, got {min_size}, {preferred}, {max_size}"
        )
    if n_players < min_size:
        raise SeatingError(f"{n_players} players cannot fill a table of at least {min_size}")
    if fill == TableFill.SMALLER:
        start = math.ceil(n_players / preferred)
        candidates = range(start, math.ceil(n_players / max_size) - 1, -1)
    else:
        start = max(1, n_players // preferred)
        candidates = range(start, n_players // min_size + 1)
    for t in candidates:
        q, r = divmod(n_players, t)
        if q >= min_size and q + (1 if r else 0) <= max_size:
            sizes = [q + 1] * r + [q] * (t - r)
            return sizes if fill == TableFill.SMALLER else sizes[::-1]
    raise SeatingError(f"no table plan for {n_players} players with tables of {min_size}..{max_size}")
