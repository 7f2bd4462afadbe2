"""A helper's overview names only steps a helper can take (#51 point 20): seating, publishing and
closing a round and adding players are the organizers' (tournament.permissions)."""

import pytest
from django.urls import reverse

from tests.conftest import twelve_players
from tests.factories import MembershipFactory, UserFactory, play_round
from tournament.rounds.services import round_seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def helper_client(client, tournament):
    helper = UserFactory(username="tuer")
    MembershipFactory(tournament=tournament, user=helper)
    client.force_login(helper)
    return client


def next_step(client, tournament) -> str:
    page = client.get(reverse("organizer:tournament", args=[tournament.pk])).content.decode()
    start = page.index('id="next-step"')
    return page[start:page.index("</section>", start)]


def test_no_players_yet(helper_client, tournament):
    text = next_step(helper_client, tournament)
    assert "the organizers add the players" in text and "Add the players" not in text


def test_seat_the_next_round(helper_client, tournament):
    twelve_players(tournament)
    text = next_step(helper_client, tournament)
    assert "The organizers seat round 1 next." in text
    assert "you can swap players" not in text and "round_seat" not in text and "/rounds/seat/" not in text


def test_a_drafted_round(helper_client, tournament, organizer):
    twelve_players(tournament)
    round_seat(tournament=tournament, user=organizer, seed=1)
    text = next_step(helper_client, tournament)
    assert "the organizers publish it" in text and "swap if you like" not in text


def test_every_table_confirmed(helper_client, tournament, organizer):
    twelve_players(tournament)
    play_round(tournament, organizer, seed=1, close=False)
    text = next_step(helper_client, tournament)
    assert "the organizers close the round" in text
    assert "Every table is confirmed: close the round." not in text


def test_the_organizer_is_still_told_to_seat(client, organizer, tournament):
    twelve_players(tournament)
    client.force_login(organizer)
    assert "you can swap players" in next_step(client, tournament)


def test_the_format_box_names_confirmation_and_silent_rounds(client, organizer):
    from tests.factories import TournamentFactory

    tournament = TournamentFactory(
        organizers=[organizer], table_confirmation="counts", standings_hidden_from=5
    )
    client.force_login(organizer)
    page = client.get(reverse("organizer:tournament", args=[tournament.pk])).content.decode()
    assert "a second player confirms and the result counts" in page
    assert "standings hidden from round 5 until revealed" in page
