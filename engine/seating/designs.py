"""Published / precomputed seating designs, continued by the seating optimiser (docs/rules.md §4).

Each design is a list of rounds; a round is a list of tables; points are 0..N-1.  Players are mapped to
points randomly (from the seed), so a design never fixes who sits with whom.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from engine.seating.state import _Context

# Resolvable transversal designs are built for fields up to this size: above it the search alone finds
# seatings without repeats, and matching a long history to a design would cost more than it saves.
_FIELD_DESIGNS_UP_TO = 100


def _galois_field(q: int) -> list[list[int]] | None:
    """The multiplication table of GF(q), elements coded 0..q-1 (addition is digit-wise mod p, see
    :func:`_field_add`), or None when ``q`` is not a prime power."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    m, rest = 0, q
    while rest % p == 0:
        rest //= p
        m += 1
    if rest != 1:
        return None

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(m)]

    def mul_mod(a: list[int], b: list[int], f: list[int]) -> list[int]:
        prod = [0] * (2 * m - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                prod[i + j] = (prod[i + j] + x * y) % p
        for i in range(len(prod) - 1, m - 1, -1):  # reduce by the monic polynomial f of degree m
            c = prod[i]
            if c:
                for j in range(m + 1):
                    prod[i - m + j] = (prod[i - m + j] - c * f[j]) % p
        return prod[:m]

    for low in range(p**m):  # monic polynomials f of degree m, until one is irreducible
        f = [*digits(low), 1]
        table = [[sum(d * p**i for i, d in enumerate(mul_mod(digits(a), digits(b), f))) for b in range(q)]
                 for a in range(q)]  # fmt: skip
        # the residues modulo f form a field exactly when every non-zero one has an inverse
        if all(any(row[b] == 1 for b in range(q)) for row in table[1:]):
            return table
    return None


def _field_add(p: int, a: int, b: int) -> int:
    """The sum in GF(p^m) of elements coded as base-p numbers: their digits added mod p."""
    total, place = 0, 1
    while a or b:
        total += ((a % p + b % p) % p) * place
        a, b, place = a // p, b // p, place * p
    return total


def _resolvable_transversal(k: int, q: int) -> list[list[list[int]]] | None:
    """A resolvable transversal design RTD(k, q) for a prime power q >= k: k * q players in k groups
    of q, q rounds of q tables of k, every two players of different groups at one table exactly once.

    Player (group i, x) is point i * q + x; table b of round a is {(i, a * g_i + b)} over the groups,
    with g_i the field elements 0..k-1.  Two players (i, x), (j, y) meet where a = (x - y) / (g_i - g_j),
    which is one round.  When k = q the groups themselves are one round more: the affine plane AG(2, q),
    in which everybody meets everybody.  None when q is not a prime power or smaller than k."""
    mul = _galois_field(q) if q >= k else None
    if mul is None:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    rounds = [
        [[i * q + _field_add(p, mul[a][i], b) for i in range(k)] for b in range(q)] for a in range(q)
    ]
    if k == q:
        rounds.append([[i * q + x for x in range(q)] for i in range(q)])
    return rounds


def _cyclic_24() -> list[list[list[int]]]:
    """24 players, 7 rounds of 6 tables of 4, no pair twice (social golfer 6-4-7).

    Points (x, level) = level * 7 + x over Z_7 x 3 levels, plus 21, 22, 23 fixed; round i is the base
    round shifted by i in x.  The base round was found by a small backtracking search over difference
    conditions (each mixed difference between two levels and each pure difference +-d within a level is
    used at most once, and every fixed point's table takes one point of each level), then verified.
    """
    base = [[0, 21, 12, 15], [1, 19, 23, 8], [2, 18, 22, 10], [3, 6, 9, 5], [4, 14, 17, 16], [7, 20, 13, 11]]

    def shift(p: int, i: int) -> int:
        return p if p >= 21 else (p // 7) * 7 + (p % 7 + i) % 7

    return [[[shift(p, i) for p in table] for table in base] for i in range(7)]


# 12 players, 6 rounds of 3 tables of 4, found by the tabu search of engine.seating (seed 1).  Any two
# partitions of 12 players into 3 tables of 4 share at least 3 pairs (each table of one round has two
# players from one table of the other), so k rounds repeat at least 3 * C(k, 2) pairs unless some pair
# meets three times: 45 for 6 rounds.  This schedule reaches that bound for every prefix (every two rounds
# share exactly 3 pairs, no pair meets three times).
_TWELVE = [
    [[0, 4, 5, 8], [1, 3, 7, 10], [2, 6, 9, 11]],
    [[0, 1, 7, 9], [2, 6, 8, 10], [3, 4, 5, 11]],
    [[0, 5, 6, 10], [1, 3, 8, 9], [2, 4, 7, 11]],
    [[0, 3, 8, 11], [1, 2, 4, 10], [5, 6, 7, 9]],
    [[0, 9, 10, 11], [1, 2, 5, 8], [3, 4, 6, 7]],
    [[0, 1, 4, 6], [2, 3, 5, 9], [7, 8, 10, 11]],
]

# 12 players, 6 rounds, in which every pair meets at least once: 108 meetings over 66 pairs is the counting
# bound of 42 repeats, reached at the price of three pairs meeting three times (any schedule under 45 needs
# triples, see _TWELVE).  Found by simulated annealing over swaps with cost 10 * repeats + 3 * triples.
# Preferred over _TWELVE for a whole 6-round tournament: nobody goes home without having met everyone.
_TWELVE_ALL_MEET = [
    [[1, 5, 8, 9], [2, 3, 7, 10], [0, 4, 6, 11]],
    [[2, 4, 6, 9], [0, 7, 8, 10], [1, 3, 5, 11]],
    [[1, 2, 6, 8], [4, 5, 10, 11], [0, 3, 7, 9]],
    [[5, 6, 9, 10], [0, 1, 4, 7], [2, 3, 8, 11]],
    [[1, 6, 7, 11], [3, 4, 8, 9], [0, 2, 5, 10]],
    [[1, 3, 6, 10], [0, 2, 9, 11], [4, 5, 7, 8]],
]

# (name, rounds, every prefix is as good as possible).  Earlier entries are preferred.
DESIGNS: list[tuple[str, list[list[list[int]]], bool]] = [
    ("social golfer 6-4-7, 24 players, 7 rounds", _cyclic_24(), True),
    ("12 players, 6 rounds, every pair meets", _TWELVE_ALL_MEET, False),
    ("12 players, 6 rounds, 3 shared pairs per two rounds", _TWELVE, True),
]


@functools.lru_cache(maxsize=32)
def _field_design(k: int, q: int) -> list[list[list[int]]] | None:
    """RTD(k, q), built once per process (the field GF(32) alone takes some 50 ms)."""
    return _resolvable_transversal(k, q)


def _design_candidates(n: int, sizes: Sequence[int], covering: int | None = None):
    """Designs whose point set fits n players with these table sizes (exactly or minus one): the shipped
    ones, then the resolvable transversal design for tables of k and k * q players.  ``covering``: only
    designs with at least that many rounds."""
    srt = sorted(sizes, reverse=True)
    k = srt[0] if srt else 0
    field = []
    if k >= 3 and k * -(-n // k) <= _FIELD_DESIGNS_UP_TO:
        q = -(-n // k)
        design = _field_design(k, q)
        if design is not None:
            field.append((f"RTD({k},{q}) {k * q} players, {len(design)} rounds", design, True))
    for name, rounds, prefixes_ok in [*DESIGNS, *field]:
        npts = sum(len(t) for t in rounds[0])
        k = len(rounds[0][0])
        if any(len(t) != k for rnd in rounds for t in rnd) or len(rounds) < (covering or 0):
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
    exact = npts == n
    # sizes of each player's / point's table per round: they must agree when every point is used
    hsize = [[len(rnd[w[p]]) for rnd, w in zip(history, htab, strict=True)] for p in range(n)]
    dsize = [[len(rnd[w[x]]) for rnd, w in zip(design[:h], dtab, strict=True)] for x in range(npts)]

    def candidates(p: int) -> list[int]:
        """Free points; only those of the design table of a table-mate already placed, if any."""
        for r in range(h):
            for q in history[r][htab[r][p]]:
                if assign[q] >= 0:
                    table, w = dtab[r][assign[q]], dtab[r]
                    return [x for x in points if not used[x] and w[x] == table]
        return [x for x in points if not used[x]]

    def ok(p: int, x: int, upto: int) -> bool:
        if exact and hsize[p] != dsize[x]:
            return False
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
        for x in candidates(p):
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
    ctx: _Context,
    history: list[list[list[int]]],
    want: int,
    exact_total: int | None,
    rng: random.Random,
    covering: int | None = None,
) -> list[list[list[int]]] | None:
    """Continue a design after ``history`` (indices); up to ``want`` rounds; None if none fits.

    ``exact_total``: the total number of rounds planned (None when seating round by round).  Designs with
    repeats are only used when the plan has at least as many rounds as the design (else only their
    repeat-free prefix).  ``covering``: only designs with at least that many rounds.
    """
    if not history:
        return None
    h = len(history)
    for _name, design, prefixes_ok in _design_candidates(ctx.n, ctx.sizes, covering):
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
