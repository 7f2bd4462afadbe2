"""The organizer's side of the captain links: every table's link and QR code, and a table's history.

The history shows every version of a table's result (who, when, through which link, from which
address), compares the latest captain report with the latest organizer entry side by side, and
offers the one-click confirmation and a new link.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from engine.roles import table_roles
from tournament.models import Round, Seat, Submission, SubmissionEntry, Table
from tournament.permissions import Capability, TournamentOrganizerMixin
from tournament.qr import absolute_url, qr_svg, unreachable_address
from tournament.results.forms import TableActionForm
from tournament.results.selectors import entries_signature, table_fingerprint, table_history, table_seats
from tournament.results.services import result_confirm
from tournament.rounds.selectors import round_fingerprint, round_tables
from tournament.rounds.services import table_regenerate_token

from .base import RoundMixin

LINK_STATUSES = {Round.Status.PUBLISHED, Round.Status.OPEN, Round.Status.CLOSED}


def poll_response(since: str, current: str) -> HttpResponse:
    """204 when nothing changed; otherwise htmx reloads the page."""
    response = HttpResponse(status=204)
    if since != current:
        response["HX-Refresh"] = "true"
    return response


@dataclass
class TableLink:
    table: Table
    url: str
    qr: str


class RoundLinksView(TournamentOrganizerMixin, RoundMixin, TemplateView):
    """Every table's captain link with its QR code, to hand out or test before printing."""

    capability = Capability.RESULTS
    write_capability = Capability.RESULTS

    template_name = "tournament/organizer/captain_links.html"

    def get(self, request, *args, **kwargs):
        round_ = self.round
        since = request.GET.get("since")
        if since is not None:
            return poll_response(since, round_fingerprint(round_))
        response = super().get(request, *args, **kwargs)
        if request.htmx:
            response.template_name = self.template_name + "#links"
        return response

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.round
        links = []
        if round_.status in LINK_STATUSES:
            for table in round_tables(round_, with_results=False):
                url = absolute_url(table.get_captain_url(), self.request)
                links.append(TableLink(table=table, url=url, qr=qr_svg(url, scale=3)))
        context.update(
            round=round_, links=links, published=round_.status in LINK_STATUSES,
            address_unreachable=unreachable_address(self.request),
            fingerprint=round_fingerprint(round_),
        )
        return context


@dataclass
class ComparedLine:
    """One player in the side-by-side view of the latest captain and organizer entries."""

    seat: Seat
    captain: SubmissionEntry | None
    organizer: SubmissionEntry | None

    @property
    def differs(self) -> bool:
        if self.captain is None or self.organizer is None:
            return False
        return (self.captain.hand_points, self.captain.went_out) != (
            self.organizer.hand_points, self.organizer.went_out
        )


@dataclass
class VersionLine:
    """One player across all versions, oldest first."""

    seat: Seat
    entries: list[SubmissionEntry | None]


class TableDetailView(TournamentOrganizerMixin, RoundMixin, TemplateView):
    """All versions of one table's result, the comparison, confirmation and a new link."""

    capability = Capability.RESULTS
    write_capability = Capability.RESULTS

    template_name = "tournament/organizer/captain_table.html"

    def load_table(self) -> Table:
        self.table = get_object_or_404(
            Table.objects.select_related("round__tournament"),
            round=self.round,
            number=self.kwargs["table_number"],
        )
        return self.table

    def fingerprint(self) -> str:
        return table_fingerprint(self.table)

    def get(self, request, *args, **kwargs):
        self.load_table()
        since = request.GET.get("since")
        if since is not None:
            return poll_response(since, self.fingerprint())
        response = super().get(request, *args, **kwargs)
        if request.htmx:
            response.template_name = self.template_name + "#history"
        return response

    def post(self, request, *args, **kwargs):
        table = self.load_table()
        form = TableActionForm(request.POST, table=table)
        if not form.is_valid():
            messages.error(request, " ".join(" ".join(errors) for errors in form.errors.values()))
            return redirect(request.path)
        try:
            if form.cleaned_data["action"] == "confirm":
                submission = form.cleaned_data["submission"]
                result_confirm(submission=submission, user=request.user)
                messages.success(
                    request, _("Version %(version)s of table %(table)s is confirmed.")
                    % {"version": submission.version, "table": table.number},
                )
            else:
                table_regenerate_token(table=table, user=request.user)
                messages.success(
                    request,
                    _("Table %(n)s has a new link; the old one no longer works.") % {"n": table.number},
                )
        except ValidationError as exc:
            messages.error(request, " ".join(exc.messages))
        return redirect(request.path)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = self.table
        seats = table_seats(table)
        submissions = table_history(table)
        by_version = {s.pk: {e.registration_id: e for e in s.entries.all()} for s in submissions}
        latest = {
            source: next((s for s in reversed(submissions) if s.source == source), None)
            for source in Submission.Source.values
        }
        captain, organizer = latest[Submission.Source.CAPTAIN], latest[Submission.Source.ORGANIZER]
        compared = [
            ComparedLine(
                seat=seat,
                captain=by_version[captain.pk].get(seat.registration_id) if captain else None,
                organizer=by_version[organizer.pk].get(seat.registration_id) if organizer else None,
            )
            for seat in seats
        ]
        roles = table_roles({s.registration_id: s.registration.player.born for s in seats})
        url = absolute_url(table.get_captain_url(), self.request)
        context.update(
            round=self.round,
            table=table,
            seats=seats,
            dealer=roles.dealer,
            starter=roles.starter,
            submissions=submissions,
            versions=[
                VersionLine(seat=s, entries=[by_version[v.pk].get(s.registration_id) for v in submissions])
                for s in seats
            ],
            latest_captain=captain,
            latest_organizer=organizer,
            compared=compared,
            # The same comparison that decides a second entry's confirmation (rows only highlight it).
            mismatch=bool(captain and organizer)
            and entries_signature(captain) != entries_signature(organizer),
            captain_url=url,
            qr=qr_svg(url, scale=4),
            can_confirm=self.round.status != Round.Status.CLOSED,
            fingerprint=self.fingerprint(),
        )
        return context
