"""The draft marks the repeated pairs at their tables and says whether they were avoidable (#51 item 17)."""

import re

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, seated_round
from tournament.models import Registration, Round

pytestmark = pytest.mark.django_db


def field(tournament, n):
    return [
        RegistrationFactory(tournament=tournament, start_number=i, status=Registration.Status.CHECKED_IN,
                            player=PlayerFactory(first_name=f"P{i}", last_name="Test"))
        for i in range(1, n + 1)
    ]


def marked(html: str) -> dict[str, str]:
    """Each seat marked as meeting somebody again: the player's name → the note under it."""
    return {
        name: re.sub(r"\s+", " ", note)
        for name, note in re.findall(
            r'<li class="meets-again"><span class="who"><span class="seat-name">([^<]+)</span>.*?'
            r'<span class="small repeat-note">([^<]+)</span>', html, re.S,
        )
    }


def test_an_avoidable_repeat_is_marked_at_its_table_with_the_swap_avoiding_it(organizer_client, tournament):
    p = field(tournament, 8)
    seated_round(tournament, p, number=1, status=Round.Status.CLOSED)  # 1-4 at table 1, 5-8 at table 2
    seated_round(tournament, [p[0], p[1], p[2], p[4], p[3], p[5], p[6], p[7]], number=2,
                 status=Round.Status.DRAFT)
    page = organizer_client.get(reverse("organizer:round", args=[tournament.pk, 2]))
    html = page.content.decode()
    seats = marked(html)
    assert set(seats) == {"P1 Test", "P2 Test", "P3 Test", "P6 Test", "P7 Test", "P8 Test"}
    assert seats["P1 Test"] == "meets again: P2 Test (2. time), P3 Test (2. time)"
    verdict = re.search(r'id="repeat-verdict">([^<]+)<', html).group(1)
    assert verdict == ("Avoidable: swapping P1 Test (table 1) and P6 Test (table 2) saves 2 repeats. "
                       "The swap below is filled in.")
    form = page.context["swap_form"]
    assert (form.initial["first"], form.initial["second"]) == (
        p[0].seats.get(round__number=2).pk, p[5].seats.get(round__number=2).pk,
    )


def test_a_repeat_no_seating_avoids_is_called_unavoidable(organizer_client, tournament):
    p = field(tournament, 4)
    seated_round(tournament, p, number=1, status=Round.Status.CLOSED)
    seated_round(tournament, p[::-1], number=2, status=Round.Status.DRAFT)
    html = organizer_client.get(reverse("organizer:round", args=[tournament.pk, 2])).content.decode()
    assert len(marked(html)) == 4
    assert re.search(r'id="repeat-verdict">([^<]+)<', html).group(1) == (
        "Unavoidable: with these players at tables of these sizes every seating has at least 6 pairs "
        "that met before."
    )
