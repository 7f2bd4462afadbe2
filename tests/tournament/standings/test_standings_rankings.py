"""The evening's club, team and category rankings beside the standings: on the standings page (below
the table, the whole evening whatever the club filter), in the CSV (a column of each player's
categories), in the XLSX (a sheet per ranking) and in the standings PDF (after the table, inside the
page)."""

import csv
import datetime
import io
import re

import pytest
from django.urls import reverse
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.factories import ClubFactory, PlayerFactory, played_evening
from tests.tournament.documents.pdfwords import problems, words
from tournament.teams.services import team_create

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 3, 1)


@pytest.fixture
def evening(organizer):
    """Eight players at two tables, two rounds, the same score in both: two women (Anna, Carla), two
    juniors (Anna, Emil) who tie for third place overall, Ben and Fritz tie for first, one senior
    (Hans); everybody a member. Rot: Anna, Ben, Carla; Blau: Dirk, Emil, Fritz; Gert and Hans have no
    club."""
    red, blue = ClubFactory(name="Rot"), ClubFactory(name="Blau")

    def player(first, gender, year, club=None):
        return PlayerFactory(first_name=first, last_name="Muster", gender=gender, birth_year=year, club=club)

    people = [
        player("Anna", "f", 2012, red), player("Ben", "m", 1990, red), player("Carla", "f", 1990, red),
        player("Dirk", "m", 1990, blue), player("Emil", "m", 2010, blue), player("Fritz", "m", 1990, blue),
        player("Gert", "m", 1990), player("Hans", "m", 1955),
    ]
    scores = dict(zip(people, [10, 0, 30, 40, 10, 0, 50, 60], strict=True))
    return played_evening(series=None, players=people, date=DAY, scores=scores, organizers=[organizer])


def url(name, tournament):
    return reverse(f"organizer:{name}", args=[tournament.pk])


def card_rows(html: str, card_id: str) -> list[tuple[str, str, str]]:
    """(place, name, value) of each line of one card of the rankings below the standings."""
    match = re.search(rf'<section class="card category[^"]*" id="{card_id}">(.*?)</section>', html, re.S)
    assert match, f"no card {card_id}"
    line = r'<td class="num rank">(\d+\.)</td><td>([^<]*)</td>.*?<td class="num total">([^<]*)</td>'
    return re.findall(line, match.group(1))


def test_the_standings_page_shows_the_categories_with_their_places(organizer_client, evening):
    html = organizer_client.get(url("standings", evening)).content.decode()
    assert card_rows(html, "category-women") == [("1.", "Anna Muster", "20"), ("2.", "Carla Muster", "60")]
    # Anna and Emil are level overall (20 each, no round won): they share the juniors' first place.
    assert card_rows(html, "category-junior") == [("1.", "Anna Muster", "20"), ("1.", "Emil Muster", "20")]
    assert card_rows(html, "category-senior") == [("1.", "Hans Muster", "120")]
    assert [row[:2] for row in card_rows(html, "category-men")] == [
        ("1.", "Ben Muster"), ("1.", "Fritz Muster"), ("3.", "Emil Muster"), ("4.", "Dirk Muster"),
        ("5.", "Gert Muster"), ("6.", "Hans Muster"),
    ]
    # Sum of the best three: Rot 20 + 0 + 60, Blau 80 + 20 + 0.
    clubs = re.findall(r'<td class="num rank">(\d+\.)</td><td>(\w+)</td><td class="num">(\d+)</td>',
                       html.split('id="club-ranking"')[1].split("</section>")[0])
    assert clubs == [("1.", "Rot", "3"), ("2.", "Blau", "3")]
    # Everybody is a member: that category is the standings themselves and is not repeated.
    assert 'id="category-member"' not in html
    assert "Members: every player of the standings, so that ranking is the table above." in html
    assert 'href="#category-women"' in html and 'href="#category-member"' not in html


