"""Standings: totals, tie-breaks, shared places, missed rounds, order independence and speed."""

import random

from hypothesis import given
from hypothesis import strategies as st

from engine.scoring import ScoringFormat
from engine.standings import (
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    MissedRoundPolicy,
    RoundResult,
    StandingsSettings,
    compute_standings,
)

R = RoundResult
CHARGE = StandingsSettings(missed_policy=MissedRoundPolicy.CHARGE_HIGHEST)
WINNER = StandingsSettings(fmt=ScoringFormat.WINNER_COLLECTS)


def ranks(rows):
    return [(r.player_id, r.rank) for r in rows]


def test_lowest_total_wins_and_tiebreaks():
    results = [
        R(1, 1, 0, True), R(2, 1, 10, False), R(3, 1, 10, False), R(4, 1, 30, False),
        R(1, 2, 20, False), R(2, 2, 0, True), R(3, 2, 10, False), R(4, 2, 0, True),
    ]  # fmt: skip
    rows = compute_standings([1, 2, 3, 4], results, [1, 2])
    assert ranks(rows) == [(2, 1), (1, 2), (3, 3), (4, 4)]  # 1 and 3 tie on 20: 1 won a round
    first = rows[0]
    assert first.total == 10 and first.per_round == {1: 10, 2: 0} and first.rounds_won == 1
    assert (
        first.worst_round == 10 and first.complete and first.rounds_played == 2 and first.rounds_missed == 0
    )
    assert first.tiebreak_values == {"rounds_won": 1, "worst_round": 10}
    assert not any(r.shared for r in rows)


def test_worst_round_breaks_ties_then_places_are_shared():
    results = [R(1, 1, 10, False), R(1, 2, 10, False), R(2, 1, 0, False), R(2, 2, 20, False),
               R(3, 1, 10, False), R(3, 2, 10, False), R(4, 1, 30, False), R(4, 2, 30, False)]  # fmt: skip
    rows = compute_standings([4, 3, 2, 1], results, [1, 2])
    assert ranks(rows) == [(1, 1), (3, 1), (2, 3), (4, 4)]
    assert [r.shared for r in rows] == [True, True, False, False]


def test_tiebreak_registry_and_custom_order():
    assert DEFAULT_TIEBREAKS == ("rounds_won", "worst_round")
    assert TIEBREAKS["rounds_won"].label == "Rounds won"
    assert TIEBREAKS["worst_round"].label == "Worst round"
    results = [R(1, 1, 0, True), R(1, 2, 20, False), R(2, 1, 10, False), R(2, 2, 10, False)]
    assert ranks(compute_standings([1, 2], results, [1, 2])) == [(1, 1), (2, 2)]
    by_worst = StandingsSettings(tiebreaks=("worst_round", "rounds_won"))
    assert ranks(compute_standings([1, 2], results, [1, 2], by_worst)) == [(2, 1), (1, 2)]
    none = StandingsSettings(tiebreaks=("unknown",))
    assert ranks(compute_standings([1, 2], results, [1, 2], none)) == [(1, 1), (2, 1)]


def test_winner_collects_ranks_highest_first():
    results = [R(1, 1, 90, True), R(2, 1, 0, False), R(1, 2, 0, False), R(2, 2, 90, True),
               R(3, 1, 0, False), R(3, 2, 0, False)]  # fmt: skip
    rows = compute_standings([1, 2, 3], results, [1, 2], WINNER)
    assert ranks(rows) == [(1, 1), (2, 1), (3, 3)]
    assert rows[0].worst_round == 0
    # equal totals (90) and one win each: the higher lowest round (30 against 0) is better
    results = [R(1, 1, 90, True), R(1, 2, 0, False), R(1, 3, 0, False),
               R(2, 1, 30, True), R(2, 2, 30, False), R(2, 3, 30, False)]  # fmt: skip
    rows = compute_standings([1, 2], results, [1, 2, 3], WINNER)
    assert ranks(rows) == [(2, 1), (1, 2)]
    assert [r.tiebreak_values["worst_round"] for r in rows] == [30, 0]


