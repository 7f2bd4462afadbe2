"""Public entry points: seat one round (round by round) or plan a schedule, and re-plan (warm start).

See docs/rules.md, Seating.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.seating.base import Round, SeatingPlayer
from engine.seating.costs import _cost_bound
from engine.seating.designs import _design_candidates, _design_rounds
from engine.seating.order import _order_seats
from engine.seating.search import _Search
from engine.seating.state import _Context, _count_odd, _random_round

# Search budgets, in move evaluations (deterministic, independent of machine speed).
_PLAN_BUDGET = 750_000  # split over the starts
_ROUND_BUDGET = 120_000
_GREEDY_BUDGET = 20_000  # per round of the starting solution of a plan
_LOOKAHEAD = 1  # seat_round plans this many rounds more (not returned), unless told n_rounds
_STARTS = 3  # independent starts of a plan when the first does not reach the lower bound


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
