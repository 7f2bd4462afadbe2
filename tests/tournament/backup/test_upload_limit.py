"""A backup upload stops at 50 MB while it arrives; the restore page names the limit and CSRF is checked."""

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.tournament.uploadstream import CountingBody, multipart_head, post_body
from tournament.backup.format import dumps
from tournament.backup.forms import MAX_BACKUP_BYTES, RestoreForm
from tournament.backup.selectors import export_tournament
from tournament.models import AuditEntry, Player, Registration, Tournament
from tournament.uploads import LimitedUploadHandler

TOO_LARGE = "The file is larger than 50 MB."


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Tournament, Player, Registration, AuditEntry))


@pytest.fixture
def backup_bytes(tournament, players) -> bytes:
    return dumps(export_tournament(tournament)).encode()


def test_a_huge_content_length_is_refused_before_the_body_is_read(organizer_client, players):
    before = counts()
    body = CountingBody(multipart_head("backup.json"))  # endless
    response = post_body(organizer_client, reverse("restore"), body, length=100 * 1024**3)
    assert response.status_code == 413
    assert TOO_LARGE in response.content.decode()
    assert body.read_bytes == 0
    assert counts() == before


def test_a_backup_over_the_limit_stops_at_the_limit(organizer_client, backup_bytes, monkeypatch):
    """The limit made small, so that the test need not send 50 MB: the handler stops the file."""
    limit = len(backup_bytes) // 2
    monkeypatch.setattr(RestoreForm, "max_bytes", limit)
    before = counts()
    response = organizer_client.post(
        reverse("restore"), {"file": SimpleUploadedFile("backup.json", backup_bytes)}
    )
    assert response.status_code == 413
    assert TOO_LARGE in response.content.decode()
    handler = response.wsgi_request.upload_handlers[0]
    assert isinstance(handler, LimitedUploadHandler) and handler.exceeded
    assert limit < handler.received <= limit + handler.chunk_size
    assert counts() == before


def test_a_backup_within_the_limit_is_restored(organizer_client, backup_bytes):
    assert len(backup_bytes) < MAX_BACKUP_BYTES
    tournaments = Tournament.objects.count()
    response = organizer_client.post(
        reverse("restore"), {"file": SimpleUploadedFile("backup.json", backup_bytes)}
    )
    assert response.status_code == 302
    assert Tournament.objects.count() == tournaments + 1
    assert response.wsgi_request.upload_handlers[0].received == len(backup_bytes)


def test_csrf_is_still_checked_on_the_restore(organizer, backup_bytes):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer)
    assert client.get(reverse("restore")).status_code == 200
    before = counts()
    without = client.post(reverse("restore"), {"file": SimpleUploadedFile("backup.json", backup_bytes)})
    assert without.status_code == 403
    assert counts() == before
    token = client.cookies[settings.CSRF_COOKIE_NAME].value
    with_token = client.post(
        reverse("restore"),
        {"csrfmiddlewaretoken": token, "file": SimpleUploadedFile("backup.json", backup_bytes)},
    )
    assert with_token.status_code == 302
    assert Tournament.objects.count() == before[0] + 1


def test_an_anonymous_upload_goes_to_the_login_unread(client):
    body = CountingBody(multipart_head("backup.json"))
    response = post_body(client, reverse("restore"), body, length=100 * 1024**3)
    assert response.status_code == 302 and "login" in response["Location"]
    assert body.read_bytes == 0
