"""Rounds: seat with the engine, check and swap, publish, open, confirm a version, close, reopen."""

from __future__ import annotations

import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine import seating
from tournament.clock.selectors import clock_state
from tournament.live.pages import conditional_page
from tournament.live.selectors import page_settings
from tournament.models import Registration, Round, Submission, Table
from tournament.permissions import Capability, role_of
from tournament.players.selectors import registration_counts
from tournament.results.services import result_confirm
from tournament.rounds.forms import RoundStepForm, SeatRoundForm, SwapForm
from tournament.rounds.selectors import (
    TableView,
    evening,
    has_later_round,
    round_overview,
    seating_history,
    seating_plan_summary,
    seats_by_name,
    table_views,
)
from tournament.rounds.services import (
    round_close,
    round_open,
    round_publish,
    round_reopen,
    round_seat,
    round_start,
    round_swap,
    seating_plan_create,
)
from tournament.standings.versioning import evening_version

from .base import ActionMixin, OrganizerAction, OrganizerPage, RoundMixin, error_text


class RoundsView(OrganizerPage):
    capability = Capability.VIEW
    write_capability = Capability.SEAT

    template_name = "tournament/organizer/rounds.html"
    section = "rounds"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = round_overview(self.tournament)
        last = rounds[-1].round if rounds else None
        context.update(
            rounds=[(line.round, line.counts, line.tables) for line in rounds],
            last=last,
            can_seat_next=evening(self.tournament).can_seat_next,
            next_number=len(rounds) + 1,
            active_count=registration_counts(self.tournament)[Registration.Status.CHECKED_IN],
        )
        if self.tournament.plan_all_rounds:
            played = sum(1 for line in rounds if line.round.status != Round.Status.DRAFT)
            context.update(
                plan=seating_plan_summary(self.tournament),
                can_plan=played < self.tournament.rounds_total,
                plan_from=played + 1,
                draft=last if last is not None and last.status == Round.Status.DRAFT else None,
            )
        return context


class SeatingPlanCreateView(OrganizerAction):
    """Plan every round not yet played in one go, so the start cards can be printed."""

    capability = Capability.SEAT
    write_capability = Capability.SEAT

    def post(self, request, *args, **kwargs):
        try:
            plan = seating_plan_create(tournament=self.tournament, user=request.user)
        except ValidationError as exc:
            self.fail(exc)
        else:
            figures = {"first": plan.from_round, "last": plan.last_round, "count": len(plan.players)}
            planned = _("Rounds %(first)s to %(last)s planned for %(count)s players.") % figures
            messages.success(request, planned)
        return redirect("organizer:rounds", self.tournament.pk)


class RoundSeatView(OrganizerAction):
    """Seat the next round (or draw the drafted one again), optionally from a seed the organizer types."""

    capability = Capability.SEAT
    write_capability = Capability.SEAT

    def post(self, request, *args, **kwargs):
        form = SeatRoundForm(request.POST)
        if not form.is_valid():
            messages.error(request, _("The seed must be a whole number.") + " " + form.errors["seed"][0])
            return redirect("organizer:rounds", self.tournament.pk)
        try:
            round_ = round_seat(tournament=self.tournament, user=request.user, seed=form.cleaned_data["seed"])
        except ValidationError as exc:
            self.fail(exc)
            return redirect("organizer:rounds", self.tournament.pk)
        messages.success(request, _("Round %(n)s seated. Check it, then publish.") % {"n": round_.number})
        return redirect("organizer:round", self.tournament.pk, round_.number)


class RoundView(RoundMixin, OrganizerPage):
    """One round; `round_status` serves the live status partial of the same template."""

    capability = Capability.VIEW
    write_capability = Capability.SEAT

    template_name = "tournament/organizer/round.html"
    section = "rounds"
    partial = ""

    def seating_check(self, tables: list[TableView]) -> dict:
        """Repeat table-mates in this (drafted) seating, by name, from the engine's seating report; each
        seat that meets somebody again carries them (`meets_again`) so its table shows the pair; and the
        engine's verdict whether the repeats were avoidable, with the exchange that saves most."""
        proposal = [[seat.registration_id for seat in view.seats] for view in tables]
        history = seating_history(self.tournament, before_round=self.round.number)
        report = seating.seating_report(history, proposal, self.tournament.table_size)
        seats = {seat.registration_id: seat for view in tables for seat in view.seats}
        names = {reg_id: seat.registration.player.name for reg_id, seat in seats.items()}
        for seat in seats.values():
            seat.meets_again = []
        for a, b, times in report.new_repeats:
            seats[a].meets_again.append((names[b], times))
            seats[b].meets_again.append((names[a], times))
        verdict = seating.repeat_verdict(history, proposal)
        suggestion = None
        if verdict.swap is not None:
            first, second = (seats[reg_id] for reg_id in verdict.swap)
            suggestion = {"first": first, "second": second, "saved": verdict.saved}
        return {
            "report": report,
            "repeats": [(names.get(a, a), names.get(b, b), times) for a, b, times in report.new_repeats],
            "verdict": verdict,
            "swap_suggestion": suggestion,
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
            needs_you_count=sum(view.needs_you for view in tables),
            live=round_.accepts_desk_results,
        )
        if round_.status == Round.Status.CLOSED and not self.partial:
            context["next_step"] = self.next_step()
        if round_.accepts_desk_results and self.request.GET.get("sheets") in ("a4", "a5"):
            context["download_sheets"] = self.request.GET["sheets"]
        context["has_next_round"] = round_.number < self.tournament.rounds_total
        if round_.status == Round.Status.DRAFT and not self.partial:
            context.update(self.seating_check(tables))
            # The exchange the engine suggests is filled in: one click on "Swap" takes it.
            suggestion = context.get("swap_suggestion")
            initial = (
                {"first": suggestion["first"].pk, "second": suggestion["second"].pk} if suggestion else {}
            )
            context["swap_form"] = kwargs.get("swap_form") or SwapForm(
                seats=self.swap_seats(), initial=initial
            )
        return context

    def next_step(self) -> str:
        """After a closed round: "seat" the next one, "final" (the evening is over), or "" (a later round
        exists)."""
        if has_later_round(self.round):
            return ""
        return "final" if evening(self.tournament).over else "seat"

    def swap_seats(self):
        return seats_by_name(self.round)

    def get(self, request, *args, **kwargs):
        """Drawn once per change of the evening for each organizer (`live.pages`): the live status,
        polled every few seconds, is answered 304 when the browser has it."""
        if self.partial:
            self.template_name = f"{self.template_name}#{self.partial}"

        def draw(extra: dict) -> str:
            return render_to_string(
                self.get_template_names(), {**self.get_context_data(**kwargs), **extra}, request
            )

        return conditional_page(
            request, kind="round", tournament_id=self.tournament.pk,
            version=(evening_version(self.tournament), page_settings(self.tournament),
                     role_of(request.user, self.tournament)),
            clock=None if self.partial else clock_state(self.round), render=draw,
            params=frozenset({"sheets"}),
        )


