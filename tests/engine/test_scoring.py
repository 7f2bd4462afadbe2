"""Round scores for both formats and the end-of-tournament rule."""

from engine.scoring import EndRule, ScoringFormat, is_finished, round_scores

MINUS, WINNER = ScoringFormat.MINUS_POINTS, ScoringFormat.WINNER_COLLECTS


def test_formats():
    assert MINUS.lower_is_better and not WINNER.lower_is_better
    assert ScoringFormat("minus") is MINUS and EndRule("threshold") is EndRule.THRESHOLD


def test_minus_points():
    assert round_scores(MINUS, {1: 0, 2: 77, 3: 12}, 1) == {1: 0, 2: 77, 3: 12}
    assert round_scores(MINUS, {1: 5, 2: 77}, 1) == {1: 0, 2: 77}


def test_winner_collects():
    assert round_scores(WINNER, {1: 0, 2: 77, 3: 12}, 1) == {1: 89, 2: 0, 3: 0}


def test_no_winner_time_limit():
    assert round_scores(MINUS, {1: 3, 2: 77}, None) == {1: 3, 2: 77}
    assert round_scores(WINNER, {1: 3, 2: 77}, None) == {1: 0, 2: 0}


def test_is_finished_after_rounds():
    kw = {"end_rule": EndRule.ROUNDS, "rounds_total": 6, "totals": {1: 999}, "threshold": 500}
    assert not is_finished(rounds_played=5, **kw)
    assert is_finished(rounds_played=6, **kw)
    assert not is_finished(
        end_rule=EndRule.ROUNDS, rounds_played=3, rounds_total=0, totals={}, threshold=None
    )


def test_is_finished_at_threshold():
    kw = {"end_rule": EndRule.THRESHOLD, "rounds_played": 3, "rounds_total": 0, "threshold": 500}
    assert not is_finished(totals={1: 499, 2: 10}, **kw)
    assert is_finished(totals={1: 500, 2: 10}, **kw)
    assert not is_finished(
        end_rule=EndRule.THRESHOLD, rounds_played=9, rounds_total=0, totals={1: 9}, threshold=None
    )
    assert is_finished(
        end_rule=EndRule.THRESHOLD, rounds_played=10, rounds_total=10, totals={}, threshold=500
    )
