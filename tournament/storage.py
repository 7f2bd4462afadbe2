"""The storage of the backups written after each round (settings.STORAGES["backups"]).

Its default is the folder BACKUP_DIR, read whenever it is used, so the folder follows the setting as
MEDIA_ROOT's storage follows MEDIA_ROOT. Several app servers point STORAGES at a place every one of
them reaches instead (BACKUP_STORAGE, docs/deploy.md).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.files.storage import FileSystemStorage


class BackupFolderStorage(FileSystemStorage):
    """A FileSystemStorage whose default location is settings.BACKUP_DIR (not MEDIA_ROOT)."""

    @property
    def base_location(self) -> str:
        return str(self._value_or_setting(self._location, settings.BACKUP_DIR))

    @property
    def location(self) -> str:
        return os.path.abspath(self.base_location)

    @property
    def base_url(self) -> None:
        return None  # backups are never served as files: the organizer's download view reads them
