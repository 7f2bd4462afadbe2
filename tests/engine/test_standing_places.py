"""`standing_places`: the ranks and totals of `compute_standings` without its rows (what a series
reads of each evening)."""

from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import ScoringFormat
from engine.standings import (
    MissedRoundPolicy,
    RoundResult,
    StandingsSettings,
    compute_standings,
    standing_places,
)

TIEBREAK_ORDERS = [(), ("rounds_won",), ("worst_round",), ("worst_round", "rounds_won")]


@st.composite
def evening(draw):
    players = draw(st.integers(0, 12))
    rounds = draw(st.integers(1, 4))
    results = [
        RoundResult(pid, number, draw(st.integers(0, 12)), draw(st.booleans()))
        for pid in range(players)
        for number in range(1, rounds + 1)
        if draw(st.integers(0, 4))  # sometimes missed
    ]
    settings = StandingsSettings(
        fmt=draw(st.sampled_from(list(ScoringFormat))),
        tiebreaks=draw(st.sampled_from(TIEBREAK_ORDERS)),
        missed_policy=draw(st.sampled_from(list(MissedRoundPolicy))),
    )
    return list(range(players)), results, list(range(1, rounds + 1)), settings


@given(evening())
def test_places_are_the_ranks_and_totals_of_the_standings(data):
    players, results, rounds, settings = data
    rows = compute_standings(players, results, rounds, settings)
    assert standing_places(players, results, rounds, settings) == [
        (row.player_id, row.rank, row.total) for row in rows
    ]


def test_shared_places():
    results = [RoundResult(1, 1, 10, False), RoundResult(2, 1, 10, False), RoundResult(3, 1, 0, True)]
    assert standing_places([1, 2, 3], results, [1]) == [(3, 1, 0), (1, 2, 10), (2, 2, 10)]
