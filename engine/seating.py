"""Seating optimiser for club UNO tournaments (RULES.md section 4).

Pure Python, standard library only, no Django.

What it minimises, in this order:

1. pairs of players who meet again at a table.  A pair meeting ``m`` times costs
   ``(m - 1) + 10 * C(m - 1, 2)`` units, so a third meeting costs far more than a second;
2. imbalance of the odd tables (the smaller ones, or the larger ones when the organizer fills with
   larger tables): nobody gets a second odd table before every player has had one.  Late arrivals are
   counted fairly by rounds played: the players with the lowest ``odd_tables - share * rounds_played``
   get the odd seats, where ``share`` is the fraction of odd seats in the round.  This is kept as a
   hard constraint (RULES.md states it as a rule; the targets demand a spread of at most 1); the search
   only chooses *which* of the tied players get the odd seats and may move odd seats between players
   while the rule holds in every round.  It costs no repeat when there are few odd seats, but it does
   when about half the seats are odd (e.g. 31 players filled with larger tables: 4x4+3x5, 19 repeats
   with the rule, about 2 without);
3. in round 1 (or when ``separate_clubs=True``), players of the same club at one table.

Seat order within a table is the playing order; it is chosen so that who sits first (and every other
seat) rotates: each table takes the permutation that puts its players on the seats they had least.

Everything is reproducible from the integer seed: a private ``random.Random(seed)`` is used, players
are processed sorted by id and no set/dict iteration order of strings is relied upon, so
``PYTHONHASHSEED`` does not matter.  The search is bounded by a number of move evaluations, never by
wall-clock time, so the result does not depend on the speed of the machine either.

Algorithm: a conflict-directed tabu search (after Dotu & Van Hentenryck's social golfer search) over
swaps of two players between tables of one round, with an incremental cost.  A player is "in conflict"
when a table-mate already met him (or shares his club in a club-separated round); each iteration
moves one conflicting player to the best place in its round.  Known designs (the affine plane AG(2,4)
for 16 players, a social-golfer solution for 24 players, good 6-round schedules for 12 and 20
players; each minus one point for 15 and 23 players) are shipped in :mod:`engine.seating_designs`
and are continued when the history so far is (isomorphic to) a prefix of one of them.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.seating_designs import DESIGNS

__all__ = [
    "Round",
    "SeatingError",
    "SeatingPlayer",
    "SeatingReport",
    "lower_bound_repeats",
    "plan_schedule",
    "schedule_stats",
    "seat_round",
    "seating_report",
    "table_plan",
]


class SeatingError(ValueError):
    """The seating cannot be made (e.g. fewer players than the minimum table size)."""


@dataclass(frozen=True)
class SeatingPlayer:
    id: int
    club: str = ""


Round = list[list[int]]

# Cost units.  A repeat costs REPEAT per extra meeting, plus THIRD per pair of extra meetings.
_REPEAT = 10
_THIRD = 100
_CLUB = 3  # a same-club pair in a club-separated round; cheaper than any repeat
_STICK = 1  # re-planning: bonus for a pair of the previous plan still at one table

_MOVE_COST = 25  # a move (with its bookkeeping) costs about as much time as this many evaluations
_MAX_TABLES = 40  # tables looked at per move in big rounds

# Search budgets, in move evaluations (deterministic, independent of machine speed).
_PLAN_BUDGET = 750_000  # split over the starts
_ROUND_BUDGET = 120_000
_GREEDY_BUDGET = 20_000  # per round of the starting solution of a plan
_LOOKAHEAD = 1  # seat_round plans this many rounds more (not returned), unless told n_rounds
_STARTS = 3  # independent starts of a plan when the first does not reach the lower bound


def _pair_cost(m: int) -> int:
    if m <= 1:
        return 0
    return _REPEAT * (m - 1) + _THIRD * ((m - 1) * (m - 2) // 2)


# ---------------------------------------------------------------------------------------------------
# Table plan


def table_plan(
    n_players: int, preferred: int = 4, min_size: int = 3, max_size: int = 5, fill: str = "smaller"
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
    if fill not in ("smaller", "larger"):
        raise SeatingError(f"fill must be 'smaller' or 'larger', not {fill!r}")
    if not 2 <= min_size <= preferred <= max_size:
        raise SeatingError(
            f"need 2 <= min_size <= preferred <= max_size, got {min_size}, {preferred}, {max_size}"
        )
    if n_players < min_size:
        raise SeatingError(f"{n_players} players cannot fill a table of at least {min_size}")
    if fill == "smaller":
        start = math.ceil(n_players / preferred)
        candidates = range(start, math.ceil(n_players / max_size) - 1, -1)
    else:
        start = max(1, n_players // preferred)
        candidates = range(start, n_players // min_size + 1)
    for t in candidates:
        q, r = divmod(n_players, t)
        if q >= min_size and q + (1 if r else 0) <= max_size:
            sizes = [q + 1] * r + [q] * (t - r)
            return sizes if fill == "smaller" else sizes[::-1]
    raise SeatingError(f"no table plan for {n_players} players with tables of {min_size}..{max_size}")


def lower_bound_repeats(n_players: int, sizes: Sequence[int], n_rounds: int) -> int:
    """Counting lower bound on repeated pairs: pair slots over all rounds minus the number of pairs."""
    slots = n_rounds * sum(s * (s - 1) // 2 for s in sizes)
    return max(0, slots - n_players * (n_players - 1) // 2)


# ---------------------------------------------------------------------------------------------------
# Reports


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


# ---------------------------------------------------------------------------------------------------
# Internal state


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
        self.sizes = list(sizes)
        self.special_sizes = _special_sizes(self.sizes, preferred)
        self.M = [[0] * n for _ in range(n)]
        self.odd = [0] * n
        self.played = [0] * n
        self.pos = [[0] * max(self.sizes, default=1) for _ in range(n)]
        self.history = [self.to_idx(r) for r in history]
        for full, rnd in zip(history, self.history, strict=True):
            # a table is odd by its size when it was played, not after withdrawn players left it
            self.add_round(rnd, odd_tables=[len(t) in self.special_sizes for t in full])
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
        special = [False] * n
        for p in order[:k]:
            special[p] = True
        return special


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


# ---------------------------------------------------------------------------------------------------
# Tabu search


class _Search:
    """Conflict-directed tabu search over the free rounds; ``ctx.M`` must already include them."""

    def __init__(
        self,
        ctx: _Context,
        rounds: list[list[list[int]]],
        levels0: list[int],
        club_rounds: list[bool],
        rng: random.Random,
        anchors: list[list[int]] | None = None,
    ):
        """``levels0``: ``ctx.levels()`` before the first free round (the free rounds are the last ones).

        ``anchors[r][p]``: the table of p in the previous plan of free round r (-1: none); pairs kept
        together earn a small bonus, so a re-plan changes what it must and little else."""
        self.anchors = anchors
        self.ctx = ctx
        self.n = n = ctx.n
        self.rounds = rounds
        self.club_rounds = club_rounds
        self.rng = rng
        self.special = [[len(t) in ctx.special_sizes for t in rnd] for rnd in rounds]
        self.where = []
        for rnd in rounds:
            w = [-1] * n
            for ti, table in enumerate(rnd):
                for p in table:
                    w[p] = ti
            self.where.append(w)
        k = ctx.odd_seats
        self.roles_free = 0 < k < n
        self.levels0 = levels0
        if self.roles_free:
            self._recompute_levels(0)
        self.conf_items: list[int] = []
        self.conf_pos = [-1] * (n * len(rounds))
        for r in range(len(rounds)):
            for p in range(n):
                self._update(r, p)

    # -- odd-table roles --------------------------------------------------------------------------
    # lv[r][p]: level of p before free round r.  The rule: at every round, every player at an odd table
    # has a level <= every player at a normal table.  A swap between an odd and a normal table is
    # allowed when it keeps that true in this and all later rounds.

    def _recompute_levels(self, start: int) -> None:
        n = self.n
        R = len(self.rounds)
        if start == 0:
            self.lv = [list(self.levels0)]
            self.isodd = [[False] * n for _ in range(R)]
            self.top_odd = [None] * R
            self.low_norm = [None] * R
        for r in range(start, R):
            isodd = self.isodd[r]
            sp = self.special[r]
            w = self.where[r]
            for p in range(n):
                isodd[p] = sp[w[p]]
            if r + 1 < R:
                prev = self.lv[r]
                nxt = [prev[p] + (n if isodd[p] else 0) for p in range(n)]
                if r + 1 < len(self.lv):
                    self.lv[r + 1] = nxt
                else:
                    self.lv.append(nxt)
            lv = self.lv[r]
            odd_sorted = sorted((-lv[p], p) for p in range(n) if isodd[p])[:3]
            norm_sorted = sorted((lv[p], p) for p in range(n) if not isodd[p])[:3]
            self.top_odd[r] = [(-v, p) for v, p in odd_sorted]
            self.low_norm[r] = norm_sorted

    def _cross_ok(self, r: int, o: int, m: int) -> bool:
        """May o (odd at round r) and m (normal at round r) change roles in round r?"""
        n = self.n
        for t in range(r, len(self.rounds)):
            lv = self.lv[t]
            lo = lv[o] - (n if t > r else 0)
            lm = lv[m] + (n if t > r else 0)
            odd_o = self.isodd[t][o] if t > r else False
            odd_m = self.isodd[t][m] if t > r else True
            mx = None
            for v, p in self.top_odd[t]:
                if p != o and p != m:
                    mx = v
                    break
            mn = None
            for v, p in self.low_norm[t]:
                if p != o and p != m:
                    mn = v
                    break
            for val, odd in ((lo, odd_o), (lm, odd_m)):
                if odd:
                    mx = val if mx is None or val > mx else mx
                else:
                    mn = val if mn is None or val < mn else mn
            if mx is not None and mn is not None and mx > mn:
                return False
        return True

    def _is_conflict(self, r: int, p: int) -> bool:
        ti = self.where[r][p]
        if ti < 0:
            return False
        row = self.ctx.M[p]
        table = self.rounds[r][ti]
        for q in table:
            if q != p and row[q] >= 2:
                return True
        if self.club_rounds[r]:
            c = self.ctx.clubs[p]
            if c >= 0:
                for q in table:
                    if q != p and self.ctx.clubs[q] == c:
                        return True
        return False

    def _update(self, r: int, p: int) -> None:
        key = r * self.n + p
        bad = self._is_conflict(r, p)
        pos = self.conf_pos[key]
        if bad and pos < 0:
            self.conf_pos[key] = len(self.conf_items)
            self.conf_items.append(key)
        elif not bad and pos >= 0:
            last = self.conf_items.pop()
            if last != key:
                self.conf_items[pos] = last
                self.conf_pos[last] = pos
            self.conf_pos[key] = -1

    def cost(self) -> int:
        ctx = self.ctx
        total = 0
        if self.anchors is not None:
            for r, rnd in enumerate(self.rounds):
                anc = self.anchors[r]
                for table in rnd:
                    cnt = Counter(anc[p] for p in table if anc[p] >= 0)
                    total -= _STICK * sum(v * (v - 1) // 2 for v in cnt.values())
        n = self.n
        for a in range(n):
            row = ctx.M[a]
            for b in range(a + 1, n):
                if row[b] > 1:
                    total += _pair_cost(row[b])
        for r, rnd in enumerate(self.rounds):
            if self.club_rounds[r]:
                for table in rnd:
                    cl = [ctx.clubs[p] for p in table if ctx.clubs[p] >= 0]
                    total += _CLUB * sum(v * (v - 1) // 2 for v in Counter(cl).values())
        return total

    def swap(self, r: int, a: int, b: int) -> None:
        M = self.ctx.M
        w = self.where[r]
        ta, tb = w[a], w[b]
        A = self.rounds[r][ta]
        B = self.rounds[r][tb]
        Ma, Mb = M[a], M[b]
        for x in A:
            if x != a:
                Ma[x] -= 1
                M[x][a] -= 1
                Mb[x] += 1
                M[x][b] += 1
        for y in B:
            if y != b:
                Ma[y] += 1
                M[y][a] += 1
                Mb[y] -= 1
                M[y][b] -= 1
        A[A.index(a)] = b
        B[B.index(b)] = a
        w[a], w[b] = tb, ta
        if self.special[r][ta] != self.special[r][tb]:
            self._recompute_levels(r)
        for q in A:
            self._update(r, q)
        for q in B:
            self._update(r, q)
        for r2 in range(len(self.rounds)):
            if r2 == r:
                continue
            w2 = self.where[r2]
            for p in (a, b):
                if w2[p] >= 0:
                    for q in self.rounds[r2][w2[p]]:
                        self._update(r2, q)

    def delta(self, r: int, a: int, b: int) -> int:
        M = self.ctx.M
        w = self.where[r]
        A = self.rounds[r][w[a]]
        B = self.rounds[r][w[b]]
        Ma, Mb = M[a], M[b]
        up, down = _UP, _DOWN
        d = 0
        for x in A:
            if x != a:
                d += down[Ma[x]] + up[Mb[x]]
        for y in B:
            if y != b:
                d += up[Ma[y]] + down[Mb[y]]
        if self.club_rounds[r]:
            d += self._club_delta([x for x in A if x != a], B, a, b)
        if self.anchors is not None:
            d += self._stick_delta(self.anchors[r], [x for x in A if x != a], B, a, b)
        return d

    def _stick_delta(self, anc: list[int], rest_a: list[int], B: list[int], a: int, b: int) -> int:
        ca, cb = anc[a], anc[b]
        s = 0
        for x in rest_a:
            cx = anc[x]
            if cx >= 0:
                s += (cx == ca) - (cx == cb)
        for y in B:
            if y != b:
                cy = anc[y]
                if cy >= 0:
                    s += (cy == cb) - (cy == ca)
        return _STICK * s

    def _club_delta(self, rest_a: list[int], B: list[int], a: int, b: int) -> int:
        clubs = self.ctx.clubs
        ca, cb = clubs[a], clubs[b]
        if ca == cb:
            return 0
        s = 0
        for x in rest_a:
            cx = clubs[x]
            s += (cx == cb and cb >= 0) - (cx == ca and ca >= 0)
        for y in B:
            if y != b:
                cy = clubs[y]
                s += (cy == ca and ca >= 0) - (cy == cb and cb >= 0)
        return _CLUB * s

    def snapshot(self) -> list[list[list[int]]]:
        return [[list(t) for t in rnd] for rnd in self.rounds]

    def run(self, budget: int, target: int = 0, sample: int = 8, patience: int | None = None) -> int:
        """Search until no conflict is left, the cost is ``target`` or ``budget`` evaluations are used."""
        rng = self.rng
        n = self.n
        cost = self.cost()
        best_cost = cost
        best = self.snapshot()
        if not self.conf_items or cost <= target or not any(len(rnd) > 1 for rnd in self.rounds):
            return cost
        tabu = [[0] * n for _ in self.rounds]
        it = 0
        evals = 0
        last_improvement = 0
        stall = max(200, 20 * n)
        base_tenure = 3 + n // 10
        up, down = _UP, _DOWN
        roles_free = self.roles_free
        if patience is None:
            patience = max(30_000, budget // 4)
        sample = max(1, min(sample, 1000 // n))
        best_evals = 0
        while evals < budget and evals - best_evals < patience:
            it += 1
            if not self.conf_items:
                break
            items = self.conf_items
            keys = items if len(items) <= sample else rng.sample(items, sample)
            best_d = None
            cands: list[tuple[int, int, int]] = []
            M = self.ctx.M
            for key in keys:
                r, a = divmod(key, n)
                ta = self.where[r][a]
                special = self.special[r]
                tabu_r = tabu[r]
                a_tabu = tabu_r[a] > it
                Ma = M[a]
                rest_a = [x for x in self.rounds[r][ta] if x != a]
                leave = 0
                for x in rest_a:
                    leave += down[Ma[x]]
                club_round = self.club_rounds[r]
                anc = self.anchors[r] if self.anchors is not None else None
                tables = self.rounds[r]
                if len(tables) > _MAX_TABLES:
                    # big rounds: look at a random part of the tables (plenty of good places there)
                    picks = rng.sample(range(len(tables)), _MAX_TABLES)
                else:
                    picks = range(len(tables))
                for tb in picks:
                    table = tables[tb]
                    if tb == ta:
                        continue
                    cross = special[ta] != special[tb]
                    if cross and not roles_free:
                        continue
                    join = leave
                    for y in table:
                        join += up[Ma[y]]
                    for b in table:
                        Mb = M[b]
                        d = join - up[Ma[b]]
                        for x in rest_a:
                            d += up[Mb[x]]
                        for y in table:
                            if y != b:
                                d += down[Mb[y]]
                        if club_round:
                            d += self._club_delta(rest_a, table, a, b)
                        if anc is not None:
                            d += self._stick_delta(anc, rest_a, table, a, b)
                        evals += 1
                        if (a_tabu or tabu_r[b] > it) and cost + d >= best_cost:
                            continue
                        if best_d is not None and d > best_d:
                            continue
                        if cross and not (
                            self._cross_ok(r, a, b) if special[ta] else self._cross_ok(r, b, a)
                        ):
                            continue
                        if best_d is None or d < best_d:
                            best_d = d
                            cands = [(r, a, b)]
                        else:
                            cands.append((r, a, b))
            if best_d is None:
                evals += _MOVE_COST
                continue
            r, a, b = cands[rng.randrange(len(cands))] if len(cands) > 1 else cands[0]
            self.swap(r, a, b)
            evals += _MOVE_COST
            cost += best_d
            tenure = base_tenure + rng.randrange(base_tenure + 1)
            tabu[r][a] = it + tenure
            tabu[r][b] = it + tenure
            if cost < best_cost:
                best_cost = cost
                best = self.snapshot()
                last_improvement = it
                best_evals = evals
                if cost <= target:
                    break
            elif it - last_improvement > stall:
                # restart from the best schedule with a few random swaps
                self._restore(best)
                cost = best_cost
                for _ in range(1 + len(self.rounds)):
                    r = rng.randrange(len(self.rounds))
                    a, b = rng.sample(range(n), 2)
                    wa, wb = self.where[r][a], self.where[r][b]
                    if wa < 0 or wb < 0 or wa == wb:
                        continue
                    sp = self.special[r]
                    if sp[wa] != sp[wb]:
                        continue
                    cost += self.delta(r, a, b)
                    self.swap(r, a, b)
                last_improvement = it
        self._restore(best)
        return best_cost

    def _restore(self, rounds: list[list[list[int]]]) -> None:
        ctx = self.ctx
        M = ctx.M
        for rnd in self.rounds:
            for table in rnd:
                for i, a in enumerate(table):
                    for b in table[i + 1 :]:
                        M[a][b] -= 1
                        M[b][a] -= 1
        for r, rnd in enumerate(rounds):
            self.rounds[r][:] = [list(t) for t in rnd]
            w = self.where[r]
            for ti, table in enumerate(self.rounds[r]):
                for i, a in enumerate(table):
                    w[a] = ti
                    for b in table[i + 1 :]:
                        M[a][b] += 1
                        M[b][a] += 1
        if self.roles_free:
            self._recompute_levels(0)
        for r in range(len(self.rounds)):
            for p in range(self.n):
                self._update(r, p)


_UP = [_pair_cost(m + 1) - _pair_cost(m) for m in range(64)]
_DOWN = [0] + [_pair_cost(m - 1) - _pair_cost(m) for m in range(1, 64)]


# ---------------------------------------------------------------------------------------------------
# Seat order


_PERMS = {k: list(itertools.permutations(range(k))) for k in range(1, 6)}


def _order_seats(ctx: _Context, rnd: list[list[int]], rng: random.Random) -> list[list[int]]:
    """Put each table's players on the seats they had least (seat 0, who plays first, weighted most)."""
    out = []
    for table in rnd:
        k = len(table)
        players = list(table)
        rng.shuffle(players)
        width = len(ctx.pos[0])
        for p in players:
            row = ctx.pos[p]
            if len(row) < k:
                row.extend([0] * (k - len(row)))
        if k in _PERMS:
            best = None
            best_cost = None
            for perm in _PERMS[k]:
                c = 0
                for seat, i in enumerate(perm):
                    v = ctx.pos[players[i]][seat]
                    c += 3 * v if seat == 0 else v
                if best_cost is None or c < best_cost:
                    best_cost = c
                    best = perm
            seated = [players[i] for i in best]
        else:
            seated = []
            left = players
            for seat in range(k):
                p = min(left, key=lambda q, s=seat: ctx.pos[q][s])
                left = [q for q in left if q != p]
                seated.append(p)
        for seat, p in enumerate(seated):
            if seat < max(width, k):
                ctx.pos[p][seat] += 1
        out.append(seated)
    return out


