"""Sentences that read right in German: the format's facts, "none" that agrees with its noun, buttons that
say what they do, and the seating's seed kept out of the way."""

import re

import pytest
from django.urls import reverse

from tests.factories import play_round, points_report
from tournament.models import Round, Submission
from tournament.results.services import result_submit
from tournament.rounds.services import round_open, round_publish, round_seat
from tournament.series.services import series_create

pytestmark = pytest.mark.django_db
GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


def url(name, tournament, *args):
    return reverse(f"organizer:{name}", args=[tournament.pk, *args])


def test_the_overview_states_the_tables_and_no_time_limit_in_sentences(organizer_client, tournament):
    tournament.table_size, tournament.table_min, tournament.table_max = 4, 3, 5
    tournament.time_limit_minutes = None
    tournament.save()
    html = organizer_client.get(url("tournament", tournament), **GERMAN).content.decode()
    assert "<dd>4 Spieler (3–5), aufgefüllt mit kleineren Tischen</dd>" in html  # noqa: RUF001
    assert "<dt>Zeitlimit</dt><dd>keines</dd>" in html
    tournament.fill = "larger"
    tournament.save()
    html = organizer_client.get(url("tournament", tournament), **GERMAN).content.decode()
    assert "aufgefüllt mit größeren Tischen</dd>" in html


def test_a_new_tournament_joins_no_series_by_default(organizer_client, tournament, organizer):
    series_create(tournament=tournament, user=organizer, name="Jahreswertung 2027")
    html = organizer_client.get(reverse("organizer:tournament_create"), **GERMAN).content.decode()
    assert re.search(r'<option value="" selected>keine</option>', html)
    assert "keins" not in html


@pytest.fixture
def reported(tournament, players, organizer):
    """Round 1 open, table 1 reported by its captain (version 1, waiting for the confirmation)."""
    round_ = round_seat(tournament=tournament, user=organizer, seed=123456789012345)
    round_publish(round_=round_, user=organizer)
    round_open(round_=round_, user=organizer)
    table = round_.tables.get(number=1)
    result_submit(
        table=table, seats=points_report(table, [0, 5, 6, 7]), source=Submission.Source.CAPTAIN,
        token=table.token,
    )
    return round_


def test_the_confirm_buttons_say_what_they_confirm(organizer_client, tournament, reported):
    html = organizer_client.get(url("round", tournament, 1), **GERMAN).content.decode()
    assert '<button type="submit" class="button small ok">Ergebnis bestätigen</button>' in html
    assert "Version 1 bestätigen" not in html
    assert "Version 1 von Tischkapitän" in html  # which version it is stays written above the button
    detail = organizer_client.get(url("table_detail", tournament, 1, 1), **GERMAN).content.decode()
    assert 'data-confirm-version="1">Diese Version bestätigen</button>' in detail


def test_the_seed_is_a_detail_not_a_headline(organizer_client, tournament, reported):
    html = organizer_client.get(url("round", tournament, 1), **GERMAN).content.decode()
    head = html.split('class="round-head round-top"', 1)[1].split('class="actions round-actions"', 1)[0]
    seed = '<details class="round-seed muted small"><summary>Startwert</summary><code>123456789012345</code>'
    assert seed in head
    assert "Startwert 123456789012345" not in html
    rounds = organizer_client.get(url("rounds", tournament), **GERMAN).content.decode()
    assert "123456789012345" not in rounds and "<th class=\"num\">Startwert</th>" not in rounds


def test_seating_says_what_happened_without_the_seed(organizer_client, tournament, players):
    response = organizer_client.post(url("round_seat", tournament), {"seed": "987654321098765"}, **GERMAN)
    page = organizer_client.get(response["Location"], **GERMAN).content.decode()
    assert "Runde 1 ausgelost. Bitte prüfen und dann veröffentlichen." in page
    assert Round.objects.get(tournament=tournament).seed == 987654321098765
    assert page.count("987654321098765") == 1  # only in the round's details


def test_closing_and_seating_the_next_round_says_it_without_the_seed(
    organizer_client, tournament, players, organizer
):
    play_round(tournament, organizer, seed=1, close=False)
    response = organizer_client.post(url("round_close", tournament, 1), {"then": "seat"}, **GERMAN)
    page = organizer_client.get(response["Location"], **GERMAN).content.decode()
    assert "Runde 2 ausgelost. Bitte prüfen und dann veröffentlichen." in page


def test_planning_all_rounds_says_it_without_the_seed(organizer_client, tournament, players):
    organizer_client.post(url("seating_plan", tournament), **GERMAN)
    page = organizer_client.get(url("rounds", tournament), **GERMAN).content.decode()
    assert re.search(r"Runden 1 bis 6 für 12 Spieler geplant\.<", page)

