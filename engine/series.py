"""The season ranking of a series of evenings (Jahreswertung), from each evening's standings.

A rule combines: how an evening turns into season points (points by place: as many as there were
players for the winner, or a points table such as 25-20-16-13; or the sum of the evenings' minus
points), how many evenings count (best N), a minimum number of evenings to be ranked, a bonus per
evening attended, a deduction per missed evening beyond a number of free ones, members only, and the
tie-breaks. Pure functions, plain data in and out.

Each row also says why (issue #42, 9): which evenings count and which are dropped (best N), the sum of
the counted ones before bonus and deductions (`base`), and how far the player is from the line just
ahead of them (`SeasonGap`); `season_evenings` gives a player's evenings one by one (their season card).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import pairwise

from .i18n import gettext_noop
from .rankings import GroupRow, GroupValue, MemberScore, group_ranking, place


class SeasonPoints(StrEnum):
    """How one evening becomes season points."""

    BY_FIELD = "field"  # 1st gets as many points as there were players, 2nd one fewer, …
    BY_TABLE = "table"  # a points table: 1st 25, 2nd 20, …; places beyond it get 0
    MINUS_POINTS = "minus"  # the evening's total; the lowest sum wins

    @property
    def lower_is_better(self) -> bool:
        return self is SeasonPoints.MINUS_POINTS


SEASON_TIEBREAKS: dict[str, str] = {
    "wins": gettext_noop("Evenings won"),
    "best_evening": gettext_noop("Best evening"),
    "attended": gettext_noop("Evenings played"),
}
DEFAULT_SEASON_TIEBREAKS: tuple[str, ...] = ("wins", "best_evening")

# A points table has at most this many places, each worth at most this many points (like the bonus).
POINTS_TABLE_PLACES = 100
POINTS_TABLE_MAX = 1000


@dataclass(frozen=True)
class SeasonRule:
    points: SeasonPoints = SeasonPoints.BY_FIELD
    table: tuple[int, ...] = ()
    best_of: int | None = None  # None: every evening counts
    min_evenings: int = 0
    attendance_bonus: int = 0
    free_misses: int = 0
    miss_deduction: int = 0
    members_only: bool = False
    tiebreaks: tuple[str, ...] = DEFAULT_SEASON_TIEBREAKS


@dataclass(frozen=True)
class RuleProblem:
    """A wrong setting: a stable code, the field it belongs to and an English message template."""

    code: str
    field: str
    message: str
    params: dict = field(default_factory=dict)


def rule_problems(rule: SeasonRule) -> list[RuleProblem]:
    """Everything wrong with a rule, each with a clear message; empty when the rule is usable."""
    problems = []
    if rule.points is SeasonPoints.BY_TABLE:
        if not rule.table:
            problems.append(RuleProblem(
                "points_table_missing", "table", gettext_noop("Points by table need a points table."),
            ))
        elif any(value < 0 for value in rule.table):
            problems.append(RuleProblem(
                "points_table_negative", "table", gettext_noop("The points table has a negative value."),
            ))
        elif len(rule.table) > POINTS_TABLE_PLACES or any(value > POINTS_TABLE_MAX for value in rule.table):
            problems.append(RuleProblem(
                "points_table_range", "table",
                gettext_noop(
                    "The points table has at most %(places)s places of at most %(max)s points each."
                ),
                {"places": POINTS_TABLE_PLACES, "max": POINTS_TABLE_MAX},
            ))
        elif any(a < b for a, b in zip(rule.table, rule.table[1:], strict=False)):
            problems.append(RuleProblem(
                "points_table_order", "table",
                gettext_noop("The points table must not give a lower place more points than a higher one."),
            ))
    if rule.best_of is not None and rule.best_of < 1:
        problems.append(RuleProblem(
            "best_of_range", "best_of", gettext_noop("At least one evening must count."),
        ))
    if rule.min_evenings < 0 or rule.attendance_bonus < 0 or rule.miss_deduction < 0 or rule.free_misses < 0:
        problems.append(RuleProblem(
            "negative_setting", "min_evenings",
            gettext_noop("Numbers of evenings and points cannot be negative."),
        ))
    if rule.best_of is not None and rule.min_evenings > rule.best_of:
        problems.append(RuleProblem(
            "min_above_best", "min_evenings",
            gettext_noop("The minimum of %(min)s evenings is more than the %(best)s evenings that count."),
            {"min": rule.min_evenings, "best": rule.best_of},
        ))
    unknown = [key for key in rule.tiebreaks if key not in SEASON_TIEBREAKS]
    if unknown:
        problems.append(RuleProblem(
            "unknown_tiebreak", "tiebreaks", gettext_noop("Unknown tie-break: %(key)s."), {"key": unknown[0]},
        ))
    return problems


@dataclass(frozen=True)
class EveningResult:
    """One player's result on one evening: the place (ties share it), the total and the field size."""

    player_id: int
    evening: int
    place: int
    total: int
    field_size: int


