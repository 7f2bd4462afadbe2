"""Issue #42, 6: categories that say the right thing. A category certificate takes the player's gender
("Beste Seniorin", "Bester Senior") and a neutral wording when it is not given; a category that holds
every player (all members) is named, never listed again nor certified; a membership not asked puts a
player in neither Members nor Guests."""

import datetime
import io

import pytest
from django.utils import translation
from pypdf import PdfReader

from engine.rankings import Category
from tests.factories import ClubFactory, PlayerFactory, SeriesFactory, TournamentFactory, played_evening
from tournament.documents.prizes import category_prizes, prize_title
from tournament.documents.season import season_prizes
from tournament.models import Player
from tournament.series.selectors import series_standings
from tournament.standings.selectors import standings, tournament_rankings

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 1)


@pytest.mark.parametrize(
    "category,gender,german,english",
    [
        (Category.SENIOR, "", "Beste Platzierung: Senioren", "Best senior"),
        (Category.SENIOR, "d", "Beste Platzierung: Senioren", "Best senior"),
        (Category.SENIOR, "f", "Beste Seniorin", "Best senior"),
        (Category.SENIOR, "m", "Bester Senior", "Best senior"),
        (Category.JUNIOR, "", "Beste Platzierung: Jugendliche", "Best junior"),
        (Category.JUNIOR, "f", "Beste Jugendliche", "Best junior"),
        (Category.GUEST, "f", "Bester Gast", "Best guest"),
        (Category.WOMEN, "f", "Beste Dame", "Best woman"),
    ],
)
def test_the_title_follows_the_gender_and_is_neutral_without_one(category, gender, german, english):
    with translation.override("de"):
        assert prize_title(category, gender) == german
    with translation.override("en"):
        assert prize_title(category, gender) == english


def test_the_evening_certificates_say_beste_seniorin_to_a_woman_and_nothing_to_the_whole_field(organizer):
    """Everybody is a member, so "Bestes Mitglied" would only crown the winner again."""
    club = ClubFactory()
    erna = PlayerFactory(first_name="Erna", club=club, gender="f", birth_year=1950)
    otto = PlayerFactory(first_name="Otto", club=club, gender="m", birth_year=1952)
    young = [PlayerFactory(club=club, gender="d", birth_year=1990) for _ in range(2)]
    evening = played_evening(series=None, players=[erna, otto, *young], date=DAY, organizers=[organizer],
                             scores={erna: 1, otto: 2, young[0]: 3, young[1]: 4})
    _rounds, lines = standings(evening)
    rankings = tournament_rankings(evening, lines)
    assert rankings.whole_field == [Category.MEMBER]
    with translation.override("de"):
        prizes = category_prizes(evening, rankings)
    expected = [("Beste Dame", "Erna"), ("Bester Herr", "Otto"), ("Beste Seniorin", "Erna")]
    assert [(p.title, p.name.split()[0]) for p in prizes] == expected
    Player.objects.filter(pk=erna.pk).update(gender="")
    _rounds, lines = standings(evening)
    with translation.override("de"):
        titles = [p.title for p in category_prizes(evening, tournament_rankings(evening, lines))]
    assert titles == ["Beste Platzierung: Senioren"]  # women and men: one gender not known, no winner


def test_a_new_player_is_neither_member_nor_guest():
    assert Player(first_name="N", last_name="N").member is None
    assert Player._meta.get_field("member").default is None


def test_the_season_names_a_whole_field_category_and_counts_newcomers_from_the_first_played_evening(
    organizer_client, organizer,
):
    series = SeriesFactory(organizers=[organizer])
    people = PlayerFactory.create_batch(4, birth_year=1990)
    Player.objects.filter(pk=people[3].pk).update(member=None)  # not asked
    # The season's first evening has not been played yet (no closed round): nobody is new because of it.
    TournamentFactory(series=series, date=DAY, organizers=[organizer])
    played_evening(series=series, players=people[:3], date=DAY + datetime.timedelta(days=7),
                   organizers=[organizer])
    last = played_evening(series=series, players=people, date=DAY + datetime.timedelta(days=14),
                          organizers=[organizer])
    data = series_standings(series)
    # The one not asked may be a member or a guest: neither category has a winner (docs/rules.md §8).
    assert Category.MEMBER not in data.categories and data.undecided[Category.MEMBER] == 1
    assert Category.GUEST not in data.categories and Category.GUEST not in data.whole_field
    newcomers = [line.player for _r, _s, line in data.categories[Category.NEWCOMER]]
    assert newcomers == [people[3]]
    Player.objects.filter(pk=people[3].pk).update(member=True)
    data = series_standings(series)
    assert data.whole_field == [Category.MEMBER] and Category.MEMBER not in data.categories
    assert "Best member" not in [prize.title for prize in season_prizes(data)]
    page = organizer_client.get(f"/{last.pk}/series/").content.decode()
    assert "Members: every ranked player of the season, so that ranking is the season standings." in page
    pdf = organizer_client.get(f"/print/{last.pk}/series-standings.pdf").content
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "every ranked player of the season" in text
