"""One evening's club ranking (best K, sum or average, short clubs after), team ranking and category
rankings with newcomers of a series."""

import datetime

import pytest

from engine.rankings import Category, GroupValue
from tests.factories import ClubFactory, PlayerFactory, SeriesFactory, played_evening
from tournament.standings.selectors import standings, tournament_rankings
from tournament.teams.services import team_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(organizer):
    red, blue, green = ClubFactory(name="Rot"), ClubFactory(name="Blau"), ClubFactory(name="Grün")
    people = {
        "anna": PlayerFactory(first_name="Anna", club=red, gender="f", birth_year=2012),
        "ben": PlayerFactory(first_name="Ben", gender="m", club=red, birth_year=1990),
        "cem": PlayerFactory(first_name="Cem", gender="m", club=red, birth_year=1990, member=False),
        "dora": PlayerFactory(first_name="Dora", club=blue, gender="f", birth_year=1950),
        "emil": PlayerFactory(first_name="Emil", gender="m", club=blue, birth_year=1990),
        "fritz": PlayerFactory(first_name="Fritz", gender="m", club=green, birth_year=1990),
        "gabi": PlayerFactory(first_name="Gabi", gender="f", club=None, birth_year=1990),
        "hans": PlayerFactory(first_name="Hans", gender="m", club=None, birth_year=1990),
    }
    scores = dict(zip(people.values(), [10, 20, 90, 5, 30, 1, 40, 50], strict=True))
    series = SeriesFactory(club_best=2)
    played_evening(series=series, players=[people["ben"]], date=datetime.date(2026, 1, 1), rounds=1)
    tournament = played_evening(
        series=series, players=list(people.values()), date=datetime.date(2026, 2, 1), scores=scores,
        organizers=[organizer],
    )
    return tournament, people


def names(rows):
    return [(rank, line.player.first_name) for rank, _, line in rows]


def test_club_sum_of_best_k(evening):
    tournament, _ = evening
    _, lines = standings(tournament)
    data = tournament_rankings(tournament, lines)
    # Two rounds each: Rot 2·10 + 2·20 = 60, Blau 2·5 + 2·30 = 70, Grün has one player.
    assert [(club.name, row.rank, row.value, row.complete) for row, club in data.clubs] == [
        ("Rot", 1, 60, True), ("Blau", 2, 70, True), ("Grün", 3, 2, False),
    ]
    average = tournament_rankings(tournament, lines, best=3, value=GroupValue.AVERAGE)
    assert (average.clubs[0][1].name, average.clubs[0][0].value) == ("Rot", 80)


def test_team_ranking_from_members_totals(evening, organizer):
    tournament, _ = evening
    regs = {reg.player.first_name: reg for reg in tournament.registrations.select_related("player")}
    team_create(tournament=tournament, user=organizer, name="Asse", members=[regs["Gabi"], regs["Hans"]])
    team_create(tournament=tournament, user=organizer, name="Joker", members=[regs["Anna"], regs["Cem"]])
    _, lines = standings(tournament)
    data = tournament_rankings(tournament, lines)
    ranked = [(team.name, row.rank, row.value) for row, team in data.teams]
    assert ranked == [("Asse", 1, 180), ("Joker", 2, 200)]


def test_category_rankings(evening, django_assert_num_queries):
    tournament, _ = evening
    _, lines = standings(tournament)
    with django_assert_num_queries(3):  # no teams: their players are not asked for
        data = tournament_rankings(tournament, lines)
    assert names(data.categories[Category.WOMEN]) == [(1, "Dora"), (2, "Anna"), (3, "Gabi")]
    men = [(1, "Fritz"), (2, "Ben"), (3, "Emil"), (4, "Hans"), (5, "Cem")]
    assert names(data.categories[Category.MEN]) == men
    assert names(data.categories[Category.JUNIOR]) == [(1, "Anna")]
    assert names(data.categories[Category.SENIOR]) == [(1, "Dora")]
    assert names(data.categories[Category.GUEST]) == [(1, "Cem")]
    assert "Ben" not in [line.player.first_name for _, _, line in data.categories[Category.NEWCOMER]]
    assert len(data.categories[Category.NEWCOMER]) == 7


def test_a_category_with_players_of_unknown_facts_has_no_ranking(evening):
    """16 of 21 without a gender and "Herren" held one man: his certificate went to him while men
    placed above him were missing. A category whose members are not all known is not ranked."""
    tournament, people = evening
    for name in ("fritz", "ben"):
        people[name].gender = ""
        people[name].save()
    people["hans"].birth_year = None
    people["hans"].save()
    _, lines = standings(tournament)
    data = tournament_rankings(tournament, lines)
    assert Category.MEN not in data.categories and Category.WOMEN not in data.categories
    assert Category.JUNIOR not in data.categories and Category.SENIOR not in data.categories
    assert data.undecided == {Category.WOMEN: 2, Category.MEN: 2, Category.JUNIOR: 1, Category.SENIOR: 1}
    assert names(data.categories[Category.GUEST]) == [(1, "Cem")]  # membership known of everybody