def evening_points(result: EveningResult, rule: SeasonRule) -> int:
    """The season points one evening is worth (for minus points: the evening's total)."""
    if rule.points is SeasonPoints.MINUS_POINTS:
        return result.total
    if rule.points is SeasonPoints.BY_TABLE:
        return rule.table[result.place - 1] if result.place <= len(rule.table) else 0
    return max(result.field_size - result.place + 1, 0)


class GapKind(StrEnum):
    """What separates a ranked line from the line just above it."""

    SHARED = "shared"  # nothing: both share the place
    POINTS = "points"  # season points
    TIEBREAK = "tiebreak"  # level on points (and counted evenings): a tie-break puts the line above ahead
    EVENINGS = "evenings"  # minus points: the line above has more counted evenings, whatever the sums


@dataclass(frozen=True)
class SeasonGap:
    """How far a ranked player is from the line just above them: the player ranked just ahead, or the
    one they share their place with.

    `points` is never negative: the season points the player is behind (in the direction of the rule:
    fewer points, or more minus points); 0 when level (a shared place or a tie-break), and 0 when the
    line above is ahead by its counted evenings (`evenings` more of them), where the sums do not decide.
    """

    ahead: int  # player id of the line above
    place: int  # its place
    kind: GapKind
    points: int = 0
    evenings: int = 0


@dataclass(frozen=True)
class SeasonRow:
    player_id: int
    rank: int | None  # None: not ranked (too few evenings, or a guest when only members are ranked)
    shared: bool
    score: int
    points: dict[int, int]  # evening → season points of every evening played
    counted: tuple[int, ...]  # the evenings that count, in evening order
    attended: int
    bonus: int
    deduction: int
    wins: int
    ranked: bool
    dropped: tuple[int, ...] = ()  # evenings played that do not count (best N), in evening order
    base: int = 0  # the counted evenings' points together, before bonus and deductions
    gap: SeasonGap | None = None  # None: first line, or not ranked


def season_ranking(
    results: Iterable[EveningResult],
    evenings: Sequence[int],
    rule: SeasonRule,
    *,
    members: Iterable[int] | None = None,
) -> list[SeasonRow]:
    """Rank every player with a result on one of `evenings`; ranked players first, then the others.

    `members`: the player ids who are members (only needed with `members_only`).
    """
    problems = rule_problems(rule)
    if problems:
        raise ValueError(problems[0].code)
    held = sorted(set(evenings))
    wanted = set(held)
    lower = rule.points.lower_is_better
    sign = 1 if lower else -1  # sign * value: smaller is better
    member_ids = set(members) if members is not None else None

    per_player = _best_per_evening(results, wanted)

    count = len(held) if rule.best_of is None else min(rule.best_of, len(held))
    computed = []
    for pid, row in per_player.items():
        points = {evening: evening_points(result, rule) for evening, result in row.items()}
        best = sorted(points.items(), key=lambda item: (sign * item[1], item[0]))[:count]
        counted = tuple(sorted(evening for evening, _ in best))
        attended = len(points)
        bonus = rule.attendance_bonus * attended
        deduction = rule.miss_deduction * max(0, len(held) - attended - rule.free_misses)
        # A bonus is good and a deduction bad in either direction of the points.
        base = sum(value for _, value in best)
        score = base - sign * bonus + sign * deduction
        wins = sum(1 for result in row.values() if result.place == 1)
        ranked = attended >= rule.min_evenings and (
            not rule.members_only or member_ids is None or pid in member_ids
        )
        best_evening = min(sign * value for value in points.values())
        metrics = {"wins": -wins, "best_evening": best_evening, "attended": -attended}
        key = (
            0 if ranked else 1,
            # Minus points: fewer counted evenings make a smaller sum, so they rank after the full ones.
            -len(counted) if lower else 0,
            sign * score,
            *(metrics[key] for key in rule.tiebreaks),
        )
        computed.append((key, pid, score, points, counted, attended, bonus, deduction, wins, ranked, base))

    rows = []
    for rank, shared, item in place(computed, lambda item: item[0], lambda item: item[1]):
        _, pid, score, points, counted, attended, bonus, deduction, wins, ranked, base = item
        rows.append(SeasonRow(
            player_id=pid, rank=rank if ranked else None, shared=shared and ranked, score=score,
            points=points, counted=counted, attended=attended, bonus=bonus, deduction=deduction,
            wins=wins, ranked=ranked, base=base,
            dropped=tuple(sorted(set(points) - set(counted))),
        ))
    gaps = season_gaps(rows, rule)
    return [replace(row, gap=gaps[row.player_id]) if row.player_id in gaps else row for row in rows]


