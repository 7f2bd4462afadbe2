"""Rate-limit windows end when they say, and parallel requests are all counted (#15 item 4).

The clock is controlled: `now` passed to tournament.ratelimit, or django.utils.timezone.now patched
for requests. The parallel test releases thirty logins at one Barrier.
"""

import datetime
import threading
from unittest import mock

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory
from tournament import ratelimit
from tournament.models import RateLimitWindow

T0 = datetime.datetime(2026, 12, 1, 19, 0, 0, tzinfo=datetime.UTC)


def at(seconds: float) -> datetime.datetime:
    return T0 + datetime.timedelta(seconds=seconds)


@pytest.fixture(autouse=True)
def fast_english(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"


@pytest.mark.django_db
def test_the_window_starts_with_the_first_event_and_later_ones_do_not_extend_it():
    assert ratelimit.hit("k", 20, now=at(0)).ends == at(20)
    assert ratelimit.hit("k", 20, now=at(10)).count == 2
    third = ratelimit.hit("k", 20, now=at(19.5))
    assert (third.count, third.ends) == (3, at(20))
    assert third.retry_after(at(19.5)) == 1
    assert ratelimit.current("k", now=at(19.9)).count == 3
    assert ratelimit.current("k", now=at(20)).count == 0  # ends exactly when it said
    fresh = ratelimit.hit("k", 20, now=at(20))
    assert (fresh.count, fresh.ends) == (1, at(40))


@pytest.mark.django_db
def test_ended_windows_are_forgotten_and_long_keys_fit():
    ratelimit.hit("a", 20, now=at(0))
    ratelimit.hit("x" * 5000, 60, now=at(0))
    assert ratelimit.current("x" * 5000, now=at(1)).count == 1
    assert ratelimit.forget_ended(now=at(30)) == 1
    assert list(RateLimitWindow.objects.values_list("count", flat=True)) == [1]


@pytest.mark.django_db
def test_captain_block_lasts_the_configured_window_and_retry_after_says_what_is_left(client, settings):
    settings.CAPTAIN_WRONG_TOKENS_ALLOWED = 3
    settings.CAPTAIN_WRONG_TOKEN_WINDOW = 20
    with mock.patch("django.utils.timezone.now", return_value=at(0)):
        for n in range(3):
            assert client.get(reverse("captain:table", args=[f"wrong{n}"])).status_code == 404
    with mock.patch("django.utils.timezone.now", return_value=at(5)):
        blocked = client.get(reverse("captain:table", args=["wrong"]))
        assert blocked.status_code == 429 and blocked["Retry-After"] == "15"
        hand = client.get(reverse("captain:hand", args=["wrong"]))
        assert hand.status_code == 429 and hand["Retry-After"] == "15"
    with mock.patch("django.utils.timezone.now", return_value=at(19.2)):
        assert client.get(reverse("captain:table", args=["wrong"]))["Retry-After"] == "1"
    with mock.patch("django.utils.timezone.now", return_value=at(20)):
        assert client.get(reverse("captain:table", args=["wrong"])).status_code == 404


@pytest.mark.django_db
def test_login_block_ends_with_its_window_not_minutes_later(client, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    settings.LOGIN_FAILURE_WINDOW = 20
    UserFactory(username="orga")

    def login(password, now):
        with mock.patch("django.utils.timezone.now", return_value=now):
            return client.post(reverse("login"), {"username": "orga", "password": password})

    assert login("wrong", at(0)).status_code == 200
    assert login("wrong", at(1)).status_code == 200
    refused = login("secret-pass-123", at(8))
    assert refused.status_code == 429 and refused["Retry-After"] == "12"
    assert "Please wait 12 seconds" in refused.content.decode()
    assert login("secret-pass-123", at(20)).status_code == 302


@pytest.mark.django_db(transaction=True)
def test_thirty_parallel_wrong_passwords_check_exactly_the_limit(settings):
    settings.LOGIN_FAILURE_LIMIT = 5
    UserFactory(username="orga")
    barrier = threading.Barrier(30)
    statuses, failures = [], []
    checked = []
    lock = threading.Lock()

    from django.contrib.auth.backends import ModelBackend

    real = ModelBackend.authenticate

    def counting(self, request, **kwargs):
        with lock:
            checked.append(1)
        return real(self, request, **kwargs)

    def send():
        try:
            client = Client()
            barrier.wait()
            response = client.post(reverse("login"), {"username": "orga", "password": "wrong"})
            statuses.append(response.status_code)
        except Exception as exc:  # collected so the main thread can fail the test with it
            failures.append(exc)
        finally:
            connections.close_all()

    with mock.patch.object(ModelBackend, "authenticate", counting):
        threads = [threading.Thread(target=send) for _ in range(30)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not failures, failures
    assert sorted(statuses) == [200] * 5 + [429] * 25
    assert len(checked) == 5
    assert ratelimit.current("login-fail:ip:127.0.0.1", now=timezone.now()).count == 30
