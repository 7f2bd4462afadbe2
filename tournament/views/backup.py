"""Backup download (one tournament as JSON) and restore (upload such a file as a new tournament)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views import View
from django.views.generic import FormView

from .. import backup
from ..permissions import TournamentOrganizerMixin

MAX_BACKUP_BYTES = 50 * 1024 * 1024


class BackupDownloadView(TournamentOrganizerMixin, View):
    """The whole tournament as one JSON file, for a USB stick or another laptop."""

    def get(self, request, *args, **kwargs):
        data = backup.export_tournament(self.tournament)
        stamp = timezone.localtime().strftime("%Y%m%d-%H%M")
        response = HttpResponse(backup.dumps(data), content_type="application/json; charset=utf-8")
        filename = f"tournament-{self.tournament.pk}-{stamp}.json"
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
        return response


class RestoreForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Backup file (JSON)"),
        help_text=gettext_lazy("A file downloaded from a tournament's audit page or written after a round."),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_BACKUP_BYTES:
            raise forms.ValidationError(_("The file is too large for a tournament backup."))
        try:
            self.backup_data = backup.loads(upload.read())
            backup.check_format(self.backup_data)
        except backup.BackupError as exc:
            raise forms.ValidationError(str(exc)) from exc
        return upload


class RestoreView(LoginRequiredMixin, FormView):
    """Upload a backup: it becomes a new tournament organized by the uploader."""

    template_name = "tournament/organizer/restore.html"
    form_class = RestoreForm

    def form_valid(self, form):
        try:
            tournament = backup.import_tournament(form.backup_data, owner=self.request.user)
        except backup.BackupError as exc:
            form.add_error("file", str(exc))
            return self.form_invalid(form)
        messages.success(self.request, _("Restored “%(name)s”.") % {"name": tournament.name})
        return redirect("organizer:audit", tournament_pk=tournament.pk)
