"""The season shows why (issue #42, 9): each line of the season table (organizer page, public page, PDF)
shows which evenings count and which are dropped, the bonus and deductions, and how far the player is
behind the line above; each player of a public evening has a season card on the public page."""

import datetime
import io
import re

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import PlayerFactory, SeriesFactory, played_evening
from tournament.models import Tournament
from tournament.series.selectors import series_standings

pytestmark = pytest.mark.django_db

MINUS = "\u2212"


@pytest.fixture
def season(organizer):
    """Best 1 of 2 evenings by field, a bonus point an evening, 3 points off for every missed one.

    Evening 1 (4 players): Anna 4, Ben 3, Cem 2, Dora 1 points. Evening 2 (3 players, Dora missing):
    Ben 3, Cem 2, Anna 1. Season: Anna 4 (+2) = 6, Ben 3 (+2) = 5, Cem 2 (+2) = 4, Dora 1 (+1 -3) = -1.
    A third evening is not public: its player Heimlich and Anna's 3rd evening never reach the public.
    """
    series = SeriesFactory(organizers=[organizer], name="Jahreswertung 2026", best_of=1, attendance_bonus=1,
                           miss_deduction=3, free_misses=0)
    anna, ben, cem, dora = (PlayerFactory(first_name=name, last_name="Spieler") for name in
                            ("Anna", "Ben", "Cem", "Dora"))
    first = played_evening(series=series, players=[anna, ben, cem, dora], date=datetime.date(2026, 1, 10),
                           organizers=[organizer], scores={anna: 0, ben: 10, cem: 20, dora: 30})
    second = played_evening(series=series, players=[anna, ben, cem], date=datetime.date(2026, 2, 7),
                            organizers=[organizer], scores={anna: 30, ben: 0, cem: 10})
    Tournament.objects.filter(pk=first.pk).update(public=True, name="Januarabend")
    Tournament.objects.filter(pk=second.pk).update(public=True, name="Februarabend")
    hidden = PlayerFactory(first_name="Heimlich", last_name="Verborgen")
    played_evening(series=series, players=[hidden, anna], date=datetime.date(2026, 3, 7),
                   organizers=[organizer], scores={hidden: 0, anna: 5})
    return {"series": series, "first": first, "second": second, "anna": anna, "ben": ben, "dora": dora,
            "hidden": hidden}


def test_the_organizers_season_table_shows_why(organizer_client, season):
    first, second = season["first"], season["second"]
    page = organizer_client.get(f"/{second.pk}/series/")
    table = page.context["table"]
    header = [column.header for column in table.columns]
    assert header[-4:] == ["Bonus", "Deduction", "Season", "Behind"]
    cells = {
        row.record["name"].split()[0]: [
            row.get_cell(key) for key in (f"e{first.pk}", f"e{second.pk}", "bonus_points", "deduction_points",
                                          "score", "gap")
        ]
        for row in table.rows
    }
    # The organizers see every evening, the private third too (Heimlich 2 points, Anna 1): Anna 4 (+3) = 7,
    # Ben 3 (+2 -3) = 2, Cem 2 (+2 -3) = 1, Heimlich 2 (+1 -6) = -3, Dora 1 (+1 -6) = -4.
    assert cells["Anna"] == [4, '<s class="dropped">(1)</s>', "+3", "0", 7, ""]
    assert cells["Ben"] == [3, '<s class="dropped">(3)</s>', "+2", f"{MINUS}3", 2, "5"]
    assert cells["Heimlich"] == ["\u2013", "\u2013", "+1", f"{MINUS}6", -3, "4"]
    assert cells["Dora"] == [1, "\u2013", "+1", f"{MINUS}6", -4, "1"]
    html = page.content.decode()
    dropped = sum(len(line.row.dropped) for line in page.context["data"].lines)
    assert html.count('<s class="dropped">') == dropped == 4  # Anna 2, Ben 1, Cem 1
    assert "Struck through (n)" in html


def test_without_bonus_or_deduction_the_table_has_no_such_column(organizer_client, season):
    season["series"].attendance_bonus = season["series"].miss_deduction = 0
    season["series"].save()
    table = organizer_client.get(f"/{season['second'].pk}/series/").context["table"]
    assert [column.header for column in table.columns][-2:] == ["Season", "Behind"]
    assert "Bonus" not in [column.header for column in table.columns]


