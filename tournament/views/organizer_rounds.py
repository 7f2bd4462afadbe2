"""Rounds: seat with the engine, check and swap, publish, open, enter and confirm results, close, reopen."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine import seating

from .. import ratelimit, selectors, services
from ..captain import clean_idempotency_key, issue_text, new_idempotency_key
from ..forms import SwapForm, TableResultForm
from ..models import Registration, Round, Seat, Submission, SubmissionEntry, Table
from .organizer_base import OrganizerAction, OrganizerPage, error_text


@dataclass
class TableView:
    """A table as the round page shows it: seats in playing order with the scores of the version shown."""

    table: Table
    seats: list[Seat]
    latest: Submission | None
    confirmed: Submission | None
    entries: dict[int, SubmissionEntry] = field(default_factory=dict)

    @property
    def shown(self) -> Submission | None:
        return self.confirmed or self.latest

    @property
    def awaiting_confirmation(self) -> Submission | None:
        """The newest version when it is not the confirmed one: what the confirm button confirms."""
        if self.latest is not None and not self.latest.confirmed:
            return self.latest
        return None

    def rows(self) -> list[tuple[Seat, SubmissionEntry | None]]:
        return [(seat, self.entries.get(seat.registration_id)) for seat in self.seats]


def table_views(round_: Round) -> list[TableView]:
    views = []
    for table in selectors.round_tables(round_):
        submissions = list(table.submissions.all())  # newest first
        confirmed = next((s for s in submissions if s.confirmed), None)
        view = TableView(
            table=table,
            seats=list(table.seats.all()),
            latest=submissions[0] if submissions else None,
            confirmed=confirmed,
        )
        if view.shown is not None:
            view.entries = {e.registration_id: e for e in view.shown.entries.all()}
        views.append(view)
    return views


def next_table_needing_result(round_: Round, after: int) -> Table | None:
    """The next table (by number, wrapping round) without a confirmed result."""
    pending = list(round_.tables.exclude(status=Table.Status.CONFIRMED).order_by("number"))
    later = [t for t in pending if t.number > after]
    return (later or pending or [None])[0]


class RoundMixin:
    """Finds the round from /<tournament_pk>/rounds/<number>/ within the checked tournament."""

    @cached_property
    def round(self) -> Round:
        return get_object_or_404(Round, tournament=self.tournament, number=self.kwargs["number"])

    def round_url(self) -> str:
        return reverse("organizer:round", args=[self.tournament.pk, self.round.number])


class RoundsView(OrganizerPage):
    template_name = "tournament/organizer/rounds.html"
    section = "rounds"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = list(self.tournament.rounds.order_by("number"))
        counts = {status: 0 for status in Table.Status.values}
        per_round: dict[int, dict[str, int]] = {r.pk: dict(counts) for r in rounds}
        for round_id, status in Table.objects.filter(round__tournament=self.tournament).values_list(
            "round_id", "status"
        ):
            per_round[round_id][status] += 1
        last = rounds[-1] if rounds else None
        context.update(
            rounds=[(r, per_round[r.pk], sum(per_round[r.pk].values())) for r in rounds],
            last=last,
            can_seat_next=last is None
            or (last.status == Round.Status.CLOSED and not selectors.tournament_finished(self.tournament)),
            next_number=len(rounds) + 1,
            active_count=self.tournament.registrations.filter(status=Registration.Status.CHECKED_IN).count(),
        )
        if self.tournament.plan_all_rounds:
            played = sum(1 for r in rounds if r.status != Round.Status.DRAFT)
            context.update(
                plan=selectors.seating_plan_summary(self.tournament),
                can_plan=played < self.tournament.rounds_total,
                plan_from=played + 1,
                draft=last if last is not None and last.status == Round.Status.DRAFT else None,
            )
        return context


class SeatingPlanCreateView(OrganizerAction):
    """Plan every round not yet played in one go, so the start cards can be printed."""

    def post(self, request, *args, **kwargs):
        try:
            plan = services.seating_plan_create(tournament=self.tournament, user=request.user)
        except ValidationError as exc:
            self.fail(exc)
        else:
            numbers = sorted(int(number) for number in plan["rounds"])
            figures = {
                "first": numbers[0], "last": numbers[-1], "count": len(plan["players"]), "seed": plan["seed"],
            }
            messages.success(
                request,
                _("Rounds %(first)s to %(last)s planned for %(count)s players (seed %(seed)s).") % figures,
            )
        return redirect("organizer:rounds", self.tournament.pk)


class RoundSeatView(OrganizerAction):
    """Seat the next round (or draw the drafted one again), optionally from a seed the organizer types."""

    def post(self, request, *args, **kwargs):
        raw_seed = request.POST.get("seed", "").strip()
        if raw_seed and not raw_seed.isdigit():
            messages.error(request, _("The seed must be a whole number."))
            return redirect("organizer:rounds", self.tournament.pk)
        try:
            round_ = services.round_seat(
                tournament=self.tournament, user=request.user, seed=int(raw_seed) if raw_seed else None
            )
        except ValidationError as exc:
            self.fail(exc)
            return redirect("organizer:rounds", self.tournament.pk)
        messages.success(
            request,
            _("Round %(n)s seated (seed %(seed)s). Check it, then publish.")
            % {"n": round_.number, "seed": round_.seed},
        )
        return redirect("organizer:round", self.tournament.pk, round_.number)


class RoundView(RoundMixin, OrganizerPage):
    """One round; `round_status` serves the live status partial of the same template."""

    template_name = "tournament/organizer/round.html"
    section = "rounds"
    partial = ""

    def seating_check(self, tables: list[TableView]) -> dict:
        """Repeat table-mates in this (drafted) seating, by name, from the engine's seating report."""
        proposal = [[seat.registration_id for seat in view.seats] for view in tables]
        history = selectors.seating_history(self.tournament, before_round=self.round.number)
        report = seating.seating_report(history, proposal, self.tournament.table_size)
        names = {
            seat.registration_id: seat.registration.player.name for view in tables for seat in view.seats
        }
        return {
            "report": report,
            "repeats": [(names.get(a, a), names.get(b, b), times) for a, b, times in report.new_repeats],
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_ = self.round
        tables = table_views(round_)
        counts = {status: 0 for status in Table.Status.values}
        for view in tables:
            counts[view.table.status] += 1
        context.update(
            round=round_,
            tables=tables,
            counts=counts,
            table_total=len(tables),
            all_confirmed=bool(tables) and counts[Table.Status.CONFIRMED] == len(tables),
            live=round_.status in (Round.Status.PUBLISHED, Round.Status.OPEN),
        )
        if round_.status == Round.Status.DRAFT and not self.partial:
            context.update(self.seating_check(tables))
            context["swap_form"] = kwargs.get("swap_form") or SwapForm(seats=self.swap_seats())
        return context

    def swap_seats(self):
        return (
            Seat.objects.filter(round=self.round)
            .select_related("registration__player", "table")
            .order_by("registration__player__last_name", "registration__player__first_name")
        )

    def get(self, request, *args, **kwargs):
        if self.partial:
            return self.render_partial(self.partial)
        return super().get(request, *args, **kwargs)


class RoundSwapView(RoundView):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = SwapForm(request.POST, seats=self.swap_seats())
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(swap_form=form))
        try:
            services.round_swap(
                round_=self.round,
                user=request.user,
                first=form.cleaned_data["first"],
                second=form.cleaned_data["second"],
            )
        except ValidationError as exc:
            messages.error(request, error_text(exc))
        else:
            messages.success(
                request,
                _("%(a)s and %(b)s swapped places.")
                % {
                    "a": form.cleaned_data["first"].registration.player.name,
                    "b": form.cleaned_data["second"].registration.player.name,
                },
            )
        return redirect(self.round_url())


