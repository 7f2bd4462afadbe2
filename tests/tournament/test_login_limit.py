"""Login attempts are limited per address and user name together (5 failures in 5 minutes), per
address (20), and a name failing from everywhere is slowed, never locked out of a known device (#40)."""

import datetime
from unittest import mock

import pytest
from django.test import Client
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


def logout_keeping_the_device(client):
    """Log out as a browser does: the test client's logout() would forget every cookie."""
    device = client.cookies.get("uno_device")
    client.logout()
    if device is not None:
        client.cookies["uno_device"] = device.value


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
    logout_keeping_the_device(client)
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        attempt(client, "orga")
    assert attempt(client, "orga", PASSWORD).status_code == 302


def test_a_name_failing_from_many_addresses_is_slowed_not_locked(client, user, settings):
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        attempt(client, "ORGA ", ip=f"10.0.1.{n}")  # case and spaces do not make a new name
    # Past the limit the name is slowed: one attempt per LOGIN_SLOW_SECONDS from a device it never
    # logged in on, not locked everywhere.
    assert attempt(client, "orga", PASSWORD, ip="10.0.2.99").status_code == 302
    client.logout()
    refused = attempt(Client(), "orga", ip="10.0.2.98")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= settings.LOGIN_SLOW_SECONDS
    assert "Please wait 30 seconds" in refused.content.decode()
    later = timezone.now() + datetime.timedelta(seconds=settings.LOGIN_SLOW_SECONDS + 1)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert attempt(Client(), "orga", PASSWORD, ip="10.0.2.97").status_code == 302


def test_a_flood_of_wrong_passwords_cannot_keep_the_organizer_out_of_the_laptop(user, settings):
    laptop = Client()
    assert attempt(laptop, "orga", PASSWORD, ip="192.168.1.10").status_code == 302
    logout_keeping_the_device(laptop)
    flood = Client()
    answers = {attempt(flood, "organizer" if n % 2 else "orga", ip=f"10.1.{n % 40}.{n % 7}").status_code
               for n in range(160)}
    assert 429 in answers  # the flood itself is refused
    # The laptop's browser logged in before: the flood does not slow it ...
    assert attempt(laptop, "orga", PASSWORD, ip="192.168.1.10").status_code == 302
    # ... nor the server's own machine (the hall laptop opening 127.0.0.1) ...
    assert attempt(Client(), "orga", PASSWORD, ip="127.0.0.1").status_code == 302
    # ... while a device the name never logged in on waits its turn, and a forged device cookie is none.
    assert attempt(Client(), "orga", PASSWORD, ip="10.2.0.1").status_code == 429
    forged = Client()
    forged.cookies["uno_device"] = laptop.cookies["uno_device"].value[:-2] + "xx"
    assert attempt(forged, "orga", PASSWORD, ip="10.2.0.2").status_code == 429


def test_a_device_remembers_the_names_that_logged_in_on_it(user, settings):
    helper = UserFactory(username="helper")
    helper.set_password(PASSWORD)
    helper.save()
    tablet = Client()
    for name in ("orga", "helper"):
        assert attempt(tablet, name, PASSWORD, ip="192.168.1.20").status_code == 302
        logout_keeping_the_device(tablet)
    for n in range(settings.LOGIN_FAILURE_LIMIT + 2):
        for name in ("orga", "helper"):
            attempt(Client(), name, ip=f"10.3.0.{n}")
    for name in ("orga", "helper"):
        assert attempt(tablet, name, PASSWORD, ip="192.168.1.20").status_code == 302
        logout_keeping_the_device(tablet)


def test_limit_per_address_across_user_names(client, user, settings):
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
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
        attempt(client, "orga", ip="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4", secure=True)
    blocked = attempt(client, "orga", PASSWORD, ip="127.0.0.1", HTTP_X_FORWARDED_FOR="1.2.3.4", secure=True)
    assert blocked.status_code == 429
    # Another client behind the same proxy is not locked out; a forged first hop does not help either.
    other = attempt(client, "orga", PASSWORD, ip="127.0.0.1", HTTP_X_FORWARDED_FOR="5.6.7.8", secure=True)
    assert other.status_code == 302


def test_forged_forwarded_header_is_ignored_without_the_proxy(client, user, settings):
    for n in range(settings.LOGIN_FAILURE_LIMIT):
        attempt(client, "orga", ip="10.5.5.5", HTTP_X_FORWARDED_FOR=f"9.9.9.{n}")
    assert attempt(client, "orga", PASSWORD, ip="10.5.5.5", HTTP_X_FORWARDED_FOR="8.8.8.8").status_code == 429


def test_admin_login_goes_through_the_limited_form(client, db):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login")) and "next=/admin/" in response["Location"]


def test_login_page_still_renders(client, db):
    response = client.get(reverse("login"))
    assert response.status_code == 200 and 'name="password"' in response.content.decode()
