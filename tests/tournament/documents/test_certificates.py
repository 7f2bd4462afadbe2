"""Certificates as a club hands them out: the sentence, venue and date, two signatures, medals for 1 to 3,
participation certificates after the top N, and "provisional" before the tournament is finished.

Read back word by word (pdftotext -bbox): the fixed parts sit at the same height on every page, with or
without club, logo or venue; nothing leaves the page, nothing overlaps."""

import io
import re
from collections import defaultdict

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation
from PIL import Image
from pypdf import PdfReader

from tests.factories import LONG_NAMES, ClubFactory, PlayerFactory, RegistrationFactory, play_round
from tests.tournament.documents.pdfwords import Word, problems, words
from tournament.documents import certificates, typography

pytestmark = pytest.mark.django_db

EVENT = "Vereinsmeisterschaft im Leonharder UNO Wintercup"
VENUE = "Bürgerhaus am Marktplatz, großer Saal"
LONG_NAME = ("Maximiliane", "Gräfin von Hohenzollern-Sigmaringen")
LONG_CLUB = "UNO-Freunde Oberschwaben-Allgäu e. V., Abteilung Karten- und Gesellschaftsspiele"
# Eight players at two tables of four; every other one without a club.
PLAYERS = [
    (*LONG_NAME, LONG_CLUB),
    ("Anna", "Müller", None),
    ("Ben", "Berg", "UNO-Club Nord"),
    ("Cem", "Çelik", None),
    ("Dora", "Dorn", "Kartenfreunde Süd e. V."),
    ("Emil", "Ähnlich", None),
    ("Frieda", "Fröhlich", "UNO-Club Nord"),
    ("Gustav", "Groß", None),
]


@pytest.fixture
def evening(tournament):
    tournament.name, tournament.venue, tournament.rounds_total = EVENT, VENUE, 2
    tournament.save()
    for number, (first, last, club) in enumerate(PLAYERS, start=1):
        club = ClubFactory(name=club) if club else None
        player = PlayerFactory(first_name=first, last_name=last, club=club)
        RegistrationFactory(tournament=tournament, player=player, start_number=number)
    return tournament


@pytest.fixture
def provisional(evening, organizer):
    """Round 1 of 2 closed."""
    play_round(evening, organizer, seed=1, points=(0, 5, 10, 20))
    return evening


@pytest.fixture
def finished(provisional, organizer):
    play_round(provisional, organizer, seed=2, points=(0, 7, 12, 25))
    return provisional


def get_pdf(client, url, language="de"):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200, response
    assert response["Content-Type"] == "application/pdf"
    return response


def by_page(found: list[Word]) -> dict[int, list[Word]]:
    pages = defaultdict(list)
    for word in found:
        pages[word.page].append(word)
    return pages


def text_of(page_words: list[Word]) -> str:
    """The page's words in reading order, one space between them (line breaks too)."""
    return " ".join(word.text for word in page_words).replace("&amp;", "&")


def first(page_words: list[Word], text: str) -> Word:
    return next(word for word in page_words if word.text == text)


def last(page_words: list[Word], text: str) -> Word:
    return first(page_words[::-1], text)


def url(tournament, query=""):
    return reverse("print:certificates", args=[tournament.pk]) + query


# --- the server decides which certificate each player gets ------------------------------------------


def test_top_n_get_place_certificates_all_others_participation(finished):
    document = certificates.certificates(finished, top=3, participation=True)
    ranks = [cert.rank for cert in document.certificates]
    assert len(ranks) == len(PLAYERS) and ranks == sorted(ranks)
    assert [cert.participation for cert in document.certificates] == [rank > 3 for rank in ranks]
    assert all(cert.medal == ("", "gold", "silver", "bronze")[cert.rank] for cert in document.certificates
               if cert.rank <= 3)
    assert all(cert.medal == "" for cert in document.certificates if cert.participation)
    only_top = certificates.certificates(finished, top=3)
    assert [cert.rank for cert in only_top.certificates] == [rank for rank in ranks if rank <= 3]
    assert not any(cert.participation for cert in only_top.certificates)
    everybody = certificates.certificates(finished, participation=True)
    assert all(cert.participation for cert in everybody.certificates)


def test_final_only_when_all_rounds_are_closed(provisional, organizer):
    document = certificates.certificates(provisional)
    assert not document.final and document.after_round == 1
    with translation.override("de"):
        assert document.marker == "vorläufig – nach Runde 1"  # noqa: RUF001
    play_round(provisional, organizer, seed=2, points=(0, 7, 12, 25))
    document = certificates.certificates(provisional)
    assert document.final and document.marker == ""


