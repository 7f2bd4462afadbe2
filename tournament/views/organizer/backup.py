"""Backup download (one tournament as JSON) and restore (upload such a file as a new tournament)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import FormView

from tournament.permissions import Capability, OrganizingAccountMixin, TournamentOrganizerMixin
from tournament.uploads import UploadLimitMixin

from ...backup import services as backup
from ...backup.format import BackupError, dumps
from ...backup.forms import RestoreForm
from ...backup.selectors import export_tournament


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
