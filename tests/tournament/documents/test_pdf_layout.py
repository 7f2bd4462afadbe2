"""Every printed document, rendered and read back word by word (pdftotext -bbox): no word leaves the
printable area, no two words overlap. A whole evening: 23 players with long names and clubs, 8 rounds,
women and men (the standings list the categories after the table)."""

import io
from collections import Counter

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    play_round,
    seated_round,
)
from tests.tournament.documents.pdfwords import problems, words
from tournament.documents import season, standings
from tournament.rounds.services import seating_plan_create
from tournament.series.selectors import series_standings_of
from tournament.series.services import series_create

pytestmark = [pytest.mark.django_db, pytest.mark.one_database]  # the geometry of rendered pages


def make_evening(tournament):
    tournament.rounds_total = 8
    tournament.name = "Vereinsmeisterschaft im Leonharder UNO Wintercup"
    tournament.venue = "Bürgerhaus am Marktplatz, großer Saal"
    tournament.save()
    for i in range(23):
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(
                first_name=f"Maximiliane-Friederike{i}", last_name="von Hohenzollern-Sigmaringen",
                club__name=f"UNO-Freunde Oberschwaben-Allgäu e. V. {i % 4}", gender="fm"[i % 2],
            ),
        )
    return tournament


@pytest.fixture
def evening(tournament):
    return make_evening(tournament)


def get_pdf(client, url):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200, response
    assert response["Content-Type"] == "application/pdf"
    return response.content


@pytest.fixture(scope="module")
def module_played(module_db):
    """The evening with all 8 rounds played: built once for the module (see `module_db`), as every test
    only prints it."""
    organizer = UserFactory(username="orga")
    evening = make_evening(TournamentFactory(organizers=[organizer]))
    for number in range(1, 9):
        play_round(evening, organizer, seed=number)
    return evening


@pytest.fixture
def played(module_played, db):
    return module_played


@pytest.mark.parametrize("after", ["", "?after=1", "?after=3"])
def test_standings_with_eight_rounds_fit_the_page(organizer_client, played, tmp_path, after):
    pdf = get_pdf(organizer_client, reverse("print:standings", args=[played.pk]) + after)
    assert problems(pdf, tmp_path) == []
    pages, found = words(pdf, tmp_path)
    texts = [w.text for w in found]
    assert "Schlechteste" in texts and "Runde" in texts  # the tie-break heading is printed whole
    assert "Minuspunkte" in texts
    assert ("R8" in texts) == (after == "")
    # the chart has the last page: its caption and the three top places' end labels
    last = [w.text for w in found if w.page == len(pages) - 1]
    assert "Runde" in last and "farbig." in last
    assert sum(1 for w in last if w in ("1.", "2.", "3.")) >= 3
    # after the table, before the chart: the club ranking and the categories
    clubs = next(w for w in found if w.text == "Vereinswertung")
    assert clubs.page < len(pages) - 1
    assert {"Kategorien", "Damen", "Herren"} <= {w.text for w in found if w.page < len(pages) - 1}
    # no row is cut across two pages: every surname lies on its first name's page, on its line or the next
    firsts_anywhere = [w for w in found if w.text.startswith("Maximiliane-Friederike")]
    for last in (w for w in found if w.text == "Hohenzollern-Sigmaringen"):
        assert any(f.page == last.page and 0 <= last.y0 - f.y0 < 20 for f in firsts_anywhere), last
    # long names keep to one line in the table: every "von" sits on the line of its first name
    table = [w for w in found if (w.page, w.y0) < (clubs.page, clubs.y0)]
    firsts = [w for w in table if w.text.startswith("Maximiliane-Friederike")]
    vons = [w for w in table if w.text == "von"]
    assert len(firsts) == 23
    assert all(any(abs(v.y0 - f.y0) < 1 and v.page == f.page for v in vons) for f in firsts)


@pytest.mark.parametrize("paper", ["a4", "a5"])
def test_table_sheets_fit_the_page(organizer_client, played, tmp_path, paper):
    pdf = get_pdf(organizer_client, reverse("print:table_sheets", args=[played.pk, 8]) + f"?format={paper}")
    assert problems(pdf, tmp_path) == []