class RoundSwapView(RoundView):
    http_method_names = ["post"]

    def post(self, request, *args, **kwargs):
        form = SwapForm(request.POST, seats=self.swap_seats())
        if not form.is_valid():
            return self.render_to_response(self.get_context_data(swap_form=form))
        try:
            round_swap(
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

    capability = Capability.SEAT
    write_capability = Capability.SEAT

    service = staticmethod(round_publish)
    done = ""

    step: dict

    def post(self, request, *args, **kwargs):
        form = RoundStepForm(request.POST)
        if not form.is_valid():
            return HttpResponseBadRequest(_("This button asks for a step the page does not offer."))
        self.step = form.cleaned_data
        return self.run_step()

    def run_step(self):
        try:
            self.service(round_=self.round, user=self.request.user)
        except ValidationError as exc:
            self.fail(exc)
        else:
            messages.success(self.request, self.done % {"n": self.round.number})
        return redirect(self.round_url())


class RoundPublishView(RoundStatusAction):
    """`start=1` publishes and opens the round for results in one step (`round_start`); `then=print`
    opens the table sheets in a new tab, inline like every PDF (sent with htmx; without a script the
    round page offers them as a link). Together: the turnaround's second click."""

    service = staticmethod(round_publish)
    done = gettext_lazy("Round %(n)s published: the seating can be printed and shown.")

    def run_step(self):
        if self.step["start"]:
            self.service = round_start
            self.done = gettext_lazy("Round %(n)s published and open for results.")
        response = super().run_step()
        self.round.refresh_from_db(fields=["status"])
        if self.step["then"] == "print" and self.round.accepts_desk_results:
            page = f"{self.round_url()}?{urlencode({'sheets': 'a4'})}"
            if self.request.htmx:
                # The click's own answer opens the sheets in a new tab, ready to print like every other
                # PDF (static/js/app.js on `open-pdf`); the tab itself goes on to the open round.
                sheets = reverse("print:table_sheets", args=[self.tournament.pk, self.round.number])
                answer = HttpResponse(status=204)
                answer["HX-Trigger"] = json.dumps({"open-pdf": {"url": sheets}})
                answer["HX-Redirect"] = page
                return answer
            return redirect(page)
        return response


class RoundOpenView(RoundStatusAction):
    service = staticmethod(round_open)
    done = gettext_lazy("Round %(n)s is open for results.")


class RoundCloseView(RoundStatusAction):
    """With then=seat the next round is seated at once and its draft shown (check, swap, publish)."""

    service = staticmethod(round_close)
    done = gettext_lazy("Round %(n)s closed; the standings count it now.")

    def run_step(self):
        response = super().run_step()
        self.round.refresh_from_db(fields=["status"])
        if self.step["then"] != "seat" or self.round.status != Round.Status.CLOSED:
            return response
        if not evening(self.tournament).can_seat_next:
            return response  # the evening is over: the round page leads to its end
        try:
            following = round_seat(tournament=self.tournament, user=self.request.user, seed=None)
        except ValidationError as exc:
            self.fail(exc)
            return response
        messages.success(
            self.request, _("Round %(n)s seated. Check it, then publish.") % {"n": following.number}
        )
        return redirect("organizer:round", self.tournament.pk, following.number)


class RoundReopenView(RoundStatusAction):
    service = staticmethod(round_reopen)
    done = gettext_lazy("Round %(n)s reopened for corrections. Close it again when done.")


class SubmissionConfirmView(ActionMixin, RoundView):
    """Confirm a reported version with one click; with htmx the round's live status comes back."""

    capability = Capability.RESULTS
    write_capability = Capability.RESULTS

    def post(self, request, *args, **kwargs):
        submission = get_object_or_404(
            Submission.objects.select_related("table__round"),
            pk=kwargs["submission_pk"],
            table__round__tournament=self.tournament,
        )
        round_ = submission.table.round
        try:
            result_confirm(submission=submission, user=request.user)
        except ValidationError as exc:
            self.fail(exc)
        else:
            messages.success(
                request, _("Version %(version)s of table %(n)s confirmed.")
                % {"version": submission.version, "n": submission.table.number},
            )
        if request.htmx:
            self.round = round_  # the submission's round: its address names the submission only
            return self.render_partial("status")
        return redirect("organizer:round", self.tournament.pk, round_.number)
