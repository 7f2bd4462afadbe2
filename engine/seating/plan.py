"""Public entry points: seat one round (round by round) or plan a schedule, and re-plan (warm start).

See docs/rules.md §4.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.seating.base import Round, SeatingPlayer
from engine.seating.costs import _fill, _meetings, _pair_cost
from engine.seating.designs import (
    _design_candidates,
    _design_rounds,
    _first_round_map,
    _fit_sizes,
    _partition,
)
from engine.seating.exact import tight_cap, tight_plan
from engine.seating.order import _order_seats
from engine.seating.search import _Search
from engine.seating.state import _Context, _count_odd, _random_round
from engine.seating.stored import PlanKind, StoredPlan

# Search budgets, in move evaluations (deterministic, independent of machine speed).  One evaluation is
# the cost change of one candidate swap; this machine does about five million a second (a move counts
# as search._MOVE_COST of them).  They were raised about 2.5-fold when an evaluation became a few
# lookups (search.py, "cost changes"), so that a plan takes the time it took before and searches more
# (the figures below were measured with the budgets before, in the same time).  The budget is the
# same for every field up to _FULL_BUDGET_UP_TO players (a small field evaluates few candidates per
# move, so it makes many more moves from the same budget) and shrinks beyond, where rounds are easy and
# each move is dear.  A search stops early when no conflict is left or the lower bound is reached.
# A whole plan gets as much as the plan that round by round follows (_followed_plan): with half of
# it, whole plans of medium fields were weaker (74 players at tables of 6 and 7 over 9 rounds, four
# seeds: 40 to 47 repeats, 35 to 42 with this budget, 22 to 28 with the shorter tabu tenure of
# search.py).  A plan takes up to about 2 s.
_PLAN_BUDGET = 8_000_000  # a whole plan: starts racing for half of it, then the best of them
_ROUND_BUDGET = 2_500_000  # seat_round: this round planned together with all remaining rounds
_GREEDY_BUDGET = 50_000  # per round of the starting solution of a plan
_FULL_BUDGET_UP_TO = 80
_LOOKAHEAD = 1  # seat_round plans this many rounds more (not returned), unless told n_rounds
_STARTS = 4  # independent starts (each with its own odd-table roles) racing for half the budget
# where the best plan still makes a pair meet three times although counting alone does not force
# it, a new search over that plan gets this share of the budget more: players notice a third meeting
# most, and a start ends when it stalls, often a few swaps away from a plan without one (40 players
# at tables of 6, seeds 1 to 24: 3 plans with one, now none, two of them also with fewer repeats)
_THIRD_MEETING_SHARE = 4  # a quarter
# round by round follows one stored plan (plan_to_follow) in fields up to this size, the biggest the app
# is made for: a round searched after a fixed history only repairs it (docs/performance.md, "The plan
# round by round follows"); bigger fields are seated round after round
_CANONICAL_UP_TO = 200
_CANONICAL_SEED = 0x5EA7_0000
# round 2 renames the canonical plan in one of this many ways, drawn by its seed, so that a redraw of
# round 2 gives other tables; the plan is stored renamed, so later rounds need no renaming
_RENAMINGS = 8
_SOFT = 4  # seat_round: cost of breaking up a pair of a history table while planning (a repeat: 10)
_SOFT_STAGES = (2, 6, 20, 60)
_REPLAN_SLACK = 2  # re-planning keeps the old plan unless that costs more than this many repeats


def _budget(base: int, n: int, effort: float) -> int:
    """Evaluations for a field of ``n``: the full budget up to ``_FULL_BUDGET_UP_TO`` players (small
    fields are cheap per move), proportionally less above, times ``effort``."""
    scale = min(1.0, _FULL_BUDGET_UP_TO / max(1, n))
    return max(1, int(int(base * scale) * effort))


def _seat_one(
    ctx: _Context, rng: random.Random, separate_clubs: bool, budget: int, used: list[int] | None = None
) -> list[list[int]]:
    levels0 = ctx.levels()
    special = ctx.roles(rng)
    rnd = _random_round(ctx.sizes, ctx.special_sizes, special, rng)
    ctx.add_round(rnd, count_odd=False)
    search = _Search(ctx, [rnd], levels0, [separate_clubs], rng)
    search.run(budget)
    if used is not None:
        used[0] += search.evals + len(ctx.sizes)
    return search.rounds[0]


def _search_rounds(
    base: _Context, m: int, club_rounds: list[bool], rng: random.Random, budget: int, target: int
) -> tuple[int, list[list[list[int]]]]:
    """Plan ``m`` rounds after ``base`` (not changed): ``_STARTS`` independent starts, each a greedy
    round-by-round seating (which also picks the odd-table roles) improved by the tabu search over all
    ``m`` rounds, whose searches get half the budget between them; the best start then searches on
    with what the starts left (their greedy rounds count too).  A search stops at the ``target``
    cost, when no conflict is left, or when it stalls.  The best plan, searched further where it
    keeps a third meeting (``_search_third_meetings``).

    Why a race: the starts give the search different odd-table roles, which it can hardly change
    later, and in small fields the roles decide much; a medium field gains more from one long search
    than from several short ones (docs/seating.md, "Starts that race")."""
    levels0 = base.levels()
    per_start = max(budget // 2 // _STARTS, 1)
    used = [0]
    best: tuple[int, _Search, _Context] | None = None  # (cost, search, the meetings of its plan)
    for _ in range(_STARTS):
        if best is not None and budget - used[0] < per_start:
            break  # (the greedy rounds of dense fields can be dear: the time stays bounded by the budget)
        work = base.clone()
        rounds = []
        for i in range(m):
            rnd = _seat_one(work, rng, club_rounds[i], _GREEDY_BUDGET, used)
            _count_odd(work, rnd)
            rounds.append(rnd)
        if not rounds:
            return 0, []
        search = _Search(work, rounds, levels0, club_rounds, rng)
        cost = search.run(per_start, target, patience=per_start // 2)
        used[0] += search.evals + 1
        if best is None or cost < best[0]:
            best = (cost, search, work)
        if cost <= target or not search.conf_items or len(base.sizes) < 2:
            break  # (one table: nothing to search, every start is the same)
    assert best is not None
    cost, search, work = best
    if cost > target and search.conf_items:
        rest = max(1, budget - used[0])
        cost = search.run(rest, target, patience=rest // 2)
    if cost <= target:
        return cost, search.rounds
    return _search_third_meetings(
        base=base, work=work, rounds=search.rounds, cost=cost, club_rounds=club_rounds, rng=rng,
        budget=budget, target=target,
    )


def _search_third_meetings(
    *,
    base: _Context,
    work: _Context,
    rounds: list[list[list[int]]],
    cost: int,
    club_rounds: list[bool],
    rng: random.Random,
    budget: int,
    target: int,
    anchors: list[list[int]] | None = None,
) -> tuple[int, list[list[list[int]]]]:
    """``rounds`` (after ``base``; ``work`` holds the meetings with them) and their ``cost``, or where
    they make a pair meet three times and counting alone does not force that, the result of a new
    search over them (its conflicts in order, a fresh tabu list) with ``budget //
    _THIRD_MEETING_SHARE`` evaluations: never worse, as it starts from them."""
    if not _meets_thrice(work.M, rounds) or _floor_fill(base, len(rounds))[1] >= 3:
        return cost, rounds
    search = _Search(work, rounds, base.levels(), club_rounds, rng, anchors)
    extra = max(1, budget // _THIRD_MEETING_SHARE)
    return search.run(extra, target, patience=extra), search.rounds


def _meets_thrice(M: list[list[int]], rounds: list[list[list[int]]]) -> bool:
    """Does a pair seated together in ``rounds`` meet three times or more (``M``: all meetings)?"""
    for rnd in rounds:
        for table in rnd:
            for i, a in enumerate(table):
                row = M[a]
                for b in table[i + 1 :]:
                    if row[b] >= 3:
                        return True
    return False


def seat_round(
    players: Sequence[SeatingPlayer],
    history: Sequence[Round],
    sizes: Sequence[int],
    *,
    seed: int,
    separate_clubs: bool | None = None,
    preferred: int | None = None,
    n_rounds: int | None = None,
    effort: float = 1.0,
    plan: StoredPlan | None = None,
) -> Round:
    """The next round: tables in the order of ``sizes``, each a list of player ids in seat order.

    ``history`` holds all earlier rounds (players no longer active are ignored).  ``separate_clubs``
    defaults to True for round 1.  ``preferred`` (the preferred table size) tells which tables are the
    odd ones; by default it is the most common size in ``sizes``.  ``n_rounds``: the rounds of the
    tournament; this round is then planned together with all remaining rounds (only this one is
    returned), so that it leaves them good seatings.  ``effort`` multiplies the search budget (the
    best-known computation in ``bench/`` raises it; the app takes ``SEATING_EFFORT``, 1 by default).
    ``plan``: the plan round by round follows (:func:`plan_to_follow`): its next round is taken while
    the rounds played since its start are its beginning; otherwise the round is searched.
    """
    ctx = _Context(players, history, sizes, preferred)
    rng = random.Random(seed)
    if separate_clubs is None:
        separate_clubs = not history
    rnd = None
    # (designs and the canonical plan are fixed rounds, not searched: they know nothing of teams)
    if not separate_clubs and not ctx.has_teams:
        cont = _design_rounds(ctx, ctx.history, 1, None, rng, n_rounds)
        if cont:
            rnd = cont[0]
    ahead = _LOOKAHEAD if n_rounds is None else max(0, n_rounds - len(ctx.history) - 1)
    budget = _budget(_ROUND_BUDGET, ctx.n, effort)
    if rnd is None and not separate_clubs and plan is not None and ctx.history:
        rnd = _follow(ctx, plan)
        if rnd is not None and plan.from_round == 1 and len(ctx.history) == 1:
            # plan_to_follow drew the renaming from this seed first; the seat order draws after it,
            # as a seating from the same inputs always did
            rng.randrange(_RENAMINGS)
    if rnd is None and (ahead == 0 or not (ctx.history or ctx.has_teams)):
        # the last round, or round 1 without teams (without clubs, every first round is as good as any
        # other); with teams, who sits at the odd tables in round 1 decides whether the later rounds
        # can keep every team apart, so round 1 is planned with them
        rnd = _seat_one(ctx, rng, separate_clubs, budget)
    if rnd is None:
        # plan this round together with the next ones (not returned), so that it does not leave them
        # without good seatings
        clubs = [separate_clubs] + [False] * ahead
        floor = _floor(ctx, 1 + ahead)
        if _clean_history(ctx):
            cost, rounds = _soft_history(ctx, players, preferred, 1 + ahead, clubs, rng, budget // 2, floor)
            if cost > floor:
                cost2, rounds2 = _search_rounds(ctx, 1 + ahead, clubs, rng, budget // 2, floor)
                if cost2 < cost:
                    rounds = rounds2
        else:
            _cost, rounds = _search_rounds(ctx, 1 + ahead, clubs, rng, budget, floor)
        rnd = rounds[0]
    return ctx.to_ids(_order_seats(ctx, rnd, rng))


def plan_to_follow(
    players: Sequence[SeatingPlayer],
    history: Sequence[Round],
    sizes: Sequence[int],
    n_rounds: int,
    *,
    seed: int,
    current: StoredPlan | None = None,
    preferred: int | None = None,
    effort: float = 1.0,
) -> StoredPlan | None:
    """The plan that round ``len(history) + 1``, seated round by round with ``seed``, follows in fields
    up to ``_CANONICAL_UP_TO`` players: ``current`` (the stored one) while it is the plan these rounds
    would make, else a new one to store; None where no plan is followed (round 1, bigger fields).

    Round 2 makes one whole plan (the canonical plan: fixed seed, renamed to fit round 1, ``seed``
    drawing one of ``_RENAMINGS`` renamings, so a redraw of round 2 mostly gives other tables).  After a
    change of the field (withdrawals, arrivals), and with teams (which the canonical plan knows nothing
    of) from round 2 on, one plan of the rounds after the last round with another field, made from the
    rounds until then and not from a seed: a redraw of one of its rounds gives the same tables.

    Round by round, every round then comes from one whole plan, which the search makes much better than
    rounds fitted one after the other into a fixed history (the history is fixed, so a search after it
    only repairs; the plan was made with all rounds free).  The plan is stored, so the later rounds
    (in any server process) read it instead of making it again."""
    ctx = _Context(players, history, sizes, preferred)
    h = len(ctx.history)
    if h == 0 or ctx.n > _CANONICAL_UP_TO or h >= n_rounds:
        return None
    since = _clean_since(ctx) or (1 if ctx.has_teams else 0)
    if (
        current is not None and current.kind == PlanKind.FOLLOWED and list(current.players) == ctx.ids
        and list(current.sizes) == ctx.sizes and current.last_round == n_rounds
    ):
        if current.from_round == 1 and since == 0 and (h > 1 or current.seed == seed):
            return current  # the canonical plan, renamed by round 2's seed
        if current.from_round == since + 1 and since > 0:
            return current  # the plan after the change: made from the rounds until it, no seed
    if since == 0:
        return _canonical_plan(ctx, n_rounds, preferred, seed, effort) if h == 1 else None
    if since >= n_rounds:
        return None
    base = [[list(t) for t in rnd] for rnd in history[:since]]
    rounds = _plan_after(sorted(players, key=lambda p: p.id), base, ctx.sizes, n_rounds, preferred, effort)
    return StoredPlan.build(
        kind=PlanKind.FOLLOWED, players=ctx.ids, sizes=ctx.sizes, seed=seed, from_round=since + 1,
        rounds=[ctx.to_ids(rnd) for rnd in rounds],
    )


def seat_following(
    players: Sequence[SeatingPlayer],
    history: Sequence[Round],
    sizes: Sequence[int],
    *,
    seed: int,
    n_rounds: int,
    plan: StoredPlan | None,
    separate_clubs: bool | None = None,
    preferred: int | None = None,
    effort: float = 1.0,
) -> tuple[Round, StoredPlan | None]:
    """The next round as the app seats it round by round: the plan to follow is ``plan`` (the stored
    one) or the one :func:`plan_to_follow` makes, and the round is seated from it.  (The round, the plan
    to store: ``plan`` itself while it is followed.)"""
    followed = plan_to_follow(
        players, history, sizes, n_rounds, seed=seed, current=plan, preferred=preferred, effort=effort
    ) if history else None
    rnd = seat_round(
        players, history, sizes, seed=seed, separate_clubs=separate_clubs, preferred=preferred,
        n_rounds=n_rounds, effort=effort, plan=followed,
    )
    return rnd, followed


def _canonical_plan(
    ctx: _Context, n_rounds: int, preferred: int | None, seed: int, effort: float
) -> StoredPlan | None:
    """The whole-tournament plan for the ``n`` players of ``ctx``, made from a fixed seed, with its
    players renamed so that its round 1 is the round 1 played (``ctx`` holds it): one of ``_RENAMINGS``
    renamings, drawn by ``seed``.  None when round 1 does not fit the plan's first round."""
    n = ctx.n
    blank = _Context([SeatingPlayer(i) for i in range(n)], [], ctx.sizes, preferred)
    plan = _followed_plan(blank, n_rounds, random.Random(_CANONICAL_SEED + n), effort)
    renaming = random.Random(seed).randrange(_RENAMINGS)
    assign = _first_round_map(ctx.history[0], _renamed(plan[0], renaming), n)
    if assign is None:
        return None
    inverse = {x: p for p, x in enumerate(assign)}
    rounds = [[[ctx.ids[inverse[x]] for x in t] for t in rnd] for rnd in plan]
    return StoredPlan.build(
        kind=PlanKind.FOLLOWED, players=ctx.ids, sizes=ctx.sizes, seed=seed, from_round=1, rounds=rounds
    )


