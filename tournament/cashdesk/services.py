"""Writes at the door: check in a signed-up person with their entry fee, record a payment, a walk-in.

Each locks the tournament row (start numbers and the sign-up's place are decided there), so a double
tap or two helpers at the door are refused instead of paying or registering twice.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournament.models import Payment, Registration, Signup, Tournament

from ..audit.actions import AuditAction
from ..audit.services import audit
from ..players.services import player_register


def _payment(*, registration: Registration, user, amount_cents: int, method: str) -> Payment:
    if amount_cents < 0:
        raise ValidationError(_("The amount must not be negative."), code="amount")
    if method not in Payment.Method.values:
        raise ValidationError(_("Unknown payment method."), code="method")
    if Payment.objects.filter(registration=registration).exists():
        raise ValidationError(
            _("%(name)s has already paid.") % {"name": registration.player.name}, code="already_paid"
        )
    payment = Payment.objects.create(
        tournament=registration.tournament, registration=registration, amount_cents=amount_cents,
        method=method, created_by=user if user is not None and user.is_authenticated else None,
    )
    audit(
        tournament=registration.tournament, user=user, action=AuditAction.PAYMENT,
        after={"name": registration.player.name, "amount_cents": amount_cents, "method": method},
    )
    return payment


@transaction.atomic
def payment_record(*, registration: Registration, user, amount_cents: int, method: str) -> Payment:
    """'Paid' in one tap: the amount and cash or transfer for a registered player."""
    Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    registration = Registration.objects.select_related("player", "tournament").get(pk=registration.pk)
    return _payment(registration=registration, user=user, amount_cents=amount_cents, method=method)


@transaction.atomic
def payment_undo(*, registration: Registration, user) -> None:
    Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    payment = Payment.objects.filter(registration=registration).first()
    if payment is None:
        raise ValidationError(_("There is no payment to undo."), code="not_paid")
    before = {
        "name": registration.player.name, "amount_cents": payment.amount_cents, "method": payment.method
    }
    payment.delete()
    audit(tournament=registration.tournament, user=user, action=AuditAction.PAYMENT_UNDO, before=before)


@transaction.atomic
def signup_check_in(*, signup: Signup, user, amount_cents: int | None, method: str) -> Registration:
    """A signed-up person arrives: registered, checked in and (with an amount) paid in one step."""
    tournament = Tournament.objects.select_for_update().get(pk=signup.tournament_id)
    signup = Signup.objects.select_for_update().get(pk=signup.pk)
    if signup.registration_id:
        raise ValidationError(_("%(name)s is already checked in.") % {"name": signup.name}, code="checked_in")
    if signup.status != Signup.Status.CONFIRMED:
        raise ValidationError(
            _("%(name)s has no place yet: approve the sign-up first.") % {"name": signup.name},
            code="not_confirmed",
        )
    registration = player_register(
        tournament=tournament, user=user, first_name=signup.first_name, last_name=signup.last_name,
        club_name=signup.club, birth_year=signup.birth_year, check_in=True, member=signup.member,
    )
    signup.registration = registration
    signup.save(update_fields=["registration"])
    audit(
        tournament=tournament, user=user, action=AuditAction.SIGNUP_CHECK_IN,
        after={"name": signup.name, "start_number": registration.start_number},
    )
    if amount_cents is not None:
        _payment(registration=registration, user=user, amount_cents=amount_cents, method=method)
    return registration


@transaction.atomic
def walk_in(
    *, tournament: Tournament, user, first_name: str, last_name: str, club_name: str = "",
    birth_year: int | None = None, amount_cents: int | None, method: str, member: bool | None = None,
) -> Registration:
    """Somebody who did not sign up: registered, paid and checked in in one step (`member`: as asked at
    the door; None leaves a known player's membership as it is)."""
    registration = player_register(
        tournament=tournament, user=user, first_name=first_name, last_name=last_name,
        club_name=club_name, birth_year=birth_year, check_in=True, member=member,
    )
    audit(
        tournament=tournament, user=user, action=AuditAction.WALK_IN,
        after={"name": registration.player.name, "start_number": registration.start_number},
    )
    if amount_cents is not None:
        _payment(registration=registration, user=user, amount_cents=amount_cents, method=method)
    return registration
