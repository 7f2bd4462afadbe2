"""A helper's login on a shared device ends with the evening (#45): at the next 06:00 local time."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from tests.factories import MembershipFactory, TournamentFactory, UserFactory
from tournament.models import Role
from tournament.people import sessions
from tournament.people.services import invitation_create

BERLIN = ZoneInfo("Europe/Berlin")


@pytest.fixture(autouse=True)
def berlin(settings):
    settings.TIME_ZONE = "Europe/Berlin"


@pytest.mark.parametrize(("now", "end"), [
    (dt.datetime(2026, 12, 6, 18, 30), dt.datetime(2026, 12, 7, 6, 0)),
    (dt.datetime(2026, 12, 6, 23, 59), dt.datetime(2026, 12, 7, 6, 0)),
    (dt.datetime(2026, 12, 7, 2, 15), dt.datetime(2026, 12, 7, 6, 0)),
    (dt.datetime(2026, 12, 7, 6, 0), dt.datetime(2026, 12, 8, 6, 0)),
    # The night the clocks go back (25 October 2026): still 06:00 on the wall.
    (dt.datetime(2026, 10, 24, 20, 0), dt.datetime(2026, 10, 25, 6, 0)),
])
def test_the_evening_ends_at_the_next_six_o_clock(now, end):
    assert sessions.evening_end(now.replace(tzinfo=BERLIN)) == end.replace(tzinfo=BERLIN)


def log_in(client, username: str):
    return client.post(reverse("login"), {"username": username, "password": "secret-pass-123"})


def test_a_helper_s_login_expires_at_six_an_organizer_s_does_not(client, tournament, time_machine):
    # The whole clock (Django's sessions read it too), at an evening before the clock changes.
    time_machine.move_to(dt.datetime(2026, 12, 6, 21, 0, tzinfo=BERLIN), tick=False)
    MembershipFactory(tournament=tournament, user__username="door", role=Role.HELPER)
    assert log_in(client, "door").status_code == 302
    assert client.session.get_expiry_date() == dt.datetime(2026, 12, 7, 6, 0, tzinfo=BERLIN)
    assert client.session.get_expire_at_browser_close() is False
    client.post(reverse("logout"))
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("organizer:desk", args=[tournament.pk])).status_code == 302  # to login
    assert log_in(client, "orga").status_code == 302
    assert "_session_expiry" not in client.session  # the site's normal expiry


def test_an_account_helping_and_organizing_keeps_the_normal_expiry(client, tournament, organizer):
    other = UserFactory(username="both")
    MembershipFactory(tournament=tournament, user=other, role=Role.VIEWER)
    TournamentFactory(organizers=[other])
    assert log_in(client, "both").status_code == 302
    assert "_session_expiry" not in client.session


def test_every_organizer_page_has_the_log_out_button(client, tournament):
    MembershipFactory(tournament=tournament, user__username="door", role=Role.HELPER)
    log_in(client, "door")
    for name in ("organizer:tournament", "organizer:desk", "organizer:rounds", "organizer:audit", "home"):
        args = [] if name == "home" else [tournament.pk]
        page = client.get(reverse(name, args=args)).content.decode()
        assert f'action="{reverse("logout")}"' in page and "(door)" in page, name


def test_an_invitation_s_new_account_expires_with_the_evening(client, tournament, organizer, time_machine):
    time_machine.move_to(dt.datetime(2026, 12, 7, 1, 30, tzinfo=BERLIN), tick=False)
    _invitation, token = invitation_create(tournament=tournament, user=organizer, role=Role.HELPER)
    client.post(reverse("invitation", args=[token]), {
        "username": "late-helper", "first_name": "Lea", "password1": "Kassenbuch-2026!",
        "password2": "Kassenbuch-2026!",
    })
    assert client.session["_auth_user_id"]
    assert client.session.get_expiry_date() == dt.datetime(2026, 12, 7, 6, 0, tzinfo=BERLIN)
