"""Season ranking: every rule alone and combined, bad settings, order independence, shared places,
monotonicity and best-N."""

from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rankings import GroupValue
from engine.series import (
    EveningResult,
    GapKind,
    SeasonEvening,
    SeasonGap,
    SeasonPoints,
    SeasonRule,
    adjustments,
    evening_points,
    places_of,
    rule_problems,
    season_club_ranking,
    season_evenings,
    season_ranking,
)

E = EveningResult


def ranking(rows):
    return [(r.player_id, r.rank, r.score) for r in rows]


def test_points_by_field_best_of():
    # 3 evenings, 4 players each; best 2 of 3 count.
    results = [
        E(1, 1, 1, 10, 4), E(2, 1, 2, 20, 4), E(3, 1, 3, 30, 4), E(4, 1, 4, 40, 4),
        E(1, 2, 4, 50, 4), E(2, 2, 1, 5, 4), E(3, 2, 2, 10, 4), E(4, 2, 3, 20, 4),
        E(1, 3, 1, 0, 4), E(2, 3, 3, 30, 4), E(3, 3, 2, 10, 4), E(4, 3, 4, 60, 4),
    ]  # fmt: skip
    rows = season_ranking(results, [1, 2, 3], SeasonRule(best_of=2))
    # 1: 4,1,4 → 8; 2: 3,4,2 → 7; 3: 2,3,3 → 6; 4: 1,2,1 → 3
    assert ranking(rows) == [(1, 1, 8), (2, 2, 7), (3, 3, 6), (4, 4, 3)]
    assert rows[0].counted == (1, 3) and rows[0].points == {1: 4, 2: 1, 3: 4}
    assert rows[0].wins == 2


def test_points_table_and_places_beyond_it():
    rule = SeasonRule(points=SeasonPoints.BY_TABLE, table=(25, 20, 16))
    assert evening_points(E(1, 1, 1, 0, 9), rule) == 25
    assert evening_points(E(1, 1, 3, 0, 9), rule) == 16
    assert evening_points(E(1, 1, 4, 0, 9), rule) == 0


def test_minus_points_sum_and_fewer_evenings_rank_after():
    results = [E(1, 1, 1, 30, 3), E(1, 2, 2, 40, 3), E(2, 1, 2, 50, 3), E(2, 2, 1, 10, 3), E(3, 1, 3, 5, 3)]
    rows = season_ranking(results, [1, 2], SeasonRule(points=SeasonPoints.MINUS_POINTS))
    assert ranking(rows) == [(2, 1, 60), (1, 2, 70), (3, 3, 5)]


def test_minimum_evenings_and_members_only():
    results = [E(1, 1, 1, 0, 3), E(2, 1, 2, 0, 3), E(2, 2, 1, 0, 3), E(3, 1, 3, 0, 3), E(3, 2, 2, 0, 3)]
    rows = season_ranking(results, [1, 2], SeasonRule(min_evenings=2, members_only=True), members=[1, 2])
    expected = [(2, 1, True), (1, None, False), (3, None, False)]
    assert [(r.player_id, r.rank, r.ranked) for r in rows] == expected


def test_bonus_and_deduction_in_both_directions():
    results = [E(1, 1, 1, 10, 2), E(2, 1, 2, 20, 2), E(2, 2, 1, 5, 2), E(1, 3, 1, 0, 2), E(2, 3, 2, 9, 2)]
    rule = SeasonRule(attendance_bonus=3, miss_deduction=5, free_misses=0)
    rows = {r.player_id: r for r in season_ranking(results, [1, 2, 3], rule)}
    # 1: 2+2 (two evenings) +6 bonus -5 (one missed) = 5; 2: 1+2+1 +9 = 13
    assert (rows[1].score, rows[1].bonus, rows[1].deduction) == (5, 6, 5)
    assert (rows[2].score, rows[2].bonus, rows[2].deduction) == (13, 9, 0)
    minus = SeasonRule(points=SeasonPoints.MINUS_POINTS, attendance_bonus=3, miss_deduction=5, free_misses=1)
    rows = {r.player_id: r for r in season_ranking(results, [1, 2, 3], minus)}
    assert rows[1].score == 10 + 0 - 6 + 0  # one miss is free
    assert rows[2].score == 20 + 5 + 9 - 9


