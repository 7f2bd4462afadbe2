"""Backups as rows (`BackupFile`) beside their files: listed from the database, written readable by the
group, and a file this server may not read is explained instead of answered with a 500."""

import stat

import pytest
from django.core.files.storage import storages
from django.urls import reverse

from tournament.backup.selectors import stored_backups
from tournament.backup.services import write_backup
from tournament.models import BackupFile

pytestmark = pytest.mark.django_db


def test_a_backup_is_readable_by_the_group_in_a_folder_the_group_may_write(tournament, backup_dir):
    name = write_backup(tournament, 1)
    assert stat.S_IMODE((backup_dir / name).stat().st_mode) == 0o640
    assert stat.S_IMODE(backup_dir.stat().st_mode) == 0o2770


def test_each_backup_has_its_row(tournament, backup_dir):
    name = write_backup(tournament, 3)
    row = BackupFile.objects.get()
    assert (row.tournament, row.name, row.round_number) == (tournament, name, 3)
    assert row.size == (backup_dir / name).stat().st_size


def test_the_list_does_not_ask_the_storage(organizer_client, tournament, monkeypatch):
    first, second = write_backup(tournament, 1), write_backup(tournament, 2)

    def no_listing(*args, **kwargs):
        raise AssertionError("the storage was asked")

    monkeypatch.setattr(storages["backups"], "listdir", no_listing)
    monkeypatch.setattr(storages["backups"], "size", no_listing)
    page = organizer_client.get(reverse("organizer:backups", args=[tournament.pk])).content.decode()
    assert page.index(second) < page.index(first)
    assert [b.name for b in stored_backups(tournament)] == [second, first]


def test_a_backup_this_server_may_not_read_is_explained(organizer_client, tournament, monkeypatch):
    name = write_backup(tournament, 1)

    def refused(name, mode="rb"):
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(storages["backups"], "open", refused)
    url = reverse("organizer:stored_backup", args=[tournament.pk, name])
    answer = organizer_client.get(url, follow=True, HTTP_ACCEPT_LANGUAGE="en")
    assert answer.redirect_chain == [(reverse("organizer:backups", args=[tournament.pk]), 302)]
    assert f"This server may not read the backup {name}" in answer.content.decode()


def test_a_file_not_in_the_list_is_not_served(organizer_client, tournament, backup_dir):
    name = write_backup(tournament, 1)
    BackupFile.objects.all().delete()
    url = reverse("organizer:stored_backup", args=[tournament.pk, name])
    assert organizer_client.get(url).status_code == 404
