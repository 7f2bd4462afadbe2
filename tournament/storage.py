"""The storage of the backups written after each round (settings.STORAGES["backups"]), and of the
static files (settings.STORAGES["staticfiles"]).

Its default is the folder BACKUP_DIR, read whenever it is used, so the folder follows the setting as
MEDIA_ROOT's storage follows MEDIA_ROOT. Several app servers point STORAGES at a place every one of
them reaches instead (BACKUP_STORAGE, docs/deploy.md).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


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


class StaticStorage(CompressedManifestStaticFilesStorage):
    """Static files under names with their content's hash (`app.3f9c2b.css`), compressed, so WhiteNoise
    lets browsers keep them for a year: a phone asks again only when a file changed (it has a new name).

    Without a manifest (collectstatic has not run: the tests, a checkout in development) the plain
    names are used, served from the source folders (WHITENOISE_USE_FINDERS) with a short max-age,
    instead of refusing every page as Django's manifest storage would."""

    def stored_name(self, name: str) -> str:
        if not self.hashed_files:
            return name
        return super().stored_name(name)
