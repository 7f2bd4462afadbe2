"""The organizer typing a table's paper sheet: the same form and service as the captain's phone."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.utils.functional import cached_property
from django.utils.translation import gettext as _

from tournament import ratelimit
from tournament.models import Seat, Submission, Table
from tournament.permissions import Capability
from tournament.results.forms import ResultForm
from tournament.results.selectors import table_seats, table_versions
from tournament.results.services import SubmitOutcome, result_submit
from tournament.rounds.selectors import next_table_needing_result

from .base import OrganizerPage, RoundMixin, error_text


class TableResultView(RoundMixin, OrganizerPage):
    """One row per seat; Enter saves and goes to the next table still without a confirmed result."""

    capability = Capability.RESULTS
    write_capability = Capability.RESULTS

    template_name = "tournament/organizer/table_result.html"
    section = "rounds"

    @cached_property
    def table(self) -> Table:
        return get_object_or_404(
            Table.objects.select_related("round__tournament"), round=self.round,
            number=self.kwargs["table_number"],
        )

    @cached_property
    def seats(self) -> list[Seat]:
        return table_seats(self.table)

    @cached_property
    def versions(self) -> list[Submission]:
        return table_versions(self.table)

    @cached_property
    def shown(self) -> Submission | None:
        """The version a correction starts from: the confirmed one, else the newest, so a reported or
        disputed table is corrected from what was reported (the organizer reads it in the form before
        saving). With a second, independent entry the captain's version is never prefilled: the desk's
        entry must be typed from the paper sheet."""
        confirmed = next((s for s in self.versions if s.confirmed), None)
        if confirmed is not None:
            return confirmed
        if self.tournament.require_second_entry:
            return next((s for s in self.versions if s.source == Submission.Source.ORGANIZER), None)
        return self.versions[0] if self.versions else None

    @cached_property
    def unreviewed(self) -> Submission | None:
        """The captain's newest version when the form does not show it (to review first)."""
        captain = next((s for s in self.versions if s.source == Submission.Source.CAPTAIN), None)
        if captain is None or captain.confirmed or captain == self.shown:
            return None
        if self.shown is not None and self.shown.version > captain.version:
            return None
        return captain

    @cached_property
    def dispute(self) -> Submission | None:
        """While the table is disputed, the version a player disputed (with who and why)."""
        if self.table.status != Table.Status.DISPUTED:
            return None
        return next((s for s in self.versions if s.player_check == "disputed"), None)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = kwargs.get("form") or ResultForm.for_correction(seats=self.seats, submission=self.shown)
        outcome: SubmitOutcome | None = kwargs.get("outcome")
        rows, table_issues = form.rows(outcome.validation if outcome is not None else None)
        context.update(
            round=self.round,
            table=self.table,
            form=form,
            rows=rows,
            table_issues=table_issues,
            needs_confirmation=bool(outcome and outcome.needs_confirmation),
            shown=self.shown,
            unreviewed=self.unreviewed,
            dispute=self.dispute,
            time_limit=bool(self.tournament.time_limit_minutes),
            other_tables=self.round.tables.order_by("number"),
        )
        return context

    def post(self, request, *args, **kwargs):
        form = ResultForm(request.POST, seats=self.seats)
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form), status=422)
        try:
            outcome = result_submit(
                table=self.table, **form.report(), seated=self.seats, source=Submission.Source.ORGANIZER,
                user=request.user, ip_address=ratelimit.recorded_address(request),
            )
        except ValidationError as exc:
            messages.error(request, error_text(exc))
            return redirect(self.round_url())
        if not outcome.stored:
            return self.render_to_response(self.get_context_data(form=form, outcome=outcome), status=422)
        messages.success(request, _("Table %(n)s saved.") % {"n": self.table.number})
        following = next_table_needing_result(self.round, self.table.number)
        if following is None:
            return redirect(self.round_url())
        return redirect("organizer:table_result", self.tournament.pk, self.round.number, following.number)
