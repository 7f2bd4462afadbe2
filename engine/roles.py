"""Who deals and who starts at a table (docs/rules.md §2, Leonharder rules).

The oldest player shuffles and deals, the youngest starts. Birth data may be a full date or only a
year; a role is decided only where the data decides it for sure, otherwise the table decides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

Born = tuple[int, int, int]  # (year, month, day); month and day 0 when only the year is known


def _earliest(born: Born) -> date:
    year, month, day = born
    return date(year, month or 1, day or 1)


def _latest(born: Born) -> date:
    year, month, day = born
    if not month:
        return date(year, 12, 31)
    if not day:
        next_month = date(year + month // 12, month % 12 + 1, 1)
        return date.fromordinal(next_month.toordinal() - 1)
    return date(year, month, day)


@dataclass(frozen=True)
class TableRoles:
    """The seat keys of the dealer (oldest) and the starter (youngest); None: the table decides."""

    dealer: object | None
    starter: object | None


def table_roles(born_by_seat: Mapping[object, Born | None]) -> TableRoles:
    """The oldest player deals and the youngest starts, where the birth data decides it for sure.

    A role is left open (None) when anybody's birth data is missing, or when the data cannot tell
    two players apart (same day, or the same year with only the year known for one of them).
    """
    if len(born_by_seat) < 2 or any(born is None for born in born_by_seat.values()):
        return TableRoles(dealer=None, starter=None)
    spans = {key: (_earliest(born), _latest(born)) for key, born in born_by_seat.items()}

    def certainly_oldest(key) -> bool:
        return all(spans[key][1] < spans[other][0] for other in spans if other != key)

    def certainly_youngest(key) -> bool:
        return all(spans[key][0] > spans[other][1] for other in spans if other != key)

    dealer = next((key for key in spans if certainly_oldest(key)), None)
    starter = next((key for key in spans if certainly_youngest(key)), None)
    return TableRoles(dealer=dealer, starter=starter)
