"""Club and team rankings (best K), age groups and categories, category re-ranking."""

import datetime
import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.rankings import (
    AgeLimits,
    Category,
    GroupValue,
    MemberScore,
    PlayerFacts,
    age_on,
    categories_of,
    category_ranking,
    group_ranking,
)

M = MemberScore
DAY = datetime.date(2026, 6, 15)


def test_club_sum_of_best_k_and_short_clubs_after():
    scores = [M(1, 10, 50), M(2, 10, 20), M(3, 10, 90), M(4, 20, 30), M(5, 20, 30), M(6, 30, 1)]
    rows = group_ranking(scores, best=2, higher_is_better=False)
    assert [(r.group_id, r.rank, r.value, r.complete) for r in rows] == [
        (20, 1, 60, True), (10, 2, 70, True), (30, 3, 1, False),
    ]  # fmt: skip
    assert rows[1].counted == (2, 1) and rows[1].members == 3


def test_club_average_and_higher_is_better():
    scores = [M(1, 10, 50), M(2, 10, 21), M(3, 20, 40), M(4, 20, 30)]
    rows = group_ranking(scores, best=2, higher_is_better=True, value=GroupValue.AVERAGE)
    assert [(r.group_id, r.value) for r in rows] == [(10, Fraction(71, 2)), (20, Fraction(35))]


def test_teams_count_all_members_and_ties_share():
    scores = [M(1, 1, 10), M(2, 1, 20), M(3, 2, 15), M(4, 2, 15)]
    rows = group_ranking(scores, best=None, higher_is_better=False)
    assert [(r.rank, r.shared, r.value) for r in rows] == [(1, True, 30), (1, True, 30)]


def test_best_must_be_positive():
    with pytest.raises(ValueError):
        group_ranking([], best=0, higher_is_better=True)


def test_age_on_the_tournaments_date():
    assert age_on((2008, 6, 16), DAY) == 17 and age_on((2008, 6, 15), DAY) == 18
    assert age_on((2008, 0, 0), DAY) == 18 and age_on(None, DAY) is None


def test_categories():
    junior = PlayerFacts(1, gender="f", born=(2010, 1, 1), member=False, newcomer=True)
    assert categories_of(junior, DAY) == {Category.WOMEN, Category.JUNIOR, Category.GUEST, Category.NEWCOMER}
    senior = PlayerFacts(2, gender="", born=(1966, 6, 15), member=True)
    assert categories_of(senior, DAY) == {Category.SENIOR, Category.MEMBER}
    assert categories_of(senior, DAY, AgeLimits(senior_from=65)) == {Category.MEMBER}
    # Membership not known (not asked): neither member nor guest, so neither category names everybody.
    assert categories_of(PlayerFacts(3, born=(1966, 6, 15)), DAY) == {Category.SENIOR}
    wrong = AgeLimits(junior_under=0, senior_from=20)
    assert wrong.problems() == ["junior_limit_range", "senior_limit_range"]


def test_category_ranking_keeps_shared_places():
    overall = [(1, 1), (2, 2), (3, 2), (4, 4), (5, 5)]
    rows = category_ranking(overall, [3, 2, 5])
    assert [(r.player_id, r.rank, r.shared) for r in rows] == [(2, 1, True), (3, 1, True), (5, 3, False)]


groups = st.lists(st.builds(M, st.integers(1, 12), st.integers(1, 4), st.integers(0, 100)), max_size=30)


@given(groups, st.one_of(st.none(), st.integers(1, 4)), st.booleans(), st.randoms())
def test_group_ranking_ignores_input_order(scores, best, higher, rnd):
    shuffled = list(scores)
    rnd.shuffle(shuffled)
    assert group_ranking(scores, best=best, higher_is_better=higher) == group_ranking(
        shuffled, best=best, higher_is_better=higher
    )


@given(groups, st.integers(1, 4), st.data())
def test_a_better_member_never_lowers_the_club(scores, best, data):
    if not scores:
        return
    index = data.draw(st.integers(0, len(scores) - 1))
    old = scores[index]
    improved = list(scores)
    improved[index] = M(old.player_id, old.group_id, data.draw(st.integers(0, old.score)))
    before = {r.group_id: r.rank for r in group_ranking(scores, best=best, higher_is_better=False)}
    after = {r.group_id: r.rank for r in group_ranking(improved, best=best, higher_is_better=False)}
    assert after[old.group_id] <= before[old.group_id]


@given(st.lists(st.integers(1, 6), min_size=1, max_size=12), st.sets(st.integers(0, 11)))
def test_category_ranks_follow_the_overall_order(ranks, chosen):
    overall = [(pid, rank) for pid, rank in enumerate(sorted(ranks))]
    rows = category_ranking(overall, chosen)
    assert [r.player_id for r in rows] == sorted(pid for pid, _ in overall if pid in chosen)
    for a, b in itertools.pairwise(rows):
        assert (a.rank == b.rank) == (dict(overall)[a.player_id] == dict(overall)[b.player_id])


def test_a_gender_is_read_as_lists_write_it():
    from engine.rankings import parse_gender

    assert [parse_gender(word) for word in ("w", "Weiblich", "F.", "M", "male", "divers", " ", "")] == [
        "f", "f", "f", "m", "m", "d", "", "",
    ]
    with pytest.raises(ValueError):
        parse_gender("vielleicht")


def test_a_player_without_the_deciding_fact_leaves_the_category_undecided():
    from engine.rankings import Category, PlayerFacts, undecided

    nobody = PlayerFacts(player_id=1)
    known = PlayerFacts(player_id=2, gender="d", born=(1950, 0, 0), member=False)
    assert [c for c in Category if undecided(nobody, c)] == [
        Category.WOMEN, Category.MEN, Category.JUNIOR, Category.SENIOR, Category.MEMBER, Category.GUEST,
    ]
    assert [c for c in Category if undecided(known, c)] == []
