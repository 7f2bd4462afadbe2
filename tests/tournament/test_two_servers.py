"""Two app servers on one PostgreSQL, each with a var/ directory of its own, as behind a proxy that sends
each request to either (docs/deploy.md, "Two or more app servers"): whatever one of them did, the other
sees. The captains report through one, the organizer confirms and closes through the other; the next
round seated on either gets the same tables; failed logins on one count on the other; a logo uploaded
through one prints on the other; a backup written by one is listed and served by the other.

Skipped on SQLite (one machine's file by nature); scripts/test.sh runs it in its PostgreSQL pass.
"""

from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from contextlib import ExitStack, contextmanager
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.db import connection
from django.urls import reverse
from django.utils.html import escape
from PIL import Image
from pypdf import PdfReader

from tests.conftest import twelve_players
from tests.factories import TournamentFactory, UserFactory
from tournament.models import Round, Submission
from tournament.rounds.services import round_open, round_publish, round_seat

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "two-servers-pass-123"
START_TIMEOUT = 60  # seconds for gunicorn to answer its first request (Django and WeasyPrint load)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """The test database as the servers reach it (test.sh: PostgreSQL through its Unix socket)."""
    db = connection.settings_dict
    host = urllib.parse.quote(db["HOST"] or "", safe="")
    password = f":{urllib.parse.quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{urllib.parse.quote(db['USER'])}{password}@{host}{port}/{db['NAME']}"


@contextmanager
def app_server(var_dir: Path, shared: Path):
    """gunicorn with gunicorn.conf.py on a free port, its own var/, the shared database and storages;
    yields its base URL once it answers. Stopped (and waited for) at the end."""
    port = free_port()
    var_dir.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "HTTPS", "UNO_HTTPS", "BACKUP_DIR",
                                                            "MEDIA_ROOT"}}
    env.update(
        DJANGO_SETTINGS_MODULE="tournament.settings", PYTHONPATH=str(ROOT), UNO_VAR_DIR=str(var_dir),
        DATABASE_URL=database_url(), SECRET_KEY="the-same-key-on-every-server", CONN_MAX_AGE="0",
        MEDIA_STORAGE="django.core.files.storage.FileSystemStorage",
        MEDIA_STORAGE_OPTIONS=json.dumps({"location": str(shared / "media")}),
        BACKUP_STORAGE="django.core.files.storage.FileSystemStorage",
        BACKUP_STORAGE_OPTIONS=json.dumps({"location": str(shared / "backups")}),
        SEATING_EFFORT="0.02", LOGIN_FAILURE_LIMIT="2", GUNICORN_WORKERS="1", GUNICORN_ACCESSLOG="",
        GUNICORN_LOGLEVEL="warning", LOG_LEVEL="ERROR",
    )
    log = (var_dir / "server.log").open("w")
    proc = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "-b", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                with urllib.request.urlopen(base + "/", timeout=5) as answer:
                    if answer.status == 200:
                        break
            except OSError:
                pass
            try:
                proc.wait(timeout=0.1)  # the pause between two polls; returns at once if gunicorn stopped
            except subprocess.TimeoutExpired:
                pass
            else:
                raise AssertionError(f"gunicorn stopped:\n{(var_dir / 'server.log').read_text()}")
            if time.monotonic() > deadline:
                raise AssertionError(f"gunicorn did not answer:\n{(var_dir / 'server.log').read_text()}")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the test reads the redirect itself


class Browser:
    """A browser's cookies (session, CSRF token) across both servers: cookies do not depend on the port,
    as behind one proxy address."""

    def __init__(self) -> None:
        self.cookies = CookieJar()
        cookies = urllib.request.HTTPCookieProcessor(self.cookies)
        self.opener = urllib.request.build_opener(cookies, _NoRedirect)

    def cookie(self, name: str) -> str:
        return next((c.value for c in self.cookies if c.name == name), "")

    def request(self, url: str, data: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes]:
        request = urllib.request.Request(url, data=data, headers={"Accept-Language": "en", **(headers or {})})
        try:
            with self.opener.open(request, timeout=60) as answer:
                return answer.status, answer.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def get(self, url: str) -> tuple[int, bytes]:
        return self.request(url)

    def post(self, url: str, fields: dict, files: dict | None = None) -> tuple[int, bytes]:
        if not self.cookie("csrftoken"):
            self.get(url.rsplit("/", 1)[0] + "/")  # any page sets the CSRF cookie
        headers = {"X-CSRFToken": self.cookie("csrftoken")}
        if not files:
            body = urllib.parse.urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        else:
            boundary = uuid.uuid4().hex
            parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
                     for k, v in fields.items()]
            for name, (filename, content, content_type) in files.items():
                head = (f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
                        f'filename="{filename}"\r\nContent-Type: {content_type}\r\n\r\n')
                parts.append(head.encode() + content + b"\r\n")
            body = b"".join(parts) + f"--{boundary}--\r\n".encode()
            headers["Content-Type"] = f"multipart/form-data; boundary={boundary}"
        return self.request(url, body, headers)

    def login(self, base: str, username: str, password: str) -> int:
        self.get(base + reverse("login"))
        status, _body = self.post(base + reverse("login"), {"username": username, "password": password})
        return status