def test_wall_list_fits_the_page(organizer_client, played, tmp_path):
    pdf = get_pdf(organizer_client, reverse("print:seating", args=[played.pk, 8]))
    assert problems(pdf, tmp_path) == []


def test_certificates_fit_the_page(organizer_client, played, tmp_path):
    pdf = get_pdf(organizer_client, reverse("print:certificates", args=[played.pk]))
    assert problems(pdf, tmp_path) == []


def test_wall_list_big_table_numbers_two_columns_title_on_every_page(organizer_client, played, tmp_path):
    pdf = get_pdf(organizer_client, reverse("print:seating", args=[played.pk, 8]))
    pages, found = words(pdf, tmp_path)
    numbers = [w for w in found if w.text.isdigit() and w.y1 - w.y0 > 25]  # 24 pt digits: a 28 pt box
    assert len(numbers) == 23
    assert len({round(w.x0 // 100) for w in numbers}) == 2  # two columns
    for page in range(1, len(pages)):
        texts = [w.text for w in found if w.page == page]
        assert "Runde" in texts and "8" in texts and "Wer" in texts


def test_start_cards_fit_the_page(organizer_client, evening, organizer, tmp_path):
    seating_plan_create(tournament=evening, user=organizer)
    pdf = get_pdf(organizer_client, reverse("print:start_cards", args=[evening.pk]))
    assert problems(pdf, tmp_path) == []


SHEET_NAMES = [  # (first name, last name): a long name, and one longer than two lines of a sheet
    ("Hans-Friedrich", "Müller-Lüdenscheidt"),
    ("Maximiliane-Friederike-Josephine", "von und zu Hohenzollern-Sigmaringen-Hechingen"),
]


def sheet_round(tournament, *, number, size, long_names):
    """Two tables of `size`, its players with the longest names and clubs a sheet must take, or short."""
    players = [
        RegistrationFactory(
            tournament=tournament, start_number=100 * number + i,
            player=PlayerFactory(
                first_name=SHEET_NAMES[i % 2][0] if long_names else "Jo",
                last_name=SHEET_NAMES[i % 2][1] if long_names else "Li",
                club__name=f"UNO-Freunde Oberschwaben-Allgäu e. V. {i}" if long_names else "",
            ),
        )
        for i in range(2 * size)
    ]
    return seated_round(tournament, players, number=number, table_size=size)


@pytest.mark.parametrize("paper", ["a4", "a5"])
@pytest.mark.parametrize("size", [4, 5, 6, 7, 8, 9, 10])
def test_table_sheets_keep_their_page_whatever_the_names(organizer_client, tournament, tmp_path, size, paper):
    """One A4 page per table, or two tables per A4 landscape page, at every table size: a row keeps its
    height however long the names and clubs are, so the sheet looks the same with short names and the
    signature lines stay on it. A long name is printed whole; only a name longer than the lines its row
    has (two, three up to seven players) ends in an ellipsis."""
    rounds = {long_names: sheet_round(tournament, number=1 + long_names, size=size, long_names=long_names)
              for long_names in (False, True)}
    signatures, texts = {}, {}
    for long_names, round_ in rounds.items():
        url = reverse("print:table_sheets", args=[tournament.pk, round_.number]) + f"?format={paper}"
        pdf = get_pdf(organizer_client, url)
        pages, found = words(pdf, tmp_path)
        assert len(pages) == (2 if paper == "a4" else 1)
        assert problems(pdf, tmp_path) == []
        texts[long_names] = [w.text for w in found]
        signatures[long_names] = [w for w in found if w.text == "Tischkapitän"]
        assert len(signatures[long_names]) == 2
        assert all(w.y1 < pages[w.page][1] - 10 for w in signatures[long_names])
    assert [(w.page, round(w.x0), round(w.y0)) for w in signatures[True]] == [
        (w.page, round(w.x0), round(w.y0)) for w in signatures[False]]
    for printed in texts.values():
        assert printed.count("gibt") == printed.count("beginnt") == 2  # the roles stay beside the club
    assert texts[False].count("Jo") == 2 * size
    printed = texts[True]
    assert printed.count("Hans-Friedrich") == size
    assert sum(text.endswith("Lüdenscheidt") for text in printed) == size  # whole, on one or two lines
    assert not any("Hechingen" in text for text in printed)
    clamped = [t for t in printed if len(t) > 1 and t.endswith("…")]
    clubs = [t for t in clamped if t.startswith("UNO") or "Oberschwaben-Allgäu".startswith(t[:-1])]
    assert len(clamped) - len(clubs) == size  # one ellipsis for each longest name, the clubs to one line


@pytest.mark.parametrize("paper", ["a4", "a5"])
@pytest.mark.parametrize("size,whole", [(4, True), (7, True), (8, False)])
def test_a_name_of_three_lines_is_printed_whole_where_the_rows_have_room(
    organizer_client, tournament, tmp_path, paper, size, whole
):
    players = [
        RegistrationFactory(tournament=tournament, start_number=i + 1, player=PlayerFactory(
            first_name="Johann-Sebastian", last_name="Bachmann-Wohltemperiert von Wolkenstein"))
        for i in range(size)
    ]
    round_ = seated_round(tournament, players, table_size=size)
    url = reverse("print:table_sheets", args=[tournament.pk, round_.number]) + f"?format={paper}"
    pdf = get_pdf(organizer_client, url)
    texts = [w.text for w in words(pdf, tmp_path)[1]]
    assert (texts.count("Wolkenstein") == size) is whole
    assert sum(text.endswith("…") for text in texts if len(text) > 1) == (0 if whole else size)


def finished_evening(organizer, *, players: int, rounds: int):
    """An evening played to its end, with three goods prizes: the standings end with the prize list."""
    tournament = TournamentFactory(
        organizers=[organizer], rounds_total=rounds, goods_prizes=["Pokal", "Gutschein", "Buch"]
    )
    for i in range(players):
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(first_name=f"Vorname{i:02d}", last_name=f"Nachname{i:02d}",
                                 club__name=f"Club {i % 4}"),
        )
    for number in range(1, rounds + 1):
        play_round(tournament, organizer, seed=number)
    return tournament


# Fields whose table runs one row over a page: 13 rows fit the first landscape page of 6 rounds, 21 the
# first portrait page of 2; with 6 rounds the prize list also fell on the chart's page and ran over it.
@pytest.mark.parametrize(("players", "rounds"), [(14, 6), (22, 2)])
def test_no_standings_row_is_left_alone_and_the_prize_list_stays_whole(organizer, tmp_path, players, rounds):
    tournament = finished_evening(organizer, players=players, rounds=rounds)
    with translation.override("de"):
        _document, pdf = standings.standings_pdf(tournament)
    _pages, found = words(pdf, tmp_path)
    row_page = {}  # each player's row: the first page the surname is printed on (later: categories, chart)
    for word in found:
        if word.text.startswith("Nachname"):
            row_page[word.text] = min(row_page.get(word.text, word.page), word.page)
    prize_pages = {w.page for w in found if w.text in ("Preisliste", "Pokal", "Gutschein", "Buch")}
    assert len(prize_pages) == 1, prize_pages  # heading and its three lines on one page
    assert len(row_page) == players
    rows_per_page = Counter(row_page.values())
    assert len(rows_per_page) == 2, rows_per_page  # the table goes on over a page ...
    assert min(rows_per_page.values()) >= 3, rows_per_page  # ... with its last three rows at least
    assert problems(pdf, tmp_path) == []


@pytest.mark.parametrize(
    ("series_name", "title"),
    [("Jahreswertung 2027", "Jahreswertung 2027"), ("Wintercup", "Jahreswertung – Wintercup")],  # noqa: RUF001
)
def test_the_season_standings_name_their_kind_once(organizer, tmp_path, series_name, title):
    tournament = finished_evening(organizer, players=8, rounds=1)
    series_create(tournament=tournament, user=organizer, name=series_name)
    with translation.override("de"):
        pdf = season.series_standings_pdf(series_standings_of(tournament))
    assert PdfReader(io.BytesIO(pdf)).metadata.title == title
    _pages, found = words(pdf, tmp_path)
    heading = [w.text for w in found if w.page == 0 and w.y1 < found[0].y1 + 2]  # the first line
    assert " ".join(heading) == title
