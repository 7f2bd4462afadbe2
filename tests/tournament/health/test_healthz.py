"""/healthz: what a proxy's probe gets from a healthy server and from one that cannot serve."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.recorder import MigrationRecorder
from django.test import override_settings

from tournament.health import selectors

SERVER_SETTINGS = {
    "ALLOWED_HOSTS": ["uno.example.org"],
    "SECURE_SSL_REDIRECT": True,
    "SECURE_PROXY_SSL_HEADER": ("HTTP_X_FORWARDED_PROTO", "https"),
}


@pytest.fixture(autouse=True)
def migrations_checked_anew(monkeypatch, settings, tmp_path):
    """Each test reads the migrations again; the probe's file goes to a temporary media folder."""
    monkeypatch.setattr(selectors, "_migrations_applied", False)
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.mark.django_db
def test_healthy_server_answers_ok(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.content == b"ok\n"
    assert answer["Cache-Control"] == "no-store"


@pytest.mark.django_db
@override_settings(**SERVER_SETTINGS)
def test_probe_by_the_backends_address_over_http_is_answered_not_refused_or_redirected(client):
    """Caddy and nginx probe with the backend's address as Host and plain HTTP."""
    answer = client.get("/healthz", HTTP_HOST="127.0.0.1:8001")
    assert answer.status_code == 200
    assert answer.content == b"ok\n"
    # Every other page keeps the host check and the redirect.
    assert client.get("/", HTTP_HOST="127.0.0.1:8001").status_code == 400
    redirected = client.get("/", HTTP_HOST="uno.example.org")
    assert redirected.status_code == 301
    assert redirected["Location"] == "https://uno.example.org/"


@pytest.mark.django_db
def test_head_is_answered_and_post_refused(client):
    assert client.head("/healthz").status_code == 200
    refused = client.post("/healthz")
    assert refused.status_code == 405
    assert refused["Allow"] == "GET, HEAD"


@pytest.mark.django_db
def test_missing_migration_makes_the_server_unhealthy(client):
    recorder = MigrationRecorder(connection)
    latest = recorder.migration_qs.filter(app="tournament").order_by("-name").first()
    recorder.migration_qs.filter(pk=latest.pk).delete()
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.content == b"migrations: 1 not applied\n"


@pytest.mark.django_db
def test_unwritable_backup_storage_makes_the_server_unhealthy(client, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    storages = {**settings.STORAGES, "backups": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(blocker / "backups")},
    }}
    with override_settings(STORAGES=storages):
        answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.content.decode().startswith("storage backups: ")


@pytest.mark.django_db
def test_probe_leaves_no_file_behind(client, tmp_path):
    storages = {**settings.STORAGES, "backups": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(tmp_path / "backups")},
    }}
    with override_settings(STORAGES=storages):
        assert client.get("/healthz").status_code == 200
    assert list((tmp_path / "backups").iterdir()) == []


def test_unreachable_database_is_named(monkeypatch):
    """The database check reports the failure instead of raising (no database is opened here)."""
    from django.db import DatabaseError

    class Broken:
        def __enter__(self):
            raise DatabaseError("connection refused")

        def __exit__(self, *exc):
            return False

    monkeypatch.setattr(selectors.connection, "cursor", lambda: Broken())
    assert selectors.database_problem() == "database: DatabaseError"