def _best_per_evening(
    results: Iterable[EveningResult], wanted: Collection[int]
) -> dict[int, dict[int, EveningResult]]:
    """player → evening → their result there; of two results on one evening (a second entry) the better."""
    per_player: dict[int, dict[int, EveningResult]] = {}
    for result in results:
        if result.evening not in wanted:
            continue
        row = per_player.setdefault(result.player_id, {})
        old = row.get(result.evening)
        if old is None or (result.place, result.total) < (old.place, old.total):
            row[result.evening] = result
    return per_player


def season_gaps(rows: Sequence[SeasonRow], rule: SeasonRule) -> dict[int, SeasonGap]:
    """player id → how far they are from the line just above them, for every ranked line but the first.

    `rows` in ranking order (as `season_ranking` returns them). The line above shares the place (nothing
    between them), or is ahead by season points, by a tie-break on equal points, or (minus points) by
    more counted evenings, which rank before any sum.
    """
    lower = rule.points.lower_is_better
    sign = 1 if lower else -1
    gaps = {}
    ranked = [row for row in rows if row.ranked]
    for above, row in pairwise(ranked):
        if row.rank == above.rank:
            gaps[row.player_id] = SeasonGap(above.player_id, above.rank, GapKind.SHARED)
        elif lower and len(above.counted) > len(row.counted):
            gaps[row.player_id] = SeasonGap(
                above.player_id, above.rank, GapKind.EVENINGS, evenings=len(above.counted) - len(row.counted)
            )
        elif row.score == above.score:
            gaps[row.player_id] = SeasonGap(above.player_id, above.rank, GapKind.TIEBREAK)
        else:
            gaps[row.player_id] = SeasonGap(
                above.player_id, above.rank, GapKind.POINTS, points=sign * (row.score - above.score)
            )
    return gaps


def adjustments(row: SeasonRow, rule: SeasonRule) -> tuple[int, int]:
    """The bonus and the deductions as they change the score (base + both = score): a bonus adds points
    and takes minus points away, a deduction the other way round."""
    sign = 1 if rule.points.lower_is_better else -1
    return -sign * row.bonus, sign * row.deduction


@dataclass(frozen=True)
class SeasonEvening:
    """One evening of a player's season: played or not, their place and total there, the season points
    it is worth and whether they count."""

    evening: int
    points: int | None = None  # None: not played
    counted: bool = False
    place: int | None = None
    total: int | None = None
    field_size: int | None = None

    @property
    def played(self) -> bool:
        return self.points is not None

    @property
    def dropped(self) -> bool:
        return self.played and not self.counted


def season_evenings(
    row: SeasonRow, evenings: Sequence[int], results: Iterable[EveningResult] = ()
) -> list[SeasonEvening]:
    """The player's line evening by evening, in the order of `evenings`; with `results` (theirs, or any:
    others' are left out) also their place and total there."""
    mine = _best_per_evening((r for r in results if r.player_id == row.player_id), set(evenings)).get(
        row.player_id, {}
    )
    counted = set(row.counted)
    cards = []
    for evening in evenings:
        result = mine.get(evening)
        cards.append(SeasonEvening(
            evening=evening, points=row.points.get(evening), counted=evening in counted,
            place=result.place if result else None, total=result.total if result else None,
            field_size=result.field_size if result else None,
        ))
    return cards


def season_club_ranking(
    rows: Iterable[SeasonRow],
    clubs: Mapping[int, int],
    rule: SeasonRule,
    *,
    best: int | None,
    value: GroupValue = GroupValue.SUM,
) -> list[GroupRow]:
    """The clubs of a season (`clubs`: player id → club id) by their best `best` ranked players.

    A club's best K are its K best placed players in the season ranking, never those with the best
    score: under minus points a member with fewer evenings has the smaller sum but ranks behind, and so
    does their club (its counted evenings are compared before its value). A player missing an evening
    never makes their club rank higher.
    """
    lower = rule.points.lower_is_better
    return group_ranking(
        [
            MemberScore(row.player_id, clubs[row.player_id], row.score, place=row.rank,
                        counted=len(row.counted) if lower else 0)
            for row in rows if row.ranked and row.player_id in clubs
        ],
        best=best, higher_is_better=not lower, value=value,
    )


def places_of(totals: dict[int, int], *, lower_is_better: bool) -> dict[int, int]:
    """Places of one evening from its totals when no standings are at hand: equal totals share."""
    sign = 1 if lower_is_better else -1
    return {
        pid: rank
        for rank, _, pid in place(totals, lambda pid: sign * totals[pid], lambda pid: pid)
    }
