"""Every printed document, rendered and read back word by word (pdftotext -bbox): no word leaves the
printable area, no two words overlap. A whole evening: 23 players with long names and clubs, 8 rounds."""

import html
import io
import re
import subprocess
from dataclasses import dataclass

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import PlayerFactory, RegistrationFactory, play_round
from tournament.rounds.services import seating_plan_create

pytestmark = pytest.mark.django_db

MM = 72 / 25.4  # PDF points per millimetre
PRINTABLE = 5 * MM  # what an office printer cannot reach at each edge
OVERLAP = 0.6  # points two word boxes may share (antialiasing, kerning), no more

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


@dataclass(frozen=True)
class Word:
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    text: str


def words(pdf: bytes, tmp_path) -> tuple[list[tuple[float, float]], list[Word]]:
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages, found = [], []
    for number, (width, height, body) in enumerate(_PAGE.findall(out)):
        pages.append((float(width), float(height)))
        found += [
            Word(number, float(a), float(b), float(c), float(d), text)
            for a, b, c, d, text in _WORD.findall(body)
        ]
    return pages, found


def problems(pdf: bytes, tmp_path) -> list[str]:
    pages, found = words(pdf, tmp_path)
    issues = []
    # pdftotext leaves out what lies off the page; pypdf reads every word drawn, wherever it is.
    drawn = {w for page in PdfReader(io.BytesIO(pdf)).pages for w in page.extract_text().split()}
    cut_off = drawn - {w.text for w in found} - {html.unescape(w.text) for w in found}
    issues += [f"{word!r} is drawn off the page" for word in sorted(cut_off)]
    for word in found:
        width, height = pages[word.page]
        inside = word.x0 >= PRINTABLE and word.y0 >= PRINTABLE
        inside = inside and word.x1 <= width - PRINTABLE and word.y1 <= height - PRINTABLE
        if not inside:
            issues.append(f"page {word.page + 1}: {word.text!r} leaves the printable area")
    by_page: dict[int, list[Word]] = {}
    for word in found:
        by_page.setdefault(word.page, []).append(word)
    for page_words in by_page.values():
        page_words.sort(key=lambda w: w.x0)
        for i, a in enumerate(page_words):
            for b in page_words[i + 1:]:
                if b.x0 >= a.x1 - OVERLAP:
                    break
                across = min(a.x1, b.x1) - max(a.x0, b.x0)
                if across > OVERLAP and min(a.y1, b.y1) - max(a.y0, b.y0) > OVERLAP:
                    issues.append(f"page {a.page + 1}: {a.text!r} overlaps {b.text!r}")
    return issues


@pytest.fixture
def evening(tournament, organizer):
    tournament.rounds_total = 8
    tournament.name = "Vereinsmeisterschaft im Leonharder UNO Wintercup"
    tournament.venue = "Bürgerhaus am Marktplatz, großer Saal"
    tournament.save()
    for i in range(23):
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(
                first_name=f"Maximiliane-Friederike{i}", last_name="von Hohenzollern-Sigmaringen",
                club__name=f"UNO-Freunde Oberschwaben-Allgäu e. V. {i % 4}",
            ),
        )
    return tournament


def get_pdf(client, url):
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200, response
    assert response["Content-Type"] == "application/pdf"
    return response.content


@pytest.fixture
def played(evening, organizer):
    for number in range(1, 9):
        play_round(evening, organizer, seed=number)
    return evening


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
    # long names keep to one line: every "von" sits on the line of its first name
    firsts = [w for w in found if w.text.startswith("Maximiliane-Friederike") and w.page < len(pages) - 1]
    vons = [w for w in found if w.text == "von" and w.page < len(pages) - 1]
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