class RoundStatusAction(RoundMixin, OrganizerAction):
    """Publish / open / close / reopen: one service call each, back to the round page."""

    service = staticmethod(services.round_publish)
    done = ""

    def post(self, request, *args, **kwargs):
        try:
            self.service(round_=self.round, user=request.user)
        except ValidationError as exc:
            self.fail(exc)
        else:
            messages.success(request, self.done % {"n": self.round.number})
        return redirect(self.round_url())


class RoundPublishView(RoundStatusAction):
    service = staticmethod(services.round_publish)
    done = gettext_lazy("Round %(n)s published: the seating can be printed and shown.")


class RoundOpenView(RoundStatusAction):
    service = staticmethod(services.round_open)
    done = gettext_lazy("Round %(n)s is open for results.")


class RoundCloseView(RoundStatusAction):
    service = staticmethod(services.round_close)
    done = gettext_lazy("Round %(n)s closed; the standings count it now.")


class RoundReopenView(RoundStatusAction):
    service = staticmethod(services.round_reopen)
    done = gettext_lazy("Round %(n)s reopened for corrections. Close it again when done.")


class TableResultView(RoundMixin, OrganizerPage):
    """The organizer typing a paper sheet: one row per seat, Enter saves and goes to the next table."""

    template_name = "tournament/organizer/table_result.html"
    section = "rounds"

    @cached_property
    def table(self) -> Table:
        return get_object_or_404(
            Table.objects.select_related("round__tournament").prefetch_related("submissions__entries"),
            round=self.round,
            number=self.kwargs["table_number"],
        )

    def seats(self) -> list[Seat]:
        return list(self.table.seats.select_related("registration__player__club").order_by("position"))

    def shown_submission(self) -> Submission | None:
        submissions = sorted(self.table.submissions.all(), key=lambda s: -s.version)
        return next((s for s in submissions if s.confirmed), submissions[0] if submissions else None)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = kwargs.get("form") or TableResultForm(
            table=self.table,
            seats=self.seats(),
            initial=TableResultForm.initial_from(self.shown_submission()),
        )
        outcome = kwargs.get("outcome")
        validation = outcome.validation if outcome is not None else None
        rows = form.rows()
        errors = form.errors if form.is_bound else {}
        for row in rows:
            # The form's own checks (length, a choice that is not at this table) come before the engine's.
            row["issues"] = [
                {"severity": "error", "text": text}
                for kind in ("cards", "points", "count")
                for text in errors.get(f"{kind}_{row['reg_id']}", [])
            ] + [
                {"severity": issue.severity, "text": issue_text(issue)}
                for issue in (validation.issues_for(row["reg_id"]) if validation else [])
            ]
        general = [
            {"severity": "error", "text": text}
            for name in ("__all__", "went_out", "stopped_by_time", "confirm_warnings")
            for text in errors.get(name, [])
        ] + [
            {"severity": issue.severity, "text": issue_text(issue)}
            for issue in ((*validation.errors, *validation.warnings) if validation else ())
            if issue.player_id is None
        ]
        context.update(
            round=self.round,
            table=self.table,
            form=form,
            rows=rows,
            general_issues=general,
            needs_confirmation=bool(outcome and outcome.needs_confirmation),
            has_errors=bool(validation and validation.errors),
            shown=self.shown_submission(),
            time_limit=bool(self.tournament.time_limit_minutes),
            idempotency_key=kwargs.get("idempotency_key") or new_idempotency_key(),
            other_tables=self.round.tables.order_by("number"),
        )
        return context

    def post(self, request, *args, **kwargs):
        form = TableResultForm(request.POST, table=self.table, seats=self.seats())
        key = clean_idempotency_key(request.POST.get("idempotency_key"))
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(form=form, idempotency_key=key), status=422)
        try:
            outcome = services.result_submit(
                table=self.table,
                seats=form.seat_reports(),
                source=Submission.Source.ORGANIZER,
                user=request.user,
                ip_address=ratelimit.recorded_address(request),
                idempotency_key=key,
                stopped_by_time=form.cleaned_data["stopped_by_time"],
                confirm_warnings=form.cleaned_data["confirm_warnings"],
            )
        except ValidationError as exc:
            messages.error(request, error_text(exc))
            return redirect(self.round_url())
        if not outcome.stored:
            return self.render_to_response(
                self.get_context_data(form=form, outcome=outcome, idempotency_key=key), status=422
            )
        messages.success(request, _("Table %(n)s saved.") % {"n": self.table.number})
        following = next_table_needing_result(self.round, self.table.number)
        if following is None:
            return redirect(self.round_url())
        return redirect("organizer:table_result", self.tournament.pk, self.round.number, following.number)


class SubmissionConfirmView(OrganizerAction):
    """Confirm a captain's reported result with one click."""

    def post(self, request, *args, **kwargs):
        submission = get_object_or_404(
            Submission.objects.select_related("table__round"),
            pk=kwargs["submission_pk"],
            table__round__tournament=self.tournament,
        )
        round_ = submission.table.round
        try:
            services.result_confirm(submission=submission, user=request.user)
        except ValidationError as exc:
            self.fail(exc)
        else:
            messages.success(request, _("Table %(n)s confirmed.") % {"n": submission.table.number})
        if request.htmx:
            view = RoundView(
                request=request, args=(), kwargs={**kwargs, "number": round_.number}, partial="status"
            )
            view.tournament = self.tournament
            return view.render_partial("status")
        return redirect("organizer:round", self.tournament.pk, round_.number)
