"""The demo that `make run` loads on an empty database (`load_demo`): a consistent evening, the same
every time, in a series with clubs, teams and categories."""

import pytest
from django.core.management import call_command

from engine.rankings import Category
from tests.factories import UserFactory
from tournament.management.commands.load_demo import DEMO_NAME, SERIES_NAME
from tournament.models import Round, Series, Table, Tournament
from tournament.permissions import organizes
from tournament.series.selectors import series_standings
from tournament.standings.selectors import standings, tournament_rankings


@pytest.fixture(scope="module")
def module_demo(module_db):
    """The demo (three evenings of a series, the last one in round 4), built once for the module's
    tests (see `module_db`): building it plays ten rounds."""
    organizer = UserFactory(username="orga")
    call_command("load_demo", owner=organizer.username)
    return organizer


@pytest.fixture
def demo(module_demo, db):
    return module_demo


def test_load_demo_builds_a_consistent_tournament(demo):
    tournament = Tournament.objects.get(name=DEMO_NAME)
    assert organizes(demo, tournament)
    assert tournament.registrations.count() == 23
    statuses = list(tournament.rounds.order_by("number").values_list("status", flat=True))
    assert statuses == [Round.Status.CLOSED] * 3 + [Round.Status.OPEN]
    rounds, lines = standings(tournament)
    assert rounds == [1, 2, 3] and len(lines) == 23
    fourth = tournament.rounds.get(number=4)
    assert set(fourth.tables.values_list("status", flat=True)) == {
        Table.Status.REPORTED,
        Table.Status.WAITING,
    }
    # Reproducible: the same seed deals the same hands.
    first_totals = [(line.player.name, line.row.total) for line in lines]
    Tournament.objects.all().delete()
    call_command("load_demo", owner=demo.username)
    _rounds, again = standings(Tournament.objects.get(name=DEMO_NAME))
    assert [(line.player.name, line.row.total) for line in again] == first_totals


def test_load_demo_has_a_series_with_clubs_teams_and_categories(demo):
    series = Series.objects.get(name=SERIES_NAME)
    assert organizes(demo, series)
    data = series_standings(series)
    assert len(data.evenings) == 3 and data.evenings[-1].name == DEMO_NAME
    assert len(data.lines) == 23 and data.lines[0].row.rank == 1
    assert [club.name for _row, club in data.clubs][:4] and all(row.complete for row, _club in data.clubs[:4])
    assert {Category.WOMEN, Category.MEN, Category.SENIOR, Category.GUEST} <= set(data.categories)
    today = Tournament.objects.get(name=DEMO_NAME)
    _rounds, lines = standings(today)
    rankings = tournament_rankings(today, lines)
    teams = sorted(team.name for _row, team in rankings.teams)
    assert teams == ["Aussetzer", "Die Asse", "Farbwechsel", "Joker"]
    assert len(rankings.categories[Category.GUEST]) == 5
