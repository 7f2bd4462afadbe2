"""The error pages speak the page's language in the app's layout: 404, 403 (and a failed CSRF check),
400 and 500. 400, 500 and the CSRF page are rendered by Django without a request: they need none."""

from __future__ import annotations

import pytest
from django.core.exceptions import SuspiciousOperation
from django.template.loader import render_to_string
from django.test import Client
from django.urls import path, reverse
from django.utils import translation

from tests.factories import TournamentFactory, UserFactory
from tournament.urls import urlpatterns as app_urlpatterns

pytestmark = [pytest.mark.django_db, pytest.mark.urls(__name__)]


def boom(request):
    raise RuntimeError("a bug in a view")


def suspicious(request):
    raise SuspiciousOperation("a forged request")


urlpatterns = [path("test-boom/", boom), path("test-suspicious/", suspicious), *app_urlpatterns]

LAYOUT = ('<link rel="stylesheet" href="/static/css/app.css">', '<header class="topbar">',
          '<span class="brand-card">UNO</span> Turnier</a>',
          '<main id="main" tabindex="-1" class="container">', '<a class="skip-link" href="#main">')


@pytest.fixture(autouse=True)
def production(settings):
    settings.DEBUG = False


def assert_german_layout(html: str, *texts: str) -> None:
    assert '<html lang="de">' in html
    for part in (*LAYOUT, *texts, 'href="/">Zur Startseite</a>'):
        assert part in html, part


def test_not_found_is_german_in_the_layout(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404
    html = response.content.decode()
    assert_german_layout(
        html, "<title>Seite nicht gefunden · UNO-Turnier</title>", ">Seite nicht gefunden</h1>",
        "Unter dieser Adresse gibt es nichts",
    )
    assert 'class="lang-form"' in html  # a page with a request keeps the whole header
    assert "Not Found" not in html and "The requested resource" not in html  # not Django's own page
    english = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">Page not found</h1>" in english and 'href="/">To the start page</a>' in english


def test_a_missing_tournament_answers_the_same_page(client):
    response = client.get(reverse("public:tournament", args=[999_999]), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 404 and ">Seite nicht gefunden</h1>" in response.content.decode()


def test_another_organizers_tournament_is_forbidden_in_german(client):
    tournament = TournamentFactory(organizers=[UserFactory(username="owner")])
    client.force_login(UserFactory(username="someone-else"))
    response = client.get(reverse("organizer:tournament", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 403
    html = response.content.decode()
    assert_german_layout(html, ">Kein Zugriff</h1>", "Diese Seite dürfen Sie nicht öffnen.")


def test_server_error_is_german_in_the_layout_without_a_request():
    client = Client(raise_request_exception=False)
    response = client.get("/test-boom/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 500
    html = response.content.decode()
    assert_german_layout(
        html, "<title>Etwas ist schiefgegangen · UNO-Turnier</title>", ">Etwas ist schiefgegangen</h1>",
        "Der Server konnte diese Anfrage nicht abschließen.",
    )
    # nothing that needs a request: no forms, no user, no token
    assert "<form" not in html and "csrfmiddlewaretoken" not in html and "Anmelden" not in html
    assert "Server Error" not in html  # not Django's own page


def test_the_server_error_page_renders_with_no_context_and_no_query(django_assert_num_queries):
    with translation.override("de"), django_assert_num_queries(0):
        html = render_to_string("500.html")
    assert_german_layout(html, ">Etwas ist schiefgegangen</h1>")


def test_bad_request_is_german_in_the_layout():
    response = Client(raise_request_exception=False).get("/test-suspicious/", HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 400
    assert_german_layout(response.content.decode(), ">Ungültige Anfrage</h1>")


def test_a_failed_csrf_check_is_german_in_the_layout():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "x", "password": "y"}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 403
    html = response.content.decode()
    assert_german_layout(html, ">Das Formular ist abgelaufen</h1>", "laden Sie die Seite neu")
    assert "CSRF verification failed" not in html
