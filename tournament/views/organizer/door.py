"""At the door: signed-up people arrive (check in + paid in one tap), payments, walk-ins, cash report;
the cash record the treasurer signs (float, count, prizes handed over) and its CSV."""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _

from tournament.cashdesk.exports import cash_record_csv, cash_report_csv
from tournament.cashdesk.forms import CashForm, PaymentForm, WalkInForm
from tournament.cashdesk.selectors import cash_record, cash_report, door_lists
from tournament.cashdesk.services import (
    cash_update,
    payment_record,
    payment_undo,
    prize_hand_over,
    prize_hand_over_undo,
    signup_check_in,
    walk_in,
)
from tournament.documents.printing import content_disposition, file_name
from tournament.models import Registration, Signup

from .base import OrganizerAction, OrganizerPage, error_text


class DoorView(OrganizerPage):
    template_name = "tournament/organizer/door.html"
    section = "door"
    walk_in_form: WalkInForm | None = None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        fee = Decimal(self.tournament.entry_fee_cents) / 100
        context.update(
            lists=door_lists(self.tournament),
            fee=fee,
            walk_in_form=self.walk_in_form or WalkInForm(initial={"amount": fee}),
            report=cash_report(self.tournament),
        )
        return context

    def door_response(self, status: int = 200):
        if self.request.htmx:
            self.template_name = f"{self.template_name}#door"
        return self.render_to_response(self.get_context_data(), status=status)


class DoorAction(OrganizerAction):
    """POST → service → the door section (htmx) or back to the page."""

    def respond(self, walk_in_form: WalkInForm | None = None, status: int = 200):
        if self.request.htmx or walk_in_form is not None:
            page = DoorView(request=self.request, kwargs=self.kwargs, args=())
            page.tournament, page.walk_in_form = self.tournament, walk_in_form
            return page.door_response(status=status)
        return redirect("organizer:door", self.tournament.pk)

    def payment_form(self) -> PaymentForm | None:
        form = PaymentForm(self.request.POST)
        if form.is_valid():
            return form
        messages.error(self.request, " ".join(" ".join(errors) for errors in form.errors.values()))
        return None


class DoorSignupCheckInView(DoorAction):
    def post(self, request, tournament_pk: int, signup_pk: int):
        signup = get_object_or_404(Signup, tournament=self.tournament, pk=signup_pk)
        form = self.payment_form()
        if form is not None:
            try:
                reg = signup_check_in(signup=signup, user=request.user, **form.payment())
                messages.success(
                    request, _("%(name)s checked in with start number %(number)s.")
                    % {"name": reg.player.name, "number": reg.start_number},
                )
            except ValidationError as error:
                self.fail(error)
        return self.respond()


class DoorPayView(DoorAction):
    def post(self, request, tournament_pk: int, registration_pk: int):
        registration = get_object_or_404(
            Registration.objects.select_related("player"), tournament=self.tournament, pk=registration_pk
        )
        try:
            if request.POST.get("undo"):
                payment_undo(registration=registration, user=request.user)
            else:
                form = self.payment_form()
                if form is not None:
                    payment = form.payment()
                    if payment["amount_cents"] is None:
                        raise ValidationError(_("Enter the amount paid."), code="amount")
                    payment_record(registration=registration, user=request.user, **payment)
        except ValidationError as error:
            self.fail(error)
        return self.respond()


class DoorWalkInView(DoorAction):
    def post(self, request, tournament_pk: int):
        form = WalkInForm(request.POST)
        if not form.is_valid():
            return self.respond(walk_in_form=form, status=400)
        try:
            reg = walk_in(tournament=self.tournament, user=request.user, **form.person(), **form.payment())
        except ValidationError as error:
            form.add_error(None, error_text(error))
            return self.respond(walk_in_form=form, status=400)
        messages.success(
            request, _("%(name)s checked in with start number %(number)s.")
            % {"name": reg.player.name, "number": reg.start_number},
        )
        return self.respond()


class CashReportCsvView(OrganizerPage):
    def get(self, request, *args, **kwargs):
        report = cash_report(self.tournament)
        response = HttpResponse(cash_report_csv(report), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="cash-report-{self.tournament.pk}.csv"'
        return response


class CashRecordView(OrganizerPage):
    """The cash record: the float and the count (form), the prizes to mark as handed over, PDF and CSV."""

    template_name = "tournament/organizer/cash_record.html"
    section = "door"

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

    def post(self, request, tournament_pk: int, registration_pk: int):
        reg = get_object_or_404(
            Registration.objects.select_related("player"), pk=registration_pk, tournament=self.tournament
        )
        try:
            if request.POST.get("undo"):
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

    def get(self, request, *args, **kwargs):
        record = cash_record(self.tournament)
        kind = f"{_('Cash record')} {self.tournament.date:%Y-%m-%d}"
        name = file_name(self.tournament, kind, extension="csv")
        response = HttpResponse(cash_record_csv(record), content_type="text/csv; charset=utf-8")
        response["Content-Disposition"] = content_disposition(name, download=True)
        return response