def test_all_options_combined():
    results = [E(p, e, ((p + e) % 4) + 1, p * e, 4) for p in range(1, 5) for e in range(1, 9)]
    rule = SeasonRule(
        points=SeasonPoints.BY_TABLE, table=(25, 20, 16, 13), best_of=5, min_evenings=3,
        attendance_bonus=1, free_misses=2, miss_deduction=4, members_only=True,
        tiebreaks=("attended", "wins", "best_evening"),
    )
    rows = season_ranking(results, list(range(1, 9)), rule, members=[1, 2, 3])
    assert [r.player_id for r in rows if not r.ranked] == [4]
    for row in rows:
        assert len(row.counted) == 5 and row.bonus == 8 and row.deduction == 0
        assert row.score == sum(sorted(row.points.values(), reverse=True)[:5]) + 8


def test_ties_share_a_place_and_tiebreaks_decide():
    results = [E(1, 1, 1, 0, 2), E(2, 1, 2, 0, 2), E(2, 2, 1, 0, 2), E(1, 2, 2, 0, 2)]
    rows = season_ranking(results, [1, 2], SeasonRule(tiebreaks=()))
    assert [(r.rank, r.shared) for r in rows] == [(1, True), (1, True)]


@pytest.mark.parametrize(
    "rule,code",
    [
        (SeasonRule(points=SeasonPoints.BY_TABLE), "points_table_missing"),
        (SeasonRule(points=SeasonPoints.BY_TABLE, table=(10, 12)), "points_table_order"),
        (SeasonRule(points=SeasonPoints.BY_TABLE, table=(10, -1)), "points_table_negative"),
        (SeasonRule(points=SeasonPoints.BY_TABLE, table=(1001, 5)), "points_table_range"),
        (SeasonRule(points=SeasonPoints.BY_TABLE, table=(1,) * 101), "points_table_range"),
        (SeasonRule(best_of=0), "best_of_range"),
        (SeasonRule(best_of=3, min_evenings=4), "min_above_best"),
        (SeasonRule(attendance_bonus=-1), "negative_setting"),
        (SeasonRule(tiebreaks=("coin",)), "unknown_tiebreak"),
    ],
)
def test_bad_rules_are_refused_with_a_code(rule, code):
    assert [p.code for p in rule_problems(rule)] == [code]
    with pytest.raises(ValueError, match=code):
        season_ranking([], [1], rule)


def test_places_of_shares_equal_totals():
    assert places_of({1: 10, 2: 5, 3: 10}, lower_is_better=True) == {2: 1, 1: 2, 3: 2}


rules = st.builds(
    SeasonRule,
    points=st.sampled_from([SeasonPoints.BY_FIELD, SeasonPoints.MINUS_POINTS]),
    best_of=st.one_of(st.none(), st.integers(1, 4)),
    attendance_bonus=st.integers(0, 3),
    miss_deduction=st.integers(0, 3),
    free_misses=st.integers(0, 2),
)


@st.composite
def seasons(draw):
    evenings = draw(st.integers(1, 5))
    players = draw(st.integers(1, 7))
    results = []
    for evening in range(1, evenings + 1):
        present = draw(st.lists(st.integers(1, players), unique=True, min_size=1))
        totals = {pid: draw(st.integers(0, 200)) for pid in present}
        places = places_of(totals, lower_is_better=True)
        results += [E(pid, evening, places[pid], totals[pid], len(present)) for pid in present]
    return results, list(range(1, evenings + 1))


@given(seasons(), rules, st.randoms())
def test_order_of_inputs_does_not_matter(season, rule, rnd):
    results, evenings = season
    shuffled = list(results)
    rnd.shuffle(shuffled)
    assert season_ranking(results, evenings, rule) == season_ranking(shuffled, evenings[::-1], rule)


@given(seasons(), rules)
def test_ranks_share_and_ascend(season, rule):
    rows = season_ranking(*season, rule)
    ranks = [r.rank for r in rows]
    assert ranks == sorted(ranks) and (not ranks or ranks[0] == 1)
    for index, row in enumerate(rows):
        assert row.shared == any(o.rank == row.rank for o in rows if o is not row)
        assert row.rank in (index + 1, rows[index - 1].rank)


@given(seasons(), rules, st.data())
def test_a_better_evening_never_lowers_a_rank(season, rule, data):
    results, evenings = season
    index = data.draw(st.integers(0, len(results) - 1))
    old = results[index]
    better_place = data.draw(st.integers(1, old.place))
    better_total = data.draw(st.integers(0, old.total))
    improved = list(results)
    improved[index] = E(old.player_id, old.evening, better_place, better_total, old.field_size)
    before = {r.player_id: r.rank for r in season_ranking(results, evenings, rule)}
    after = {r.player_id: r.rank for r in season_ranking(improved, evenings, rule)}
    assert after[old.player_id] <= before[old.player_id]


