"""Password reset links an organizer makes for somebody they work with, shown once (#45 item 3)."""

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory
from tournament.accounts import tokens
from tournament.accounts.selectors import people_of
from tournament.audit.actions import AuditAction
from tournament.models import Account, AuditEntry, Series

from .conftest import NEW_PASSWORD, PASSWORD, client_of

pytestmark = pytest.mark.django_db
PEOPLE = "/account/people/"


def link_url(person) -> str:
    return reverse("account_reset_link", args=[person.pk])


def made_link(client, person) -> str:
    """The reset link's path as the page shows it once (in the text field and the QR code)."""
    response = client.post(link_url(person))
    assert response.status_code == 200
    found = re.search(r'value="https?://[^/"]+(/account/reset/[^"]+)"', response.content.decode())
    assert found, response.content.decode()
    return found.group(1)


def set_password(path, new=NEW_PASSWORD, again=None, client=None):
    return (client or Client()).post(path, {"new_password1": new, "new_password2": again or new})


def test_the_urls():
    assert reverse("account_people") == PEOPLE
    assert reverse("account_reset", args=["MQ", "abc-def"]) == "/account/reset/MQ/abc-def/"


def test_people_are_those_who_organize_a_tournament_or_a_series_together(organizer, colleague):
    series_mate = UserFactory(username="serie")
    series = Series.objects.create(name="Jahreswertung")
    series.organizers.add(organizer, series_mate)
    stranger = UserFactory(username="fremd")
    TournamentFactory(organizers=[stranger])
    UserFactory(username="weg", is_active=False)
    assert list(people_of(organizer)) == [series_mate, colleague]  # by last name, then user name
    assert list(people_of(stranger)) == []
    root = UserFactory(username="root", is_superuser=True)
    assert set(people_of(root)) == {organizer, colleague, series_mate, stranger}


def test_the_people_page_lists_them_with_a_button(organizer, colleague):
    html = client_of(organizer).get(PEOPLE).content.decode()
    assert "Vera Vergesslich" in html
    assert f'action="{link_url(colleague)}"' in html
    assert "orga</span>" not in html  # not oneself


def test_the_link_sets_a_new_password_once(organizer, colleague):
    organizer_client = client_of(organizer)
    response = organizer_client.post(link_url(colleague))
    assert response["Referrer-Policy"] == "no-referrer"
    assert "<svg" in response.content.decode()  # the QR code
    path = made_link(organizer_client, colleague)
    entries = AuditEntry.objects.filter(action=AuditAction.ACCOUNT_RESET_LINK)
    assert [(e.tournament, e.user, e.after) for e in entries] == [(None, organizer, {"username": "vera"})] * 2

    page = Client().get(path)
    assert page.status_code == 200
    assert "<strong>vera</strong>" in page.content.decode()
    assert page["Referrer-Policy"] == "no-referrer"
    response = set_password(path)
    assert response.status_code == 302 and response["Location"] == reverse("login")
    colleague.refresh_from_db()
    assert colleague.check_password(NEW_PASSWORD) and not colleague.check_password(PASSWORD)
    entry = AuditEntry.objects.get(action=AuditAction.ACCOUNT_PASSWORD_RESET)
    assert (entry.tournament, entry.user, entry.actor) == (None, colleague, "vera")
    login = Client()
    assert login.post(reverse("login"), {"username": "vera", "password": NEW_PASSWORD}).status_code == 302

    # Used: the password hash changed, so the token no longer matches.
    assert Client().get(path).status_code == 404
    response = set_password(path, new="Noch-ein-Passwort-1")
    assert response.status_code == 404
    assert "no longer valid" in response.content.decode()
    colleague.refresh_from_db()
    assert colleague.check_password(NEW_PASSWORD)
    assert AuditEntry.objects.filter(action=AuditAction.ACCOUNT_PASSWORD_RESET).count() == 1


def test_a_reset_clears_the_due_flag(organizer, colleague):
    Account.objects.create(user=colleague, password_change_due=True)
    path = made_link(client_of(organizer), colleague)
    assert set_password(path).status_code == 302
    assert not Account.objects.get(user=colleague).password_change_due


def test_a_weak_or_mistyped_password_is_refused_and_the_link_still_works(organizer, colleague):
    path = made_link(client_of(organizer), colleague)
    response = set_password(path, new="kurz")
    assert response.status_code == 400
    errors = response.context["form"].errors.as_data()["new_password2"]
    assert "password_too_short" in [error.code for error in errors]
    response = set_password(path, new=NEW_PASSWORD, again=NEW_PASSWORD + "!")
    assert response.status_code == 400
    colleague.refresh_from_db()
    assert colleague.check_password(PASSWORD)
    assert set_password(path).status_code == 302


