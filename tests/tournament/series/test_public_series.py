"""The series on the public page and the projector: names, clubs and season points; no age groups."""

import datetime

import pytest

from tests.factories import PlayerFactory, SeriesFactory, played_evening
from tournament.series.selectors import series_standings

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening():
    series = SeriesFactory(name="Jahreswertung 2026")
    people = [
        PlayerFactory(first_name="Anna", gender="f", birth_year=1950),
        PlayerFactory(first_name="Ben", gender="m", birth_year=1990),
        PlayerFactory(first_name="Cem", birth_year=1990),
    ]
    tournament = played_evening(series=series, players=people, date=datetime.date(2026, 3, 1),
                                scores=dict(zip(people, [1, 2, 3], strict=True)))
    tournament.public = True
    tournament.save()
    return tournament


def test_public_series_page(client, evening):
    page = client.get(f"/p/{evening.pk}/series/")
    text = page.content.decode()
    assert page.status_code == 200 and "Jahreswertung 2026" in text and "Anna" in text
    assert "Women" in text and "Seniors" not in text and "1950" not in text
    assert f'href="/p/{evening.pk}/series/"' in client.get(f"/p/{evening.pk}/").content.decode()


def test_public_series_page_needs_a_series_and_the_page_switched_on(client, evening):
    evening.series = None
    evening.save()
    assert client.get(f"/p/{evening.pk}/series/").status_code == 404
    evening.public = False
    evening.save()
    assert client.get(f"/p/{evening.pk}/series/").status_code == 404


def test_projector_shows_the_season(client, evening):
    page = client.get(f"/p/{evening.pk}/projector/?show=series")
    assert page.context["slide"].kind == "series"
    season = [line.player.first_name for column in page.context["slide"].columns for line in column]
    assert season == ["Anna", "Ben", "Cem"]  # in order, spread over the slide's two columns
    kinds = []
    for index in range(4):
        kinds.append(client.get(f"/p/{evening.pk}/projector/?slide={index}").context["slide"].kind)
    assert "series" in kinds and "standings" in kinds


def test_a_player_of_an_evening_that_is_not_public_never_shows(client, evening):
    """Issue #42, 11: nothing of an evening whose organizers did not make it public is shown one by one;
    #51 item 6: but the season's figures are the organizer's (the same rule over every evening), and the
    page says what it leaves out."""
    hidden = PlayerFactory(first_name="Heimlich", last_name="Verborgen")
    anna = evening.registrations.get(player__first_name="Anna").player
    private = played_evening(series=evening.series, players=[hidden, anna], date=datetime.date(2026, 4, 1),
                             scores={hidden: 0, anna: 50})
    assert not private.public
    page = client.get(f"/p/{evening.pk}/series/")
    text = page.content.decode()
    assert "Heimlich" not in text and "Verborgen" not in text
    data = page.context["data"]
    assert data.evenings == [evening, private] and data.private == [private] and data.left_out == 1
    assert "All 2 evenings count." in text  # the rule as the organizer's page and the PDF say it
    assert "1 evening has no public page (01.04.)" in text and "1 player who played only there" in text
    organizers = series_standings(evening.series)
    anna_line = next(line for line in data.lines if line.player == anna)
    assert anna_line.row == next(line.row for line in organizers.lines if line.player == anna)
    assert set(anna_line.row.points) == {evening.pk, private.pk}  # her private evening counts
    projector = client.get(f"/p/{evening.pk}/projector/?show=series")
    shown = [line.player for column in projector.context["slide"].columns for line in column]
    assert hidden not in shown and "Heimlich" not in projector.content.decode()
    # Once its organizers switch its page on, the evening counts in public too.
    private.public = True
    private.save()
    assert "Heimlich" in client.get(f"/p/{evening.pk}/series/").content.decode()


def test_a_category_of_left_out_players_only_is_not_shown_empty(client, evening):
    newcomer = PlayerFactory(first_name="Neu", last_name="Ling")
    played_evening(series=evening.series, players=[newcomer], date=datetime.date(2026, 4, 1))
    data = client.get(f"/p/{evening.pk}/series/").context["data"]
    assert data.left_out == 1 and all(rows for rows in data.categories.values())