@given(seasons(), st.integers(1, 5))
def test_best_n_picks_the_best_n(season, best):
    results, evenings = season
    for row in season_ranking(results, evenings, SeasonRule(best_of=best)):
        values = sorted(row.points.values(), reverse=True)
        assert len(row.counted) == min(best, len(values))
        assert row.score == sum(values[:best])
        assert sorted((row.points[e] for e in row.counted), reverse=True) == values[: len(row.counted)]


def test_a_clubs_best_k_are_its_best_placed_players_under_minus_points():
    # The rule: minus points, best 3, at least 2 evenings, a club's 3 best as a sum. Club 10 has
    # three players who played all three evenings and one (4) who played two: 4 has the lowest sum (40)
    # but ranks behind every three-evening player. Club 20 has three players of three evenings.
    rule = SeasonRule(points=SeasonPoints.MINUS_POINTS, best_of=3, min_evenings=2)
    results = [
        *(E(pid, e, 1, 30, 7) for pid in (1, 2, 3) for e in (1, 2, 3)),  # 90 each
        E(4, 1, 1, 20, 7), E(4, 2, 1, 20, 7),  # 40 in two evenings
        *(E(pid, e, 1, 28, 7) for pid in (5, 6, 7) for e in (1, 2, 3)),  # 84 each
    ]
    rows = season_ranking(results, [1, 2, 3], rule)
    assert [(r.player_id, r.rank, r.score) for r in rows][-1] == (4, 7, 40)
    clubs = {1: 10, 2: 10, 3: 10, 4: 10, 5: 20, 6: 20, 7: 20}
    ranked = season_club_ranking(rows, clubs, rule, best=3, value=GroupValue.SUM)
    # Club 10's best three are 1, 2 and 3 (270), not 4 with two of them (40 + 180 = 220).
    assert [(g.group_id, g.rank, int(g.value), sorted(g.counted)) for g in ranked] == [
        (20, 1, 252, [5, 6, 7]), (10, 2, 270, [1, 2, 3]),
    ]


def test_a_club_of_exactly_k_ranks_its_fewer_evenings_after():
    # Club 10's three players all count; one of them missed an evening, so their club ranks behind a
    # club whose three played every evening, as that player ranks behind them.
    rule = SeasonRule(points=SeasonPoints.MINUS_POINTS, min_evenings=1)
    results = [
        *(E(pid, e, 1, 30, 6) for pid in (1, 2) for e in (1, 2)), E(3, 1, 1, 30, 6),
        *(E(pid, e, 1, 25, 6) for pid in (4, 5, 6) for e in (1, 2)),
    ]
    rows = season_ranking(results, [1, 2], rule)
    ranked = season_club_ranking(rows, {1: 10, 2: 10, 3: 10, 4: 20, 5: 20, 6: 20}, rule, best=3)
    assert [(g.group_id, g.rank, int(g.value)) for g in ranked] == [(20, 1, 150), (10, 2, 150)]


club_rules = st.builds(
    SeasonRule,
    points=st.sampled_from(list(SeasonPoints)),
    table=st.just((10, 6, 4, 2, 1)),
    best_of=st.one_of(st.none(), st.integers(1, 4)),
    min_evenings=st.integers(0, 1),
    attendance_bonus=st.integers(0, 3),
    miss_deduction=st.integers(0, 3),
    free_misses=st.integers(0, 2),
    tiebreaks=st.sampled_from([(), ("wins", "best_evening"), ("attended",)]),
)


@given(seasons(), club_rules, st.data())
def test_missing_an_evening_never_raises_the_clubs_rank(season, rule, data):
    results, evenings = season
    players = sorted({r.player_id for r in results})
    clubs = {pid: data.draw(st.integers(1, 3), label=f"club of {pid}") for pid in players}
    best = data.draw(st.integers(1, 3), label="best")
    value = data.draw(st.sampled_from(list(GroupValue)), label="value")
    dropped = results[data.draw(st.integers(0, len(results) - 1), label="dropped result")]
    fewer = [r for r in results if r is not dropped]

    def club_ranks(found):
        rows = season_ranking(found, evenings, rule)
        return {g.group_id: g.rank for g in season_club_ranking(rows, clubs, rule, best=best, value=value)}

    before, after = club_ranks(results), club_ranks(fewer)
    club = clubs[dropped.player_id]
    if club in after:
        assert after[club] >= before[club]


