"""The season's categories follow the evening's rule (docs/rules.md §8): a category some ranked players
may be in, because the fact that decides it is not known, has no ranking and no certificate; the season
pages and the PDF say so instead of naming a winner."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from engine.rankings import Category
from tests.factories import PlayerFactory, SeriesFactory, played_evening
from tournament.documents.season import season_prizes
from tournament.series.selectors import series_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def season(organizer):
    """Eight players: four men, three women, one whose gender nobody asked; all members."""
    series = SeriesFactory(organizers=[organizer], name="Saison")
    genders = ["m", "m", "m", "m", "f", "f", "f", ""]
    players = [PlayerFactory(first_name=f"P{i}", last_name="Muster", gender=gender, member=True)
               for i, gender in enumerate(genders)]
    evening = played_evening(series=series, players=players, date=datetime.date(2026, 11, 1),
                             organizers=[organizer])
    return series, evening


def test_men_and_women_have_no_season_winner_while_a_gender_is_unknown(season):
    series, _evening = season
    data = series_standings(series)
    assert Category.MEN not in data.categories and Category.WOMEN not in data.categories
    assert data.undecided[Category.MEN] == 1 and data.undecided[Category.WOMEN] == 1
    titles = [prize.title for prize in season_prizes(data)]
    assert not any("Herr" in title or "Dame" in title or "man" in title.lower() for title in titles)


def test_the_season_page_says_why(season, organizer_client):
    _series, evening = season
    page = organizer_client.get(reverse("organizer:series", args=[evening.pk])).content.decode()
    assert 'id="undecided-men"' in page and 'id="undecided-women"' in page
    assert "No category has players yet" not in page  # the notes say why, not "nobody"


def test_once_every_gender_is_known_the_categories_are_ranked(season):
    series, evening = season
    unknown = evening.registrations.get(player__gender="").player
    unknown.gender = "f"
    unknown.save(update_fields=["gender"])
    data = series_standings(series)
    assert Category.MEN in data.categories and Category.WOMEN in data.categories
    assert data.undecided == {}