@pytest.mark.parametrize(
    "language,expected",
    [
        ("en", {1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st",
                22: "22nd", 101: "101st", 111: "111th"}),
        ("de", {1: "1.", 2: "2.", 3: "3.", 11: "11.", 21: "21."}),
    ],
)
def test_ordinals(language, expected):
    with translation.override(language):
        assert {rank: typography.ordinal(rank) for rank in expected} == expected


# --- what the certificates say ------------------------------------------------------------------------


def test_place_certificate_sentence_venue_date_and_signatures(organizer_client, finished, tmp_path):
    response = get_pdf(organizer_client, url(finished, "?top=3"))
    name = f"{EVENT} - Urkunden, Plaetze 1 bis 3.pdf"
    assert response["Content-Disposition"].startswith(f'inline; filename="{name}";')
    document = certificates.certificates(finished, top=3)
    _pages, found = words(response.content, tmp_path)
    pages = by_page(found)
    assert len(pages) == len(document.certificates)
    for cert, page_words in zip(document.certificates, pages.values(), strict=True):
        text = text_of(page_words)
        assert text.startswith("Urkunde ")
        assert cert.line.player.name in text
        assert f"belegte beim Turnier „{EVENT}“ den {cert.rank}. Platz" in text
        assert f"mit {cert.line.row.total} Minuspunkten" in text
        assert f"{VENUE}, 29. November 2026" in text
        assert text.endswith("Turnierleitung Vorstand")
        assert "vorläufig" not in text


def test_participation_certificates_after_the_top_n(organizer_client, finished, tmp_path):
    pdf = get_pdf(organizer_client, url(finished, "?top=3&participation=1")).content
    document = certificates.certificates(finished, top=3, participation=True)
    _pages, found = words(pdf, tmp_path)
    pages = by_page(found)
    assert len(pages) == len(PLAYERS)
    for cert, page_words in zip(document.certificates, pages.values(), strict=True):
        text = text_of(page_words)
        if cert.rank <= 3:
            assert text.startswith("Urkunde ") and "Teilnahmeurkunde" not in text
            assert f"den {cert.rank}. Platz" in text
            continue
        assert text.startswith("Teilnahmeurkunde ")
        assert f"hat am 29. November 2026 am Turnier „{EVENT}“ teilgenommen" in text
        assert f"{cert.rank}. Platz von {len(PLAYERS)} · mit {cert.line.row.total} Minuspunkten" in text
        assert "belegte" not in text


def test_english_certificates(organizer_client, finished, tmp_path):
    pdf = get_pdf(organizer_client, url(finished, "?top=1&participation=1"), language="en").content
    document = certificates.certificates(finished, top=1, participation=True)
    _pages, found = words(pdf, tmp_path)
    for cert, page_words in zip(document.certificates, by_page(found).values(), strict=True):
        text = text_of(page_words)
        place = typography.ordinal(cert.rank)
        if cert.participation:
            assert text.startswith("Certificate of Participation ")
            assert f"took part in “{EVENT}” on Nov. 29, 2026" in text
            assert f"{place} place of {len(PLAYERS)} · with {cert.line.row.total} minus points" in text
        else:
            assert f"took {place} place at “{EVENT}”" in text
        assert text.endswith("Tournament management Club board")


def test_provisional_before_the_last_round_is_closed(organizer_client, provisional, tmp_path):
    response = get_pdf(organizer_client, url(provisional, "?top=2&participation=1"))
    assert "Urkunden, Plaetze 1 bis 2, mit Teilnahmeurkunden, vorlaeufig - nach Runde 1.pdf" in (
        response["Content-Disposition"]
    )
    _pages, found = words(response.content, tmp_path)
    pages = by_page(found)
    assert len(pages) == len(PLAYERS)
    for page_words in pages.values():
        assert "vorläufig – nach Runde 1" in text_of(page_words)  # noqa: RUF001
    assert problems(response.content, tmp_path) == []