def test_missed_rounds_rank_after_complete_players():
    results = [R(1, 1, 50, False), R(1, 2, 50, False), R(2, 1, 0, True), R(3, 1, 5, False),
               R(3, 2, 5, False), R(4, 2, 0, True)]  # fmt: skip
    rows = compute_standings([1, 2, 3, 4, 5], results, [1, 2])
    assert ranks(rows) == [(3, 1), (1, 2), (2, 3), (4, 3), (5, 5)]
    late = rows[2]
    assert not late.complete and late.per_round == {1: 0, 2: None} and late.rounds_missed == 1
    assert rows[4].worst_round is None and rows[4].tiebreak_values["worst_round"] is None


def test_incomplete_players_with_equal_totals_prefer_more_rounds_played():
    results = [R(1, 1, 0, True), R(1, 2, 0, True), R(2, 1, 0, True), R(3, 1, 1, False), R(3, 2, 1, False),
               R(3, 3, 1, False)]  # fmt: skip
    rows = compute_standings([1, 2, 3], results, [1, 2, 3])
    assert ranks(rows) == [(3, 1), (1, 2), (2, 3)]


def test_charge_highest_policy():
    results = [R(1, 1, 50, False), R(1, 2, 40, False), R(2, 1, 0, True), R(3, 1, 5, False), R(3, 2, 0, True)]
    rows = compute_standings([1, 2, 3], results, [1, 2], CHARGE)
    by_id = {r.player_id: r for r in rows}
    assert by_id[2].charged == {2: 40} and by_id[2].total == 40 and not by_id[2].complete
    assert ranks(rows) == [(3, 1), (2, 2), (1, 3)]
    winner_charge = StandingsSettings(
        fmt=ScoringFormat.WINNER_COLLECTS, missed_policy=MissedRoundPolicy.CHARGE_HIGHEST
    )
    rows = compute_standings([1, 2, 3], results, [1, 2], winner_charge)
    assert {r.player_id: r.charged for r in rows}[2] == {2: 0}


def test_only_counted_rounds_and_known_players_count():
    results = [R(1, 1, 10, False), R(1, 2, 99, False), R(9, 1, 0, True), R(2, 1, 0, True)]
    rows = compute_standings([1, 2, 2], results, [1])
    assert [(r.player_id, r.total) for r in rows] == [(2, 0), (1, 10)]
    assert compute_standings([], results, [1]) == []


def test_duplicate_results_resolve_independently_of_order():
    a, b = R(1, 1, 10, False), R(1, 1, 20, False)
    assert compute_standings([1], [a, b], [1]) == compute_standings([1], [b, a], [1])


@st.composite
def tournament(draw):
    players = draw(st.integers(1, 12))
    rounds = draw(st.integers(1, 4))
    results = []
    for pid in range(players):
        for number in range(1, rounds + 1):
            if draw(st.integers(0, 5)):  # sometimes missed
                results.append(R(pid, number, draw(st.integers(0, 60)), draw(st.booleans())))
    settings = StandingsSettings(
        fmt=draw(st.sampled_from(list(ScoringFormat))),
        missed_policy=draw(st.sampled_from(list(MissedRoundPolicy))),
    )
    return list(range(players)), results, list(range(1, rounds + 1)), settings


@given(tournament(), st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_input_order(data, rnd):
    players, results, rounds, settings = data
    expected = compute_standings(players, results, rounds, settings)
    players2, results2, rounds2 = players[:], results[:], rounds[:]
    rnd.shuffle(players2)
    rnd.shuffle(results2)
    rnd.shuffle(rounds2)
    assert compute_standings(players2, results2, rounds2, settings) == expected
    assert [r.rank for r in expected] == sorted(r.rank for r in expected)
    assert expected[0].rank == 1 if expected else True


def test_two_hundred_players_six_rounds():
    rnd = random.Random(3)
    results = [R(p, n, rnd.randint(0, 150), rnd.random() < 0.25) for p in range(200) for n in range(1, 7)]
    rows = compute_standings(range(200), results, range(1, 7))
    assert len(rows) == 200
    assert sorted(r.player_id for r in rows) == list(range(200))
    totals = [r.total for r in rows]
    assert totals == sorted(totals)
    assert all(r.rounds_played == 6 and r.complete for r in rows)