# --- Why: counted and dropped evenings, bonus and deductions, the gap to the line above (issue #42, 9) ---


def test_each_line_says_which_evenings_count_and_which_are_dropped():
    # Best 2 of 3 by field; a bonus of 1 an evening, 4 for every miss (none free).
    results = [E(1, 1, 1, 0, 4), E(1, 2, 4, 50, 4), E(1, 3, 2, 9, 4), E(2, 1, 2, 5, 4), E(2, 3, 1, 0, 4)]
    rule = SeasonRule(best_of=2, attendance_bonus=1, miss_deduction=4)
    rows = {row.player_id: row for row in season_ranking(results, [1, 2, 3], rule)}
    one, two = rows[1], rows[2]
    assert (one.points, one.counted, one.dropped, one.base) == ({1: 4, 2: 1, 3: 3}, (1, 3), (2,), 7)
    assert (one.bonus, one.deduction, one.score) == (3, 0, 10)
    assert (two.counted, two.dropped, two.base) == ((1, 3), (), 7)
    assert (two.bonus, two.deduction, two.score) == (2, 4, 5)
    assert adjustments(one, rule) == (3, 0) and adjustments(two, rule) == (2, -4)
    minus = SeasonRule(points=SeasonPoints.MINUS_POINTS, best_of=2, attendance_bonus=1, miss_deduction=4)
    row = next(r for r in season_ranking(results, [1, 2, 3], minus) if r.player_id == 2)
    assert (row.base, adjustments(row, minus), row.score) == (5, (-2, 4), 7)


def test_the_gap_to_the_line_above_in_every_kind():
    # Points by field, no tie-break: 1 and 2 share first (10), 3 has 7, 4 has 7 too but loses on wins.
    results = [
        E(1, 1, 1, 0, 10), E(1, 2, 10, 0, 10), E(2, 1, 10, 0, 10), E(2, 2, 1, 0, 10),
        E(3, 1, 6, 0, 10), E(3, 2, 8, 0, 10), E(4, 1, 7, 0, 10), E(4, 2, 7, 0, 10),
        E(5, 1, 9, 0, 10),
    ]
    rows = season_ranking(results, [1, 2], SeasonRule(tiebreaks=("attended",)))
    assert [(r.player_id, r.rank, r.score) for r in rows] == [(1, 1, 11), (2, 1, 11), (3, 3, 8), (4, 3, 8),
                                                             (5, 5, 2)]
    assert [r.gap for r in rows] == [
        None, SeasonGap(1, 1, GapKind.SHARED), SeasonGap(2, 1, GapKind.POINTS, points=3),
        SeasonGap(3, 3, GapKind.SHARED), SeasonGap(4, 3, GapKind.POINTS, points=6),
    ]
    # Equal points, the tie-break (evenings won) decides: level, but a place of one's own.
    rows = season_ranking([E(1, 1, 1, 0, 3), E(1, 2, 3, 0, 3), E(2, 1, 2, 0, 3), E(2, 2, 2, 0, 3)], [1, 2],
                          SeasonRule())
    assert [(r.player_id, r.rank, r.score, r.gap) for r in rows] == [
        (1, 1, 4, None), (2, 2, 4, SeasonGap(1, 1, GapKind.TIEBREAK)),
    ]
    # Minus points: fewer counted evenings rank after, whatever the sum; then the minus points behind.
    results = [E(1, 1, 1, 30, 3), E(1, 2, 1, 40, 3), E(2, 1, 2, 50, 3), E(2, 2, 2, 45, 3), E(3, 1, 3, 5, 3)]
    rows = season_ranking(results, [1, 2], SeasonRule(points=SeasonPoints.MINUS_POINTS))
    assert [(r.player_id, r.score, r.gap) for r in rows] == [
        (1, 70, None), (2, 95, SeasonGap(1, 1, GapKind.POINTS, points=25)),
        (3, 5, SeasonGap(2, 2, GapKind.EVENINGS, evenings=1)),
    ]


def test_players_not_ranked_have_no_gap():
    results = [E(1, 1, 1, 0, 2), E(1, 2, 1, 0, 2), E(2, 1, 2, 0, 2)]
    rows = season_ranking(results, [1, 2], SeasonRule(min_evenings=2))
    assert [(r.player_id, r.ranked, r.gap) for r in rows] == [(1, True, None), (2, False, None)]