def test_documents_page_warns_that_certificates_are_provisional(organizer_client, provisional, organizer):
    page = reverse("print:documents", args=[provisional.pk])
    html = organizer_client.get(page, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    warning = re.search(r'<p class="warn-text provisional-note">(.*?)</p>', html, re.S)
    assert warning and "nach Runde 1 ist vorläufig" in warning.group(1)
    assert html.index("provisional-note") < html.index('name="participation"')  # before the buttons
    play_round(provisional, organizer, seed=2, points=(0, 7, 12, 25))
    html = organizer_client.get(page, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "provisional-note" not in html
    assert 'type="checkbox" name="participation" value="1"' in html


# --- layout ---------------------------------------------------------------------------------------------


def fixed_heights(page_words: list[Word]) -> dict[str, float]:
    """The top of the parts every certificate has at its fixed place."""
    heights = {
        "title": page_words[0].y0,
        "venue and date": last(page_words, "November").y0,
        "board": first(page_words, "Vorstand").y0,
        "management": first(page_words, "Turnierleitung").y0,
        "points": first(page_words, "Minuspunkten").y0,
    }
    for start in ("belegte", "hat"):
        if any(word.text == start for word in page_words):
            heights["sentence"] = first(page_words, start).y0
    return {key: round(value, 1) for key, value in heights.items()}


@pytest.mark.parametrize(
    "query,options", [("", {}), ("?top=3&participation=1", {"top": 3, "participation": True})]
)
def test_fixed_parts_at_the_same_height_with_and_without_club(
    organizer_client, finished, tmp_path, query, options
):
    pdf = get_pdf(organizer_client, url(finished, query)).content
    assert problems(pdf, tmp_path) == []
    document = certificates.certificates(finished, **options)
    _pages, found = words(pdf, tmp_path)
    heights = defaultdict(set)
    clubs = set()
    for cert, page_words in zip(document.certificates, by_page(found).values(), strict=True):
        clubs.add(bool(cert.line.player.club_name))
        for key, value in fixed_heights(page_words).items():
            heights[cert.participation, key].add(value)
    assert clubs == {True, False}
    assert all(len(values) == 1 for values in heights.values()), heights
    # the signatures side by side, at the same height on place and participation certificates
    assert {heights[kind, "board"] == heights[kind, "management"] for kind, _key in heights} == {True}
    assert len({value for (_kind, key), values in heights.items() if key == "board" for value in values}) == 1


def test_long_name_and_club_are_printed_whole_above_the_sentence(organizer_client, finished, tmp_path):
    document = certificates.certificates(finished)
    index = next(
        i for i, cert in enumerate(document.certificates) if cert.line.player.first_name == LONG_NAME[0]
    )
    pdf = get_pdf(organizer_client, url(finished)).content
    _pages, found = words(pdf, tmp_path)
    page_words = by_page(found)[index]
    text = text_of(page_words)
    assert " ".join(LONG_NAME) in text and LONG_CLUB in text
    name_bottom = max(w.y1 for w in page_words if w.text in ("Hohenzollern-Sigmaringen", "Gräfin"))
    club_words = [w for w in page_words if w.text in ("UNO-Freunde", "Gesellschaftsspiele")]
    assert name_bottom < min(w.y0 for w in club_words)
    assert max(w.y1 for w in club_words) < first(page_words, "belegte").y0


def png_bytes(size=(300, 120)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


def test_logo_and_venue_change_no_height(organizer_client, finished, tmp_path, settings):
    """The same certificate with the logo, and without the venue: everything stays where it was."""
    plain = get_pdf(organizer_client, url(finished, "?top=1")).content
    settings.MEDIA_ROOT = tmp_path
    organizer_client.post(
        reverse("print:logo", args=[finished.pk]),
        {"logo": SimpleUploadedFile("club.png", png_bytes(), "image/png")},
    )
    with_logo = get_pdf(organizer_client, url(finished, "?top=1")).content
    finished.venue = ""
    finished.save()
    no_venue = get_pdf(organizer_client, url(finished, "?top=1")).content
    assert problems(with_logo, tmp_path) == []
    assert PdfReader(io.BytesIO(with_logo)).pages[0].images

    def layout(pdf):
        _pages, found = words(pdf, tmp_path)
        page_words = by_page(found)[0]
        return {**fixed_heights(page_words), "name": page_words[1].y0}

    assert layout(with_logo) == layout(plain) == layout(no_venue)
    assert VENUE.split()[0] in text_of(words(plain, tmp_path)[1])
    assert VENUE.split()[0] not in text_of(words(no_venue, tmp_path)[1])


@pytest.mark.parametrize("language", ["de", "en"])
def test_names_of_every_length_keep_to_their_place(
    organizer_client, tournament, organizer, tmp_path, language
):
    """At each type size a name may wrap onto a second line: the lines must not overlap."""
    tournament.rounds_total = 1
    tournament.save()
    for number, (first_name, last_name) in enumerate(LONG_NAMES[:8], start=1):
        player = PlayerFactory(first_name=first_name, last_name=last_name, club=ClubFactory(name=LONG_CLUB))
        RegistrationFactory(tournament=tournament, player=player, start_number=number)
    play_round(tournament, organizer, seed=1, points=(0, 5, 10, 20))
    pdf = get_pdf(organizer_client, url(tournament, "?top=3&participation=1"), language).content
    assert problems(pdf, tmp_path) == []
    pages = by_page(words(pdf, tmp_path)[1])
    assert len(pages) == 8
    texts = [text_of(page_words).replace("- ", "-") for page_words in pages.values()]  # hyphen breaks
    for first_name, last_name in LONG_NAMES[:8]:
        assert sum(f"{first_name} {last_name}" in text for text in texts) == 1, (first_name, texts)
