"""`make run` (setup_hall) prints the first organizer's made-up password once and asks to change it;
the login sends them to the password page until they do (#45 item 3)."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.management.commands import setup_hall
from tournament.models import Account

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def hall(settings, tmp_path, monkeypatch):
    settings.VAR_DIR = tmp_path
    monkeypatch.setattr(setup_hall, "lan_addresses", lambda: ["192.168.1.20"])
    return tmp_path


def start() -> str:
    out = io.StringIO()
    call_command("setup_hall", "--no-demo", "--port", "8000", stdout=out)
    return out.getvalue()


def printed_password(output: str) -> str | None:
    found = re.search(r"with password '([^']+)'", output)
    return found.group(1) if found else None


def test_the_first_start_prints_the_password_once_and_marks_it_due(hall):
    first = start()
    password = printed_password(first)
    assert password and len(password) >= 12
    assert "http://192.168.1.20:8000/" in first
    user = get_user_model().objects.get(username="organizer")
    assert user.is_superuser and user.check_password(password)
    assert Account.objects.get(user=user).password_change_due
    assert (hall / "organizer_password.txt").read_text() == password

    second = start()
    assert printed_password(second) is None and password not in second
    assert "still the one shown at the first start" in second
    assert get_user_model().objects.count() == 1


def test_once_changed_nothing_is_printed_and_the_file_is_gone(hall):
    password = printed_password(start())
    client = Client()
    client.post(reverse("login"), {"username": "organizer", "password": password})
    client.post("/account/", {"form": "password", "old_password": password,
                              "new_password1": "Eigenes-Passwort-7", "new_password2": "Eigenes-Passwort-7"})
    assert not Account.objects.get(user__username="organizer").password_change_due
    later = start()
    assert "password" not in later.lower()
    assert not (hall / "organizer_password.txt").exists()


def test_a_password_changed_in_the_admin_ends_the_reminder(hall):
    start()
    user = get_user_model().objects.get(username="organizer")
    user.set_password("Im-Admin-gesetzt-1")
    user.save()
    assert "password" not in start().lower()
    assert not Account.objects.get(user=user).password_change_due


def test_a_hall_set_up_before_the_flag_is_due_while_the_file_still_opens_it(hall):
    get_user_model().objects.create_superuser("organizer", password="alt-und-erzeugt")
    (hall / "organizer_password.txt").write_text("alt-und-erzeugt")
    output = start()
    assert printed_password(output) is None and "alt-und-erzeugt" not in output
    assert Account.objects.get(user__username="organizer").password_change_due


def test_no_account_is_made_when_a_superuser_exists(hall):
    get_user_model().objects.create_superuser("chef", password="x-y-z-123456")
    assert "password" not in start().lower()
    assert not get_user_model().objects.filter(username="organizer").exists()


def test_the_login_sends_a_due_user_to_the_password_page_with_a_banner(hall, settings):
    settings.LANGUAGE_CODE = "de"
    password = printed_password(start())
    client = Client()
    response = client.post(reverse("login") + "?next=/1/", {"username": "organizer", "password": password})
    assert response.status_code == 302 and response["Location"] == "/account/"
    html = client.get("/account/").content.decode()
    assert "Bitte wählen Sie jetzt Ihr eigenes Passwort" in html
    home = client.get("/").content.decode()
    assert 'class="password-due"' in home and "Bitte wählen Sie jetzt Ihr eigenes." in home


def test_the_login_of_anybody_else_goes_where_it_went(organizer):
    response = Client().post(reverse("login"), {"username": "orga", "password": "secret-pass-123"})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    Account.objects.create(user=organizer, password_change_due=False)
    client = Client()
    response = client.post(reverse("login"), {"username": "orga", "password": "secret-pass-123"})
    assert response["Location"] == reverse("home")
    assert 'class="password-due"' not in client.get("/").content.decode()