def test_a_link_works_for_24_hours(colleague):
    now = dt.datetime.now()
    fresh = tokens.make_token(colleague, now=now - dt.timedelta(hours=23, minutes=59))
    expired = tokens.make_token(colleague, now=now - dt.timedelta(hours=24, minutes=1))
    uid = tokens.uid_of(colleague)
    assert Client().get(reverse("account_reset", args=[uid, fresh])).status_code == 200
    response = set_password(reverse("account_reset", args=[uid, expired]))
    assert response.status_code == 404
    colleague.refresh_from_db()
    assert colleague.check_password(PASSWORD)


def test_an_expired_link_by_the_setting(colleague, settings):
    token = tokens.make_token(colleague, now=dt.datetime.now() - dt.timedelta(seconds=120))
    path = reverse("account_reset", args=[tokens.uid_of(colleague), token])
    settings.PASSWORD_RESET_TIMEOUT = 60
    assert set_password(path).status_code == 404
    settings.PASSWORD_RESET_TIMEOUT = 24 * 3600
    assert set_password(path).status_code == 302


def test_a_tampered_link_is_refused(colleague, organizer):
    token = tokens.make_token(colleague)
    uid = tokens.uid_of(colleague)
    other_uid = tokens.uid_of(organizer)
    changed = token[:-1] + ("a" if token[-1] != "a" else "b")
    for args in ([other_uid, token], [uid, changed], [uid, token + "x"], ["!!", token],
                 ["OTk5OTk5OTk5OTk5OTk5OTk5", token], [uid, "x-y"]):
        response = set_password(reverse("account_reset", args=args))
        assert response.status_code == 404, args
        assert b"<form" not in response.content.replace(b'<form action="/i18n/', b"")
    for user in (colleague, organizer):
        user.refresh_from_db()
        assert user.check_password(PASSWORD)
    assert not AuditEntry.objects.filter(action=AuditAction.ACCOUNT_PASSWORD_RESET).exists()


def test_an_address_opening_many_bad_links_waits(colleague, settings):
    settings.ACCOUNT_RESET_FAILURE_LIMIT = 3
    bad = reverse("account_reset", args=[tokens.uid_of(colleague), "1-2"])
    good = reverse("account_reset", args=[tokens.uid_of(colleague), tokens.make_token(colleague)])
    client = Client(REMOTE_ADDR="10.0.0.7")
    assert client.get(good).status_code == 200  # a working link is not counted
    for _ in range(3):
        assert client.get(bad).status_code == 404
    response = client.get(good)
    assert response.status_code == 429 and int(response["Retry-After"]) > 0
    assert set_password(good, client=client).status_code == 429
    assert Client(REMOTE_ADDR="10.0.0.8").get(good).status_code == 200
    colleague.refresh_from_db()
    assert colleague.check_password(PASSWORD)


def test_nobody_makes_a_link_for_somebody_they_do_not_work_with(organizer, colleague):
    stranger = UserFactory(username="fremd")
    TournamentFactory(organizers=[stranger])
    client = client_of(stranger)
    assert client.post(link_url(colleague)).status_code == 404  # nobody of theirs: not even named
    assert client.post(link_url(stranger)).status_code == 404  # not for oneself either
    assert client.post(reverse("account_reset_link", args=[999999])).status_code == 404
    assert not AuditEntry.objects.exists()


def test_a_superuser_s_link_only_by_a_superuser(organizer):
    root = UserFactory(username="root", is_superuser=True, is_staff=True)
    TournamentFactory(organizers=[organizer, root])
    assert client_of(organizer).post(link_url(root)).status_code == 404
    html = client_of(organizer).get(PEOPLE).content.decode()
    assert link_url(root) not in html and "(root)" not in html
    other_root = UserFactory(username="root2", is_superuser=True)
    assert client_of(other_root).post(link_url(root)).status_code == 200
    assert client_of(root).post(link_url(organizer)).status_code == 200


def test_anonymous_visitors_go_to_the_login(colleague):
    for method, url in (("get", PEOPLE), ("post", link_url(colleague))):
        response = getattr(Client(), method)(url)
        assert response.status_code == 302
        assert response["Location"] == f"{reverse('login')}?next={url}"
    assert not AuditEntry.objects.exists()


def test_the_people_page_is_german(organizer, colleague, settings):
    settings.LANGUAGE_CODE = "de"
    html = client_of(organizer).post(link_url(colleague), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Link zum Zurücksetzen</button>" in html
    assert "Link für Vera Vergesslich" in html