def test_the_public_season_shows_why(client, season):
    second = season["second"]
    page = client.get(f"/p/{second.pk}/series/", HTTP_ACCEPT_LANGUAGE="de")
    data = page.context["data"]
    # The season's figures, the organizer's (#51 item 6): Heimlich, who played only the private evening,
    # keeps his place 4 but is not listed; the page says so.
    assert [(line.player.first_name, line.row.rank, line.row.score) for line in data.lines] == [
        ("Anna", 1, 7), ("Ben", 2, 2), ("Cem", 3, 1), ("Dora", 5, -4),
    ]
    organizers = {line.player.pk: line for line in series_standings(season["series"]).lines}
    for line in data.lines:
        same = organizers[line.player.pk]
        assert (line.row, line.gap_figure, line.gap_words) == (same.row, same.gap_figure, same.gap_words)
    anna, *_, dora = data.lines
    assert [(item.points, item.counted, item.dropped) for _evening, item in anna.evenings][:2] == [
        (4, True, False), (1, False, True),
    ]
    assert (anna.row.base, anna.bonus_points, anna.deduction_points) == (4, 3, 0)
    assert (dora.row.base, dora.bonus_points, dora.deduction_points) == (1, 1, -6)
    assert data.left_out == 1 and [evening.date for evening in data.private] == [datetime.date(2026, 3, 7)]
    html = page.content.decode()
    assert "Heimlich" not in html
    note = re.search(r'id="private-evenings">([^<]+)<', html).group(1)
    assert note == ("Plätze und Punkte sind die der ganzen Saison. 1 Abend hat keine öffentliche Seite "
                    "(07.03.): seine Punkte zählen, werden hier aber nicht einzeln gezeigt. "
                    "1 Spieler, der nur dort gespielt hat, ist nicht aufgeführt.")
    season_table = re.search(r'<table class="list standings season public-standings".*?</table>', html, re.S)
    rows = re.findall(r"<tr class=\"[^\"]*\">.*?</tr>", season_table.group(), re.S)
    assert len(rows) == 4
    anna_row, *_, dora_row = rows
    # The dropped evening struck through, in the columns and in the details the phone opens.
    assert anna_row.count('<s class="dropped">(1)</s>') == 2
    assert "Bonus +3" in anna_row and "Abzug 0" in anna_row
    assert f"Abzug {MINUS}6" in dora_row and dora.gap_words in dora_row
    assert f'href="/p/{second.pk}/series/{season["dora"].pk}/"' in dora_row


def words(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def test_a_players_season_card(client, season, django_assert_num_queries):
    second, anna = season["second"], season["anna"]
    url = reverse("public:series_player", args=[second.pk, anna.pk])
    assert url == f"/p/{second.pk}/series/{anna.pk}/"
    # the tournament, its series, and the season's five (evenings, rounds, registrations, entries, players)
    with django_assert_num_queries(7):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    html = page.content.decode()
    assert page.context["line"].player == anna
    assert "Platz 1 der Jahreswertung" in html and "Punkte der gezählten Abende" in html
    card = re.search(r'<table class="list season-card".*?<tbody>(.*?)</tbody>', html, re.S).group(1)
    rows = [[words(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr[^>]*>(.*?)</tr>", card, re.S)]
    assert rows == [
        ["10.01.2026 Januarabend", "1. von 4", "4 zählt"],
        ["07.02.2026 Februarabend", "3. von 3", "(1) gestrichen"],
    ]
    assert card.count('<s class="dropped">(1)</s>') == 1
    assert "07.03.2026" not in html and "Heimlich" not in html  # the private evening is not listed
    assert "enthalten 1 Abend ohne öffentliche Seite" in html  # but counted, and the card says so

    dora = client.get(reverse("public:series_player", args=[second.pk, season["dora"].pk]),
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "nicht gespielt" in dora and f"{MINUS}6" in dora and "1 Punkt hinter Platz 4." in dora


def test_no_season_card_for_a_player_of_no_public_evening(organizer_client, season):
    client = Client()  # anonymous (organizer_client is the test's client, logged in)
    second = season["second"]
    hidden = reverse("public:series_player", args=[second.pk, season["hidden"].pk])
    assert client.get(hidden).status_code == 404
    assert organizer_client.get(hidden).status_code == 404  # an organizer's eyes change nothing here
    stranger = PlayerFactory(first_name="Fremd")
    played_evening(series=SeriesFactory(), players=[stranger], date=datetime.date(2026, 2, 1))
    assert client.get(reverse("public:series_player", args=[second.pk, stranger.pk])).status_code == 404
    assert client.get(reverse("public:series_player", args=[second.pk, 999999])).status_code == 404
    # Once the third evening's page is switched on, Heimlich has a card.
    Tournament.objects.filter(series=season["series"]).update(public=True)
    assert client.get(hidden).status_code == 200


def test_a_switched_off_evening_hides_its_cards_but_previews_them(organizer_client, season):
    client = Client()
    third = Tournament.objects.get(series=season["series"], public=False)
    url = reverse("public:series_player", args=[third.pk, season["hidden"].pk])
    assert client.get(url).status_code == 404
    preview = organizer_client.get(url)
    # The preview: the season as it will be once this evening's page is on, this evening included.
    assert preview.status_code == 200 and "preview-note" in preview.content.decode()
    assert [evening.pk for evening, _item in preview.context["line"].evenings][-1] == third.pk


def test_the_season_pdf_shows_why(organizer_client, season):
    response = organizer_client.get(f"/print/{season['second'].pk}/series-standings.pdf")
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)
    assert "Bonus" in text and "Deduction" in text and "Behind" in text and "Struck through" in text
    assert f"{MINUS}6" in text and "+3" in text
