"""After closing a round the page's first action is the next step; the turnaround actions."""

import json
import re

from django.urls import reverse

from tests.factories import play_round
from tournament.models import Round
from tournament.rounds.services import round_seat


def url(name, tournament, *args):
    return reverse(f"organizer:{name}", args=[tournament.pk, *args])


def first_action(html):
    actions = html.split('class="actions round-actions"', 1)[1]
    return re.search(r'class="button primary[^"]*"[^>]*>([^<]+)<', actions).group(1).strip()


def test_closed_round_offers_seating_the_next_round_first(organizer_client, tournament, players, organizer):
    play_round(tournament, organizer, seed=1)
    html = organizer_client.get(url("round", tournament, 1)).content.decode()
    assert first_action(html) == "Seat round 2"


def test_close_and_seat_shows_the_next_draft(organizer_client, tournament, players, organizer):
    play_round(tournament, organizer, seed=1, close=False)
    response = organizer_client.post(url("round_close", tournament, 1), {"then": "seat"})
    assert response["Location"] == url("round", tournament, 2)
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.CLOSED
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.DRAFT
    page = organizer_client.get(response["Location"]).content.decode()
    assert 'class="swap-form"' in page
    assert first_action(page) == "Publish, print table sheets and open for results"


def test_the_last_round_closes_to_the_final_standings(organizer_client, tournament, players, organizer):
    tournament.rounds_total = 1
    tournament.save()
    play_round(tournament, organizer, seed=1, close=False)
    response = organizer_client.post(url("round_close", tournament, 1), {"then": "seat"})
    assert response["Location"] == url("round", tournament, 1)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    html = organizer_client.get(response["Location"]).content.decode()
    assert first_action(html) == "End of the evening"
    assert url("finish", tournament) in html
    certificates = reverse("print:certificates", args=[tournament.pk])
    assert f'href="{certificates}?top=3" target="_blank" rel="noopener">Certificates (PDF)</a>' in html
    assert f'href="{certificates}?top=3&amp;download=1" download' in html


def test_the_second_click_publishes_prints_and_opens(organizer_client, tournament, players, organizer):
    round_seat(tournament=tournament, user=organizer, seed=5)
    response = organizer_client.post(url("round_publish", tournament, 1), {"then": "print", "start": "1"})
    assert response["Location"] == url("round", tournament, 1) + "?sheets=a4"
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.OPEN
    html = organizer_client.get(response["Location"]).content.decode()
    sheets = reverse("print:table_sheets", args=[tournament.pk, 1])
    # The sheets open inline in a new tab, as every PDF of the app does (#51 item 14); nothing downloads.
    assert f'href="{sheets}" target="_blank" rel="noopener">Print table sheets</a>' in html
    assert "data-auto-download" not in html and "download=1\" download data" not in html
    assert "Round 1 published and open for results." in html


def test_publish_and_print_downloads_the_sheets(organizer_client, tournament, players, organizer):
    round_seat(tournament=tournament, user=organizer, seed=5)
    response = organizer_client.post(url("round_publish", tournament, 1), {"then": "print"})
    assert response["Location"] == url("round", tournament, 1) + "?sheets=a4"
    html = organizer_client.get(response["Location"]).content.decode()
    sheets = reverse("print:table_sheets", args=[tournament.pk, 1])
    assert f'href="{sheets}" target="_blank" rel="noopener">Print table sheets</a>' in html
    assert "data-auto-download" not in html
    assert "<script>" not in html
    # no second button competes with the next step: opening the round is the page's one primary action
    assert first_action(html) == "Open for results"
    actions = html.split('class="actions round-actions"', 1)[1].split('class="clock-controls', 1)[0]
    assert len(re.findall(r'class="button primary', actions)) == 1
    assert "The table sheets open in a new tab, ready to print:" in html
    # the sheets open again in a new tab from the print buttons below the tables
    assert f'href="{sheets}" target="_blank" rel="noopener">Table sheets (A4)</a>' in html


def test_standings_page_has_its_pdf_button(organizer_client, tournament, players, organizer):
    play_round(tournament, organizer, seed=1)
    html = organizer_client.get(url("standings", tournament)).content.decode()
    assert reverse("print:standings", args=[tournament.pk]) in html


def test_a_step_no_button_offers_is_refused_before_the_round_changes(
    organizer_client, tournament, players, organizer
):
    play_round(tournament, organizer, seed=1, close=False)
    response = organizer_client.post(url("round_close", tournament, 1), {"then": "delete"})
    assert response.status_code == 400
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.OPEN


def test_the_click_sent_by_the_page_opens_the_sheets_in_a_new_tab(
    organizer_client, tournament, players, organizer
):
    """#51 item 14: the page sends the turnaround's click with htmx; the answer names the sheets to open
    (inline, the app's script opens a tab) and the open round to go to."""
    round_seat(tournament=tournament, user=organizer, seed=5)
    response = organizer_client.post(
        url("round_publish", tournament, 1), {"then": "print", "start": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    sheets = reverse("print:table_sheets", args=[tournament.pk, 1])
    assert json.loads(response["HX-Trigger"]) == {"open-pdf": {"url": sheets}}
    assert response["HX-Redirect"] == url("round", tournament, 1) + "?sheets=a4"
    pdf = organizer_client.get(sheets)
    assert pdf["Content-Type"] == "application/pdf" and pdf["Content-Disposition"].startswith("inline")


def test_the_turnarounds_messages_stay_while_the_live_status_refreshes(
    organizer_client, tournament, players, organizer
):
    round_seat(tournament=tournament, user=organizer, seed=5)
    response = organizer_client.post(url("round_publish", tournament, 1), {"then": "print", "start": "1"})
    page = organizer_client.get(response["Location"]).content.decode()
    status = page.split('id="round-status"')[1]
    assert "Round 1 published and open for results." in page.split('id="round-status"')[0]
    assert "Round 1 published and open for results." not in status
    # The live refresh (every few seconds) replaces only the status: the message is outside it, and the
    # refresh shows no message of its own.
    refreshed = organizer_client.get(url("round_status", tournament, 1)).content.decode()
    assert 'class="messages"' not in refreshed
