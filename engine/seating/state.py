"""Search state: the active players as indices 0..n-1 and what the history says about them.

Also the odd-table roles (docs/rules.md §4): who is due for an odd table this round.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from engine.seating.base import Round, SeatingError, SeatingPlayer


class _Context:
    """Active players as indices 0..n-1 (sorted by id) and what the history says about them."""

    def __init__(
        self,
        players: Sequence[SeatingPlayer],
        history: Sequence[Round],
        sizes: Sequence[int],
        preferred: int | None,
    ):
        ids = [p.id for p in players]
        if len(set(ids)) != len(ids):
            raise SeatingError("duplicate player ids")
        if any(s < 1 for s in sizes):
            raise SeatingError("table sizes must be positive")
        if sum(sizes) != len(ids):
            raise SeatingError(
                f"table plan {list(sizes)} seats {sum(sizes)}, but {len(ids)} players are active"
            )
        order = sorted(players, key=lambda p: p.id)
        self.ids = [p.id for p in order]
        self.index = {pid: i for i, pid in enumerate(self.ids)}
        n = self.n = len(order)
        club_names = sorted({p.club for p in order if p.club})
        club_no = {c: i for i, c in enumerate(club_names)}
        self.clubs = [club_no[p.club] if p.club else -1 for p in order]
        team_names = sorted({p.team for p in order if p.team})
        team_no = {t: i for i, t in enumerate(team_names)}
        self.teams = [team_no[p.team] if p.team else -1 for p in order]
        self.has_teams = bool(team_names)
        self.sizes = list(sizes)
        self.special_sizes = _special_sizes(self.sizes, preferred)
        self.M = [[0] * n for _ in range(n)]
        self.odd = [0] * n
        self.played = [0] * n
        self.pos = [[0] * max(self.sizes, default=1) for _ in range(n)]
        self.history = [self.to_idx(r) for r in history]
        # the table sizes as played (withdrawn players included): what decided who sat at an odd table
        self.played_sizes = [sorted(len(t) for t in full) for full in history]
        for full, rnd in zip(history, self.history, strict=True):
            # a table is odd by its size when it was played, not after withdrawn players left it
            # (with a preferred size, every other size was odd, also one today's plan does not have)
            special = self.special_sizes
            odd = [len(t) != preferred if preferred is not None else len(t) in special for t in full]
            self.add_round(rnd, odd_tables=odd)
        # positions come from the seat order in the history
        width = len(self.pos[0])
        for rnd in self.history:
            for table in rnd:
                for seat, p in enumerate(table):
                    if seat < width:
                        self.pos[p][seat] += 1

    def clone(self) -> _Context:
        other = object.__new__(_Context)
        other.__dict__.update(self.__dict__)
        other.M = [list(row) for row in self.M]
        other.odd = list(self.odd)
        other.played = list(self.played)
        return other

    def to_idx(self, rnd: Round) -> list[list[int]]:
        return [[self.index[p] for p in table if p in self.index] for table in rnd]

    def to_ids(self, rnd: list[list[int]]) -> Round:
        return [[self.ids[p] for p in table] for table in rnd]

    def add_round(
        self, rnd: list[list[int]], count_odd: bool = True, odd_tables: list[bool] | None = None
    ) -> None:
        M = self.M
        for ti, table in enumerate(rnd):
            odd = odd_tables[ti] if odd_tables is not None else len(table) in self.special_sizes
            for i, a in enumerate(table):
                self.played[a] += 1
                if odd and count_odd:
                    self.odd[a] += 1
                for b in table[i + 1 :]:
                    M[a][b] += 1
                    M[b][a] += 1

    @property
    def odd_seats(self) -> int:
        return sum(s for s in self.sizes if s in self.special_sizes)

    def levels(self) -> list[int]:
        """Who is due for an odd table: lower first.  Odd tables so far, minus the fair share for the
        rounds played (scaled by n to stay in integers)."""
        n, k = self.n, self.odd_seats
        return [self.odd[p] * n - k * self.played[p] for p in range(n)]

    def roles(self, rng: random.Random, prefer: list[bool] | None = None) -> list[bool]:
        """Who sits at odd tables this round: the players with the lowest level (ties at random)."""
        n = self.n
        k = self.odd_seats
        if k == 0 or k == n:
            return [k == n] * n
        noise = [rng.random() for _ in range(n)]
        level = self.levels()
        order = sorted(range(n), key=lambda p: (level[p], 0 if prefer and prefer[p] else 1, noise[p]))
        if self.has_teams:
            order = self._roles_for_teams(order, level, k)
        special = [False] * n
        for p in order[:k]:
            special[p] = True
        return special

    def _roles_for_teams(self, order: list[int], level: list[int], k: int) -> list[int]:
        """``order`` with the tied players at the cut for the odd seats re-ordered so that every team can
        sit apart: a team of s players needs at least s - (normal tables) and at most (odd tables) of
        them at odd tables.  The rule (lowest level first) still decides; only ties are chosen."""
        odd_tables = sum(1 for size in self.sizes if size in self.special_sizes)
        normal_tables = len(self.sizes) - odd_tables
        cut = level[order[k - 1]]
        forced = [p for p in order if level[p] < cut]
        tied = [p for p in order if level[p] == cut]
        later = [p for p in order if level[p] > cut]
        size = Counter(t for t in self.teams if t >= 0)
        at_odd = Counter(self.teams[p] for p in forced if self.teams[p] >= 0)
        picked: list[int] = []
        for wanted in (
            lambda t: t >= 0 and at_odd[t] < size[t] - normal_tables,  # teams short of odd seats first
            lambda t: t < 0 or at_odd[t] < odd_tables,  # then anyone whose team has room at odd tables
            lambda t: True,
        ):
            for p in tied:
                if len(forced) + len(picked) == k:
                    break
                t = self.teams[p]
                if p not in picked and wanted(t):
                    picked.append(p)
                    if t >= 0:
                        at_odd[t] += 1
        return forced + picked + [p for p in tied if p not in picked] + later


def _special_sizes(sizes: Sequence[int], preferred: int | None) -> frozenset[int]:
    counts = Counter(sizes)
    if preferred is not None:
        return frozenset(s for s in counts if s != preferred)
    if len(counts) <= 1:
        return frozenset()
    mode = max(counts, key=lambda s: (counts[s], s))
    return frozenset(s for s in counts if s != mode)


def _random_round(
    sizes: Sequence[int], special_sizes, special: list[bool], rng: random.Random
) -> list[list[int]]:
    sp = [p for p in range(len(special)) if special[p]]
    no = [p for p in range(len(special)) if not special[p]]
    rng.shuffle(sp)
    rng.shuffle(no)
    tables = []
    for s in sizes:
        src = sp if s in special_sizes else no
        tables.append([src.pop() for _ in range(s)])
    return tables


def _count_odd(ctx: _Context, rnd: list[list[int]]) -> None:
    for table in rnd:
        if len(table) in ctx.special_sizes:
            for p in table:
                ctx.odd[p] += 1
