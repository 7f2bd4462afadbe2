"""Exact search for plans that counting leaves no freedom (docs/seating.md, "Tight plans").

Some formats are so dense that counting alone fixes every meeting of some players: 14 players over 10
rounds at tables of 4, 4, 3, 3 give each player four or five tables of 3, and whoever has four meets
2 x 4 + 3 x 6 = 26 = 2 x 13 players, so if no pair may meet three times he meets every other player
exactly twice.  The tabu search wanders there (every seating of a round costs about the same and the
few that fit are far apart), while constraint propagation thrives: a player with no slack must meet a
player in every remaining round where they share a kind of table, if that is just as often as they
still have to meet.

Two steps:

1. **Odd-table roles for the whole plan** (who sits at the odd tables in which round), following the
   rule of docs/rules.md §4.  The roles decide whether a plan exists at all, and most do not give
   one (of roles climbed to the most even overlaps of the rounds' odd seats, none did for 14 players
   over 10 rounds); what works are mirrored roles: the second half of the rounds repeats the first
   half's roles with the players renamed by an involution (pairs of players swapped, one or two
   kept), built so that the rule holds and climbed to a local minimum of how unevenly the rounds'
   odd seats overlap (about one such pattern in ten holds a plan there).
2. **Tables for fixed roles** by depth-first search: each round's odd and normal players are split
   into tables; the part with the fewest splits left goes first; after every choice each player's
   slack is checked (the meetings still possible within the cap, against the meetings his remaining
   rounds bring) and the pairs a player without slack must meet are forced.  Impossible roles are
   refuted in a few nodes, so the search races many role patterns, each with a small budget.

Everything is bounded by counts (role patterns, splits looked at), never by the clock, and
reproducible from the caller's ``random.Random``.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from math import comb, factorial

from engine.seating.costs import _fill

_PATTERNS = 150  # role patterns tried at most
_CLIMB = 7  # hill-climbing steps of a role pattern, per round and player
# The work is counted in splits looked at by the table search; a step of a role pattern's climb and a
# split built count as the splits looked at in the same time, so the budget bounds the time whatever
# the field.  How the steps and budgets were chosen: docs/performance.md, "Seating constants".
_WORK_PER_PATTERN = 500_000  # for one pattern before the next is tried
_WORK = 20_000_000  # for all patterns together
_STEP_WORK = 80
_SPLIT_WORK = 50
_MAX_SPLITS = 2_000  # the most ways to split one round's odd or normal players into tables


class _Budget(Exception):
    """The table search of one role pattern used up its budget."""


def tight_cap(n: int, sizes: Sequence[int], special_sizes: frozenset[int], m: int) -> int | None:
    """The most meetings a pair needs (counting alone) when ``m`` rounds from no history leave some
    player no slack at that cap, so the exact search has something to propagate; otherwise None.

    Also None where the exact search does not apply: an odd number of rounds where roles are to be
    chosen (they are mirrored), odd or normal tables of mixed sizes (a player's meetings per round
    follow from his role), or rounds with too many ways to split them into tables."""
    odd = [s for s in sizes if s in special_sizes]
    normal = [s for s in sizes if s not in special_sizes]
    k = sum(odd)
    mirrored = 0 < k < n
    if m < 2 or (mirrored and m % 2) or len(set(odd)) > 1 or len(set(normal)) > 1 or len(sizes) < 2:
        return None
    if _splits_count(k, odd) > _MAX_SPLITS or _splits_count(n - k, normal) > _MAX_SPLITS:
        return None
    _cost, cap = _fill({0: n * (n - 1) // 2}, m * sum(s * (s - 1) // 2 for s in sizes))
    per_odd = odd[0] - 1 if odd else 0
    per_normal = normal[0] - 1 if normal else 0
    fewest = k * m // n  # the rule: every player has this many odd tables or one more
    needs = [t * per_odd + (m - t) * per_normal for t in (fewest, -(-k * m // n))]
    return cap if min(cap * (n - 1) - need for need in needs) == 0 else None


def tight_plan(
    n: int, sizes: Sequence[int], special_sizes: frozenset[int], m: int, cap: int, rng: random.Random
) -> list[list[list[int]]] | None:
    """``m`` rounds for players ``0 .. n-1`` from no history in which no pair meets more than ``cap``
    times and the odd-table rule holds, tables in the order of ``sizes``; None when none was found
    within the budget."""
    odd_sizes = [s for s in sizes if s in special_sizes]
    normal_sizes = [s for s in sizes if s not in special_sizes]
    k = sum(odd_sizes)
    work_left = _WORK
    climb = _STEP_WORK * _CLIMB * (m // 2) * n if 0 < k < n else 0  # the work of a role pattern
    cache: dict = {}  # the splits of a round's players, by who they are
    for _ in range(_PATTERNS):
        pattern = _role_pattern(n, m, k, rng)
        if pattern is None:
            continue
        search = _TableSearch(n, pattern, odd_sizes, normal_sizes, cap, rng)
        found = search.run(min(_WORK_PER_PATTERN, work_left), cache)
        work_left -= search.work + climb
        if found is not None:
            return [_in_order(rnd, sizes) for rnd in found]
        if work_left <= 0:
            break
    return None


# -- role patterns ------------------------------------------------------------------------------------


def _involution(n: int) -> tuple[int, int, int]:
    """The renaming of the second half as bit masks over the players: (players swapped with the next
    one, players swapped with the one before, players kept).  Players 0 and 1, 2 and 3, ... are
    swapped; the last two (the last one for odd ``n``) are kept."""
    kept = 2 if n % 2 == 0 else 1
    swapped = n - kept
    up = sum(1 << p for p in range(0, swapped, 2))
    return up, up << 1, ((1 << n) - 1) & ~(up | up << 1)


def _renamed(seats: int, sigma: tuple[int, int, int]) -> int:
    up, down, kept = sigma
    return (seats & up) << 1 | (seats & down) >> 1 | seats & kept


def _rule_holds(n: int, pattern: Sequence[int]) -> bool:
    """Does nobody get an odd table again while another player has had fewer (docs/rules.md §4), for
    players who all play every round from no history?  While the rule holds, every player has had as
    many odd tables as any other or one fewer, so two bit masks (who has had fewer, who more) say it."""
    fewer, more = (1 << n) - 1, 0
    for seats in pattern:
        if seats & more:
            if fewer & ~seats:
                return False  # one with more odd tables gets another while one with fewer waits
            fewer, more = fewer | more & ~seats, more & seats
        elif fewer & ~seats:
            fewer, more = fewer & ~seats, more | seats
        else:
            fewer, more = (1 << n) - 1, 0  # everybody has had one more
    return True


def _overlap_cost(n: int, k: int) -> list[int]:
    """For each overlap ``a`` of two rounds' odd seats: the pairs of players who share a kind of
    table in both rounds (odd in both, normal in both, or odd in one and normal in the other)."""
    return [comb(a, 2) + 2 * comb(k - a, 2) + comb(n - 2 * k + a, 2) if n - 2 * k + a >= 0 else 0
            for a in range(k + 1)]  # fmt: skip


def _role_pattern(n: int, m: int, k: int, rng: random.Random) -> list[set[int]] | None:
    """Odd seats of ``m`` rounds, the second half the first half renamed by ``_involution``, keeping
    the rule: built so that it holds (``_mirrored_start``), then climbed to a local minimum of the
    pairs that share a kind of table in two rounds.  None where no mirrored start keeps the rule.
    (Where everybody or nobody sits at an odd table there is nothing to choose.)"""
    if k == 0 or k == n:
        return [set(range(k))] * m
    half = m // 2
    sigma = _involution(n)
    first = _mirrored_start(n, half, k, sigma, rng)
    if first is None:
        return None
    pattern = first + [_renamed(seats, sigma) for seats in first]
    cost_of = _overlap_cost(n, k)
    for _ in range(_CLIMB * half * n):
        r = rng.randrange(half)
        seats = pattern[r]
        trial = {}  # round of the first half -> its new odd seats
        if rng.random() < 0.5:
            # one player leaves the odd seats of round r, another takes his place
            out = rng.choice([p for p in range(n) if seats >> p & 1])
            into = rng.choice([p for p in range(n) if not seats >> p & 1])
            trial[r] = seats & ~(1 << out) | 1 << into
        else:
            # two players exchange their roles in two rounds (both keep their number of odd tables)
            r2 = rng.randrange(half)
            other = pattern[r2]
            xs = [p for p in range(n) if (seats & ~other) >> p & 1]
            ys = [p for p in range(n) if (other & ~seats) >> p & 1]
            if r2 == r or not xs or not ys:
                continue
            swap = 1 << rng.choice(xs) | 1 << rng.choice(ys)
            trial[r], trial[r2] = seats ^ swap, other ^ swap
        changed = dict(trial)
        for i, mask in trial.items():
            changed[i + half] = _renamed(mask, sigma)
        new = [changed.get(i, mask) for i, mask in enumerate(pattern)]
        d = 0  # the change of the pairs sharing a kind of table in two rounds
        for i in changed:
            for j in range(m):
                if j != i and (j not in changed or j > i):
                    d += cost_of[(new[i] & new[j]).bit_count()]
                    d -= cost_of[(pattern[i] & pattern[j]).bit_count()]
        if d <= 0 and _rule_holds(n, new):
            pattern = new
    return [{p for p in range(n) if seats >> p & 1} for seats in pattern]


def _mirrored_start(
    n: int, half: int, k: int, sigma: tuple[int, int, int], rng: random.Random
) -> list[int] | None:
    """Odd seats of the first half such that they and their renaming by ``sigma`` after them keep the
    rule; None where this way cannot build them (the players who end the first half with one more odd
    table, or those with one fewer, must be one of each of some swapped pairs).

    Why it holds: the first half keeps the rule when every round takes the players with the fewest
    odd tables so far.  In round j of the second half, player p has had u(p) odd tables in the first
    half and, so far in the second, as many as sigma(p) had before round j of the first: the second
    half keeps the rule when round j of the first half also takes the players q with the fewest odd
    tables so far plus w(q) = u(sigma(q)) - min(u).  The players who end the first half with one more
    odd table are chosen in advance and preferred among equals, then the players with w = 0: where
    they are one of each of some swapped pairs, all of them have w = 0; where those with one fewer are,
    all of those have w = 1; either way the one order serves both halves."""
    up = sigma[0]
    pairs = [p for p in range(n) if up >> p & 1]  # the first player of every swapped pair
    extra = k * half % n  # players who end the first half with one more odd table
    if extra <= len(pairs):
        ahead = {p + rng.randrange(2) for p in rng.sample(pairs, extra)}
    elif n - extra <= len(pairs):
        # one of each of some pairs ends with one fewer (their partners, and the kept, with one more)
        behind = {p + rng.randrange(2) for p in rng.sample(pairs, n - extra)}
        ahead = set(range(n)) - behind
    else:
        return None
    partner = [p ^ 1 if (up | up << 1) >> p & 1 else p for p in range(n)]
    w = [partner[p] in ahead for p in range(n)]
    odd = [0] * n
    first = []
    for _ in range(half):
        order = sorted(range(n), key=lambda p: (odd[p], p not in ahead, w[p], rng.random()))
        for p in order[:k]:
            odd[p] += 1
        first.append(sum(1 << p for p in order[:k]))
    return first if _rule_holds(n, first + [_renamed(seats, sigma) for seats in first]) else None


# -- tables for fixed roles ------------------------------------------------------------------------


def _splits_count(players: int, sizes: Sequence[int]) -> int:
    """Ways to split ``players`` into tables of ``sizes`` (all equal), tables unordered."""
    if not sizes:
        return 1
    s = sizes[0]
    count = factorial(players)
    count //= factorial(s) ** len(sizes) * factorial(len(sizes))
    return count


def _splits(players: list[int], sizes: Sequence[int]):
    """Every split of ``players`` into tables of ``sizes`` (all equal), each once: the first player
    left always opens the next table."""
    if not sizes:
        yield []
        return
    first, rest = players[0], players[1:]
    for mates in itertools.combinations(rest, sizes[0] - 1):
        left = [p for p in rest if p not in mates]
        for tail in _splits(left, sizes[1:]):
            yield [[first, *mates], *tail]


class _Part:
    """The odd or the normal players of one round, and (once loaded) every way to split them into
    tables: each as a bit mask of the pairs it seats together (pair a < b is bit a * n + b)."""

    def __init__(self, rnd: int, members: list[int], sizes: list[int], n: int):
        self.round = rnd
        self.members = members
        self.sizes = sizes
        self.n = n
        self.meetings = sizes[0] - 1  # meetings of each member in this round
        self.inside = sum(1 << a * n + b for a, b in itertools.combinations(members, 2))
        self.splits: list[list[list[int]]] = []
        self.masks: list[int] = []

    def load(self, cache: dict) -> int:
        """Build the splits (or take them from ``cache``, by who the players are); the work spent."""
        key = (tuple(self.members), len(self.sizes), self.sizes[0])
        spent = 0
        if key not in cache:
            n = self.n
            splits = list(_splits(self.members, self.sizes))
            masks = [
                sum(1 << a * n + b for table in tables for a, b in itertools.combinations(table, 2))
                for tables in splits
            ]  # (tables list their players in ascending order)
            cache[key] = splits, masks
            spent = _SPLIT_WORK * len(splits)
        self.splits, self.masks = cache[key]
        return spent


class _TableSearch:
    """Depth-first search over the splits of every round's odd and normal players, for fixed roles.
    Its work (``work``) is counted in splits looked at, and those built."""

    def __init__(
        self,
        n: int,
        pattern: Sequence[set[int]],
        odd_sizes: list[int],
        normal_sizes: list[int],
        cap: int,
        rng: random.Random,
    ):
        self.n = n
        self.cap = cap
        self.rng = rng
        self.parts = []
        for r, seats in enumerate(pattern):
            normal = [p for p in range(n) if p not in seats]
            if seats:
                self.parts.append(_Part(r, sorted(seats), odd_sizes, n))
            if normal:
                self.parts.append(_Part(r, normal, normal_sizes, n))
        self.M = [[0] * n for _ in range(n)]
        self.full = 0  # the pairs that have met cap times (bit mask)
        # need[p]: meetings p's open parts bring; share[p][q]: open parts p and q are both in
        self.need = [0] * n
        self.share = [[0] * n for _ in range(n)]
        for part in self.parts:
            self._open(part, 1)
        self.chosen: list[int] = [-1] * len(self.parts)
        self.free = set(range(len(self.parts)))
        self.work = 0
        self.n_rounds = len(pattern)

    def _open(self, part: _Part, sign: int) -> None:
        for p in part.members:
            self.need[p] += sign * part.meetings
            row = self.share[p]
            for q in part.members:
                if q != p:
                    row[q] += sign

    def _forced(self) -> int | None:
        """The pairs (bit mask) that must meet in every open part they share: a player without slack,
        and a pair with no more shared parts than meetings it may still have.  None when some player
        cannot get his meetings any more."""
        n, cap, M, share, need = self.n, self.cap, self.M, self.share, self.need
        forced = 0
        for p in range(n):
            row, shared = M[p], share[p]
            room = 0
            for q in range(n):
                if q != p:
                    room += min(cap - row[q], shared[q])
            if room < need[p]:
                return None
            if room == need[p]:
                for q in range(n):
                    if q != p and 0 < shared[q] <= cap - row[q]:
                        forced |= 1 << (p * n + q if p < q else q * n + p)
        return forced

    def run(self, limit: int, cache: dict) -> list[list[list[int]]] | None:
        """The rounds (odd tables first), or None when the roles allow none or the work ran past
        ``limit``.  Most roles that allow none are refuted before any split is built."""
        self.limit = limit
        forced = self._forced()
        if forced is None:
            return None
        for part in self.parts:
            self.work += part.load(cache)
        try:
            if not self._descend(forced):
                return None
        except _Budget:
            return None
        rounds: list[list[list[int]]] = [[] for _ in range(self.n_rounds)]
        for part, i in zip(self.parts, self.chosen, strict=True):
            rounds[part.round] += [list(t) for t in part.splits[i]]
        return rounds

    def _descend(self, forced: int) -> bool:
        """Choose the next part's split, given the pairs ``forced`` to meet (``_forced``)."""
        if not self.free:
            return True
        if self.work > self.limit:
            raise _Budget
        best: tuple[int, list[int]] | None = None
        full = self.full
        for j in sorted(self.free):
            part = self.parts[j]
            must = forced & part.inside
            # the splits that keep every pair within the cap and seat the forced pairs together
            options = [i for i, mask in enumerate(part.masks) if not mask & full and not must & ~mask]
            self.work += len(part.masks)
            if not options:
                return False
            if best is None or len(options) < len(best[1]):
                best = (j, options)
                if len(options) == 1:
                    break
        assert best is not None
        j, options = best
        part = self.parts[j]
        self.rng.shuffle(options)
        self.free.discard(j)
        self._open(part, -1)
        M, cap, n = self.M, self.cap, self.n
        for i in options:
            pairs = [(a, b) for table in part.splits[i] for a, b in itertools.combinations(table, 2)]
            for a, b in pairs:
                M[a][b] += 1
                M[b][a] += 1
                if M[a][b] == cap:
                    self.full |= 1 << a * n + b
            self.chosen[j] = i
            after = self._forced()
            if after is not None and self._descend(after):
                return True
            for a, b in pairs:
                if M[a][b] == cap:
                    self.full &= ~(1 << a * n + b)
                M[a][b] -= 1
                M[b][a] -= 1
        self._open(part, 1)
        self.free.add(j)
        return False


def _in_order(tables: list[list[int]], sizes: Sequence[int]) -> list[list[int]]:
    """``tables`` rearranged so that table i has ``sizes[i]`` players."""
    left = list(tables)
    out = []
    for s in sizes:
        i = next(i for i, t in enumerate(left) if len(t) == s)
        out.append(left.pop(i))
    return out
