"""Rankings beside the players' own: clubs and teams (best K members), categories and age groups.

Pure functions over plain data. Every ranking here has the same shape: a sort key per entry, entries
with equal keys share a place (1, 2, 2, 4), and the order of the inputs does not matter.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from typing import Any, TypeVar

from .i18n import gettext_noop

T = TypeVar("T")


def place(
    items: Iterable[T], key: Callable[[T], Any], tie: Callable[[T], Hashable]
) -> list[tuple[int, bool, T]]:
    """(rank, shared, item), best first: sorted by `key` (ascending), equal keys share a rank.

    `tie` only makes the order of equal entries independent of the input order; it never changes a rank.
    """
    ordered = sorted(items, key=lambda item: (key(item), tie(item)))
    keys = [key(item) for item in ordered]
    placed: list[tuple[int, bool, T]] = []
    rank = 0
    for index, item in enumerate(ordered):
        if index == 0 or keys[index] != keys[index - 1]:
            rank = index + 1
        shared = (index > 0 and keys[index] == keys[index - 1]) or (
            index + 1 < len(keys) and keys[index] == keys[index + 1]
        )
        placed.append((rank, shared, item))
    return placed


# --- clubs and teams ---------------------------------------------------------------------------


class GroupValue(StrEnum):
    """What a club's (or team's) best K players make: their sum or their average."""

    SUM = "sum"
    AVERAGE = "average"


@dataclass(frozen=True)
class MemberScore:
    """One player's result inside a group (a club or a team).

    `place`: the player's place in the ranking the score comes from (the evening's standings, the
    season ranking); a group's best K are its K best placed, so a rule that ranks a player behind
    others (fewer evenings, missed rounds) is the rule the group follows too. Without a place, the
    scores decide. `counted`: how many evenings make the score where fewer rank after more (minus
    points, docs/rules.md §8): a group's counted evenings are compared before its value.
    """

    player_id: int
    group_id: int
    score: int
    place: int | None = None
    counted: int = 0


@dataclass(frozen=True)
class GroupRow:
    group_id: int
    rank: int
    shared: bool
    value: Fraction
    complete: bool
    counted: tuple[int, ...]  # the player ids that make the value, best first
    members: int


def group_ranking(
    scores: Iterable[MemberScore],
    *,
    best: int | None,
    higher_is_better: bool,
    value: GroupValue = GroupValue.SUM,
) -> list[GroupRow]:
    """Rank groups by the sum (or average) of their best `best` members (all members when None).

    Groups with fewer than `best` players are ranked after all full ones (among themselves: more
    players first, then the value).
    """
    if best is not None and best < 1:
        raise ValueError("best must be at least 1")
    sign = -1 if higher_is_better else 1

    def order(entry: MemberScore) -> tuple[int, int, int, int]:
        """Best first: the place, then more counted evenings, then the score."""
        return (entry.place if entry.place is not None else 0, -entry.counted, sign * entry.score,
                entry.player_id)

    members: dict[int, dict[int, MemberScore]] = {}
    for entry in scores:
        row = members.setdefault(entry.group_id, {})
        old = row.get(entry.player_id)
        # A player counted twice keeps their better result, whatever the input order.
        if old is None or order(entry) < order(old):
            row[entry.player_id] = entry
    computed = []
    for group_id, row in members.items():
        ordered = sorted(row.values(), key=order)
        taken = ordered if best is None else ordered[:best]
        total = sum(entry.score for entry in taken)
        amount = Fraction(total, len(taken)) if value is GroupValue.AVERAGE else Fraction(total)
        complete = best is None or len(taken) == best
        counted = sum(entry.counted for entry in taken)
        computed.append((group_id, amount, complete, tuple(e.player_id for e in taken), len(row), counted))

    def key(item):
        _, amount, complete, taken, _members, counted = item
        return (0 if complete else 1, 0 if complete else -len(taken), -counted, sign * amount)

    return [
        GroupRow(
            group_id=g, rank=rank, shared=shared, value=amount, complete=complete, counted=taken, members=n
        )
        for rank, shared, (g, amount, complete, taken, n, _c) in place(computed, key, lambda item: item[0])
    ]


# --- categories ----------------------------------------------------------------------------------


class Gender(StrEnum):
    """Optional: a player without a gender is in no gender category."""

    FEMALE = "f"
    MALE = "m"
    DIVERSE = "d"


class Category(StrEnum):
    WOMEN = "women"
    MEN = "men"
    JUNIOR = "junior"
    SENIOR = "senior"
    NEWCOMER = "newcomer"
    MEMBER = "member"
    GUEST = "guest"


CATEGORY_LABELS: dict[Category, str] = {
    Category.WOMEN: gettext_noop("Women"),
    Category.MEN: gettext_noop("Men"),
    Category.JUNIOR: gettext_noop("Juniors"),
    Category.SENIOR: gettext_noop("Seniors"),
    Category.NEWCOMER: gettext_noop("Newcomers"),
    Category.MEMBER: gettext_noop("Members"),
    Category.GUEST: gettext_noop("Guests"),
}

# The certificate's title for the best of a category.
CATEGORY_PRIZES: dict[Category, str] = {
    Category.WOMEN: gettext_noop("Best woman"),
    Category.MEN: gettext_noop("Best man"),
    Category.JUNIOR: gettext_noop("Best junior"),
    Category.SENIOR: gettext_noop("Best senior"),
    Category.NEWCOMER: gettext_noop("Best newcomer"),
    Category.MEMBER: gettext_noop("Best member"),
    Category.GUEST: gettext_noop("Best guest"),
}


@dataclass(frozen=True)
class AgeLimits:
    """Junior: younger than `junior_under`; senior: `senior_from` or older, on the tournament's date."""

    junior_under: int = 18
    senior_from: int = 60

    def problems(self) -> list[str]:
        """Stable codes of what is wrong with the limits (empty: fine)."""
        codes = []
        if not 1 <= self.junior_under <= 30:
            codes.append("junior_limit_range")
        if not 40 <= self.senior_from <= 100:
            codes.append("senior_limit_range")
        return codes


