"""Conflict-directed tabu search over swaps of two players between tables of one round (and, where
the odd-table rule fixes the roles of every cycle of rounds, role exchanges of two players over two
rounds).

After Dotu & Van Hentenryck's social golfer search, with an incremental cost (docs/rules.md §4).
The odd-table rule is kept as a hard constraint while searching.
"""

from __future__ import annotations

import random
from collections import Counter
from operator import add, sub

from engine.seating.costs import _CLUB, _DOWN, _STICK, _TEAM, _UP, _fill, _pair_cost
from engine.seating.state import _Context

# a move (with its bookkeeping) costs about as much time as this many evaluations of a candidate, so the
# budget, counted in evaluations, bounds the time
_MOVE_COST = 200
_MAX_TABLES = 40  # tables looked at per move in big rounds
_SAMPLE = 32  # conflicting players looked at per move (fewer in big rounds)
_STALL = 20  # iterations per player without improvement before a restart from the best with a kick
# tabu tenure in iterations, plus a random part as large, the same in every field: the sampled
# conflicts already vary the moves, and a tenure growing with the field keeps good moves tabu in medium
# fields (docs/performance.md, "Seating constants")
_TENURE = 2
_NONE = 1 << 62  # the best cost change before any candidate
_CLUB_KIND, _TEAM_KIND, _ANCHOR_KIND = range(3)  # the groupings that cost (see _Search._build_groups)
_UP2 = [2 * u for u in _UP]  # a swap counts the meeting of the two swapped players twice
_KICK = 1  # random swaps of a kick, plus one per round


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
        stick: list[int] | None = None,
        fixed_roles: list[bool] | None = None,
    ):
        """``levels0``: ``ctx.levels()`` before the first free round (the free rounds are the last ones).

        ``anchors[r][p]``: the table of p in the previous plan of free round r (-1: none); pairs kept
        together earn a small bonus, so a re-plan changes what it must and little else."""
        self.anchors = anchors
        self.stick = stick if stick is not None else [_STICK] * len(rounds)
        self.fixed_roles = fixed_roles if fixed_roles is not None else [False] * len(rounds)
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
        # when the odd seats divide the field, the rule makes every cycle of n / k rounds a partition
        # of the field into the rounds' odd seats: a single swap can never move a role, an exchange over
        # two rounds can
        self.exchanges = self.roles_free and n % k == 0
        self.levels0 = levels0
        if self.roles_free:
            self._recompute_levels(0)
        self.level = _top_level(ctx, rounds)
        self._count_low()
        self.join: list[list[list[int]]] | None = None  # built by _build_gains when first needed
        self.leave: list[list[int]] = []
        self._build_groups()
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

    def _exchange_ok(self, a: int, b: int, flips: tuple[int, ...]) -> bool:
        """May ``a`` and ``b``, who hold opposite roles (odd / normal table) in each round of ``flips``,
        exchange their roles in those rounds?  Their levels in the later rounds change with it."""
        n = self.n
        da = db = 0  # change of a's and b's number of odd tables so far
        for t in range(min(flips), len(self.rounds)):
            was_a, was_b = self.isodd[t][a], self.isodd[t][b]
            odd_a, odd_b = (was_b, was_a) if t in flips else (was_a, was_b)
            mx = None
            for v, p in self.top_odd[t]:
                if p != a and p != b:
                    mx = v
                    break
            mn = None
            for v, p in self.low_norm[t]:
                if p != a and p != b:
                    mn = v
                    break
            for val, odd in ((self.lv[t][a] + n * da, odd_a), (self.lv[t][b] + n * db, odd_b)):
                if odd:
                    mx = val if mx is None or val > mx else mx
                else:
                    mn = val if mn is None or val < mn else mn
            if mx is not None and mn is not None and mx > mn:
                return False
            da += odd_a - was_a
            db += odd_b - was_b
        return True

    def _partner_round(self, r: int, a: int, b: int) -> tuple[int, int]:
        """(round, cost change) of the best other free round where ``a`` and ``b`` hold the roles they
        would take in round ``r`` by exchanging tables there, such that exchanging them back in it keeps
        the odd-table rule: a role exchange over two rounds, where one round alone would break it
        (every player's number of odd tables stays the same).  (-1, 0) when there is none."""
        best, best_d = -1, 0
        odd_a = self.isodd[r][a]
        for t in range(len(self.rounds)):
            if t == r or self.fixed_roles[t] or self.isodd[t][a] == odd_a or self.isodd[t][b] != odd_a:
                continue
            d = self.delta(t, a, b)
            if (best < 0 or d < best_d) and self._exchange_ok(a, b, (r, t) if r < t else (t, r)):
                best, best_d = t, d
        return best, best_d

    # -- cost changes ------------------------------------------------------------------------------
    # join[r][t][p]: what p's meetings with the players at table t of round r would cost more if p sat
    # there (p's own entry adds nothing: M[p][p] = 0); leave[r][p]: what leaving its table there saves.
    # A swap of a and b in round r then costs
    #     leave[r][a] + leave[r][b] + join[r][tb][a] + join[r][ta][b] - 2 * up[M[a][b]]
    # (a and b are counted in each other's new table), a few lookups instead of a sum over both tables:
    # about 2.5 times as many candidates a second.  Kept up to date by every swap.

    def _build_gains(self) -> None:
        """``join`` and ``leave`` from the meetings: when the search first evaluates a swap (a
        search that ends at once, as in big fields, never needs them) and after a restore."""
        up, down = _UP, _DOWN
        M = self.ctx.M
        get = up.__getitem__
        self.join, self.leave = [], []
        for r, rnd in enumerate(self.rounds):
            rows = []
            for table in rnd:
                row = [0] * self.n
                for y in table:
                    row = list(map(add, row, map(get, M[y])))
                rows.append(row)
            self.join.append(rows)
            w = self.where[r]
            self.leave.append(
                [sum(down[M[p][x]] for x in rnd[w[p]]) if w[p] >= 0 else 0 for p in range(self.n)]
            )

    def _meet(self, r: int, changes: list[tuple[int, int, int]]) -> None:
        """Add ``change`` to the meetings of ``p`` and ``q`` for every (p, q, change), and to the cost
        changes that depend on them (``leave`` of round ``r``, whose tables changed, is left out)."""
        M = self.ctx.M
        up, down = _UP, _DOWN
        steps = []
        for p, q, change in changes:
            v = M[p][q]
            M[p][q] = M[q][p] = v + change
            steps.append((p, q, up[v + change] - up[v], down[v + change] - down[v]))
        if self.join is None:
            return
        for r2, w in enumerate(self.where):
            rows = self.join[r2]
            leave = self.leave[r2]
            for p, q, du, dd in steps:
                wp, wq = w[p], w[q]
                if wp < 0 or wq < 0:
                    continue
                rows[wq][p] += du
                rows[wp][q] += du
                if wp == wq and r2 != r:
                    leave[p] += dd
                    leave[q] += dd

    def _build_groups(self) -> None:
        """``groups[r]``: (kind, counts) for every grouping that costs in round r: clubs in a club-
        separated round, teams in every round, the tables of the previous plan when re-planning."""
        ctx = self.ctx
        self.groups = []
        for r, rnd in enumerate(self.rounds):
            kinds = []
            if self.club_rounds[r]:
                kinds.append((_CLUB_KIND, _TableGroups(ctx.clubs, rnd)))
            if ctx.has_teams:
                kinds.append((_TEAM_KIND, _TableGroups(ctx.teams, rnd)))
            if self.anchors is not None:
                kinds.append((_ANCHOR_KIND, _TableGroups(self.anchors[r], rnd)))
            self.groups.append(kinds)

    def _group_weights(self, r: int) -> list[tuple[int, _TableGroups]]:
        """(cost of one more same-group pair, counts) for the groupings of round ``r`` (the anchors'
        weight is read here, as a re-plan's stages change ``stick`` between runs)."""
        weight = (_CLUB, _TEAM, -self.stick[r])  # indexed by kind
        return [(weight[kind], counts) for kind, counts in self.groups[r]]

    # -- conflicts ----------------------------------------------------------------------------------
    # A player conflicts in a round when a table-mate there has met them too often: twice, unless the
    # field is so dense that the lower bound itself makes pairs meet twice or more.  When the meetings
    # spread as evenly as possible take the busiest pairs to ``level`` meetings, a pair at ``level``
    # conflicts only while some pair is two meetings short of it, otherwise only a pair beyond it.
    # With "twice" nearly everybody conflicts in such a field and the search wanders among seatings
    # that all cost the same: 14 players at 2x4+2x3 over 9 rounds (every pair must meet, 71 of them
    # twice) kept a pair meeting a third time in 37 of 60 plans, now in 22.

    def _count_low(self) -> None:
        """``low``: the pairs at ``level - 2`` meetings or fewer (counted when ``level`` >= 2)."""
        self.low = 0
        if self.level >= 2:
            lo = self.level - 2
            M = self.ctx.M
            self.low = sum(1 for a in range(self.n) for b in range(a + 1, self.n) if M[a][b] <= lo)
        self.threshold = self._threshold()

    def _threshold(self) -> int:
        """The meetings that make a pair at one table a conflict."""
        if self.level < 2:
            return 2
        return self.level if self.low else self.level + 1

    def _is_conflict(self, r: int, p: int) -> bool:
        ti = self.where[r][p]
        if ti < 0:
            return False
        row = self.ctx.M[p]
        table = self.rounds[r][ti]
        threshold = self.threshold
        for q in table:
            if q != p and row[q] >= threshold:
                return True
        for kind, counts in self.groups[r]:
            # a club- or team-mate at the table (the previous plan's tables are no conflict)
            g = counts.labels[p]
            if kind != _ANCHOR_KIND and g >= 0 and counts.count[ti][g] > 1:
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
                    total -= self.stick[r] * _pairs_of_a_group(anc, table)
        n = self.n
        for a in range(n):
            row = ctx.M[a]
            for b in range(a + 1, n):
                if row[b] > 1:
                    total += _pair_cost(row[b])
        for r, rnd in enumerate(self.rounds):
            for table in rnd:
                if self.club_rounds[r]:
                    total += _CLUB * _pairs_of_a_group(ctx.clubs, table)
                if ctx.has_teams:
                    total += _TEAM * _pairs_of_a_group(ctx.teams, table)
        return total

    def swap(self, r: int, a: int, b: int) -> None:
        M = self.ctx.M
        w = self.where[r]
        ta, tb = w[a], w[b]
        A = self.rounds[r][ta]
        B = self.rounds[r][tb]
        Ma, Mb = M[a], M[b]
        if self.join is not None:
            # the tables' join costs with a and b exchanged, at today's meetings
            get = _UP.__getitem__
            diff = list(map(sub, map(get, Mb), map(get, Ma)))
            rows = self.join[r]
            rows[ta] = list(map(add, rows[ta], diff))
            rows[tb] = list(map(sub, rows[tb], diff))
        A[A.index(a)] = b
        B[B.index(b)] = a
        w[a], w[b] = tb, ta
        for _kind, counts in self.groups[r]:
            counts.swap(a, b, ta, tb)
        changes = []
        for x in A:
            if x != b:
                changes += [(a, x, -1), (b, x, 1)]
        for y in B:
            if y != a:
                changes += [(a, y, 1), (b, y, -1)]
        self._meet(r, changes)
        if self.join is not None:
            leave = self.leave[r]
            down = _DOWN
            for table in (A, B):
                for p in table:
                    Mp = M[p]
                    leave[p] = sum(down[Mp[x]] for x in table)
        everyone = False
        if self.level >= 2:
            lo = self.level - 2
            change = 0
            for x in A:
                if x != b:
                    change += (Ma[x] == lo) - (Mb[x] == lo + 1)
            for y in B:
                if y != a:
                    change += (Mb[y] == lo) - (Ma[y] == lo + 1)
            if change:
                self.low += change
                threshold = self._threshold()
                everyone = threshold != self.threshold
                self.threshold = threshold
        if self.special[r][ta] != self.special[r][tb]:
            self._recompute_levels(r)
        if everyone:
            for r2 in range(len(self.rounds)):
                for p in range(self.n):
                    self._update(r2, p)
            return
        for q in A:
            self._update(r, q)
        for q in B:
            self._update(r, q)
        # in the other rounds only the pairs of a or b with the players of A and B met more or less often:
        # a table-mate of a or b there outside A and B keeps its conflict
        touched = set(A).union(B)
        for r2 in range(len(self.rounds)):
            if r2 == r:
                continue
            w2 = self.where[r2]
            for p in (a, b):
                if w2[p] >= 0:
                    for q in self.rounds[r2][w2[p]]:
                        if q in touched:
                            self._update(r2, q)

    def delta(self, r: int, a: int, b: int) -> int:
        if self.join is None:
            self._build_gains()
        w = self.where[r]
        ta, tb = w[a], w[b]
        rows, leave = self.join[r], self.leave[r]
        d = leave[a] + leave[b] + rows[tb][a] + rows[ta][b] - 2 * _UP[self.ctx.M[a][b]]
        for weight, counts in self._group_weights(r):
            d += weight * counts.delta(a, b, ta, tb)
        return d

    def snapshot(self) -> list[list[list[int]]]:
        return [[list(t) for t in rnd] for rnd in self.rounds]

    def run(self, budget: int, target: int = 0, sample: int = 0, patience: int | None = None) -> int:
        """Search until no conflict is left, the cost is ``target`` or ``budget`` evaluations are used."""
        rng = self.rng
        n = self.n
        cost = self.cost()
        best_cost = cost
        best = self.snapshot()
        self.evals = 0
        if not self.conf_items or cost <= target or not any(len(rnd) > 1 for rnd in self.rounds):
            return cost
        tabu = [[0] * n for _ in self.rounds]
        it = 0
        evals = 0
        last_improvement = 0
        stall = max(200, _STALL * n)
        if self.join is None:
            self._build_gains()
        up2 = _UP2
        group_weights = [self._group_weights(r) if kinds else None for r, kinds in enumerate(self.groups)]
        roles_free = self.roles_free
        if patience is None:
            patience = max(75_000, budget // 4)
        sample = max(1, min(sample or _SAMPLE, 1000 // n))
        best_evals = 0
        while evals < budget and evals - best_evals < patience:
            it += 1
            if not self.conf_items:
                break
            items = self.conf_items
            keys = items if len(items) <= sample else rng.sample(items, sample)
            best_d = _NONE
            cands: list[tuple[int, int, int, int]] = []
            M = self.ctx.M
            join, leave = self.join, self.leave  # (a restore builds them anew)
            for key in keys:
                r, a = divmod(key, n)
                ta = self.where[r][a]
                special = self.special[r]
                tabu_r = tabu[r]
                a_tabu = tabu_r[a] > it
                Ma = M[a]
                rows = join[r]
                leave_r = leave[r]
                join_a = rows[ta]  # (b's join costs at a's table)
                leave_a = leave_r[a]
                weights = group_weights[r]
                roles_r = roles_free and not self.fixed_roles[r]
                tables = self.rounds[r]
                if len(tables) > _MAX_TABLES:
                    # big rounds: look at a random part of the tables (plenty of good places there)
                    picks = rng.sample(range(len(tables)), _MAX_TABLES)
                else:
                    picks = range(len(tables))
                for tb in picks:
                    if tb == ta:
                        continue
                    cross = special[ta] != special[tb]
                    if cross and not roles_r:
                        continue
                    table = tables[tb]
                    base = leave_a + rows[tb][a]
                    evals += len(table)
                    for b in table:
                        d = base + leave_r[b] + join_a[b] - up2[Ma[b]]
                        if weights is not None:
                            for weight, counts in weights:
                                d += weight * counts.delta(a, b, ta, tb)
                        if d > best_d:
                            continue
                        if (a_tabu or tabu_r[b] > it) and cost + d >= best_cost:
                            continue
                        r2 = -1
                        if cross and not self._exchange_ok(a, b, (r,)):
                            if not self.exchanges or d >= 0:
                                continue  # an exchange over two rounds only where the first round gains
                            r2, d2 = self._partner_round(r, a, b)
                            evals += len(self.rounds)
                            if r2 < 0:
                                continue
                            d += d2  # (the meetings the first exchange adds are not counted: below)
                            if d > best_d:
                                continue
                        if d < best_d:
                            best_d = d
                            cands = [(r, a, b, r2)]
                        else:
                            cands.append((r, a, b, r2))
            if not cands:
                evals += _MOVE_COST
                continue
            r, a, b, r2 = cands[rng.randrange(len(cands))] if len(cands) > 1 else cands[0]
            tenure = _TENURE + rng.randrange(_TENURE + 1)
            if r2 >= 0:
                # a role exchange over two rounds: the exact change, the second swap's after the first
                d = self.delta(r, a, b)
                self.swap(r, a, b)
                d += self.delta(r2, a, b)
                self.swap(r2, a, b)
                evals += _MOVE_COST
                tabu[r2][a] = it + tenure
                tabu[r2][b] = it + tenure
            else:
                d = best_d
                self.swap(r, a, b)
            evals += _MOVE_COST
            cost += d
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
                for _ in range(_KICK + len(self.rounds)):
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
        self.evals = evals
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
        self._count_low()
        if self.join is not None:
            self._build_gains()
        for r, kinds in enumerate(self.groups):
            for _kind, counts in kinds:
                counts.recount(self.rounds[r])
        for r in range(len(self.rounds)):
            for p in range(self.n):
                self._update(r, p)


def _top_level(ctx: _Context, rounds: list[list[list[int]]]) -> int:
    """The most meetings of a pair in the lower bound: the meetings of ``rounds`` (already in
    ``ctx.M``) spread over the pairs where they cost least.  At most 1 where nobody can have met
    everybody, which is told without looking at the pairs: ``ctx.played`` counts every round in
    ``ctx.M`` (the history, and rounds added before the search, such as a design's or greedy ones)."""
    n = ctx.n
    widest = max([*ctx.sizes, *(len(t) for rnd in ctx.history for t in rnd)], default=0)
    if max(ctx.played, default=0) * (widest - 1) < n - 1:
        return 1
    M = [list(row) for row in ctx.M]
    left = 0
    for rnd in rounds:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    M[a][b] -= 1
                    M[b][a] -= 1
                    left += 1
    counts = Counter(M[a][b] for a in range(n) for b in range(a + 1, n))
    return _fill(counts, left)[1]


def _pairs_of_a_group(groups: list[int], table: list[int]) -> int:
    """Pairs at ``table`` of one group (club, team, table of the old plan); -1 is no group."""
    counts = Counter(groups[p] for p in table if groups[p] >= 0)
    return sum(v * (v - 1) // 2 for v in counts.values())


class _TableGroups:
    """How many players of each group sit at each table of one round (groups: clubs, teams or the
    tables of the previous plan, -1 for none), so that what a swap changes in same-group pairs is a few
    lookups instead of a pass over both tables."""

    def __init__(self, labels: list[int], tables: list[list[int]]):
        self.labels = labels
        self.recount(tables)

    def recount(self, tables: list[list[int]]) -> None:
        """Count from scratch (in place: a running search holds this object)."""
        labels = self.labels
        self.count = [[0] * (max(labels, default=-1) + 1) for _ in tables]
        for t, table in enumerate(tables):
            for p in table:
                if labels[p] >= 0:
                    self.count[t][labels[p]] += 1

    def delta(self, a: int, b: int, ta: int, tb: int) -> int:
        """How many more pairs of one group sit together when ``a`` (at table ``ta``) and ``b`` (at
        ``tb``) swap tables."""
        ga, gb = self.labels[a], self.labels[b]
        if ga == gb:
            return 0
        A, B = self.count[ta], self.count[tb]
        change = 0
        if gb >= 0:  # b joins the members of its group at ta and leaves those at tb (itself not)
            change += A[gb] - B[gb] + 1
        if ga >= 0:
            change += B[ga] - A[ga] + 1
        return change

    def swap(self, a: int, b: int, ta: int, tb: int) -> None:
        ga, gb = self.labels[a], self.labels[b]
        if ga >= 0:
            self.count[ta][ga] -= 1
            self.count[tb][ga] += 1
        if gb >= 0:
            self.count[tb][gb] -= 1
            self.count[ta][gb] += 1
