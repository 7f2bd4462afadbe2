"""Published / precomputed seating designs, continued by the seating optimiser (docs/rules.md §4).

Each design is a list of rounds; a round is a list of tables; points are 0..N-1.  Players are mapped to
points randomly (from the seed), so a design never fixes who sits with whom.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
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


@functools.lru_cache(maxsize=32)
def _resolvable_transversal(k: int, q: int) -> list[list[list[int]]] | None:
    """A resolvable transversal design RTD(k, q) for a prime power q >= k: k * q players in k groups
    of q, q rounds of q tables of k, every two players of different groups at one table exactly once.

    Player (group i, x) is point i * q + x; table b of round a is {(i, a * g_i + b)} over the groups,
    with g_i the field elements 0..k-1.  Two players (i, x), (j, y) meet where a = (x - y) / (g_i - g_j),
    which is one round.  When k = q the groups themselves are one round more: the affine plane AG(2, q),
    in which everybody meets everybody.  None when q is not a prime power or smaller than k.  Built
    once per process (a pure function of its arguments; building a large field takes a while); the
    rounds must not be changed."""
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
    base = [  # (x, level), None for a fixed point
        [(0, 0), (21, None), (5, 1), (1, 2)], [(1, 0), (5, 2), (23, None), (1, 1)],
        [(2, 0), (4, 2), (22, None), (3, 1)], [(3, 0), (6, 0), (2, 1), (5, 0)],
        [(4, 0), (0, 2), (3, 2), (2, 2)], [(0, 1), (6, 2), (6, 1), (4, 1)],
    ]  # fmt: skip
    return _shifted(7, [base])


def _kirkman_40() -> list[list[list[int]]]:
    """40 players, 13 rounds of 10 tables of 4, every pair exactly once: a resolvable 2-(40,4,1) design.

    Cyclic over Z_13 x 3 levels (``_cyclic_three_levels``); the nine tables besides the fixed point's
    take two points of each of two levels, three tables per pair of levels, so that within every level
    the differences +-1 .. +-6 occur once and between every two levels the differences 1 .. 12 once (0 is
    the fixed point's table).  The base round was found by a small backtracking search over these
    conditions, then verified.
    """
    base = [  # (x, level); three tables per pair of levels
        [(6, 0), (10, 0), (1, 1), (2, 1)], [(4, 0), (5, 0), (3, 1), (6, 1)],
        [(2, 0), (12, 0), (5, 1), (9, 1)],
        [(3, 0), (11, 0), (6, 2), (8, 2)], [(7, 0), (9, 0), (5, 2), (11, 2)],
        [(1, 0), (8, 0), (2, 2), (7, 2)],
        [(4, 1), (11, 1), (3, 2), (12, 2)], [(8, 1), (10, 1), (1, 2), (4, 2)],
        [(7, 1), (12, 1), (9, 2), (10, 2)],
    ]  # fmt: skip
    return _cyclic_three_levels(13, base)


def _kirkman_28() -> list[list[list[int]]]:
    """28 players, 9 rounds of 7 tables of 4, every pair exactly once: a resolvable 2-(28,4,1) design.

    Cyclic over Z_9 x 3 levels (``_cyclic_three_levels``); the six tables besides the fixed point's take
    two points of each of two levels, two tables per pair of levels, so that within every level the
    differences +-1 .. +-4 occur once and between every two levels the differences 1 .. 8 once.  The
    base round is the first that a small backtracking search over these conditions finds (each table
    takes x and -x of both its levels), verified.  Without it, 8 rounds of 28 players at tables of 4
    repeated 8 pairs and 9 rounds 23 to 25: a resolvable transversal design leaves after 7 rounds only
    players of one group to meet, and the search alone does not find this design.
    """
    base = [  # (x, level); two tables per pair of levels
        [(1, 0), (8, 0), (3, 1), (6, 1)], [(2, 0), (7, 0), (1, 1), (8, 1)],
        [(3, 0), (6, 0), (4, 2), (5, 2)], [(4, 0), (5, 0), (1, 2), (8, 2)],
        [(2, 1), (7, 1), (3, 2), (6, 2)], [(4, 1), (5, 1), (2, 2), (7, 2)],
    ]  # fmt: skip
    return _cyclic_three_levels(9, base)


def _kirkman_21() -> list[list[list[int]]]:
    """21 players, 10 rounds of 7 tables of 3, every pair exactly once: a Kirkman triple system KTS(21).

    Points (x, level) = level * 7 + x over Z_7 x 3 levels.  Three rounds are the same under every shift
    in x: tables (x, 0), (x + a, 1), (x + b, 2) for (a, b) = (0, 0), (1, 2), (2, 5), which use the
    differences a, b and b - a between the levels.  The other seven are the base round shifted by
    0 .. 6: within every level the differences +-1 .. +-3 occur once, between two levels each difference
    the first three rounds leave once.  The first solution a small backtracking search over these
    conditions finds, verified.  Without it, 10 rounds of 21 players at tables of 3 repeated 4 pairs.
    """
    invariant = [(0, 0), (1, 2), (2, 5)]
    base = [  # (x, level)
        [(0, 0), (1, 0), (3, 0)], [(2, 0), (0, 1), (6, 2)], [(4, 0), (1, 1), (3, 2)],
        [(5, 0), (4, 1), (1, 2)], [(6, 0), (2, 1), (0, 2)], [(3, 1), (5, 1), (6, 1)],
        [(2, 2), (4, 2), (5, 2)],
    ]  # fmt: skip
    rounds = [[[x, 7 + (x + a) % 7, 14 + (x + b) % 7] for x in range(7)] for a, b in invariant]
    return rounds + _shifted(7, [base])


def _nearly_kirkman_18() -> list[list[list[int]]]:
    """18 players, 8 rounds of 6 tables of 3, no pair twice: a nearly Kirkman triple system NKTS(18)
    (all pairs but 9 disjoint ones meet once).

    Points (x, level) = level * 4 + x over Z_4 x 4 levels, plus 16 and 17 fixed; rounds 1-4 are the first
    base round shifted by 0 .. 3 in x, rounds 5-8 the second.  Within every level the differences +-1
    occur once and the difference 2 never (those pairs and the two fixed players are the 9 that never
    meet), between two levels every difference once, and each fixed player sits with two levels in each
    base round.  The first solution a small backtracking search over these conditions finds, verified.
    Without it, 8 rounds of 18 players at tables of 3 repeated a pair.
    """
    bases = [  # (x, level), None for a fixed player
        [(16, None), (0, 0), (0, 1)], [(17, None), (1, 0), (0, 2)], [(2, 0), (1, 1), (2, 2)],
        [(3, 0), (0, 3), (1, 3)], [(2, 1), (1, 2), (3, 3)], [(3, 1), (3, 2), (2, 3)],
    ], [
        [(16, None), (0, 2), (1, 3)], [(17, None), (0, 1), (0, 3)], [(0, 0), (1, 2), (2, 2)],
        [(1, 0), (2, 1), (3, 1)], [(2, 0), (3, 0), (2, 3)], [(1, 1), (3, 2), (3, 3)],
    ]  # fmt: skip
    return _shifted(4, bases)


def _cyclic_three_levels(q: int, base: list[list[tuple[int, int]]]) -> list[list[list[int]]]:
    """The rounds of a resolvable 2-(3q+1,4,1) design from its base round: points (x, level) =
    level * q + x over Z_q x 3 levels, plus 3q fixed; round i is the base round shifted by i in x, and
    the fixed point sits with (i, 0), (i, 1), (i, 2)."""
    return _shifted(q, [[[(3 * q, None), (0, 0), (0, 1), (0, 2)], *base]])


def _shifted(q: int, bases: Sequence[Sequence[Sequence[tuple[int, int | None]]]]) -> list[list[list[int]]]:
    """Every base round shifted by 0 .. q-1 in x, one round per shift, base round after base round:
    (x, level) is the point level * q + x over Z_q, (p, None) the fixed point p."""
    return [
        [[x if level is None else level * q + (x + i) % q for x, level in table] for table in base]
        for base in bases
        for i in range(q)
    ]


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
    ("resolvable 2-(40,4,1), 40 players, 13 rounds", _kirkman_40(), True),
    ("resolvable 2-(28,4,1), 28 players, 9 rounds", _kirkman_28(), True),
    ("Kirkman triple system KTS(21), 21 players, 10 rounds", _kirkman_21(), True),
    ("nearly Kirkman triple system NKTS(18), 18 players, 8 rounds", _nearly_kirkman_18(), True),
    ("social golfer 6-4-7, 24 players, 7 rounds", _cyclic_24(), True),
    ("12 players, 6 rounds, every pair meets", _TWELVE_ALL_MEET, False),
    ("12 players, 6 rounds, 3 shared pairs per two rounds", _TWELVE, True),
]


def _design_candidates(n: int, sizes: Sequence[int], covering: int | None = None):
    """Designs whose point set fits n players with these table sizes (exactly or minus one): the shipped
    ones, then the resolvable transversal design for tables of k and k * q players.  ``covering``: only
    designs with at least that many rounds."""
    srt = sorted(sizes, reverse=True)
    k = srt[0] if srt else 0
    field = []
    q = -(-n // k) if k else 0
    if k >= 3 and k * q <= _FIELD_DESIGNS_UP_TO:
        design = _resolvable_transversal(k, q)
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

    Returns None when there is none (or the search gives up).  A backtracking search with forward
    checking: every player keeps the set of points still possible for him (a bit mask), placing a
    player narrows the sets of all others (a table-mate of round r must take a point of the same design
    table of round r, anyone else a point of another), and the player with the fewest possible points
    is placed next.  Candidate points are tried in a random order, so the relabelling is random but
    reproducible from the seed.  A first search gets only a few nodes; when they are not enough, a
    second one also refines the colours after every placement (``_refine``), which finds wrong choices
    early but costs more a node.
    """
    h = len(history)
    npts = sum(len(t) for t in design[0])
    if npts == n + 1 and history:
        padded = _with_empty_seat(history, n, len(design[0][0]))
        assign = None if padded is None else _match_prefix(padded, n + 1, design, rng, node_limit)
        return None if assign is None else assign[:n]
    if npts != n:
        return None
    htab = []
    for rnd in history:
        w = [-1] * n
        for ti, t in enumerate(rnd):
            for p in t:
                w[p] = ti
        if min(w, default=0) < 0:
            return None
        htab.append(w)
    dtab = []  # the design table of each point, per round
    dmask = []  # the points of each design table as a bit mask, per round
    for rnd in design[:h]:
        w = [0] * n
        masks = [0] * len(rnd)
        for ti, t in enumerate(rnd):
            for x in t:
                w[x] = ti
                masks[ti] |= 1 << x
        dtab.append(w)
        dmask.append(masks)
    # colours: a player may only take a point of his colour.  They start from his shape (table sizes,
    # players shared by each two of his tables) and are refined from his table-mates' colours.  In the
    # second search the placed pair gets a colour of its own and the refinement runs again, until every
    # colour has one player.  Without it, a wrong early choice in round 3 of 84 players (two rounds
    # that look alike everywhere) was found out only deep in the search, out of nodes.
    hist_side, des_side = (history, htab), (design[:h], dtab)
    shapes = [_shape(*hist_side, p) for p in range(n)], [_shape(*des_side, x) for x in range(n)]
    colours = _refine(*shapes, hist_side, des_side)
    if colours is None:
        return None
    points = list(range(n))
    rng.shuffle(points)
    assign = [-1] * n
    nodes = 0

    def narrowed(possible: list[int], p: int, x: int) -> list[int] | None:
        new = list(possible)
        for q in range(n):
            if assign[q] >= 0:
                continue
            mask = new[q] & ~(1 << x)
            for r in range(h):
                table = dmask[r][dtab[r][x]]
                mask &= table if htab[r][q] == htab[r][p] else ~table
            if not mask:
                return None
            new[q] = mask
        return new

    def by_colour(hc: list, dc: list, possible: list[int]) -> list[int] | None:
        masks: dict = {}
        for x in range(n):
            masks[dc[x]] = masks.get(dc[x], 0) | 1 << x
        new = [possible[q] & masks.get(hc[q], 0) for q in range(n)]
        return None if any(assign[q] < 0 and not new[q] for q in range(n)) else new

    def rec(possible: list[int], hc: list, dc: list, left: int, limit: int, refine: bool) -> bool:
        nonlocal nodes
        if not left:
            return True
        p = min((q for q in range(n) if assign[q] < 0), key=lambda q: possible[q].bit_count())
        for x in points:
            if not possible[p] >> x & 1:
                continue
            nodes += 1
            if nodes > limit:
                return False
            assign[p] = x
            new = narrowed(possible, p, x)
            hc2, dc2 = hc, dc
            if refine and new is not None and len(set(hc)) < n:
                hc2, dc2 = list(hc), list(dc)
                hc2[p] = dc2[x] = -left  # the placed pair's own colour (refined colours are never negative)
                refined = _refine(hc2, dc2, hist_side, des_side)
                if refined is None:
                    new = None
                else:
                    hc2, dc2 = refined
                    new = by_colour(hc2, dc2, new)
            if new is not None and rec(new, hc2, dc2, left - 1, limit, refine):
                return True
            assign[p] = -1
        return False

    start = by_colour(*colours, [(1 << n) - 1] * n)
    if start is None:
        return None
    if rec(start, *colours, n, 4 * n, False):
        return assign
    assign = [-1] * n
    nodes = 0
    return assign if rec(start, *colours, n, node_limit, True) else None


def _shape(rounds: list, table_of: list[list[int]], p: int) -> tuple[int, ...]:
    """What a relabelling keeps of player ``p``: the size of each of his tables, and how many players
    each two of them share (``table_of[r][p]``: his table of round r)."""
    tables = [set(rnd[w[p]]) for rnd, w in zip(rounds, table_of, strict=True)]
    shared = [len(a & b) for i, a in enumerate(tables) for b in tables[i + 1 :]]
    return (*(len(t) for t in tables), *shared)


def _refine(hc: list, dc: list, hist: tuple, des: tuple) -> tuple[list[int], list[int]] | None:
    """Colour refinement of players (``hc``) and design points (``dc``) together: a new colour is the
    old one with the colours of the table-mates, round by round, until no colour splits.  ``hist`` and
    ``des``: (rounds, table of each player per round).  None when the two sides' colours no longer
    come in the same numbers: then no relabelling can match them."""
    classes = len(set(hc))
    while True:
        names: dict = {}
        new_h, new_d = _recolour(hc, *hist, names), _recolour(dc, *des, names)
        if Counter(new_h) != Counter(new_d):
            return None
        if len(names) == classes:
            return new_h, new_d
        hc, dc, classes = new_h, new_d, len(names)


def _recolour(colours: list, rounds: list, where: list[list[int]], names: dict) -> list[int]:
    """Each player's colour with his tables' colours (as good as his table-mates': his own is among
    them, and it takes one sort a table), numbered in ``names``, shared by both sides."""
    tables = [[tuple(sorted(colours[q] for q in t)) for t in rnd] for rnd in rounds]
    out = []
    for p, own in enumerate(colours):
        key = (own, *(by_table[w[p]] for by_table, w in zip(tables, where, strict=True)))
        out.append(names.setdefault(key, len(names)))
    return out


def _with_empty_seat(history: list[list[list[int]]], n: int, k: int) -> list[list[list[int]]] | None:
    """The history of ``n`` players, one fewer than a design with tables of ``k``, with the empty seat
    as player ``n`` at the one smaller table of every round (so that it is matched like a player);
    None when a round has not exactly one smaller table."""
    if any(sum(len(t) < k for t in rnd) != 1 for rnd in history):
        return None
    return [[[*t, n] if len(t) < k else t for t in rnd] for rnd in history]


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
        found = _follow_design(history, ctx.n, design[:usable], rng)
        if found is None:
            assign = _match_prefix(history, ctx.n, design, rng)
            if assign is None:
                continue
            found = assign, list(range(h, usable))
        assign, rest = found
        inverse = {x: p for p, x in enumerate(assign)}
        out = []
        for j in rest[:want]:
            tables = [[inverse[x] for x in t if x in inverse] for t in design[j]]
            out.append(_fit_sizes(tables, ctx.sizes))
        return out
    return None


def _follow_design(
    history: list[list[list[int]]], n: int, design, rng: random.Random
) -> tuple[list[int], list[int]] | None:
    """The history as the beginning of ``design`` under the one relabelling its first round fixes:
    (player index -> point, the design's rounds not played yet), or None when it is not.

    The first round is mapped onto the design's first round in a canonical way (tables and players in
    the order of their indices), so that the next call, with one round more, finds the same map at once
    where a search for some relabelling could give up.  Every later round must be one of the design's
    rounds under that map; the rounds left are offered in a random order from the seed where the design
    has no repeats at all (any order is as good, and a redraw gives another round), else in the
    design's order."""
    npts = sum(len(t) for t in design[0])
    if npts == n + 1:
        padded = _with_empty_seat(history, n, len(design[0][0]))
        if padded is None:
            return None
        history = padded
    assign = _first_round_map(history[0], design[0], npts)
    if assign is None:
        return None
    index = {_partition(rnd): j for j, rnd in enumerate(design)}
    played = {0}
    for rnd in history[1:]:
        j = index.get(_partition([[assign[p] for p in t] for t in rnd]))
        if j is None or j in played:
            return None
        played.add(j)
    rest = [j for j in range(len(design)) if j not in played]
    if _perfect_prefix(design) == len(design):
        rng.shuffle(rest)
    return assign[:n], rest


def _first_round_map(first_round: list[list[int]], design_first: Sequence[Sequence[int]], npts: int):
    """The relabelling (player index -> point) that maps a first round played onto a design's first
    round in a fixed way: the played tables by size, largest first, then by their smallest index, onto
    the design's tables in their order, players in the order of their indices.  None when the sizes do
    not fit (after a withdrawal or an arrival the rounds played are not today's field).

    The same first round always gives the same map, so a later call, with more rounds played, finds it
    at once and only checks them."""
    first = sorted((sorted(t) for t in first_round), key=lambda t: (-len(t), t))
    if len(first) != len(design_first) or sorted(p for t in first for p in t) != list(range(npts)):
        return None
    assign = [-1] * npts
    for table, points in zip(first, design_first, strict=True):
        if len(table) != len(points):
            return None
        for p, x in zip(table, points, strict=True):
            assign[p] = x
    return assign


def _partition(tables) -> frozenset[frozenset[int]]:
    """A round as its tables, whatever their order and seat order."""
    return frozenset(frozenset(t) for t in tables)


def _fit_sizes(tables: list[list[int]], sizes: Sequence[int]) -> list[list[int]]:
    """Order tables so that table i has sizes[i] players (the tables must have the right sizes)."""
    pool: dict[int, list[list[int]]] = {}
    for t in tables:
        pool.setdefault(len(t), []).append(t)
    return [pool[s].pop(0) for s in sizes]