def tables_of(round_: Round) -> list[list[int]]:
    return [list(t.seats.order_by("position").values_list("registration_id", flat=True))
            for t in round_.tables.order_by("number")]


def png_bytes() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 30), (200, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def two_servers(transactional_db, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("two app servers share a PostgreSQL database (scripts/test.sh runs this on PostgreSQL)")
    shared = tmp_path / "shared"  # the club's shared storage (a network folder, say)
    with ExitStack() as stack:
        yield [stack.enter_context(app_server(tmp_path / name, shared)) for name in ("var-a", "var-b")]


def test_two_servers_on_one_database_serve_one_evening(two_servers, tmp_path):
    a, b = two_servers
    organizer = UserFactory(username="orga")
    organizer.password = make_password(PASSWORD, hasher=PBKDF2PasswordHasher())  # a hasher the servers know
    organizer.save(update_fields=["password"])
    tournament = TournamentFactory(organizers=[organizer])
    twelve_players(tournament)
    round_1 = round_seat(tournament=tournament, user=organizer, seed=11)
    round_publish(round_=round_1, user=organizer)
    round_open(round_=round_1, user=organizer)
    t = tournament.pk

    # The captains report through server A.
    for table in round_1.tables.order_by("number"):
        seats = list(table.seats.order_by("position").values_list("registration_id", flat=True))
        fields = {"idempotency_key": f"two-{table.number}", "outcome": str(seats[0])}
        fields.update({f"points-{reg}": str(10 * n) for n, reg in enumerate(seats) if n})
        captain = Browser()
        assert captain.get(a + f"/t/{table.token}/")[0] == 200
        status, body = captain.post(a + f"/t/{table.token}/", fields)
        assert status == 303, body.decode()[:2000]
    reported = Submission.objects.filter(table__round=round_1, source=Submission.Source.CAPTAIN)
    assert reported.count() == 3

    # The organizer logs in on B, confirms and closes there.
    orga = Browser()
    assert orga.login(b, "orga", PASSWORD) == 302
    # The standings page, stored by A before the round counts (#52), is drawn anew after B's close.
    standings = reverse("organizer:standings", args=[t])
    entry = reported.first().entries.select_related("registration__player").first()
    name = escape(entry.registration.player.name)
    status, before = orga.get(a + standings)
    assert status == 200 and name not in before.decode()
    for submission in reported:
        confirm = reverse("organizer:submission_confirm", args=[t, submission.pk])
        assert orga.post(b + confirm, {})[0] == 302
    assert orga.post(b + reverse("organizer:round_close", args=[t, 1]), {})[0] == 302
    round_1.refresh_from_db()
    assert round_1.status == Round.Status.CLOSED
    status, after = orga.get(a + standings)
    assert status == 200 and name in after.decode()

    # The session made on B is valid on A (same SECRET_KEY, sessions in the database).
    status, page = orga.get(a + reverse("organizer:backups", args=[t]))
    assert status == 200
    # The backup B wrote when it closed the round is listed by A and served by A.
    (written,) = [p.name for p in (tmp_path / "shared" / "backups").iterdir()]
    assert written.startswith(f"tournament-{t}-round-1-")
    download = reverse("organizer:stored_backup", args=[t, written])
    assert download in page.decode()
    status, data = orga.get(a + download)
    assert status == 200
    assert [(r["number"], r["status"]) for r in json.loads(data)["rounds"]] == [(1, "closed")]

    # Round 2 seated on A, then drawn again on B with the same seed: the same tables.
    assert orga.post(a + reverse("organizer:round_seat", args=[t]), {"seed": "4242"})[0] == 302
    round_2 = Round.objects.get(tournament=tournament, number=2)
    seated_on_a = tables_of(round_2)
    assert orga.post(b + reverse("organizer:round_seat", args=[t]), {"seed": "4242"})[0] == 302
    assert tables_of(round_2) == seated_on_a
    assert len(seated_on_a) == 3

    # Failed logins on A count on B (LOGIN_FAILURE_LIMIT=2 on both).
    stranger = Browser()
    assert [stranger.login(a, "nobody", "wrong") for _ in range(2)] == [200, 200]
    assert stranger.login(b, "nobody", "wrong") == 429

    # A logo uploaded through A is on B's documents page and on the certificates B prints.
    logo = {"logo": ("club.png", png_bytes(), "image/png")}
    assert orga.post(a + reverse("print:logo", args=[t]), {}, files=logo)[0] == 302
    tournament.refresh_from_db()
    assert tournament.logo.name.startswith("logos/club")
    status, page = orga.get(b + reverse("print:documents", args=[t]))
    assert status == 200 and tournament.logo.name in page.decode()
    status, pdf = orga.get(b + reverse("print:certificates", args=[t]) + "?top=1")
    assert status == 200 and pdf.startswith(b"%PDF")
    assert len(PdfReader(io.BytesIO(pdf)).pages[0].images) == 1