def age_on(born: tuple[int, int, int] | None, day: datetime.date) -> int | None:
    """Age in whole years on `day`; born as (year, month, day), month and day 0 when only the year is
    known: then the age is the one reached in that calendar year (club practice: the year of birth)."""
    if born is None:
        return None
    year, month, dom = born
    if month == 0:
        return day.year - year
    return day.year - year - (1 if (day.month, day.day) < (month, dom) else 0)


@dataclass(frozen=True)
class PlayerFacts:
    """What decides a player's categories on one evening."""

    player_id: int
    gender: str = ""
    born: tuple[int, int, int] | None = None
    member: bool | None = None  # None: not known, in neither Members nor Guests
    newcomer: bool = False


def categories_of(
    facts: PlayerFacts, day: datetime.date, limits: AgeLimits = AgeLimits()
) -> frozenset[Category]:
    found: set[Category] = set()
    if facts.gender == Gender.FEMALE:
        found.add(Category.WOMEN)
    elif facts.gender == Gender.MALE:
        found.add(Category.MEN)
    age = age_on(facts.born, day)
    if age is not None and age < limits.junior_under:
        found.add(Category.JUNIOR)
    if age is not None and age >= limits.senior_from:
        found.add(Category.SENIOR)
    if facts.newcomer:
        found.add(Category.NEWCOMER)
    if facts.member is not None:
        found.add(Category.MEMBER if facts.member else Category.GUEST)
    return frozenset(found)


GENDER_WORDS: dict[str, Gender] = {
    **dict.fromkeys(("f", "w", "weiblich", "female", "frau", "dame", "woman"), Gender.FEMALE),
    **dict.fromkeys(("m", "männlich", "maennlich", "male", "mann", "herr", "man"), Gender.MALE),
    **dict.fromkeys(("d", "divers", "diverse", "x"), Gender.DIVERSE),
}


def parse_gender(text: str) -> str:
    """A gender as a list writes it ("w", "weiblich", "Female", "M", "divers"): the stored letter, ""
    for an empty cell; ValueError for anything else."""
    word = " ".join(str(text or "").split()).lower().rstrip(".")
    if not word:
        return ""
    if word not in GENDER_WORDS:
        raise ValueError(word)
    return GENDER_WORDS[word].value


# What decides each category; a player without it may or may not be in the category.
CATEGORY_FACTS: dict[Category, str] = {
    Category.WOMEN: "gender", Category.MEN: "gender",
    Category.JUNIOR: "born", Category.SENIOR: "born",
    Category.MEMBER: "member", Category.GUEST: "member",
}


def undecided(facts: PlayerFacts, category: Category) -> bool:
    """Whether it is unknown if the player is in the category (no gender, no birth data, membership
    not asked). A category with such a player has no certain ranking: its best may be one of them."""
    fact = CATEGORY_FACTS.get(category)
    if fact == "gender":
        return facts.gender not in (Gender.FEMALE, Gender.MALE, Gender.DIVERSE)
    if fact == "born":
        return facts.born is None
    if fact == "member":
        return facts.member is None
    return False


@dataclass(frozen=True)
class CategoryRow:
    player_id: int
    rank: int
    shared: bool


def category_ranking(overall: Sequence[tuple[int, int]], chosen: Iterable[int]) -> list[CategoryRow]:
    """Re-rank the chosen players from the overall (player_id, rank) list: equal overall ranks stay
    shared, the order of the overall list does not matter."""
    wanted = set(chosen)
    entries = [(pid, rank) for pid, rank in overall if pid in wanted]
    return [
        CategoryRow(player_id=pid, rank=rank, shared=shared)
        for rank, shared, (pid, _) in place(entries, lambda item: item[1], lambda item: item[0])
    ]
