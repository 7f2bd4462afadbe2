"""The money of the evening: the cash report as CSV, the cash record the treasurer signs (float,
count, prizes handed over) and its CSV. The admission desk itself is `desk.py`."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from tournament.cashdesk.exports import cash_record_csv, cash_report_csv
from tournament.cashdesk.forms import CashForm, PrizeHandoverForm
from tournament.cashdesk.selectors import cash_record, cash_report
from tournament.cashdesk.services import (
    cash_update,
    prize_hand_over,
    prize_hand_over_undo,
)
from tournament.documents.typography import content_disposition, file_name
from tournament.models import Registration
from tournament.permissions import Capability

from .base import OrganizerAction, OrganizerPage, error_text


class CashReportCsvView(OrganizerPage):
    capability = Capability.VIEW

    def get(self, request, *args, **kwargs):
        report = cash_report(self.tournament)
        response = HttpResponse(cash_report_csv(report), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="cash-report-{self.tournament.pk}.csv"'
        return response


class CashRecordView(OrganizerPage):
    """The cash record: the float and the count (form), the prizes to mark as handed over, PDF and CSV."""

    capability = Capability.VIEW
    write_capability = Capability.DESK

    template_name = "tournament/organizer/cash_record.html"
    section = "cash_record"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            record=cash_record(self.tournament),
            cash_form=kwargs.get("cash_form") or CashForm(initial=CashForm.initial_for(self.tournament)),
        )
        return context

    def post(self, request, *args, **kwargs):
        form = CashForm(request.POST)
        if form.is_valid():
            try:
                cash_update(tournament=self.tournament, user=request.user, **form.values())
            except ValidationError as exc:
                form.add_error(None, error_text(exc))
            else:
                messages.success(request, _("Cash record saved."))
                return redirect("organizer:cash_record", self.tournament.pk)
        return self.render_to_response(self.get_context_data(cash_form=form), status=400)


class PrizeHandoverView(OrganizerAction):
    """POST: mark the player's prize as handed over; with undo=1, take the mark back."""

    capability = Capability.DESK
    write_capability = Capability.DESK

    def post(self, request, tournament_pk: int, registration_pk: int):
        reg = get_object_or_404(
            Registration.objects.select_related("player"), pk=registration_pk, tournament=self.tournament
        )
        form = PrizeHandoverForm(request.POST)
        form.is_valid()  # a boolean: every value is valid, absent is False
        try:
            if form.cleaned_data["undo"]:
                prize_hand_over_undo(tournament=self.tournament, user=request.user, registration=reg)
                messages.success(request, _("%(name)s: prize no longer marked as handed over.")
                                 % {"name": reg.player.name})
            else:
                prize_hand_over(tournament=self.tournament, user=request.user, registration=reg)
                messages.success(request, _("%(name)s: prize handed over.") % {"name": reg.player.name})
        except ValidationError as exc:
            self.fail(exc)
        return redirect("organizer:cash_record", self.tournament.pk)


class CashRecordCsvView(OrganizerPage):
    """The cash record for a German Excel, named after the evening and its date."""

    capability = Capability.VIEW

    def get(self, request, *args, **kwargs):
        record = cash_record(self.tournament)
        kind = f"{_('Cash record')} {self.tournament.date:%Y-%m-%d}"
        name = file_name(self.tournament, kind, extension="csv")
        response = HttpResponse(cash_record_csv(record), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = content_disposition(name, download=True)
        return response
