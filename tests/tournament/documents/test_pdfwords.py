"""The layout checker itself: it must report a word drawn off the page and must not report a season
certificate whose name and club pypdf reads as one word."""

from types import SimpleNamespace

import pytest

from tests.factories import LONG_CLUBS
from tests.tournament.documents.pdfwords import _made_of, problems
from tournament.documents.prizes import Prize, prizes_pdf
from tournament.documents.typography import html_to_pdf

pytestmark = pytest.mark.one_database  # the geometry of rendered pages


def test_a_word_drawn_off_the_page_is_reported(tmp_path):
    pdf = html_to_pdf(
        "<p>Tischliste</p><p style='position: absolute; left: 250mm; top: 20mm'>Ausreißer</p>"
    )
    assert problems(pdf, tmp_path) == ["'Ausreißer' is drawn off the page"]


def test_a_name_and_club_read_as_one_word_are_on_the_page(tmp_path):
    # pypdf reads the wrapped name's last word and the club's first as "HohenbergUNO-Freunde"
    prize = Prize(
        "Jahreswertung", "Jahreswertung", "29.11.2026 – 29.11.2026", "Ulrike Schmidt-Hohenberg",  # noqa: RUF001
        LONG_CLUBS[0], 1, "mit 12 Punkten",
    )
    assert problems(prizes_pdf(SimpleNamespace(logo=None), [prize]), tmp_path) == []


def test_made_of_words_on_the_page():
    on_page = {"Hohenberg", "UNO-Freunde", "e.", "V."}
    assert _made_of("HohenbergUNO-Freunde", on_page)
    assert _made_of("e.V.", on_page)
    assert not _made_of("HohenbergUNO", on_page)
    assert not _made_of("Ausreißer", on_page)
