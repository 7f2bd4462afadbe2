"""Costs and reports: pair cost of repeated meetings, meetings, odd-table spread, lower bounds.

See docs/rules.md §4.  Repeats come first, as the rules minimise the pairs who meet again; the cost
units below say how much more a third and a fourth meeting weigh.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.seating.base import Round

# Cost units.  A pair meeting m times costs REPEAT per meeting beyond the first, plus THIRD per pair
# and FOURTH per triple of those meetings: 10 for a second meeting, 12 more for a third, 114 more for a
# fourth.  A third meeting is taken where it saves a repeat (more pairs meet at all), a fourth only
# where it saves more than ten.
_REPEAT = 10
_THIRD = 2
_FOURTH = 100
_CLUB = 3  # a same-club pair in a club-separated round; cheaper than any repeat
# a pair of team-mates at one table, in any round: far dearer than the repeats that keeping them apart
# may cost (a fourth meeting costs 114 more than a third, a fifth 316 more than a fourth), so
# team-mates meet only where no seating keeps them apart
_TEAM = 10_000
_STICK = 1  # re-planning: bonus for a pair of the previous plan still at one table

def _pair_cost(m: int) -> int:
    if m <= 1:
        return 0
    extra = m - 1
    pairs, triples = extra * (extra - 1) // 2, extra * (extra - 1) * (extra - 2) // 6
    return _REPEAT * extra + _THIRD * pairs + _FOURTH * triples


_UP = [_pair_cost(m + 1) - _pair_cost(m) for m in range(64)]
_DOWN = [0] + [_pair_cost(m - 1) - _pair_cost(m) for m in range(1, 64)]


def _fill(counts: dict[int, int], left: int) -> tuple[int, int]:
    """Give ``left`` more meetings one by one to the pairs where they cost least (the pair cost is
    convex, so this is a lower bound).  ``counts``: how many pairs have met how often (changed).
    (cost added, the most meetings a pair reaches by them; 0 when ``left`` is 0)."""
    cost = level = top = 0
    while left > 0:
        c = counts.get(level, 0)
        if c:
            t = min(c, left)
            cost += t * _UP[level]
            counts[level] = c - t
            counts[level + 1] = counts.get(level + 1, 0) + t
            left -= t
            top = level + 1
        else:
            level += 1
    return cost, top


def lower_bound_repeats(n_players: int, sizes: Sequence[int], n_rounds: int) -> int:
    """Counting lower bound on repeated pairs: pair slots over all rounds minus the number of pairs."""
    slots = n_rounds * sum(s * (s - 1) // 2 for s in sizes)
    return max(0, slots - n_players * (n_players - 1) // 2)



@dataclass(frozen=True)
class SeatingReport:
    repeated_pairs: int  # sum over pairs of (meetings - 1) over history + proposal
    new_repeats: list[tuple[int, int, int]]  # (a, b, times met including this round), a < b
    max_meetings: int
    small_table_spread: int  # most minus fewest odd tables per player, over players who played all rounds
    odd_tables: dict[int, int] = field(default_factory=dict)  # player id -> odd tables (all players)


def _meetings(rounds: Sequence[Round]) -> Counter:
    met: Counter = Counter()
    for rnd in rounds:
        for table in rnd:
            ids = sorted(table)
            for i, a in enumerate(ids):
                for b in ids[i + 1 :]:
                    met[(a, b)] += 1
    return met


def _odd_spread(rounds: Sequence[Round], preferred: int) -> tuple[int, dict[int, int]]:
    odd: Counter = Counter()
    played: Counter = Counter()
    for rnd in rounds:
        for table in rnd:
            for p in table:
                played[p] += 1
                if len(table) != preferred:
                    odd[p] += 1
    full = [p for p in played if played[p] == len(rounds)]
    spread = max(odd[p] for p in full) - min(odd[p] for p in full) if full else 0
    return spread, {p: odd[p] for p in sorted(played)}


def seating_report(history: Sequence[Round], proposal: Round, sizes_preferred: int = 4) -> SeatingReport:
    """What the organizer sees before publishing ``proposal`` (also after a manual swap)."""
    before = _meetings(history)
    met = before + _meetings([proposal])
    new = []
    for table in proposal:
        ids = sorted(table)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if before[(a, b)]:
                    new.append((a, b, before[(a, b)] + 1))
    new.sort()
    spread, odd = _odd_spread([*history, proposal], sizes_preferred)
    return SeatingReport(
        repeated_pairs=sum(m - 1 for m in met.values() if m > 1),
        new_repeats=new,
        max_meetings=max(met.values(), default=0),
        small_table_spread=spread,
        odd_tables=odd,
    )


def schedule_stats(rounds: Sequence[Round], preferred: int = 4) -> SeatingReport:
    """Stats of a whole schedule.  ``new_repeats`` lists every pair meeting more than once."""
    met = _meetings(rounds)
    spread, odd = _odd_spread(rounds, preferred)
    return SeatingReport(
        repeated_pairs=sum(m - 1 for m in met.values() if m > 1),
        new_repeats=sorted((a, b, m) for (a, b), m in met.items() if m > 1),
        max_meetings=max(met.values(), default=0),
        small_table_spread=spread,
        odd_tables=odd,
    )


@dataclass(frozen=True)
class RepeatVerdict:
    """Whether the repeats of a proposed round could be avoided, as far as the engine can tell.

    `floor`: no seating of these players at tables of these sizes has fewer new repeats (a proof, not a
    guess: the pairs still unmet, and each player's unmet table-mates, bound it from below);
    `swap`: two players (a, b) whose exchange between their tables saves `saved` repeats, if any;
    `unavoidable`: the proposal is at the floor, so no seating does better."""

    repeats: int
    floor: int
    swap: tuple[int, int] | None = None
    saved: int = 0

    @property
    def unavoidable(self) -> bool:
        return self.repeats <= self.floor


def repeat_floor(history: Sequence[Round], proposal: Round) -> int:
    """A lower bound on the pairs of `proposal`'s players who meet again in any seating of them at
    tables of `proposal`'s sizes. Two counts, the larger one holds: a round seats more pairs than there
    are unmet pairs left; a player whose unmet table-mates are fewer than the seats beside him at the
    smallest table meets the others again (each such pair counted from both of its players)."""
    players = sorted(p for table in proposal for p in table)
    sizes = [len(table) for table in proposal if table]
    if not sizes:
        return 0
    met = _meetings(history)
    unmet = {p: 0 for p in players}
    unmet_pairs = 0
    for i, a in enumerate(players):
        for b in players[i + 1:]:
            if not met[(a, b)]:
                unmet_pairs += 1
                unmet[a] += 1
                unmet[b] += 1
    slots = sum(s * (s - 1) // 2 for s in sizes)
    beside = min(sizes) - 1
    short = sum(max(0, beside - unmet[p]) for p in players)
    return max(0, slots - unmet_pairs, -(-short // 2))


def repeat_verdict(history: Sequence[Round], proposal: Round) -> RepeatVerdict:
    """The proposal's new repeats against `repeat_floor`, and the best single exchange of two players
    between tables when the proposal is above it (every exchange tried: a few thousand for a hall)."""
    met = _meetings(history)

    def knows(a: int, b: int) -> int:
        return 1 if met[(a, b) if a < b else (b, a)] else 0

    tables = [list(table) for table in proposal]
    repeats = sum(
        knows(a, b) for table in tables for i, a in enumerate(table) for b in table[i + 1:]
    )
    floor = repeat_floor(history, proposal)
    if repeats <= floor:
        return RepeatVerdict(repeats=repeats, floor=floor)
    best: tuple[int, tuple[int, int]] | None = None
    for ti, first in enumerate(tables):
        for tj in range(ti + 1, len(tables)):
            second = tables[tj]
            for a in first:
                a_here = sum(knows(a, x) for x in first if x != a)
                a_there = sum(knows(a, x) for x in second)
                for b in second:
                    b_here = sum(knows(b, x) for x in second if x != b)
                    b_there = sum(knows(b, x) for x in first if x != a)
                    # a leaves `first` for `second` (without b), b the other way.
                    saved = a_here + b_here - (a_there - knows(a, b)) - b_there
                    if saved > 0 and (best is None or saved > best[0]
                                      or (saved == best[0] and (a, b) < best[1])):
                        best = (saved, (min(a, b), max(a, b)))
    if best is None:
        return RepeatVerdict(repeats=repeats, floor=floor)
    return RepeatVerdict(repeats=repeats, floor=floor, swap=best[1], saved=best[0])
