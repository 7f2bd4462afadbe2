"""The restore form: a backup file, read and checked before anything is written."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from tournament.uploads import LimitedUploadForm

from .format import BackupError, check_format, loads
from .validation import check_backup

MAX_BACKUP_BYTES = 50 * 1024 * 1024


class RestoreForm(LimitedUploadForm):
    max_bytes = MAX_BACKUP_BYTES
    too_large_message = gettext_lazy("The file is larger than 50 MB.")

    file = forms.FileField(
        label=gettext_lazy("Backup file (JSON)"),
        help_text=gettext_lazy("A file downloaded from a tournament's audit page or written after a round."),
    )

    def clean_file(self):
        upload = super().clean_file()
        try:
            self.backup_data = loads(upload.read())
            check_format(self.backup_data)
            check_backup(self.backup_data)
        except BackupError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return upload
