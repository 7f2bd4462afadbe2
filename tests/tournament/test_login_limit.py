"""Login attempts are limited per client address and per user name (5 failures in 5 minutes)."""

import datetime
from unittest import mock

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import UserFactory

PASSWORD = "secret-pass-123"


@pytest.fixture(autouse=True)
def fast_english(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def user(db):
    return UserFactory(username="orga")


def attempt(client, username, password="wrong", ip="10.0.0.1", **extra):
    return client.post(reverse("login"), {"username": username, "password": password},
                       REMOTE_ADDR=ip, **extra)


def test_five_failures_then_refused_even_with_the_right_password(client, user, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        response = attempt(client, "orga")
        assert response.status_code == 200 and response.context["form"].errors
    response = attempt(client, "orga", PASSWORD)
    assert response.status_code == 429
    assert "Too many failed attempts. Please wait 5 minutes" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_success_below_the_limit_logs_in_and_resets_the_count(client, user, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        attempt(client, "orga")
    response = attempt(client, "orga", PASSWORD)
    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(user.pk)
    client.logout()
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        attempt(client, "orga")
    assert attempt(client, "orga", PASSWORD).status_code == 302


def test_limit_per_user_name_across_addresses(client, user, settings):
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        attempt(client, "ORGA ", ip=f"10.0.1.{n}")  # case and spaces do not make a new name
    assert attempt(client, "orga", PASSWORD, ip="10.0.2.99").status_code == 429


def test_limit_per_address_across_user_names(client, user, settings):
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        attempt(client, f"guess{n}", ip="10.9.9.9")
    assert attempt(client, "orga", PASSWORD, ip="10.9.9.9").status_code == 429
    # Another address may still log in with that user name.
    assert attempt(client, "orga", PASSWORD, ip="10.9.9.10").status_code == 302


def test_window_expiry_lets_the_user_in_again(client, user, settings):
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        attempt(client, "orga")
    assert attempt(client, "orga", PASSWORD).status_code == 429
    later = timezone.now() + datetime.timedelta(seconds=settings.LOGIN_FAILURE_WINDOW + 1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert attempt(client, "orga", PASSWORD).status_code == 302


def test_limit_is_configurable(client, user, settings):
    settings.LOGIN_FAILURE_LIMIT = 2
    attempt(client, "orga")
    attempt(client, "orga")
    assert attempt(client, "orga", PASSWORD).status_code == 429


def test_behind_the_https_proxy_the_forwarded_address_counts(client, user, settings):
    settings.TRUST_X_FORWARDED_FOR = True
    for _ in range(settings.LOGIN_FAILURE_LIMIT):
        attempt(client, "x", ip="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4", secure=True)
    blocked = attempt(client, "orga", PASSWORD, ip="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4", secure=True)
    assert blocked.status_code == 429
    # Another client behind the same proxy is not locked out; a forged first hop does not help either.
    other = attempt(client, "orga", PASSWORD, ip="127.0.0.1", HTTP_X_FORWARDED_FOR="5.6.7.8", secure=True)
    assert other.status_code == 302


def test_forged_forwarded_header_is_ignored_without_the_proxy(client, user, settings):
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        attempt(client, "x", ip="10.5.5.5", HTTP_X_FORWARDED_FOR=f"9.9.9.{n}")
    assert attempt(client, "orga", PASSWORD, ip="10.5.5.5", HTTP_X_FORWARDED_FOR="8.8.8.8").status_code == 429


def test_admin_login_goes_through_the_limited_form(client, db):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login")) and "next=/admin/" in response["Location"]


def test_login_page_still_renders(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200 and 'name="password"' in response.content.decode()
