"""The round clock: kept in the database, decided by the server, changed only by organizers."""

from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from tests.factories import RoundFactory, UserFactory
from tournament.clock.selectors import (
    ClockStatus,
    clock_expired,
    clock_remaining,
    clock_state,
    format_seconds,
    may_report_stopped_by_time,
)
from tournament.clock.services import clock_pause, clock_reset, clock_resume, clock_start
from tournament.models import AuditEntry, Round


@pytest.fixture
def round_(tournament):
    tournament.time_limit_minutes = 30
    tournament.save()
    return RoundFactory(tournament=tournament, status=Round.Status.OPEN)


def test_start_uses_the_tournament_time_limit_and_is_audited(round_, organizer):
    clock_start(round_=round_, user=organizer)
    round_.refresh_from_db()
    assert round_.clock_seconds == 30 * 60
    assert clock_remaining(round_, round_.clock_started_at) == 1800
    assert clock_remaining(round_, round_.clock_started_at + timedelta(seconds=61.5)) == 1739
    entry = AuditEntry.objects.get(action="clock_start")
    assert entry.round == round_ and entry.user == organizer
    assert entry.before["status"] == "none" and entry.after["seconds"] == 1800


def test_typed_minutes_win_and_are_needed_without_a_time_limit(round_, organizer):
    round_.tournament.time_limit_minutes = None
    round_.tournament.save()
    with pytest.raises(ValidationError):
        clock_start(round_=round_, user=organizer)
    clock_start(round_=round_, user=organizer, minutes=12)
    round_.refresh_from_db()
    assert round_.clock_seconds == 720


@pytest.mark.parametrize("minutes", [0, -5, 601])
def test_minutes_out_of_range_are_refused(round_, organizer, minutes):
    if minutes == 0:  # 0 means "use the tournament's limit"
        clock_start(round_=round_, user=organizer, minutes=minutes)
        return
    with pytest.raises(ValidationError):
        clock_start(round_=round_, user=organizer, minutes=minutes)


@pytest.mark.parametrize("status", [Round.Status.DRAFT, Round.Status.CLOSED])
def test_no_clock_outside_a_playing_round(round_, organizer, status):
    round_.status = status
    round_.save()
    with pytest.raises(ValidationError):
        clock_start(round_=round_, user=organizer)


def test_pause_resume_reset_cycle(round_, organizer):
    clock_start(round_=round_, user=organizer, minutes=10)
    Round.objects.filter(pk=round_.pk).update(clock_started_at=timezone.now() - timedelta(seconds=100))
    clock_pause(round_=round_, user=organizer)
    round_.refresh_from_db()
    assert round_.clock_paused_remaining == 500
    # A paused clock does not run down.
    later = timezone.now() + timedelta(hours=1)
    assert clock_remaining(round_, later) == 500
    assert clock_state(round_, later).status is ClockStatus.PAUSED
    with pytest.raises(ValidationError):
        clock_pause(round_=round_, user=organizer)

    clock_resume(round_=round_, user=organizer)
    round_.refresh_from_db()
    assert round_.clock_paused_remaining is None and round_.clock_seconds == 500
    assert clock_remaining(round_, round_.clock_started_at + timedelta(seconds=20)) == 480
    with pytest.raises(ValidationError):
        clock_resume(round_=round_, user=organizer)

    clock_reset(round_=round_, user=organizer)
    round_.refresh_from_db()
    assert clock_remaining(round_) is None
    assert clock_state(round_).status is ClockStatus.NONE
    assert list(AuditEntry.objects.order_by("id").values_list("action", flat=True)) == [
        "clock_start", "clock_pause", "clock_resume", "clock_reset",
    ]


def test_state_survives_a_restart_because_it_is_in_the_database(round_, organizer):
    clock_start(round_=round_, user=organizer, minutes=5)
    Round.objects.filter(pk=round_.pk).update(clock_started_at=timezone.now() - timedelta(seconds=30))
    fresh = Round.objects.get(pk=round_.pk)  # a new process knows only the database row
    assert 269 <= clock_remaining(fresh) <= 270
    assert not clock_expired(fresh)


def test_expiry_is_decided_by_the_server(round_, organizer):
    clock_start(round_=round_, user=organizer, minutes=1)
    round_.refresh_from_db()
    start = round_.clock_started_at
    assert not clock_expired(round_, start + timedelta(seconds=59.2))
    assert clock_expired(round_, start + timedelta(seconds=60))
    assert clock_remaining(round_, start + timedelta(hours=2)) == 0
    assert clock_state(round_, start + timedelta(seconds=61)).status is ClockStatus.EXPIRED
    assert may_report_stopped_by_time(round_, start + timedelta(seconds=61))
    assert not may_report_stopped_by_time(round_, start + timedelta(seconds=30))


def test_without_a_time_limit_an_expired_clock_does_not_allow_stopped_by_time(round_, organizer):
    round_.tournament.time_limit_minutes = None
    round_.tournament.save()
    clock_start(round_=round_, user=organizer, minutes=1)
    round_.refresh_from_db()
    after = round_.clock_started_at + timedelta(minutes=2)
    assert clock_expired(round_, after)
    assert not may_report_stopped_by_time(round_, after)


def test_format_seconds():
    assert format_seconds(0) == "0:00"
    assert format_seconds(65) == "1:05"
    assert format_seconds(3725) == "1:02:05"


# --- Views ---------------------------------------------------------------------------------------

def test_start_pause_views_answer_htmx_with_the_controls(round_, organizer_client):
    url = reverse("organizer:clock_start", args=[round_.tournament.pk, round_.number])
    assert organizer_client.get(url).status_code == 405
    response = organizer_client.post(url, {"minutes": "25"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="clock-controls-' in html and "<html" not in html
    assert 'data-status="running"' in html and 'data-remaining="1500"' in html
    round_.refresh_from_db()
    assert round_.clock_seconds == 1500

    pause_url = reverse("organizer:clock_pause", args=[round_.tournament.pk, round_.number])
    response = organizer_client.post(pause_url, headers={"HX-Request": "true"})
    assert 'data-status="paused"' in response.content.decode()


def test_invalid_minutes_show_an_error_and_change_nothing(round_, organizer_client):
    url = reverse("organizer:clock_start", args=[round_.tournament.pk, round_.number])
    response = organizer_client.post(url, {"minutes": "900"}, headers={"HX-Request": "true"})
    assert 'class="errorlist"' in response.content.decode()
    round_.refresh_from_db()
    assert round_.clock_started_at is None


def test_without_htmx_the_view_redirects_back_to_a_local_page_only(round_, organizer_client):
    url = reverse("organizer:clock_start", args=[round_.tournament.pk, round_.number])
    response = organizer_client.post(url, {"minutes": "5", "next": "/somewhere/"})
    assert response.status_code == 302 and response.url == "/somewhere/"
    response = organizer_client.post(
        reverse("organizer:clock_reset", args=[round_.tournament.pk, round_.number]),
        {"next": "https://evil.example/"}, headers={"Referer": "http://testserver/back/"},
    )
    assert response.status_code == 302 and response.url == "http://testserver/back/"
    round_.refresh_from_db()
    assert round_.clock_started_at is None


def test_only_the_tournaments_organizers_may_use_the_clock(round_, client):
    url = reverse("organizer:clock_start", args=[round_.tournament.pk, round_.number])
    assert client.post(url, {"minutes": "5"}).status_code == 302  # to the login page
    client.force_login(UserFactory(username="someone-else"))
    assert client.post(url, {"minutes": "5"}).status_code == 403
    round_.refresh_from_db()
    assert round_.clock_started_at is None
