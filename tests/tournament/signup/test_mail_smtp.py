"""The sign-up mail over SMTP with the settings read from the environment: through a local mail server
(aiosmtpd, with a login), and against one that accepts the connection and never answers (the
timeout gives the worker back; the sign-up page then says no mail was sent)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tournament.models import Signup

ROOT = Path(__file__).resolve().parents[3]
SMTP = "django.core.mail.backends.smtp.EmailBackend"
FORM = {"first_name": "Anna", "last_name": "Alt", "club": "UNO Club", "birth_year": "1980",
        "membership": "member", "email": "anna@example.org", "phone": "", "website": ""}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Inbox:
    """aiosmtpd's handler: keeps what arrives."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], str]] = []

    async def handle_DATA(self, server, session, envelope):
        self.messages.append((envelope.mail_from, envelope.rcpt_tos, envelope.content.decode()))
        return "250 OK"


@pytest.fixture(autouse=True)
def no_name_lookup(monkeypatch):
    """Both ends would ask the resolver for this machine's full name (EHLO): a slow wait without DNS."""
    from django.core.mail.utils import DNS_NAME

    monkeypatch.setattr(DNS_NAME, "_fqdn", "localhost", raising=False)


@pytest.fixture
def mail_server():
    inbox = Inbox()
    logins: list[tuple[bytes, bytes]] = []

    def authenticator(server, session, envelope, mechanism, auth_data):
        logins.append((auth_data.login, auth_data.password))
        return AuthResult(success=auth_data.login == b"club" and auth_data.password == b"s3cret")

    controller = Controller(inbox, hostname="127.0.0.1", port=free_port(), authenticator=authenticator,
                            auth_require_tls=False, server_hostname="localhost")
    controller.start()
    try:
        yield controller.port, inbox, logins
    finally:
        controller.stop()


@pytest.fixture
def silent_server():
    """A mail server that takes the connection and never says a word."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        yield listener.getsockname()[1]


def sign_up() -> tuple[Signup, str]:
    tournament = TournamentFactory(signup_open=True, signup_capacity=5)
    client = Client()
    answer = client.post(reverse("public:signup", args=[tournament.pk]), FORM, HTTP_ACCEPT_LANGUAGE="en")
    signup = Signup.objects.get()
    return signup, client.get(answer["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()


@pytest.mark.django_db
def test_the_link_goes_out_through_the_configured_smtp_server(settings, mail_server):
    port, inbox, logins = mail_server
    settings.EMAIL_BACKEND = SMTP
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_HOST_USER, settings.EMAIL_HOST_PASSWORD = "club", "s3cret"
    settings.EMAIL_TIMEOUT = 5
    settings.DEFAULT_FROM_EMAIL = "turnier@uno.example.org"
    signup, _page = sign_up()
    assert logins == [(b"club", b"s3cret")]
    [(sender, recipients, content)] = inbox.messages
    assert (sender, recipients) == ("turnier@uno.example.org", ["anna@example.org"])
    assert signup.get_status_url() in content


@pytest.mark.django_db
def test_a_mail_server_that_never_answers_does_not_hold_the_sign_up(settings, silent_server):
    settings.EMAIL_BACKEND = SMTP
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", silent_server
    settings.EMAIL_TIMEOUT = 0.3
    signup, page = sign_up()
    # The sign-up is stored and its page shows the link, saying that no mail went out.
    assert signup.token in page
    assert "No e-mail could be sent to anna@example.org" in page
    assert "We have also sent the link" not in page


@pytest.mark.one_database
def test_the_mail_settings_come_from_the_environment(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("EMAIL_")}
    env.update(
        UNO_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="tournament.settings",
        EMAIL_HOST="mail.example.org",
        EMAIL_PORT="587", EMAIL_HOST_USER="club", EMAIL_HOST_PASSWORD="s3cret", EMAIL_USE_TLS="1",
        EMAIL_TIMEOUT="7.5",
    )
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS, "
        "s.EMAIL_USE_SSL, s.EMAIL_TIMEOUT)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.stdout.split() == ["mail.example.org", "587", "club", "s3cret", "True", "False", "7.5"]
    default = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={k: v for k, v in env.items() if not k.startswith("EMAIL_")},
    )
    assert default.stdout.split() == ["localhost", "25", "False", "False", "10.0"], default.stderr
