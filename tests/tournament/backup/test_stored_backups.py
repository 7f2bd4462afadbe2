"""The backups written after each round live in the "backups" storage (settings.STORAGES), which every
app server shares: written there, listed from there and downloaded from there, whatever the storage."""

import io
import json

import pytest
from django.core.files.storage import InMemoryStorage, storages
from django.urls import reverse

from tests.factories import TournamentFactory, play_round
from tournament.backup.selectors import open_stored_backup, stored_backups
from tournament.backup.services import write_backup

IN_MEMORY = {
    "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "backups": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}


@pytest.fixture
def memory_storages(settings):
    """Both storages in memory: no path on any disk, as with an object store shared by the servers."""
    settings.STORAGES = IN_MEMORY
    assert isinstance(storages["backups"], InMemoryStorage)
    return storages["backups"]


def test_closing_a_round_writes_into_the_backups_storage(
    tournament, players, organizer, memory_storages, backup_dir, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        play_round(tournament, organizer)
    _folders, files = memory_storages.listdir("")
    assert len(files) == 1
    assert files[0].startswith(f"tournament-{tournament.pk}-round-1-")
    with memory_storages.open(files[0], "rb") as stored:
        assert [r["number"] for r in json.loads(stored.read())["rounds"]] == [1]
    assert not backup_dir.exists()  # nothing went to the folder of the default storage


def test_the_list_shows_the_tournaments_backups_newest_first(tournament, players, organizer, memory_storages):
    play_round(tournament, organizer)
    first = write_backup(tournament, 1)
    second = write_backup(tournament, 2)
    write_backup(TournamentFactory(name="Another evening"), 1)
    memory_storages.save("notes.txt", io.BytesIO(b"not a backup"))
    listed = stored_backups(tournament)
    assert [b.name for b in listed] == [second, first]
    assert [b.round_number for b in listed] == [2, 1]
    assert listed[0].size == memory_storages.size(second) > 100


def test_the_page_lists_and_downloads_from_the_storage(organizer_client, tournament, players, organizer,
                                                       memory_storages):
    play_round(tournament, organizer)
    name = write_backup(tournament, 1)
    page = organizer_client.get(reverse("organizer:backups", args=[tournament.pk]))
    assert page.status_code == 200
    download = reverse("organizer:stored_backup", args=[tournament.pk, name])
    assert download in page.content.decode()
    response = organizer_client.get(download)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert f'filename="{name}"' in response["Content-Disposition"]
    data = json.loads(b"".join(response.streaming_content))
    assert data["tournament"]["name"] == tournament.name


def test_the_page_says_when_there_is_no_backup_yet(organizer_client, tournament, memory_storages):
    html = organizer_client.get(reverse("organizer:backups", args=[tournament.pk])).content.decode()
    assert "No backup yet" in html


def test_only_the_tournaments_own_backups_are_served(organizer_client, tournament, memory_storages):
    other = TournamentFactory(name="Another evening")
    theirs = write_backup(other, 1)
    memory_storages.save(f"tournament-{tournament.pk}-notes.txt", io.BytesIO(b"x"))
    assert open_stored_backup(tournament, theirs) is None
    assert open_stored_backup(tournament, "../secret_key") is None
    for name in (theirs, f"tournament-{tournament.pk}-notes.txt",
                 f"tournament-{tournament.pk}-round-1-20261206-200000-000000.json"):  # last: never written
        response = organizer_client.get(reverse("organizer:stored_backup", args=[tournament.pk, name]))
        assert response.status_code == 404, name


def test_a_folder_backup_is_written_whole_into_backup_dir(tournament, players, organizer, backup_dir):
    """The default storage of backups is the folder BACKUP_DIR; no temporary file stays behind."""
    name = write_backup(tournament, 3)
    assert [path.name for path in backup_dir.iterdir()] == [name]
    assert [b.name for b in stored_backups(tournament)] == [name]