def _followed_plan(
    ctx: _Context, n_rounds: int, rng: random.Random, effort: float
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """A plan of the rounds after the history of ``ctx`` that round by round follows: it serves each
    of them, so it gets a whole plan's budget however few rounds are left (docs/performance.md, "The
    plan round by round follows")."""
    budget = _budget(_PLAN_BUDGET, ctx.n, effort)
    fixed, free = _fresh_plan(ctx, n_rounds, rng, budget, effort)
    return tuple(tuple(tuple(t) for t in rnd) for rnd in [*fixed, *free])


def _follow(ctx: _Context, plan: StoredPlan) -> list[list[int]] | None:
    """The next round of ``plan`` (indices, tables in the order of the sizes) when the field is its
    field and the rounds played since its start are its beginning; else None (a manual swap, another
    field: the caller searches)."""
    if plan.players != tuple(ctx.ids) or list(plan.sizes) != ctx.sizes:
        return None
    start = plan.from_round - 1
    played = len(ctx.history) - start
    if played < 0 or played >= len(plan.rounds):
        return None
    for rnd, planned in zip(ctx.history[start:], plan.rounds, strict=False):
        if _partition(rnd) != _partition(ctx.to_idx(planned)):
            return None
    return _fit_sizes(ctx.to_idx(plan.rounds[played]), ctx.sizes)


def _renamed(tables: Sequence[Sequence[int]], renaming: int) -> list[list[int]]:
    """The plan's first round in the order ``_first_round_map`` maps round 1 onto: largest tables
    first; the tables of a size and the players of a table in the order renaming number ``renaming``
    shuffles them into (0: as planned)."""
    out = [list(t) for t in tables]
    if renaming:
        shuffle = random.Random(renaming).shuffle
        shuffle(out)
        for table in out:
            shuffle(table)
    return sorted(out, key=len, reverse=True)


def _clean_history(ctx: _Context) -> bool:
    """Every earlier round was played by exactly today's players at tables of today's sizes.

    Compared as played, withdrawn players included: after a withdrawal a history table can shrink to
    an odd size it was not (three players of a table of four), and the searches that take a clean
    history as the beginning of one plan would count it as an odd table and break the odd-table rule."""
    return _clean_since(ctx) == 0


def _clean_since(ctx: _Context) -> int:
    """The first of the last rounds that were all played by exactly today's players at tables of
    today's sizes (``len(ctx.history)`` when the last round was not)."""
    srt = sorted(ctx.sizes)
    since = len(ctx.history)
    while since and ctx.played_sizes[since - 1] == srt and sorted(map(len, ctx.history[since - 1])) == srt:
        since -= 1
    return since


def _plan_after(
    players: Sequence[SeatingPlayer],
    base: Sequence[Round],
    sizes: Sequence[int],
    n_rounds: int,
    preferred: int | None,
    effort: float,
) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The rounds after ``base`` (ids) for ``players`` as indices, from a seed that ``base`` gives.
    The seed reads the rounds as indices, not ids: a tournament rebuilt with other ids in the same
    order (the demo, loaded again) is seated the same."""
    ctx = _Context(players, base, sizes, preferred)
    rng = random.Random(repr((ctx.n, ctx.history, tuple(sizes), n_rounds)))
    return _followed_plan(ctx, n_rounds, rng, effort)


def _soft_history(
    ctx: _Context,
    players: Sequence[SeatingPlayer],
    preferred: int | None,
    m: int,
    club_rounds: list[bool],
    rng: random.Random,
    budget: int,
    floor: int,
) -> tuple[int, list[list[list[int]]]]:
    """Plan ``m`` rounds after a clean history by first searching the whole tournament with the
    history rounds loosened: they may change where that pays more than ``_SOFT`` per pair of a history
    table broken up (their odd-table roles stay).  Then the history is put back and the remaining rounds
    found that way are repaired by the ordinary search.  A search with the history fixed from the start
    gets stuck far more often: fitting a few rounds into a fixed history is the harder problem."""
    h = len(ctx.history)
    whole = _Context(players, [], ctx.sizes, preferred)
    levels0 = whole.levels()
    hist = [_fit_sizes([list(t) for t in rnd], ctx.sizes) for rnd in ctx.history]
    for rnd in hist:
        whole.add_round(rnd)
    rounds = [[list(t) for t in rnd] for rnd in hist]
    for _ in range(m):
        rnd = _seat_one(whole, rng, False, _GREEDY_BUDGET)
        _count_odd(whole, rnd)
        rounds.append(rnd)
    anchors = []
    for rnd in hist:
        anc = [-1] * ctx.n
        for ti, t in enumerate(rnd):
            for p in t:
                anc[p] = ti
        anchors.append(anc)
    anchors += [[-1] * ctx.n for _ in range(m)]
    search = _Search(
        whole, rounds, levels0, [False] * (h + m), rng, anchors,
        stick=[_SOFT] * h + [0] * m, fixed_roles=[True] * h + [False] * m,
    )
    for weight in _SOFT_STAGES:
        # loosened first, then pinned step by step, so the free rounds follow the history back
        search.stick = [weight] * h + [0] * m
        search.run(budget // 2 // len(_SOFT_STAGES), -(10**18))
    free = [[list(t) for t in rnd] for rnd in search.rounds[h:]]
    work = ctx.clone()
    levels0 = work.levels()
    for rnd in free:
        work.add_round(rnd, count_odd=False)
        _count_odd(work, rnd)
    repair = _Search(work, free, levels0, club_rounds, rng)
    cost = repair.run(budget - budget // 2, floor)
    return cost, repair.rounds


def plan_schedule(
    players: Sequence[SeatingPlayer],
    n_rounds: int,
    sizes: Sequence[int],
    *,
    seed: int,
    history: Sequence[Round] = (),
    previous_plan: Sequence[Round] | None = None,
    preferred: int | None = None,
    effort: float = 1.0,
) -> list[Round]:
    """Plan rounds ``len(history)+1 .. n_rounds`` for the active players.

    ``previous_plan``: the earlier plan for those rounds (a whole plan of ``n_rounds`` rounds is accepted
    too).  When given (players withdrew or arrived) it is the warm start: withdrawn players are removed,
    new players fill the holes, and the search only repairs what became worse (pairs of the old plan
    that stay together earn a small bonus), so most of the plan is kept.  A fresh plan is made as well;
    the repaired one is taken unless it has more than ``_REPLAN_SLACK`` repeats more.  The first round of
    a plan keeps players of the same club apart where possible.  ``preferred``: as for
    :func:`seat_round`; ``effort`` multiplies the search budget.
    """
    ctx = _Context(players, history, sizes, preferred)
    rng = random.Random(seed)
    h = len(ctx.history)
    m = n_rounds - h
    if m <= 0:
        return []
    if previous_plan is not None and h and len(previous_plan) == n_rounds:
        previous_plan = previous_plan[h:]  # the whole earlier plan was passed: keep the unplayed part
    budget = _budget(_PLAN_BUDGET, ctx.n, effort)
    club_first = h == 0
    fixed, free = _fresh_plan(ctx, n_rounds, rng, budget, effort)
    if previous_plan is not None:
        fresh_repeats = _repeats(ctx, [*fixed, *free])
        warm_ctx = ctx.clone()
        levels0 = warm_ctx.levels()
        rounds, anchors = _warm_start(warm_ctx, previous_plan, m, rng)
        club_rounds = [club_first and i == 0 for i in range(m)]
        search = _Search(warm_ctx, rounds, levels0, club_rounds, rng, anchors)
        cost = search.run(budget, -(10**18))  # only stop when no conflict is left
        _cost, repaired = _search_third_meetings(
            base=ctx, work=warm_ctx, rounds=search.rounds, cost=cost, club_rounds=club_rounds, rng=rng,
            budget=budget, target=-(10**18), anchors=anchors,
        )
        if _repeats(ctx, repaired) <= fresh_repeats + _REPLAN_SLACK:
            fixed, free = [], repaired
    out = []
    for rnd in [*fixed, *free]:
        out.append(ctx.to_ids(_order_seats(ctx, rnd, rng)))
    return out


def _fresh_plan(ctx: _Context, n_rounds: int, rng: random.Random, budget: int, effort: float):
    """(design rounds, searched rounds) after the history of ``ctx`` (not changed); ``effort`` scales
    the budget of a design's first round as ``budget`` is scaled.

    A design shorter than the plan is continued by the search; the search alone is tried as well and
    the plan with the lower cost kept: after a design's last round only few pairs have not met (a
    resolvable transversal design leaves exactly the group-mates), which can cost more repeats in the
    rounds after it than a search that never followed the design."""
    h = len(ctx.history)
    m = n_rounds - h
    # a design's rounds are not searched, so they could not keep team-mates apart
    has_design = not ctx.has_teams and any(True for _ in _design_candidates(ctx.n, ctx.sizes))
    first_budget = _budget(_ROUND_BUDGET, ctx.n, min(1.0, effort))  # a first round seated for the clubs
    club_budget = first_budget if h == 0 else None
    if not has_design:
        return [], _searched_plan(ctx, [], m, rng, budget, club_budget=club_budget)[1]
    work = ctx.clone()
    fixed: list[list[list[int]]] = []  # planned rounds not to be searched (design rounds)
    known = list(work.history)
    if h == 0:
        # any first round is isomorphic to the design's first round: seat it for the clubs, then
        # continue the design from it
        first = _seat_one(work, rng, True, first_budget)
        _count_odd(work, first)
        fixed.append(first)
        known.append(first)
    cont = _design_rounds(work, known, n_rounds - len(known), n_rounds, rng) or []
    for rnd in cont:
        work.add_round(rnd)
        fixed.append(rnd)
    if not cont or len(fixed) == m:
        # no design continues the rounds so far, or one covers the plan
        return fixed, _searched_plan(work, fixed, m, rng, budget)[1]
    cost, free = _searched_plan(work, fixed, m, rng, budget)
    alone_cost, alone = _searched_plan(ctx, [], m, rng, budget, club_budget=club_budget)
    return ([], alone) if alone_cost < cost else (fixed, free)


def _searched_plan(
    work: _Context,
    fixed: list[list[list[int]]],
    m: int,
    rng: random.Random,
    budget: int,
    *,
    club_budget: int | None = None,
) -> tuple[int, list[list[list[int]]]]:
    """Search the rounds of a plan of ``m`` rounds after ``fixed`` (already in ``work``, which is not
    changed).  (cost, searched rounds.)  A ``club_budget`` (only for a plan from no history, with no
    fixed rounds) makes the first round keep clubs apart.

    Without teams, clubs are not searched: the plan is searched as if nobody had a club and then
    relabelled so that its first round is one seated for the clubs alone.  The repeats of a
    plan do not depend on who takes which index, and with no history every first round is as good as
    any other, so the plan loses nothing, while a search that carries the clubs is held back by them in
    round 1 (docs/seating.md, "Clubs renamed in").  Team-mates are kept apart in every round, which no
    renaming keeps, so with teams the first round is searched with the clubs."""
    free = m - len(fixed)
    club_rounds = [club_budget is not None and work.has_teams and i == 0 for i in range(free)]
    cost, rounds = _search_rounds(work, free, club_rounds, rng, budget, _floor(work, free))
    if not fixed and not work.history and not work.has_teams:
        cost, rounds = _tight_plan_if_better(work, free, cost, rounds, rng)
    if club_budget is not None and not work.has_teams and rounds:
        rounds = _with_first_round_for_clubs(work, rounds, rng, club_budget)
    return cost, rounds


def _tight_plan_if_better(
    ctx: _Context, m: int, cost: int, rounds: list[list[list[int]]], rng: random.Random
) -> tuple[int, list[list[list[int]]]]:
    """(cost, rounds) of a plan of ``m`` rounds from no history, or of the exact search's plan
    (:mod:`engine.seating.exact`) where counting leaves some player no slack, the searched plan makes
    a pair meet more often than counting needs, and the exact search finds one that costs less."""
    cap = tight_cap(ctx.n, ctx.sizes, ctx.special_sizes, m)
    if cap is None or max(_meetings(rounds).values(), default=0) <= cap:
        return cost, rounds
    exact = tight_plan(ctx.n, ctx.sizes, ctx.special_sizes, m, cap, rng)
    if exact is None:
        return cost, rounds
    exact_cost = sum(_pair_cost(v) for v in _meetings(exact).values())
    return (exact_cost, exact) if exact_cost < cost else (cost, rounds)


def _with_first_round_for_clubs(
    ctx: _Context, rounds: list[list[list[int]]], rng: random.Random, budget: int
) -> list[list[list[int]]]:
    """``rounds`` (a plan from no history) with its players renamed so that the first round keeps
    clubs apart: table by table and seat by seat, the first round becomes a round seated for the clubs
    (tables in the order of ``ctx.sizes`` in both, so the sizes match)."""
    if all(c < 0 for c in ctx.clubs):
        return rounds
    first = _seat_one(ctx.clone(), rng, True, budget)
    name = [-1] * ctx.n
    for planned, seated in zip(rounds[0], first, strict=True):
        for x, p in zip(planned, seated, strict=True):
            name[x] = p
    return [[[name[x] for x in table] for table in rnd] for rnd in rounds]


def _floor(ctx: _Context, m: int) -> int:
    """A lower bound on the pair cost after ``m`` more rounds: the meetings so far, and the new ones
    given one by one to the pairs where they cost least (the pair cost is convex)."""
    return _floor_fill(ctx, m)[0]


def _floor_fill(ctx: _Context, m: int) -> tuple[int, int]:
    """(the lower bound of ``_floor``, the most meetings of a pair in it: where this is 3, counting
    alone makes a pair meet three times)."""
    counts: dict[int, int] = {}
    cost = 0
    for a, row in enumerate(ctx.M):
        for b in range(a + 1, ctx.n):
            v = row[b]
            counts[v] = counts.get(v, 0) + 1
            cost += _pair_cost(v)
    top = max(counts, default=0)  # (the meetings so far; _fill changes counts)
    added, most = _fill(counts, m * sum(s * (s - 1) // 2 for s in ctx.sizes))
    return cost + added, max(top, most)


def _repeats(ctx: _Context, rounds: list[list[list[int]]]) -> int:
    """Repeated pairs of the history of ``ctx`` plus ``rounds`` (indices)."""
    met: dict[tuple[int, int], int] = {}
    for rnd in [*ctx.history, *rounds]:
        for table in rnd:
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    key = (a, b) if a < b else (b, a)
                    met[key] = met.get(key, 0) + 1
    return sum(v - 1 for v in met.values() if v > 1)


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
