"""The account page: one's own name, and one's own password with the current one (#45 item 3)."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournament.audit.actions import AuditAction
from tournament.models import Account, AuditEntry

from .conftest import NEW_PASSWORD, PASSWORD, client_of

pytestmark = pytest.mark.django_db
URL = "/account/"


def change(client, old=PASSWORD, new=NEW_PASSWORD, again=None):
    return client.post(URL, {"form": "password", "old_password": old, "new_password1": new,
                             "new_password2": new if again is None else again})


def test_the_url_and_the_header_link():
    assert reverse("account") == URL
    user = UserFactory(username="orga")
    html = client_of(user).get("/").content.decode()
    assert f'<a href="{URL}">My account</a>' in html


def test_anonymous_visitors_go_to_the_login():
    response = Client().get(URL)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={URL}"


def test_the_name_is_saved(organizer):
    client = client_of(organizer)
    response = client.post(URL, {"form": "name", "first_name": " Ottilie ", "last_name": "Orga"})
    assert response.status_code == 302 and response["Location"] == URL
    organizer.refresh_from_db()
    assert (organizer.first_name, organizer.last_name) == ("Ottilie", "Orga")
    assert "Ottilie" in client.get(URL).content.decode()


def test_a_name_with_a_control_character_is_refused(organizer):
    response = client_of(organizer).post(URL, {"form": "name", "first_name": "Ot\x1btilie", "last_name": ""})
    assert response.status_code == 400
    assert response.context["name_form"].errors["first_name"]
    organizer.refresh_from_db()
    assert organizer.first_name == ""


def test_the_password_is_changed_and_the_session_stays_logged_in(organizer):
    client = client_of(organizer)
    other_device = client_of(organizer)
    response = change(client)
    assert response.status_code == 302 and response["Location"] == URL
    organizer.refresh_from_db()
    assert organizer.check_password(NEW_PASSWORD) and not organizer.check_password(PASSWORD)
    assert client.get(URL).status_code == 200  # update_session_auth_hash: still logged in
    # Every other session ended with the old password.
    assert other_device.get(URL).status_code == 302
    entry = AuditEntry.objects.get(action=AuditAction.ACCOUNT_PASSWORD_CHANGE)
    assert (entry.tournament, entry.user, entry.actor, entry.after) == (
        None, organizer, "orga", {"username": "orga"}
    )


def test_a_wrong_current_password_is_refused(organizer):
    response = change(client_of(organizer), old="not-my-password")
    assert response.status_code == 400
    errors = response.context["password_form"].errors.as_data()
    assert [error.code for error in errors["old_password"]] == ["wrong_password"]
    organizer.refresh_from_db()
    assert organizer.check_password(PASSWORD)
    assert not AuditEntry.objects.exists()


@pytest.mark.parametrize(
    ("new", "again", "field", "code"),
    [
        ("kurz1", None, "new_password2", "password_too_short"),
        ("orga123", None, "new_password2", "password_too_similar"),  # and too short
        (NEW_PASSWORD, NEW_PASSWORD + "x", "new_password2", "password_mismatch"),
        ("", None, "new_password1", "required"),
    ],
)
def test_the_validators_refuse_a_weak_or_mistyped_password(organizer, new, again, field, code):
    response = change(client_of(organizer), new=new, again=again)
    assert response.status_code == 400
    errors = response.context["password_form"].errors.as_data()
    assert code in [error.code for error in errors[field]]
    organizer.refresh_from_db()
    assert organizer.check_password(PASSWORD)


def test_a_password_is_kept_exactly_as_typed(organizer):
    """Spaces at either end are part of the password: the login compares it unchanged."""
    assert change(client_of(organizer), new="  Karten mischen  ").status_code == 302
    organizer.refresh_from_db()
    assert organizer.check_password("  Karten mischen  ")
    assert not organizer.check_password("Karten mischen")


def test_a_password_with_a_control_character_is_refused(organizer):
    response = change(client_of(organizer), new="Karten\x00mischen")
    assert response.status_code == 400
    organizer.refresh_from_db()
    assert organizer.check_password(PASSWORD)


def test_changing_the_password_clears_the_due_flag(organizer):
    Account.objects.create(user=organizer, password_change_due=True)
    client = Client()
    client.post(reverse("login"), {"username": "orga", "password": PASSWORD})
    assert client.get("/").content.decode().count('class="password-due"') == 1
    assert change(client).status_code == 302
    assert not Account.objects.get(user=organizer).password_change_due
    html = client.get("/").content.decode()
    assert 'class="password-due"' not in html
    assert 'id="password-due"' not in client.get(URL).content.decode()


def test_the_page_is_german_by_default(organizer, settings):
    settings.LANGUAGE_CODE = "de"
    html = client_of(organizer).get(URL, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "<h1>Mein Konto</h1>" in html
    assert "Neues Passwort speichern" in html
