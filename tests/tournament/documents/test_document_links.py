"""Every document link answers a PDF (#51 point 19): the overview, the end of the evening, the
documents page and the rankings page are walked in several states of an evening, and every link into
/print/ that ends in a document is followed. A document that cannot be made yet (category certificates
with no category certain, season certificates with nobody ranked) is not offered, and the page says why.
"""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from tests.conftest import twelve_players
from tests.factories import SeriesFactory, TournamentFactory, play_round
from tournament.models import Player

pytestmark = pytest.mark.django_db

LINK = re.compile(r'(?:href|action)="(/print/[^"]*\.pdf[^"]*)"')
PAGES = ("organizer:tournament", "organizer:finish", "print:documents", "organizer:rankings")


def document_links(client, tournament) -> set[str]:
    links = set()
    for name in PAGES:
        response = client.get(reverse(name, args=[tournament.pk]))
        assert response.status_code == 200, name
        links |= {html.unescape(link) for link in LINK.findall(response.content.decode())}
    return links


def pages_text(client, tournament) -> str:
    return "".join(client.get(reverse(name, args=[tournament.pk])).content.decode() for name in PAGES)


def every_link_answers_a_pdf(client, tournament) -> set[str]:
    links = document_links(client, tournament)
    for link in links:
        response = client.get(link)
        assert response.status_code == 200, link
        assert response["Content-Type"] == "application/pdf", link
    return links


def known_facts(tournament) -> None:
    """Gender, year of birth and membership of every player known."""
    Player.objects.filter(registrations__tournament=tournament).update(gender="m", member=True)
    first = tournament.registrations.order_by("start_number").first().player
    Player.objects.filter(pk=first.pk).update(gender="f")


@pytest.fixture
def series_evening(organizer):
    tournament = TournamentFactory(organizers=[organizer], rounds_total=2, series=SeriesFactory())
    twelve_players(tournament)
    return tournament


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_before_any_round_no_certificate_is_offered_and_the_pages_say_why(client, organizer, series_evening):
    client.force_login(organizer)
    links = every_link_answers_a_pdf(client, series_evening)
    assert not any("certificates" in link for link in links)
    text = pages_text(client, series_evening)
    assert "Season certificates: not yet" in text


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_with_genders_unknown_the_category_certificates_are_not_offered(client, organizer, series_evening):
    # Everybody a member (a category of the whole field), no gender, one year of birth missing.
    first = series_evening.registrations.order_by("start_number").first().player
    Player.objects.filter(pk=first.pk).update(birth_year=None, birth_date=None)
    play_round(series_evening, organizer, seed=1)
    client.force_login(organizer)
    links = every_link_answers_a_pdf(client, series_evening)
    assert not any("category-certificates" in link for link in links)
    assert any("series-certificates" in link for link in links)
    assert "Category certificates: not yet" in pages_text(client, series_evening)


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_at_the_end_with_every_fact_known_every_document_is_offered(client, organizer, series_evening):
    known_facts(series_evening)
    play_round(series_evening, organizer, seed=1)
    play_round(series_evening, organizer, seed=2)
    client.force_login(organizer)
    links = every_link_answers_a_pdf(client, series_evening)
    for document in ("category-certificates", "series-certificates", "certificates.pdf", "standings.pdf",
                     "rankings.pdf", "cash-record.pdf", "series-standings.pdf"):
        assert any(document in link for link in links), document
    assert "not yet" not in pages_text(client, series_evening)


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_an_evening_in_no_series_offers_no_season_documents(client, organizer, tournament):
    twelve_players(tournament)
    tournament.rounds_total = 1
    tournament.save()
    play_round(tournament, organizer, seed=1)
    client.force_login(organizer)
    links = every_link_answers_a_pdf(client, tournament)
    assert not any("series" in link for link in links)
    assert links
