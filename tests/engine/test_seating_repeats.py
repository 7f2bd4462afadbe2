"""Whether a draft's repeats were avoidable (#51 item 17): `repeat_floor` is a true lower bound, the
suggested exchange saves what it says, and "unavoidable" is said only where no seating does better."""

from __future__ import annotations

import itertools

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.seating import repeat_floor, repeat_verdict, seating_report


def seatings(players: list[int], sizes: list[int]):
    """Every way to seat `players` at tables of `sizes` (as sets; for eight or nine players)."""
    if not sizes:
        yield []
        return
    size, rest = sizes[0], sizes[1:]
    # Every table of this size from all players (not the first player's table only: with tables of
    # different sizes the first player may sit at either).
    for table in itertools.combinations(players, size):
        left = [p for p in players if p not in table]
        for tail in seatings(left, rest):
            yield [list(table), *tail]


def new_repeats(history, proposal) -> int:
    return len(seating_report(history, proposal).new_repeats)


@st.composite
def evenings(draw):
    """Eight or nine players at two tables, one to three earlier rounds, a proposed round."""
    n = draw(st.sampled_from([8, 9]))
    sizes = [4, 4] if n == 8 else [4, 5]
    players = list(range(1, n + 1))

    def a_round():
        order = draw(st.permutations(players))
        return [list(order[:sizes[0]]), list(order[sizes[0]:])]

    history = [a_round() for _ in range(draw(st.integers(1, 3)))]
    return history, a_round(), players, sizes


@settings(max_examples=60, deadline=None)
@given(evenings())
@example(evening=(  # tables of 4 and 5: the best seating has player 1 at the table of five
    [[[1, 2, 3, 4], [5, 6, 7, 8, 9]], [[1, 2, 3, 5], [4, 6, 7, 8, 9]], [[1, 2, 4, 5], [3, 6, 7, 8, 9]]],
    [[3, 4, 5, 6], [1, 2, 7, 8, 9]], [1, 2, 3, 4, 5, 6, 7, 8, 9], [4, 5],
))
def test_the_floor_is_never_above_the_best_seating(evening):
    history, proposal, players, sizes = evening
    best = min(new_repeats(history, seating) for seating in seatings(players, sizes))
    floor = repeat_floor(history, proposal)
    assert floor <= best <= new_repeats(history, proposal)
    verdict = repeat_verdict(history, proposal)
    assert verdict.repeats == new_repeats(history, proposal) and verdict.floor == floor
    if verdict.unavoidable:
        assert best == verdict.repeats


@settings(max_examples=60, deadline=None)
@given(evenings())
def test_the_suggested_exchange_saves_what_it_says(evening):
    history, proposal, _players, _sizes = evening
    verdict = repeat_verdict(history, proposal)
    if verdict.swap is None:
        # No single exchange saves a repeat: every exchange is checked by hand.
        for a in proposal[0]:
            for b in proposal[1]:
                swapped = [[b if p == a else p for p in proposal[0]],
                           [a if p == b else p for p in proposal[1]]]
                assert new_repeats(history, swapped) >= verdict.repeats
        return
    a, b = verdict.swap
    swapped = [[{a: b, b: a}.get(p, p) for p in table] for table in proposal]
    assert new_repeats(history, swapped) == verdict.repeats - verdict.saved and verdict.saved > 0


def test_a_repeat_forced_by_the_field_is_called_unavoidable():
    """Five players, tables of five: round 2 seats everybody with everybody again."""
    verdict = repeat_verdict([[[1, 2, 3, 4, 5]]], [[1, 2, 3, 4, 5]])
    assert (verdict.repeats, verdict.floor, verdict.unavoidable, verdict.swap) == (10, 10, True, None)


def test_an_avoidable_repeat_comes_with_the_exchange_that_avoids_it():
    history = [[[1, 2, 3, 4], [5, 6, 7, 8]]]
    proposal = [[1, 2, 3, 5], [4, 6, 7, 8]]  # 1, 2, 3 meet again, and 6, 7, 8: six pairs
    verdict = repeat_verdict(history, proposal)
    assert verdict.repeats == 6 and verdict.floor == 0 and not verdict.unavoidable
    assert (verdict.swap, verdict.saved) == ((1, 6), 2)  # the first of the exchanges saving two
