"""The organizer's sign-up page: settings, list with duplicates, actions, export; queries counted."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory
from tournament.models import AuditEntry, Signup
from tournament.signup.services import signup_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(organizer):
    return TournamentFactory(organizers=[organizer], signup_open=True, signup_capacity=1)


def sign(tournament, name, **extra):
    return signup_create(
        tournament=tournament, first_name=name, last_name="Muster", club="Club", birth_year=1980, **extra
    )


def test_list_marks_duplicates_in_fixed_queries(client, organizer, tournament, django_assert_num_queries):
    for name in ["Anna", "Anna", "Ben", "Cem", "Dora", "Emil"]:
        sign(tournament, name)
    client.force_login(organizer)
    url = reverse("organizer:signups", args=[tournament.pk])
    client.get(url)
    # session, user, tournament, organizer check, signups, counts, players registered otherwise, started?
    with django_assert_num_queries(8):
        response = client.get(url)
    page = response.content.decode()
    assert page.count("duplicate?") == 2
    assert "2 sign-ups look like duplicates (same name, club and year)." in page


def test_actions_and_settings(client, organizer, tournament):
    anna, ben, cem = (sign(tournament, name) for name in ("Anna", "Ben", "Cem"))
    client.force_login(organizer)
    action = reverse("organizer:signup_action", args=[tournament.pk, cem.pk])
    client.post(action, {"action": "up"})
    waiting = Signup.objects.filter(status="waiting").values_list("first_name", flat=True)
    assert list(waiting) == ["Cem", "Ben"]
    client.post(reverse("organizer:signup_action", args=[tournament.pk, anna.pk]), {"action": "refuse"})
    assert Signup.objects.get(pk=cem.pk).status == "confirmed"
    response = client.post(action, {"action": "explode"}, follow=True)
    assert "Unknown action." in response.content.decode()
    settings_url = reverse("organizer:signups", args=[tournament.pk])
    response = client.post(settings_url, {"signup_open": "on", "signup_capacity": "2", "signup_deadline": ""})
    assert response.status_code == 302
    assert Signup.objects.get(pk=ben.pk).status == "confirmed"  # a new place moved Ben up
    before = AuditEntry.objects.count()
    bad = client.post(settings_url, {"signup_open": "on", "signup_capacity": "0", "signup_deadline": "soon"})
    assert bad.status_code == 400
    assert "Please enter between 1 and 2000 places." in bad.content.decode()
    assert "Enter a valid date/time." in bad.content.decode()
    tournament.refresh_from_db()
    assert tournament.signup_capacity == 2 and AuditEntry.objects.count() == before


def test_export_lists_every_sign_up(client, organizer, tournament):
    sign(tournament, "Anna")
    sign(tournament, "Jürgen", phone="0171 1234567")
    client.force_login(organizer)
    response = client.get(reverse("organizer:signups_export", args=[tournament.pk]))
    text = response.content.decode("utf-8-sig")
    lines = text.strip().splitlines()
    assert lines[0].startswith("Order;First name;Last name;Club;Year of birth")
    assert lines[2].startswith("2;Jürgen;Muster;Club;1980;;0171 1234567;waiting list;1;")


def test_organizer_moves_people_between_places_and_the_waiting_list(client, organizer, tournament):
    anna, ben, cem = (sign(tournament, name) for name in ("Anna", "Ben", "Cem"))
    client.force_login(organizer)
    list_url = reverse("organizer:signups", args=[tournament.pk])
    page = client.get(list_url).content.decode()
    assert "Approve over capacity" in page  # one place, taken: approving goes beyond it
    assert "Moving someone to the waiting list frees their place without giving it to anybody" in page

    def act(signup, **data):
        url = reverse("organizer:signup_action", args=[tournament.pk, signup.pk])
        return client.post(url, data, HTTP_HX_REQUEST="true").content.decode()

    act(anna, action="waiting", position="2")

    def waiting():
        return list(Signup.objects.filter(status="waiting").values_list("first_name", flat=True))

    assert waiting() == ["Ben", "Anna", "Cem"]
    assert Signup.objects.filter(status="confirmed").count() == 0  # nobody moved up
    act(cem, action="top")
    assert waiting() == ["Cem", "Ben", "Anna"]
    act(ben, action="waiting", position="")
    assert waiting() == ["Cem", "Anna", "Ben"]
    answer = act(cem, action="top")
    assert "Cem Muster is already at position 1 of the waiting list." in answer
    answer = act(cem, action="waiting", position="zwei")
    assert "Enter a whole number in digits 0-9." in answer
    answer = act(cem, action="waiting", position="0")
    assert "greater than or equal to 1" in answer
    assert waiting() == ["Cem", "Anna", "Ben"]
    act(anna, action="approve")
    act(ben, action="approve")
    page = client.get(list_url).content.decode()
    assert "+1</b>over capacity" in page
    assert "Places: 1, with a place: 2 \u2013 1 over the capacity (approved by you)." in page
    assert AuditEntry.objects.filter(action="signup_to_waiting").count() == 1
    assert AuditEntry.objects.filter(action="signup_move").count() == 2


@pytest.mark.parametrize(
    "utc,local", [("2026-01-10 18:05", "2026-01-10 19:05"), ("2026-07-01 22:30", "2026-07-02 00:30")]
)
def test_export_shows_the_sign_up_time_on_the_halls_clock(client, organizer, tournament, utc, local):
    """Issue #42, 4: "Signed up at" in local time (Europe/Berlin, winter and summer), as the audit log."""
    anna = sign(tournament, "Anna")
    moment = datetime.datetime.strptime(utc, "%Y-%m-%d %H:%M").replace(tzinfo=datetime.UTC)
    Signup.objects.filter(pk=anna.pk).update(created_at=moment)
    client.force_login(organizer)
    text = client.get(reverse("organizer:signups_export", args=[tournament.pk])).content.decode("utf-8-sig")
    assert text.splitlines()[1].split(";")[-1] == local
    assert timezone.get_current_timezone_name() == "Europe/Berlin"