def test_a_players_evenings_one_by_one():
    results = [E(1, 1, 2, 9, 4), E(1, 3, 1, 0, 5), E(1, 3, 3, 20, 5), E(2, 2, 1, 0, 3), E(1, 2, 4, 44, 3)]
    rule = SeasonRule(best_of=1)
    row = next(r for r in season_ranking(results, [1, 2, 3, 4], rule) if r.player_id == 1)
    # Evening 3: a second entry placed 3rd; the better result (1st of 5) is the one that counts.
    assert season_evenings(row, [1, 2, 3, 4], results) == [
        SeasonEvening(1, points=3, counted=False, place=2, total=9, field_size=4),
        SeasonEvening(2, points=0, counted=False, place=4, total=44, field_size=3),
        SeasonEvening(3, points=5, counted=True, place=1, total=0, field_size=5),
        SeasonEvening(4),
    ]
    assert [(e.played, e.dropped) for e in season_evenings(row, [1, 2, 3, 4], results)] == [
        (True, True), (True, True), (True, False), (False, False),
    ]
    assert [e.evening for e in season_evenings(row, [4, 1], results)] == [4, 1]  # in the order asked


explained_rules = st.builds(
    SeasonRule,
    points=st.sampled_from(list(SeasonPoints)),
    table=st.just((10, 6, 4, 2, 1)),
    best_of=st.one_of(st.none(), st.integers(1, 4)),
    min_evenings=st.integers(0, 2),
    attendance_bonus=st.integers(0, 3),
    miss_deduction=st.integers(0, 3),
    free_misses=st.integers(0, 2),
    tiebreaks=st.sampled_from([(), ("wins", "best_evening"), ("attended",)]),
).filter(lambda rule: not rule_problems(rule))


@given(seasons(), explained_rules)
def test_the_counted_evenings_make_the_score_before_bonus_and_deductions(season, rule):
    results, evenings = season
    for row in season_ranking(results, evenings, rule):
        assert set(row.counted) | set(row.dropped) == set(row.points)
        assert not set(row.counted) & set(row.dropped)
        assert list(row.counted) == sorted(row.counted) and list(row.dropped) == sorted(row.dropped)
        assert len(row.counted) == (row.attended if rule.best_of is None else min(rule.best_of, row.attended))
        assert sum(row.points[evening] for evening in row.counted) == row.base
        bonus, deduction = adjustments(row, rule)
        assert row.base + bonus + deduction == row.score
        # A dropped evening is never better than a counted one.
        sign = 1 if rule.points.lower_is_better else -1
        for dropped in row.dropped:
            assert all(sign * row.points[dropped] >= sign * row.points[kept] for kept in row.counted)
        cards = season_evenings(row, evenings, results)
        assert [card.evening for card in cards if card.counted] == list(row.counted)
        assert [card.evening for card in cards if card.dropped] == list(row.dropped)


@given(seasons(), explained_rules)
def test_the_gap_to_the_next_place_is_never_negative_and_zero_exactly_for_shared_places(season, rule):
    results, evenings = season
    rows = season_ranking(results, evenings, rule)
    ranked = [row for row in rows if row.ranked]
    sign = 1 if rule.points.lower_is_better else -1
    assert all(row.gap is None for row in rows if not row.ranked)
    assert not ranked or ranked[0].gap is None
    for above, row in pairwise(ranked):
        gap = row.gap
        assert gap is not None and gap.ahead == above.player_id and gap.place == above.rank
        assert gap.points >= 0 and gap.evenings >= 0
        # Zero points between two lines exactly when they share the place, or (not shared) when a
        # tie-break on equal points or more counted evenings puts the line above ahead.
        assert (gap.kind is GapKind.SHARED) == (row.rank == above.rank) == (row.shared and above.shared
                                                                          and row.rank == above.rank)
        assert (gap.points == 0) == (gap.kind is not GapKind.POINTS)
        if gap.kind is GapKind.POINTS:
            assert gap.points == sign * (row.score - above.score) > 0
        if gap.kind is GapKind.TIEBREAK:
            assert row.score == above.score and row.rank > above.rank
        if gap.kind is GapKind.EVENINGS:
            assert rule.points.lower_is_better and gap.evenings == len(above.counted) - len(row.counted) > 0
        else:
            assert gap.evenings == 0
