"""The table captain's page: one table of one round, reached only through its secret link.

The token in the URL is the only credential. A wrong token is counted per address (rate limited,
see tournament.ratelimit) and answered like any missing page; the page never links to organizer
pages, and every response tells the browser not to cache it or pass the link on as a referrer.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import DatabaseError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.decorators import method_decorator
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.views import View
from django.views.decorators.cache import never_cache

from engine.cards import get_deck
from engine.notation import name_tables

from .. import clock, ratelimit, services, sql
from ..captain import (
    CONFIRM_FIELD,
    KEY_FIELD,
    OUTCOME_FIELD,
    STOPPED_BY_TIME,
    ReportForm,
    clean_idempotency_key,
    form_from_submission,
    player_rows,
    read_form,
)
from ..models import Round, Seat, Submission, Table

TEMPLATE = "tournament/captain/table.html"


def _private(response: HttpResponse) -> HttpResponse:
    """The link is a secret: never leak it through the Referer header or a search engine."""
    response["Referrer-Policy"] = "no-referrer"
    response["X-Robots-Tag"] = "noindex, nofollow"
    return response


def table_fingerprint(table: Table, versions: int) -> str:
    """Changes whenever something the captain sees changes: status, round status, number of versions.

    Versions are numbered 1, 2, … per table, so a caller holding the newest one passes its number.
    """
    return f"{table.status}.{table.round.status}.{versions}"


@method_decorator(never_cache, name="dispatch")
class CaptainTableView(View):
    """GET shows the table (entry form, reported or confirmed result); POST submits a report."""

    table: Table
    versions: list[Submission]  # the table's, newest first, without their entries

    def dispatch(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if ratelimit.is_blocked(request):
            response = self.refusal(request, "tournament/captain/blocked.html", status=429)
            response["Retry-After"] = str(ratelimit.window_seconds())
            return _private(response)
        token = kwargs["token"]
        found = sql.table_by_token(token)
        if found is None:
            ratelimit.record_wrong_token(request)
        if found is None or found[0].round.status == Round.Status.DRAFT:
            return _private(self.refusal(request, "tournament/captain/not_found.html", status=404))
        self.table, self.versions = found
        return _private(super().dispatch(request, *args, **kwargs))

    @staticmethod
    def refusal(request: HttpRequest, template: str, *, status: int) -> HttpResponse:
        """A whole page; the phone's script reloads to show it (what was typed stays stored)."""
        response = render(request, template, status=status)
        if request.htmx:
            response["HX-Refresh"] = "true"
        return response

    # --- reading ----------------------------------------------------------------------------

    @cached_property
    def seats(self) -> list[Seat]:
        return sql.table_seats(self.table)

    def render_page(
        self, request: HttpRequest, *, form: ReportForm | None = None, validation=None,
        message: str = "", stored: bool = False, status: int = 200,
    ) -> HttpResponse:
        table, round_ = self.table, self.table.round
        seats = self.seats
        registration_ids = [seat.registration_id for seat in seats]
        submissions = self.versions
        confirmed = next((s for s in submissions if s.confirmed), None)
        # With a second, independent entry the captain must not see what the organizer typed.
        reported = next((s for s in submissions if s.source == Submission.Source.CAPTAIN), None)
        # Often one and the same version (the organizer confirmed the captain's report): read it once.
        entries = {s.pk: sql.submission_entries(s) for s in {confirmed, reported} if s is not None}
        if form is None:
            last_report = entries[reported.pk] if reported else None
            form = form_from_submission(reported, registration_ids, last_report)
        rows, table_issues = player_rows(seats, form, validation)
        read_only = confirmed is not None or round_.status == Round.Status.CLOSED
        shown = confirmed or reported
        context = {
            "table": table,
            "round": round_,
            "tournament": round_.tournament,
            "rows": rows,
            "table_issues": table_issues,
            "form": form,
            "confirmed": confirmed,
            "reported": reported,
            "shown": shown,
            "shown_entries": entries[shown.pk] if shown else [],
            "read_only": read_only,
            "accepts": round_.status == Round.Status.OPEN and not read_only,
            "time_limit": clock.may_report_stopped_by_time(round_),
            "validation_shown": validation is not None,
            "needs_confirmation": bool(validation and validation.needs_confirmation),
            "message": message,
            "just_stored": stored,
            "stored_keys": [s.idempotency_key for s in submissions if s.idempotency_key],
            "fingerprint": table_fingerprint(table, len(submissions)),
            "deck": deck_data(round_.tournament.deck),
            "texts": {
                "total": _("{points} points · {cards} cards"),
                "unknown": _("? (checked when sent)"),
                "remove": _("Remove"),
            },
            "field_names": {
                "outcome": OUTCOME_FIELD, "time": STOPPED_BY_TIME, "key": KEY_FIELD, "confirm": CONFIRM_FIELD,
            },
        }
        template = TEMPLATE + "#page" if request.htmx else TEMPLATE
        return render(request, template, context, status=status)

    def render_stored(self, request: HttpRequest, submissions: list[Submission]) -> HttpResponse:
        """Thanks and the stored result, without the entry form (the answer to a repeated report)."""
        table = self.table
        confirmed = next((s for s in submissions if s.confirmed), None)
        reported = next((s for s in submissions if s.source == Submission.Source.CAPTAIN), None)
        shown = confirmed or reported
        context = {
            "table": table,
            "round": table.round,
            "tournament": table.round.tournament,
            "confirmed": confirmed,
            "shown": shown,
            "shown_entries": sql.submission_entries(shown) if shown else [],
            "stored_keys": [s.idempotency_key for s in submissions if s.idempotency_key],
            "fingerprint": table_fingerprint(table, len(submissions)),
        }
        return render(request, TEMPLATE + "#stored", context)

    def render_just_stored(
        self, request: HttpRequest, outcome: services.SubmitOutcome, seats: list[Seat]
    ) -> HttpResponse:
        """The answer to a report just stored, from what is in memory: fifty phones at once get it fast."""
        # result_submit updated the status of this very table and round instance under its lock.
        table, submission = self.table, outcome.submission
        registrations = {seat.registration_id: seat.registration for seat in seats}
        for entry in outcome.entries:
            entry.registration = registrations[entry.registration_id]
        context = {
            "table": table,
            "round": table.round,
            "tournament": table.round.tournament,
            "confirmed": submission if submission.confirmed else None,
            "shown": submission,
            "shown_entries": outcome.entries,
            "stored_keys": [submission.idempotency_key],
            # Versions are numbered 1, 2, … per table, so the newest version counts them.
            "fingerprint": table_fingerprint(table, submission.version),
        }
        return render(request, TEMPLATE + "#stored", context)

    def get(self, request: HttpRequest, token: str) -> HttpResponse:
        since = request.GET.get("since")
        if since is not None:
            return self.poll(since)
        return self.render_page(request, stored=bool(request.GET.get("sent")))

    def poll(self, since: str) -> HttpResponse:
        """The page asks every few seconds whether anything changed; reload only if it did."""
        if since == table_fingerprint(self.table, len(self.versions)):
            return HttpResponse(status=204)
        response = HttpResponse(status=204)
        response["HX-Refresh"] = "true"
        return response

    # --- writing ----------------------------------------------------------------------------

    def post(self, request: HttpRequest, token: str) -> HttpResponse:
        table = self.table
        if table.status == Table.Status.CONFIRMED or table.round.status != Round.Status.OPEN:
            # Read in this request (dispatch): no report to check; the service decides again under its lock.
            form = read_form(request.POST, [seat.registration_id for seat in self.seats])
            return self.refused(request, form, ValidationError(_("This round does not accept results.")))
        # A repeated report (a double tap, or the phone sending again after a lost answer) is answered
        # from what is stored, before the seats are read or the report checked.
        key = clean_idempotency_key(request.POST.get(KEY_FIELD))
        if key and any(submission.idempotency_key == key for submission in self.versions):
            return self.stored(request, self.versions)
        seats = self.seats
        form = read_form(request.POST, [seat.registration_id for seat in seats])
        try:
            outcome = services.result_submit(
                table=table,
                seats=form.seat_reports(form.values),
                source=Submission.Source.CAPTAIN,
                token=token,
                ip_address=ratelimit.recorded_address(request),
                idempotency_key=form.idempotency_key,
                stopped_by_time=form.stopped_by_time,
                confirm_warnings=form.confirm_warnings,
                seated=seats,
                sent=self.versions,
            )
        except ValidationError as exc:
            return self.refused(request, form, exc)
        except DatabaseError:
            return self.render_page(
                request, form=form, status=503,
                message=_("The server is busy. Nothing is lost: send the result again in a moment."),
            )
        if outcome.stored and outcome.entries and request.htmx:
            return self.render_just_stored(request, outcome, seats)
        if outcome.stored:
            return self.stored(request)
        return self.render_page(request, form=form, validation=outcome.validation)

    def refused(self, request: HttpRequest, form: ReportForm, error: ValidationError) -> HttpResponse:
        """The service refused the report (a repeated one was recognised before): say why."""
        table = self.table
        if table.status == Table.Status.CONFIRMED or table.round.status == Round.Status.CLOSED:
            return self.render_page(
                request, message=_("This result is final; the round no longer accepts reports here."),
                status=403,
            )
        if table.round.status != Round.Status.OPEN:
            return self.render_page(
                request, form=form, status=409,
                message=_("The organizer has not opened this round for results yet. "
                          "Your entries are kept; send them again in a moment."),
            )
        return self.render_page(request, message=" ".join(error.messages), status=403)

    def stored(self, request: HttpRequest, submissions: list[Submission] | None = None) -> HttpResponse:
        if request.htmx:
            return self.render_stored(
                request, sql.table_submissions(self.table) if submissions is None else submissions
            )
        response = redirect(request.path + "?sent=1")
        response.status_code = 303  # see other: the browser fetches the page with GET
        return response


def deck_data(key: str) -> dict:
    """The deck for the card picker and the page's running total (values come from the engine)."""
    deck = get_deck(key)
    return {
        "colours": list(deck.colours),
        "ranks": [
            {"code": spec.code, "value": spec.value, "black": spec.is_black, "label": spec.label}
            for spec in deck.ranks
        ],
        "names": name_tables(deck),
    }
