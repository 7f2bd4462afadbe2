"""Settings for several app servers: the secret key must be set beside a shared database, and logos and
backups go to the storages the environment names (MEDIA_STORAGE, BACKUP_STORAGE)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.one_database  # the settings module, read in a fresh process

ROOT = Path(__file__).resolve().parents[2]
SHOW = (
    "from django.conf import settings as s; from django.core.files.storage import storages; "
    "print(type(storages['default']).__name__, storages['default'].location); "
    "print(type(storages['backups']).__name__, storages['backups'].location); print(s.SECRET_KEY)"
)


def settings_of(tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items()
            if k not in {"SECRET_KEY", "DATABASE_URL", "MEDIA_ROOT", "BACKUP_DIR"} and "_STORAGE" not in k}
    base.update(UNO_VAR_DIR=str(tmp_path), DJANGO_SETTINGS_MODULE="tournament.settings", **env)
    script = [sys.executable, "-c", "import django; django.setup(); " + SHOW]
    return subprocess.run(script, cwd=ROOT, env=base, capture_output=True, text=True, timeout=120)


def test_a_shared_database_without_a_secret_key_refuses_to_start(tmp_path):
    result = settings_of(tmp_path, DATABASE_URL="postgres://uno@127.0.0.1:5432/uno")
    assert result.returncode != 0
    assert "ImproperlyConfigured: SECRET_KEY ist nicht gesetzt" in result.stderr
    assert "Set SECRET_KEY to the same value on every server" in result.stderr
    assert not (tmp_path / "secret_key").exists()  # no key of this machine made up


def test_a_shared_database_takes_the_key_it_is_given(tmp_path):
    result = settings_of(
        tmp_path, DATABASE_URL="postgres://uno@127.0.0.1:5432/uno", SECRET_KEY="same-everywhere"
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "same-everywhere"


def test_the_hall_laptop_makes_up_its_own_key_once(tmp_path):
    first = settings_of(tmp_path)
    again = settings_of(tmp_path, DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}")
    assert first.returncode == 0, first.stderr
    key = (tmp_path / "secret_key").read_text().strip()
    assert len(key) > 40
    assert first.stdout.splitlines()[-1] == again.stdout.splitlines()[-1] == key


def test_logos_and_backups_live_in_var_by_default(tmp_path):
    lines = settings_of(tmp_path).stdout.splitlines()
    assert lines[0] == f"FileSystemStorage {tmp_path / 'media'}"
    assert lines[1] == f"BackupFolderStorage {tmp_path / 'backups'}"


def test_the_environment_points_logos_and_backups_at_shared_storage(tmp_path):
    shared = tmp_path / "shared"
    result = settings_of(
        tmp_path,
        MEDIA_STORAGE="django.core.files.storage.FileSystemStorage",
        MEDIA_STORAGE_OPTIONS=f'{{"location": "{shared / "media"}"}}',
        BACKUP_STORAGE="django.core.files.storage.InMemoryStorage",
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"FileSystemStorage {shared / 'media'}"
    assert lines[1].startswith("InMemoryStorage ")


def test_storage_options_that_are_not_json_say_so(tmp_path):
    result = settings_of(tmp_path, BACKUP_STORAGE_OPTIONS="{location: nowhere}")
    assert result.returncode != 0
    assert "BACKUP_STORAGE_OPTIONS is not valid JSON" in result.stderr
