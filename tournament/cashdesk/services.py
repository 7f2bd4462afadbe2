"""Writes at the door: check in a signed-up person with their entry fee, record a payment, a walk-in.

Each locks the tournament row (start numbers and the sign-up's place are decided there), so a double
tap or two helpers at the door are refused instead of paying or registering twice.
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from engine.prizes import euros
from tournament.models import Payment, Player, PrizeHandover, Registration, Signup, Tournament

from ..audit.actions import AuditAction
from ..audit.services import audit
from ..players.services import player_register, player_register_known, registration_check_in

REASON_MAX = 200


def _payment(
    *, registration: Registration, user, amount_cents: int, method: str, reason: str = ""
) -> Payment:
    reason = " ".join(reason.split())
    if len(reason) > REASON_MAX:
        raise ValidationError(_("At most %(max)s characters, please.") % {"max": REASON_MAX}, code="reason")
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
        method=method, reason=reason, created_by=user if user is not None and user.is_authenticated else None,
    )
    after = {"name": registration.player.name, "amount_cents": amount_cents, "method": method}
    if reason:
        after["reason"] = reason
    audit(tournament=registration.tournament, user=user, action=AuditAction.PAYMENT, after=after)
    return payment


def _pay_if_paid(
    registration: Registration, *, user, amount_cents: int | None, method: str, reason: str
) -> None:
    """The payment of somebody admitted at the door; None: they have not paid (yet)."""
    if amount_cents is not None:
        _payment(
            registration=registration, user=user, amount_cents=amount_cents, method=method, reason=reason
        )


@transaction.atomic
def payment_record(
    *, registration: Registration, user, amount_cents: int, method: str, reason: str = ""
) -> Payment:
    """'Paid' in one tap: the amount and cash or transfer for a registered player (`reason`: why less
    than the entry fee, for the cash record)."""
    Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    registration = Registration.objects.select_related("player", "tournament").get(pk=registration.pk)
    return _payment(registration=registration, user=user, amount_cents=amount_cents, method=method,
                    reason=reason)


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
def signup_check_in(
    *, signup: Signup, user, amount_cents: int | None, method: str, reason: str = ""
) -> Registration:
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
        gender=signup.gender,
    )
    signup.registration = registration
    signup.save(update_fields=["registration"])
    audit(
        tournament=tournament, user=user, action=AuditAction.SIGNUP_CHECK_IN,
        after={"name": signup.name, "start_number": registration.start_number},
    )
    _pay_if_paid(registration, user=user, amount_cents=amount_cents, method=method, reason=reason)
    return registration


@transaction.atomic
def walk_in(
    *, tournament: Tournament, user, first_name: str, last_name: str, club_name: str = "",
    birth_year: int | None = None, amount_cents: int | None, method: str, member: bool | None = None,
    reason: str = "", gender: str = "",
) -> Registration:
    """Somebody who did not sign up: registered, paid and checked in in one step (`member`: as asked at
    the door; None leaves a known player's membership as it is)."""
    registration = player_register(
        tournament=tournament, user=user, first_name=first_name, last_name=last_name,
        club_name=club_name, birth_year=birth_year, check_in=True, member=member, gender=gender,
    )
    return _walked_in(registration, user=user, amount_cents=amount_cents, method=method, reason=reason)


def _walked_in(
    registration: Registration, *, user, amount_cents: int | None, method: str, reason: str
) -> Registration:
    """The audit entry of somebody registered at the door, and their payment (with an amount)."""
    audit(
        tournament=registration.tournament, user=user, action=AuditAction.WALK_IN,
        after={"name": registration.player.name, "start_number": registration.start_number},
    )
    _pay_if_paid(registration, user=user, amount_cents=amount_cents, method=method, reason=reason)
    return registration


@transaction.atomic
def registration_admit(
    *, registration: Registration, user, amount_cents: int | None, method: str, reason: str = ""
) -> Registration:
    """A registered player arrives: checked in and (with an amount) paid in one step; a player already
    checked in just pays."""
    Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    registration = Registration.objects.select_related("player", "tournament").get(pk=registration.pk)
    if registration.status != Registration.Status.CHECKED_IN:
        registration = registration_check_in(registration=registration, user=user)
    _pay_if_paid(registration, user=user, amount_cents=amount_cents, method=method, reason=reason)
    return registration


@transaction.atomic
def known_player_admit(
    *, tournament: Tournament, user, player: Player, amount_cents: int | None, method: str, reason: str = ""
) -> Registration:
    """A player of an earlier evening arrives: registered from their record, checked in and paid."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    registration = player_register_known(tournament=tournament, user=user, player=player, check_in=True)
    return _walked_in(registration, user=user, amount_cents=amount_cents, method=method, reason=reason)


class Undone:
    """What `admission_undo` took back."""

    PAYMENT = "payment"
    CHECK_IN = "check_in"


@transaction.atomic
def admission_undo(*, registration: Registration, user, step: str) -> tuple[str, Payment | None]:
    """Take back the desk's last step for this player, the one the desk showed (`step`, an `Undone`):
    the payment, or the check-in of somebody who has not paid. A step already gone (a double tap, a
    second helper, a stale tab) is refused and nothing else is taken back in its place. Returns what
    was undone and the payment taken back, so the desk can say so."""
    Tournament.objects.select_for_update().get(pk=registration.tournament_id)
    registration = Registration.objects.select_related("player").get(pk=registration.pk)
    payment = Payment.objects.filter(registration=registration).first()
    name = registration.player.name
    if step == Undone.PAYMENT:
        if payment is None:
            raise ValidationError(
                _("The payment of %(name)s has already been taken back.") % {"name": name},
                code="already_undone",
            )
        payment_undo(registration=registration, user=user)
        return Undone.PAYMENT, payment
    if step != Undone.CHECK_IN:
        raise ValidationError(_("Unknown action."), code="unknown_step")
    if registration.status != Registration.Status.CHECKED_IN:
        raise ValidationError(
            _("%(name)s is no longer checked in: nothing to undo.") % {"name": name}, code="already_undone",
        )
    if payment is not None:
        raise ValidationError(
            _("%(name)s has paid in the meantime: take back the payment first.") % {"name": name},
            code="paid_since",
        )
    registration_check_in(registration=registration, user=user, checked_in=False)
    return Undone.CHECK_IN, None


# --- the cash record ---------------------------------------------------------------------------

CASH_MAX_CENTS = 10_000_000  # 100,000 euros: more than any evening's till
NOTE_MAX = 500


@transaction.atomic
def cash_update(
    *, tournament: Tournament, user, float_cents: int, counted_cents: int | None, note: str = ""
) -> Tournament:
    """The opening float, the cash counted at the end (None: not yet) and what explains a difference.
    A count that differs from what the till should hold is refused without an explanation."""
    from .selectors import cash_record

    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    note = " ".join(note.split())
    for cents in (float_cents, counted_cents):
        if cents is not None and not 0 <= cents <= CASH_MAX_CENTS:
            raise ValidationError(_("The amount must be between 0 and 100000 €."), code="cash_range")
    if len(note) > NOTE_MAX:
        raise ValidationError(_("At most %(max)s characters, please.") % {"max": NOTE_MAX}, code="note")
    before = {"cash_float_cents": locked.cash_float_cents, "cash_counted_cents": locked.cash_counted_cents,
              "cash_note": locked.cash_note}
    locked.cash_float_cents, locked.cash_counted_cents, locked.cash_note = float_cents, counted_cents, note
    record = cash_record(locked)
    if record.difference_cents and not note:
        raise ValidationError(
            _("The cash counted differs from what the till should hold by %(difference)s: please explain "
              "the difference.") % {"difference": euros(record.difference_cents)},
            code="difference_unexplained",
        )
    after = {"cash_float_cents": float_cents, "cash_counted_cents": counted_cents, "cash_note": note}
    if before != after:
        locked.save(update_fields=["cash_float_cents", "cash_counted_cents", "cash_note"])
        audit(tournament=locked, user=user, action=AuditAction.CASH_UPDATE, before=before, after=after)
    tournament.cash_float_cents, tournament.cash_counted_cents, tournament.cash_note = (
        float_cents, counted_cents, note,
    )
    return locked


@transaction.atomic
def prize_hand_over(*, tournament: Tournament, user, registration: Registration) -> PrizeHandover:
    """Mark a place's prize as handed over at the prize-giving: the amount and goods of the final prize
    list are kept as they were handed over."""
    from .selectors import cash_record

    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if registration.tournament_id != locked.pk:
        raise ValidationError(_("This player is not registered in this tournament."), code="no_prize")
    if PrizeHandover.objects.filter(registration=registration).exists():
        raise ValidationError(
            _("The prize of %(name)s is already marked as handed over.") % {"name": registration.player.name},
            code="already_handed_over",
        )
    record = cash_record(locked)
    if not record.final:
        raise ValidationError(
            _("Prizes are handed over once the tournament is finished."), code="not_finished"
        )
    prize = next((p for p in record.prizes if p.registration_id == registration.pk), None)
    if prize is None:
        raise ValidationError(
            _("%(name)s has no prize.") % {"name": registration.player.name}, code="no_prize"
        )
    handover = PrizeHandover.objects.create(
        tournament=locked, registration=registration, place=prize.place, amount_cents=prize.amount_cents,
        goods=prize.goods, created_by=user if user is not None and user.is_authenticated else None,
    )
    audit(
        tournament=locked, user=user, action=AuditAction.PRIZE_HANDOVER,
        after={"name": prize.name, "place": prize.place, "amount_cents": prize.amount_cents,
               "goods": prize.goods},
    )
    return handover


@transaction.atomic
def prize_hand_over_undo(*, tournament: Tournament, user, registration: Registration) -> None:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    handover = PrizeHandover.objects.filter(tournament=locked, registration=registration).first()
    if handover is None:
        raise ValidationError(_("This prize is not marked as handed over."), code="not_handed_over")
    before = {
        "name": registration.player.name, "place": handover.place, "amount_cents": handover.amount_cents,
        "goods": handover.goods,
    }
    handover.delete()
    audit(tournament=locked, user=user, action=AuditAction.PRIZE_HANDOVER_UNDO, before=before)
