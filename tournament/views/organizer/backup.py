"""Backup download (one tournament as JSON), the backups written after each round (listed and served
from the backups storage, which every app server shares) and restore (upload a file as a new tournament)."""

from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView, TemplateView

from tournament.permissions import Capability, OrganizingAccountMixin, TournamentOrganizerMixin
from tournament.uploads import UploadLimitMixin

from ...backup import services as backup
from ...backup.format import BackupError, dumps
from ...backup.forms import RestoreForm
from ...backup.selectors import BackupUnreadable, export_tournament, open_stored_backup, stored_backups


class BackupDownloadView(TournamentOrganizerMixin, View):
    """The whole tournament as one JSON file, for a USB stick or another laptop."""

    capability = Capability.RESTORE
    write_capability = Capability.RESTORE

    def get(self, request, *args, **kwargs):
        data = export_tournament(self.tournament)
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        response = HttpResponse(dumps(data), content_type="application/json; charset=utf-8")
        filename = f"tournament-{self.tournament.pk}-{stamp}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class StoredBackupsView(TournamentOrganizerMixin, TemplateView):
    """The backups written after each closed round, newest first, each one click to download."""

    capability = Capability.RESTORE
    template_name = "tournament/organizer/backups.html"
    extra_context = {"section": "backups"}

    def get_context_data(self, **kwargs):
        return super().get_context_data(backups=stored_backups(self.tournament), **kwargs)


class StoredBackupDownloadView(TournamentOrganizerMixin, View):
    """One of the tournament's stored backups, read from the backups storage (404 for any other name)."""

    capability = Capability.RESTORE

    def get(self, request, *args, **kwargs):
        try:
            stored = open_stored_backup(self.tournament, kwargs["backup_name"])
        except BackupUnreadable:
            messages.error(request, _(
                "This server may not read the backup %(name)s: it was written by an app server running "
                "as another user. Give the app servers one group and the backups folder to that group "
                "(docs/deploy.md, section 3)."
            ) % {"name": kwargs["backup_name"]})
            return redirect("organizer:backups", tournament_pk=self.tournament.pk)
        if stored is None:
            raise Http404(_("There is no such backup."))
        return FileResponse(
            stored, as_attachment=True, filename=kwargs["backup_name"], content_type="application/json"
        )


class RestoreView(UploadLimitMixin, OrganizingAccountMixin, FormView):
    """Upload a backup: it becomes a new tournament organized by the uploader.

    The upload stops at MAX_BACKUP_BYTES while it arrives (tournament/uploads.py).
    """

    template_name = "tournament/organizer/restore.html"
    form_class = RestoreForm
    upload_form_class = RestoreForm

    def form_valid(self, form):
        try:
            tournament = backup.import_tournament(form.backup_data, owner=self.request.user)
        except BackupError as exc:
            form.add_error("file", str(exc))
            return self.form_invalid(form)
        messages.success(self.request, _("Restored “%(name)s”.") % {"name": tournament.name})
        return redirect("organizer:audit", tournament_pk=tournament.pk)