def test_the_page_in_german(organizer_client, evening):
    organizer_client.cookies["django_language"] = "de"
    html = organizer_client.get(url("standings", evening), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h3>Damen</h3>" in html and "<h3>Jugendliche</h3>" in html and "<h3>Vereinswertung</h3>" in html
    assert "Mitglieder: alle Spieler der Rangliste" in html
    assert "Die Plätze jeder Kategorie folgen der Rangliste" in html


def test_the_rankings_follow_the_chosen_round_and_ignore_the_club_filter(organizer_client, evening):
    after_one = organizer_client.get(url("standings", evening), {"after": "1", "club": "Blau"})
    html = after_one.content.decode()
    assert card_rows(html, "category-women") == [("1.", "Anna Muster", "10"), ("2.", "Carla Muster", "30")]
    assert "The whole evening after round 1." in html
    # The club filter's table swap (htmx) carries the table only (its query count is pinned with the page's).
    swap = organizer_client.get(
        url("standings", evening), {"club": "Blau"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="standings-table"
    ).content.decode()
    assert "Fritz Muster" in swap and "Anna Muster" not in swap and "category-women" not in swap


def test_teams_get_their_card(organizer_client, organizer, evening):
    regs = {reg.player.first_name: reg for reg in evening.registrations.select_related("player")}
    team_create(tournament=evening, user=organizer, name="Asse", members=[regs["Anna"], regs["Gert"]])
    team_create(tournament=evening, user=organizer, name="Joker", members=[regs["Ben"], regs["Hans"]])
    html = organizer_client.get(url("standings", evening)).content.decode()
    teams = re.findall(r'<td class="num rank">(\d+\.)</td><td>(\w+)</td>.*?<td class="num total">(\d+)</td>',
                       html.split('id="team-ranking"')[1].split("</section>")[0])
    # Anna 20 + Gert 100 against Ben 0 + Hans 120: level, a shared place.
    assert teams == [("1.", "Asse", "120"), ("1.", "Joker", "120")]


def test_no_rankings_before_a_round_is_closed(organizer_client, tournament, players):
    response = organizer_client.get(url("standings", tournament))
    assert response.context["rankings"] is None
    assert 'id="rankings"' not in response.content.decode()


def test_the_exports_before_a_round_is_closed(organizer_client, tournament, players):
    lines = csv_lines(organizer_client.get(url("standings_export", tournament)))
    assert len(lines) == 1 and lines[0][-1] == "Categories"
    xlsx = organizer_client.get(url("standings_export", tournament), {"format": "xlsx"})
    book = load_workbook(io.BytesIO(xlsx.content))
    assert book.sheetnames == ["Standings", "Clubs"] and len(sheet_rows(book, "Clubs")) == 1


def csv_lines(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))


def test_the_csv_lists_each_players_categories(organizer_client, evening):
    lines = csv_lines(organizer_client.get(url("standings_export", evening)))
    assert lines[0][-1] == "Categories"
    by_name = {line[2]: line[-1] for line in lines[1:]}
    assert by_name == {
        "Ben Muster": "Men, Members", "Fritz Muster": "Men, Members",
        "Anna Muster": "Women, Juniors, Members", "Emil Muster": "Men, Juniors, Members",
        "Carla Muster": "Women, Members", "Dirk Muster": "Men, Members", "Gert Muster": "Men, Members",
        "Hans Muster": "Men, Seniors, Members",
    }
    # The columns before it stay where they were.
    assert lines[0][:6] == ["Place", "No.", "Name", "Club", "R1", "R2"]
    blue = csv_lines(organizer_client.get(url("standings_export", evening), {"club": "Blau"}))
    assert [(line[2], line[-1]) for line in blue[1:]] == [
        ("Fritz Muster", "Men, Members"), ("Emil Muster", "Men, Juniors, Members"),
        ("Dirk Muster", "Men, Members"),
    ]


def test_the_csv_in_german(organizer_client, evening):
    organizer_client.cookies["django_language"] = "de"
    lines = csv_lines(organizer_client.get(url("standings_export", evening), HTTP_ACCEPT_LANGUAGE="de"))
    assert lines[0][-1] == "Kategorien"
    assert {line[2]: line[-1] for line in lines[1:]}["Anna Muster"] == "Damen, Jugendliche, Mitglieder"


def sheet_rows(book, name) -> list[tuple]:
    return list(book[name].iter_rows(min_row=2, values_only=True))


def test_the_xlsx_has_a_sheet_per_ranking(organizer_client, evening):
    response = organizer_client.get(url("standings_export", evening), {"format": "xlsx", "club": "Rot"})
    book = load_workbook(io.BytesIO(response.content))
    # No team declared: no teams' sheet; every category of the evening, the whole field's too.
    assert book.sheetnames == ["Standings", "Clubs", "Women", "Men", "Juniors", "Seniors", "Members"]
    standings = sheet_rows(book, "Standings")
    assert standings[0][-1] == "Categories"
    assert [(row[2], row[-1]) for row in standings[1:]] == [
        ("Ben Muster", "Men, Members"), ("Anna Muster", "Women, Juniors, Members"),
        ("Carla Muster", "Women, Members"),
    ]
    # The club filter narrows the standings only: the rankings are the whole evening's.
    assert sheet_rows(book, "Clubs") == [
        ("Place", "Club", "Players counted", "Total"), ("1.", "Rot", 3, 80), ("2.", "Blau", 3, 100),
    ]
    header = ("Place", "Name", "Club", "Total")
    anna = ("1.", "Anna Muster", "Rot", 20)
    assert sheet_rows(book, "Juniors") == [header, anna, ("1.", "Emil Muster", "Blau", 20)]
    assert sheet_rows(book, "Women") == [header, anna, ("2.", "Carla Muster", "Rot", 60)]
    assert len(sheet_rows(book, "Members")) == 1 + 8


def test_the_xlsx_has_the_teams_sheet_once_teams_are_declared(organizer_client, organizer, evening):
    regs = list(evening.registrations.order_by("start_number"))
    team_create(tournament=evening, user=organizer, name="Asse", members=regs[:2])
    response = organizer_client.get(url("standings_export", evening), {"format": "xlsx"})
    book = load_workbook(io.BytesIO(response.content))
    assert book.sheetnames[:3] == ["Standings", "Clubs", "Teams"]
    assert sheet_rows(book, "Teams")[1] == ("1.", "Asse", 2, 20)


def test_the_pdf_lists_the_rankings_after_the_table(organizer_client, evening, tmp_path):
    response = organizer_client.get(reverse("print:standings", args=[evening.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Type"] == "application/pdf"
    pdf = response.content
    assert problems(pdf, tmp_path) == []
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for heading in ("Vereinswertung", "Kategorien", "Damen", "Herren", "Jugendliche", "Senioren"):
        assert heading in text
    # The whole field's category is named, not repeated.
    assert "Mitglieder: alle Spieler der Rangliste" in text
    juniors = text.split("Jugendliche")[1].split("Senioren")[0]
    assert re.findall(r"(\d+\.) (\w+ Muster)", juniors) == [("1.", "Anna Muster"), ("1.", "Emil Muster")]
    women = text.split("Damen")[1].split("Herren")[0]
    assert re.findall(r"(\d+\.) (\w+ Muster)", women) == [("1.", "Anna Muster"), ("2.", "Carla Muster")]
    # The order: the table, the club ranking, the categories, the chart on its own last page.
    pages, found = words(pdf, tmp_path)
    first = {w.text: (w.page, w.y0) for w in reversed(found)}
    assert first["Vereinswertung"] < first["Kategorien"] < first["Damen"]
    assert all(w.page < len(pages) - 1 for w in found if w.text in ("Vereinswertung", "Damen", "Senioren"))