# ---------------------------------------------------------------------------------------------------
# Designs


def _design_candidates(n: int, sizes: Sequence[int]):
    """Shipped designs whose point set fits n players with these table sizes (exactly or minus one)."""
    srt = sorted(sizes, reverse=True)
    for name, rounds, prefixes_ok in DESIGNS:
        npts = sum(len(t) for t in rounds[0])
        k = len(rounds[0][0])
        if any(len(t) != k for rnd in rounds for t in rnd):
            continue
        if npts == n and srt == [k] * (npts // k):
            yield name, rounds, prefixes_ok
        elif (
            npts == n + 1
            and srt == [k] * (npts // k - 1) + [k - 1]
            and _perfect_prefix(rounds) == len(rounds)
        ):
            yield name, rounds, True  # only perfect designs, whose prefixes are perfect too


def _perfect_prefix(rounds) -> int:
    seen = set()
    for r, rnd in enumerate(rounds):
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = (min(a, b), max(a, b))
                    if key in seen:
                        return r
                    seen.add(key)
    return len(rounds)


def _match_prefix(
    history: list[list[list[int]]], n: int, design, rng: random.Random, node_limit: int = 20000
):
    """A map player index -> design point under which every history round equals the design round.

    Returns None when there is none (or the search gives up).  Candidate points are tried in a random
    order, so the relabelling is random but reproducible from the seed.
    """
    h = len(history)
    npts = sum(len(t) for t in design[0])
    # table of each point in each design round
    dtab = []
    for rnd in design[:h]:
        w = [0] * npts
        for ti, t in enumerate(rnd):
            for p in t:
                w[p] = ti
        dtab.append(w)
    htab = []
    for rnd in history:
        w = [-1] * n
        for ti, t in enumerate(rnd):
            for p in t:
                w[p] = ti
        if min(w, default=0) < 0:
            return None
        htab.append(w)
    order = [p for table in history[0] for p in table] if history else list(range(n))
    points = list(range(npts))
    rng.shuffle(points)
    assign = [-1] * n
    used = [False] * npts
    nodes = 0

    def ok(p: int, x: int, upto: int) -> bool:
        for q in order[:upto]:
            y = assign[q]
            for r in range(h):
                if (htab[r][p] == htab[r][q]) != (dtab[r][x] == dtab[r][y]):
                    return False
        return True

    def rec(i: int) -> bool:
        nonlocal nodes
        if i == n:
            return True
        p = order[i]
        for x in points:
            if used[x]:
                continue
            nodes += 1
            if nodes > node_limit:
                return False
            if ok(p, x, i):
                assign[p] = x
                used[x] = True
                if rec(i + 1):
                    return True
                used[x] = False
                assign[p] = -1
        return False

    if not rec(0):
        return None
    return assign


def _design_rounds(
    ctx: _Context, history: list[list[list[int]]], want: int, exact_total: int | None, rng: random.Random
) -> list[list[list[int]]] | None:
    """Continue a shipped design after ``history`` (indices); up to ``want`` rounds; None if none fits.

    ``exact_total``: the total number of rounds planned (None when seating round by round).  Designs with
    repeats are only used when the plan has at least as many rounds as the design (else only their
    repeat-free prefix).
    """
    if not history:
        return None
    h = len(history)
    for _name, design, prefixes_ok in _design_candidates(ctx.n, ctx.sizes):
        usable = len(design)
        if exact_total is not None and exact_total < len(design) and not prefixes_ok:
            usable = _perfect_prefix(design)
        if usable <= h:
            continue
        assign = _match_prefix(history, ctx.n, design, rng)
        if assign is None:
            continue
        inverse = {x: p for p, x in enumerate(assign)}
        out = []
        for rnd in design[h : min(usable, h + want)]:
            tables = [[inverse[x] for x in t if x in inverse] for t in rnd]
            out.append(_fit_sizes(tables, ctx.sizes))
        return out
    return None


def _fit_sizes(tables: list[list[int]], sizes: Sequence[int]) -> list[list[int]]:
    """Order tables so that table i has sizes[i] players (the tables must have the right sizes)."""
    pool: dict[int, list[list[int]]] = {}
    for t in tables:
        pool.setdefault(len(t), []).append(t)
    return [pool[s].pop(0) for s in sizes]


# ---------------------------------------------------------------------------------------------------
# Public entry points


def _seat_one(ctx: _Context, rng: random.Random, separate_clubs: bool, budget: int) -> list[list[int]]:
    levels0 = ctx.levels()
    special = ctx.roles(rng)
    rnd = _random_round(ctx.sizes, ctx.special_sizes, special, rng)
    ctx.add_round(rnd, count_odd=False)
    search = _Search(ctx, [rnd], levels0, [separate_clubs], rng)
    search.run(budget)
    return search.rounds[0]


def seat_round(
    players: Sequence[SeatingPlayer],
    history: Sequence[Round],
    sizes: Sequence[int],
    *,
    seed: int,
    separate_clubs: bool | None = None,
    preferred: int | None = None,
    n_rounds: int | None = None,
) -> Round:
    """The next round: tables in the order of ``sizes``, each a list of player ids in seat order.

    ``history`` holds all earlier rounds (players no longer active are ignored).  ``separate_clubs``
    defaults to True for round 1.  ``preferred`` (the preferred table size) tells which tables are the
    odd ones; by default it is the most common size in ``sizes``.
    """
    ctx = _Context(players, history, sizes, preferred)
    rng = random.Random(seed)
    if separate_clubs is None:
        separate_clubs = not history
    rnd = None
    if not separate_clubs:
        cont = _design_rounds(ctx, ctx.history, 1, None, rng)
        if cont:
            rnd = cont[0]
    ahead = _LOOKAHEAD if n_rounds is None else max(0, n_rounds - len(ctx.history) - 1)
    if rnd is None and (not ctx.history or ahead == 0):
        rnd = _seat_one(ctx, rng, separate_clubs, _ROUND_BUDGET)
    if rnd is None:
        # plan this round together with the next ones (not returned), so that it does not leave them
        # without good seatings
        levels0 = ctx.levels()
        rounds = []
        clubs = [separate_clubs] + [False] * ahead
        for i in range(1 + ahead):
            r = _seat_one(ctx, rng, clubs[i], _GREEDY_BUDGET)
            _count_odd(ctx, r)
            rounds.append(r)
        search = _Search(ctx, rounds, levels0, clubs, rng)
        search.run(_ROUND_BUDGET)
        rnd = search.rounds[0]
    return ctx.to_ids(_order_seats(ctx, rnd, rng))


def plan_schedule(
    players: Sequence[SeatingPlayer],
    n_rounds: int,
    sizes: Sequence[int],
    *,
    seed: int,
    history: Sequence[Round] = (),
    previous_plan: Sequence[Round] | None = None,
    preferred: int | None = None,
) -> list[Round]:
    """Plan rounds ``len(history)+1 .. n_rounds`` for the active players.

    ``previous_plan``: the earlier plan for those rounds (a whole plan of ``n_rounds`` rounds is accepted
    too).  When given (players withdrew or arrived) it is the warm start: withdrawn players are removed,
    new players fill the holes, and the search only repairs what became worse (pairs of the old plan
    that stay together earn a small bonus), so most of the plan is kept.  The first round of a plan
    keeps players of the same club apart where possible.  ``preferred``: as for :func:`seat_round`.
    """
    ctx = _Context(players, history, sizes, preferred)
    rng = random.Random(seed)
    h = len(ctx.history)
    m = n_rounds - h
    if m <= 0:
        return []
    if previous_plan is not None and h and len(previous_plan) == n_rounds:
        previous_plan = previous_plan[h:]  # the whole earlier plan was passed: keep the unplayed part
    fixed: list[list[list[int]]] = []  # planned rounds not to be searched (design rounds)
    anchors = None
    club_first = h == 0
    if previous_plan is not None:
        levels0 = ctx.levels()
        free, anchors = _warm_start(ctx, previous_plan, m, rng)
        club_rounds = [club_first and i == 0 for i in range(m)]
    else:
        known = list(ctx.history)
        has_design = any(True for _ in _design_candidates(ctx.n, ctx.sizes))
        if h == 0 and has_design:
            # any first round is isomorphic to the design's first round: seat it for the clubs, then
            # continue the design from it
            first = _seat_one(ctx, rng, True, _ROUND_BUDGET)
            _count_odd(ctx, first)
            fixed.append(first)
            known.append(first)
        cont = _design_rounds(ctx, known, n_rounds - len(known), n_rounds, rng) if has_design else None
        for rnd in cont or []:
            ctx.add_round(rnd)
            fixed.append(rnd)
        club_rounds = [club_first and not fixed and i == 0 for i in range(m - len(fixed))]
        target = _cost_bound(ctx.n, ctx.sizes, n_rounds) if h == 0 and not fixed else 0
        levels0 = ctx.levels()
        base = ctx.clone()
        best_cost = None
        free = []
        for _ in range(_STARTS):
            # start from a round-by-round seating; the whole-schedule search then improves it.  Tight
            # instances (where the target is not reached) get a few independent starts.
            work = base.clone()
            rounds = []
            for i in range(m - len(fixed)):
                rnd = _seat_one(work, rng, club_rounds[i], _GREEDY_BUDGET)
                _count_odd(work, rnd)
                rounds.append(rnd)
            if not rounds:
                break
            search = _Search(work, rounds, levels0, club_rounds, rng)
            cost = search.run(_PLAN_BUDGET // _STARTS, target)
            if best_cost is None or cost < best_cost:
                best_cost, free = cost, search.rounds
            if cost <= target or not search.conf_items:
                break
    if previous_plan is not None:
        search = _Search(ctx, free, levels0, club_rounds, rng, anchors)
        search.run(_PLAN_BUDGET, -(10**18))  # only stop when no conflict is left
        free = search.rounds
    out = []
    for rnd in [*fixed, *free]:
        out.append(ctx.to_ids(_order_seats(ctx, rnd, rng)))
    return out


def _count_odd(ctx: _Context, rnd: list[list[int]]) -> None:
    for table in rnd:
        if len(table) in ctx.special_sizes:
            for p in table:
                ctx.odd[p] += 1


def _cost_bound(n: int, sizes: Sequence[int], n_rounds: int) -> int:
    slots = n_rounds * sum(s * (s - 1) // 2 for s in sizes)
    pairs = n * (n - 1) // 2
    if pairs == 0:
        return 0
    q, r = divmod(slots, pairs)
    return r * _pair_cost(q + 1) + (pairs - r) * _pair_cost(q)


def _warm_start(ctx: _Context, previous_plan: Sequence[Round], m: int, rng: random.Random):
    """Rebuild the previous plan for the current players and sizes, keeping as much as possible."""
    rounds = []
    anchors = []
    for i in range(m):
        old = ctx.to_idx(previous_plan[i]) if i < len(previous_plan) else []
        anc = [-1] * ctx.n
        for ti, t in enumerate(old):
            for p in t:
                anc[p] = ti
        anchors.append(anc)
        prefer = [False] * ctx.n
        for t in old:
            if len(t) in ctx.special_sizes:
                for p in t:
                    prefer[p] = True
        rnd = _repair_round(old, ctx.sizes, ctx.special_sizes, ctx.roles(rng, prefer), ctx.M, rng)
        ctx.add_round(rnd)
        rounds.append(rnd)
    return rounds, anchors


def _repair_round(old: list[list[int]], sizes, special_sizes, special: list[bool], M, rng: random.Random):
    n = len(special)
    old = [list(t) for t in old if t]
    slots = list(range(len(sizes)))
    # give every slot the old table with most players of the right role (big slots first)
    slots.sort(key=lambda s: -sizes[s])
    taken = [False] * len(old)
    tables: list[list[int]] = [[] for _ in sizes]
    for s in slots:
        want = sizes[s] in special_sizes
        best = -1
        best_score = -1
        for j, t in enumerate(old):
            if taken[j]:
                continue
            score = sum(1 for p in t if special[p] == want)
            if score > best_score:
                best, best_score = j, score
        if best >= 0:
            taken[best] = True
            keep = [p for p in old[best] if special[p] == want][: sizes[s]]
            tables[s] = keep
    seated = {p for t in tables for p in t}
    pool_sp = [p for p in range(n) if p not in seated and special[p]]
    pool_no = [p for p in range(n) if p not in seated and not special[p]]
    rng.shuffle(pool_sp)
    rng.shuffle(pool_no)
    # fill the holes greedily: each hole takes the waiting player who met the table least
    for s, size in enumerate(sizes):
        src = pool_sp if size in special_sizes else pool_no
        while len(tables[s]) < size:
            best = min(range(len(src)), key=lambda i, t=tables[s], src=src: sum(M[src[i]][x] for x in t))
            tables[s].append(src.pop(best))
    return tables
