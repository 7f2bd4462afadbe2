"""The admission desk (Einlass): one search over everybody the door may meet, each line with its next
action (check in, take the fee, or both in one tap), a walk-in on the same screen, and the cash figures.

Every POST answers with the desk's list for the same search (htmx swaps it in, keeping the search
box and its focus), or redirects to the desk without htmx. The addresses of the former check-in and
door pages lead here.
"""

from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.generic import RedirectView

from tournament.cashdesk.forms import DeskLineForm, DeskStepForm, PaymentForm, WalkInForm
from tournament.cashdesk.selectors import desk
from tournament.cashdesk.services import (
    Undone,
    admission_undo,
    known_player_admit,
    registration_admit,
    signup_check_in,
    walk_in,
)
from tournament.models import Registration, Signup
from tournament.permissions import Capability, TournamentOrganizerMixin
from tournament.players.selectors import known_players
from tournament.players.services import registration_check_in, registration_readmit
from tournament.signup.services import signup_approve
from tournament.templatetags.money import euros

from .base import ActionMixin, OrganizerPage, error_text


class DeskView(OrganizerPage):
    capability = Capability.DESK
    write_capability = Capability.DESK

    template_name = "tournament/organizer/desk.html"
    section = "desk"
    walk_in_form: WalkInForm | None = None

    def query(self) -> str:
        """The search the answer lists: after a tap, what the search box holds (sent by the script)."""
        post = self.request.POST
        typed = post.get("typed") if "typed" in post else None
        return (typed if typed is not None else post.get("q") or self.request.GET.get("q") or "")[:200]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        fee = Decimal(self.tournament.entry_fee_cents) / 100
        query = self.query()
        context.update(
            query=query,
            desk=desk(self.tournament, query),
            fee=fee,
            walk_in_form=self.walk_in_form or WalkInForm(initial={"amount": fee}),
        )
        return context

    def get(self, request, *args, **kwargs):
        if request.htmx and request.htmx.target == "desk":
            return self.render_partial("desk")
        return super().get(request, *args, **kwargs)

    def desk_response(self, status: int = 200):
        if self.request.htmx:
            response = self.render_partial("desk")
        else:
            response = self.render_to_response(self.get_context_data())
        response.status_code = status
        return response


class DeskAction(ActionMixin, DeskView):
    """POST → one service → the desk's list for the same search (htmx) or the desk page."""

    capability = Capability.DESK
    write_capability = Capability.DESK

    def respond(self, walk_in_form: WalkInForm | None = None, status: int = 200):
        if self.request.htmx or walk_in_form is not None:
            self.walk_in_form = walk_in_form
            return self.desk_response(status=status)
        query = self.query()
        url = reverse("organizer:desk", args=[self.tournament.pk])
        return redirect(f"{url}?{urlencode({'q': query})}" if query else url)

    def stale_line(self) -> bool:
        """The tapped line was listed for an earlier search than the box holds now (Enter typed faster
        than the list followed): nothing is done, the list for the new search comes back."""
        if not DeskLineForm(self.request.POST).stale():
            return False
        messages.warning(self.request, _("The list was still showing an earlier search: nothing was done. "
                                         "Check the line and try again."))
        return True

    def payment(self) -> dict | None:
        """The amount and method typed on the line (None when its form is refused: said as a message)."""
        form = PaymentForm(self.request.POST)
        if form.is_valid():
            return form.payment()
        messages.error(self.request, " ".join(" ".join(errors) for errors in form.errors.values()))
        return None

    def admitted(self, registration: Registration) -> None:
        payment = getattr(registration, "payment", None)
        if registration.status == Registration.Status.CHECKED_IN and payment is not None:
            text = _("%(name)s is checked in (no. %(number)s) and paid %(amount)s (%(method)s).") % {
                "name": registration.player.name, "number": registration.start_number,
                "amount": euros(payment.amount_cents), "method": payment.get_method_display(),
            }
        else:
            text = _("%(name)s is checked in with start number %(number)s.") % {
                "name": registration.player.name, "number": registration.start_number,
            }
        messages.success(self.request, text)


