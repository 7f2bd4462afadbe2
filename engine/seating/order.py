"""Seat order within a table (the playing order): who sits first, and every other seat, rotates."""

from __future__ import annotations

import itertools
import random

from engine.seating.state import _Context

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
