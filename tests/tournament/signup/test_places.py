"""The sign-up's places are the evening's places (#51 point 7): players registered another way take
places too, and after the evening has started the organizer's page says the sign-up is closed."""

import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, TournamentFactory, play_round
from tournament.models import Registration, Signup
from tournament.signup.selectors import signup_counts
from tournament.signup.services import signup_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(organizer):
    """25 places, 17 players already registered (typed, imported, from earlier evenings)."""
    tournament = TournamentFactory(organizers=[organizer], signup_open=True, signup_capacity=25)
    for number in range(1, 18):
        RegistrationFactory(tournament=tournament, start_number=number, status=Registration.Status.REGISTERED)
    return tournament


def sign(tournament, name):
    return signup_create(tournament=tournament, first_name=name, last_name="Muster", birth_year=1980)


def test_registered_players_take_places(evening):
    counts = signup_counts(evening)
    assert (counts.taken, counts.free) == (17, 8)


def test_a_withdrawn_player_frees_the_place(evening):
    withdrawn = Registration.Status.WITHDRAWN
    Registration.objects.filter(tournament=evening, start_number=1).update(status=withdrawn)
    assert signup_counts(evening).free == 9


def test_the_places_left_go_to_the_first_sign_ups_then_the_waiting_list(evening):
    statuses = [sign(evening, f"Person{i}").status for i in range(10)]
    assert statuses == [Signup.Status.CONFIRMED] * 8 + [Signup.Status.WAITING] * 2


def test_a_checked_in_sign_up_takes_one_place_not_two(evening, organizer):
    from tournament.cashdesk.services import signup_check_in

    signup = sign(evening, "Sina")
    signup_check_in(signup=signup, user=organizer, amount_cents=0, method="cash", reason="Freikarte")
    counts = signup_counts(evening)
    assert (counts.taken, counts.free) == (18, 7)


def test_the_public_page_counts_the_evenings_places(client, evening):
    page = client.get(reverse("public:signup", args=[evening.pk])).content.decode()
    assert "<b>8</b>places free" in page.replace("\n", "")


def test_the_organizer_page_counts_the_evenings_places(client, organizer, evening):
    client.force_login(organizer)
    page = client.get(reverse("organizer:signups", args=[evening.pk])).content.decode()
    assert "17 of 25 places taken" in page
    assert "The public sign-up takes entries now." in page


def test_after_the_start_the_organizer_page_says_the_sign_up_is_closed(client, organizer):
    tournament = TournamentFactory(organizers=[organizer], signup_open=True, rounds_total=1)
    for number in range(1, 9):
        RegistrationFactory(tournament=tournament, start_number=number)
    play_round(tournament, organizer, seed=1)
    client.force_login(organizer)
    page = client.get(reverse("organizer:signups", args=[tournament.pk])).content.decode()
    assert "Sign-up closed: the evening has started" in page
    assert "public sign-up switched on" not in page
    assert 'name="signup_open"' not in page