class DeskSignupView(DeskAction):
    """A sign-up: checked in (and paid) with a place; `approve` gives one from the waiting list."""

    def post(self, request, tournament_pk: int, signup_pk: int):
        signup = get_object_or_404(Signup, tournament=self.tournament, pk=signup_pk)
        if self.stale_line():
            return self.respond()
        step = DeskStepForm(request.POST, steps=("in", "approve"), default="in")
        if not step.is_valid():
            messages.error(request, _("Unknown action."))
            return self.respond()
        try:
            if step.step() == "approve":
                signup_approve(signup=signup, user=request.user)
                messages.success(request, _("%(name)s has a place now.") % {"name": signup.name})
            elif (payment := self.payment()) is not None:
                self.admitted(signup_check_in(signup=signup, user=request.user, **payment))
        except ValidationError as error:
            self.fail(error)
        return self.respond()


class DeskPlayerView(DeskAction):
    """A registration: `in` (checked in, paid with an amount), `pay`, `undo` (the step the line showed,
    named by `undoes`; said what it was), `readmit`, `toggle` (the former check-in page's tap: in or out)."""

    ACTIONS = ("in", "pay", "undo", "readmit", "toggle")
    default_action = "pay"

    def post(self, request, tournament_pk: int, registration_pk: int):
        registration = get_object_or_404(
            Registration.objects.select_related("player"), tournament=self.tournament, pk=registration_pk
        )
        if self.stale_line():
            return self.respond()
        step = DeskStepForm(request.POST, steps=self.ACTIONS, default=self.default_action)
        if not step.is_valid():
            messages.error(request, _("Unknown action."))
            return self.respond()
        try:
            self.act(step.step(), registration, undoes=step.cleaned_data["undoes"])
        except ValidationError as error:
            self.fail(error)
        return self.respond()

    def act(self, action: str, registration: Registration, *, undoes: str = "") -> None:
        user = self.request.user
        if action == "undo":
            undone, payment = admission_undo(registration=registration, user=user, step=undoes)
            if undone == Undone.PAYMENT:
                text = _("Undone: the payment of %(amount)s (%(method)s) by %(name)s.") % {
                    "amount": euros(payment.amount_cents), "method": payment.get_method_display(),
                    "name": registration.player.name,
                }
            else:
                text = _("Undone: %(name)s is no longer checked in.") % {"name": registration.player.name}
            messages.success(self.request, text)
        elif action == "readmit":
            registration_readmit(registration=registration, user=user)
            messages.success(self.request, _("%(name)s plays again.") % {"name": registration.player.name})
        elif action == "toggle":
            checked_in = registration.status != Registration.Status.CHECKED_IN
            registration_check_in(registration=registration, user=user, checked_in=checked_in)
        else:
            payment = self.payment()
            if payment is None:
                return
            if action == "pay" and payment["amount_cents"] is None:
                raise ValidationError(_("Enter the amount paid."), code="amount")
            self.admitted(registration_admit(registration=registration, user=user, **payment))


class DeskKnownPlayerView(DeskAction):
    """A player of an earlier evening: registered from their record, checked in and (with an amount) paid."""

    def post(self, request, tournament_pk: int, player_pk: int):
        player = get_object_or_404(known_players(self.tournament), pk=player_pk)
        if self.stale_line():
            return self.respond()
        payment = self.payment()
        if payment is not None:
            try:
                registration = known_player_admit(
                    tournament=self.tournament, user=request.user, player=player, **payment
                )
            except ValidationError as error:
                self.fail(error)
            else:
                self.admitted(registration)
        return self.respond()


class DeskWalkInView(DeskAction):
    def post(self, request, tournament_pk: int):
        form = WalkInForm(request.POST)
        if not form.is_valid():
            return self.respond(walk_in_form=form, status=400)
        try:
            registration = walk_in(tournament=self.tournament, user=request.user, **form.person(),
                                   **form.payment())
        except ValidationError as error:
            form.add_error(None, error_text(error))
            return self.respond(walk_in_form=form, status=400)
        self.admitted(registration)
        return self.respond()


class FormerDeskPage(TournamentOrganizerMixin, RedirectView):
    """The former check-in and door pages: their bookmarks lead to the desk, with the search kept."""

    capability = Capability.DESK
    write_capability = Capability.DESK

    def get_redirect_url(self, *args, **kwargs):
        url = reverse("organizer:desk", args=[self.tournament.pk])
        query = self.request.META.get("QUERY_STRING", "")
        return f"{url}?{query}" if query else url
