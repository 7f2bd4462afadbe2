"""Writes of the public sign-up: sign up, withdraw (the first waiting person moves up), and the
organizer's approve, refuse, reorder and move to the waiting list.

Every write locks the tournament row first, so two people taking the last place at the same moment
are served one after the other (one gets it, the other waits) and a withdrawal promotes exactly once.

The rule the organizer's page states: a place freed by a withdrawal or a refusal (or a changed number
of places) fills every free place from the top of the waiting list; a place freed by moving its holder
to the waiting list goes to nobody until the organizer approves someone (or the next withdrawal or
refusal fills the free places from the top). While anybody waits, a new sign-up joins the end of the
waiting list, even if a place is free. The places are the evening's (`selectors.places_taken`): players
registered another way take places too.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournament.models import Signup, Tournament
from tournament.permissions import Capability, require

from ..audit.actions import AuditAction
from ..audit.services import audit
from .selectors import SignupState, places_taken, signup_state


def signup_snapshot(signup: Signup) -> dict[str, Any]:
    return {
        "name": signup.name, "club": signup.club, "birth_year": signup.birth_year, "member": signup.member,
        "gender": signup.gender, "status": signup.status, "queue": signup.queue,
    }


def _locked_tournament(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


def _fill_places(tournament: Tournament, *, user=None) -> list[Signup]:
    """Move the first waiting people up while places are free (tournament row locked by the caller)."""
    if tournament.signup_capacity is None:
        waiting = list(tournament.signups.filter(status=Signup.Status.WAITING).order_by("queue"))
    else:
        free = tournament.signup_capacity - places_taken(tournament)
        if free <= 0:
            return []
        waiting = list(tournament.signups.filter(status=Signup.Status.WAITING).order_by("queue")[:free])
    for signup in waiting:
        before = signup_snapshot(signup)
        signup.status = Signup.Status.CONFIRMED
        signup.save(update_fields=["status"])
        audit(
            tournament=tournament, user=user, actor=signup.name if user is None else "",
            action=AuditAction.SIGNUP_PROMOTE, before=before, after=signup_snapshot(signup),
        )
    return waiting


@transaction.atomic
def signup_create(
    *, tournament: Tournament, first_name: str, last_name: str, club: str = "", birth_year: int,
    email: str = "", phone: str = "", member: bool | None = None, now: datetime.datetime | None = None,
    gender: str = "",
) -> Signup:
    """A place while the capacity allows, else the waiting list. Refused when the sign-up does not take
    entries (`signup_state`: off, the evening started, the deadline passed)."""
    tournament = _locked_tournament(tournament)
    state = signup_state(tournament, now=now)
    if state == SignupState.OFF:
        raise ValidationError(_("Sign-up for this tournament is not open."), code="signup_closed")
    if state == SignupState.STARTED:
        raise ValidationError(_("The evening has started: sign-up is closed."), code="evening_started")
    if state == SignupState.DEADLINE:
        raise ValidationError(_("The sign-up deadline has passed."), code="signup_deadline")
    first_name, last_name, club = (" ".join(value.split()) for value in (first_name, last_name, club))
    capacity = tournament.signup_capacity
    # Nobody overtakes the waiting list: a place the organizer freed by a move is theirs to give.
    full = capacity is not None and (
        places_taken(tournament) >= capacity
        or tournament.signups.filter(status=Signup.Status.WAITING).exists()
    )
    last = tournament.signups.aggregate(last=Max("queue"))["last"] or 0
    signup = Signup(
        tournament=tournament, first_name=first_name, last_name=last_name, club=club,
        birth_year=birth_year, email=email, phone=phone, member=member, gender=gender, queue=last + 1,
        status=Signup.Status.WAITING if full else Signup.Status.CONFIRMED,
    )
    signup.full_clean(exclude=["token"])
    signup.save()
    audit(tournament=tournament, actor=signup.name, action=AuditAction.SIGNUP, after=signup_snapshot(signup))
    return signup


@transaction.atomic
def signup_withdraw(*, tournament: Tournament, token: str, confirmed: bool) -> Signup:
    """The registrant withdraws by their private link; a place they held goes to the first waiting.

    Only once they have answered "Really withdraw?" (`confirmed`): one tap on a phone never gives a
    place away. Without it nothing changes (code `not_confirmed`), after the other refusals, so the
    question is asked only where withdrawing is possible."""
    tournament = _locked_tournament(tournament)
    signup = Signup.objects.select_for_update().filter(tournament=tournament, token=token).first()
    if signup is None:
        raise ValidationError(_("This sign-up link is not valid."), code="unknown_link")
    if signup.status == Signup.Status.WITHDRAWN:
        raise ValidationError(_("This sign-up is already withdrawn."), code="already_withdrawn")
    if signup.registration_id:
        raise ValidationError(
            _("You are already checked in; please tell the organizers."), code="checked_in"
        )
    if not confirmed:
        raise ValidationError(_("Please confirm that you want to withdraw."), code="not_confirmed")
    before = signup_snapshot(signup)
    signup.status = Signup.Status.WITHDRAWN
    signup.save(update_fields=["status"])
    audit(
        tournament=tournament, actor=signup.name, action=AuditAction.SIGNUP_WITHDRAW,
        before=before, after=signup_snapshot(signup),
    )
    _fill_places(tournament)
    return signup


def _locked_signup(signup: Signup, user) -> tuple[Tournament, Signup]:
    """The organizer's side of a sign-up (places, order, refusal) needs the players capability,
    wherever it is offered: the sign-ups page or the desk."""
    tournament = _locked_tournament(signup.tournament)
    require(user, tournament, Capability.PLAYERS)
    return tournament, Signup.objects.select_for_update().get(pk=signup.pk)


@transaction.atomic
def signup_approve(*, signup: Signup, user) -> Signup:
    """The organizer gives a waiting (or refused) person a place, even beyond the capacity."""
    tournament, signup = _locked_signup(signup, user)
    if signup.status not in (Signup.Status.WAITING, Signup.Status.REFUSED):
        raise ValidationError(_("Only a waiting or refused sign-up can be approved."), code="not_waiting")
    before = signup_snapshot(signup)
    signup.status = Signup.Status.CONFIRMED
    signup.save(update_fields=["status"])
    audit(
        tournament=tournament, user=user, action=AuditAction.SIGNUP_PROMOTE,
        before=before, after=signup_snapshot(signup),
    )
    return signup


@transaction.atomic
def signup_refuse(*, signup: Signup, user) -> Signup:
    """The organizer refuses a sign-up; a place it held goes to the first waiting."""
    tournament, signup = _locked_signup(signup, user)
    if signup.status not in (Signup.Status.WAITING, Signup.Status.CONFIRMED) or signup.registration_id:
        raise ValidationError(_("This sign-up cannot be refused any more."), code="not_refusable")
    before = signup_snapshot(signup)
    signup.status = Signup.Status.REFUSED
    signup.save(update_fields=["status"])
    audit(
        tournament=tournament, user=user, action=AuditAction.SIGNUP_REFUSE,
        before=before, after=signup_snapshot(signup),
    )
    _fill_places(tournament, user=user)
    return signup


@transaction.atomic
def signup_move(*, signup: Signup, user, up: bool) -> Signup:
    """Swap a waiting person with the one before (up) or after them on the waiting list."""
    tournament, signup = _locked_signup(signup, user)
    if signup.status != Signup.Status.WAITING:
        raise ValidationError(_("Only people on the waiting list can be moved."), code="not_waiting")
    neighbours = tournament.signups.filter(status=Signup.Status.WAITING)
    if up:
        other = neighbours.filter(queue__lt=signup.queue).order_by("-queue").first()
    else:
        other = neighbours.filter(queue__gt=signup.queue).order_by("queue").first()
    if other is None:
        raise ValidationError(_("This person cannot be moved further."), code="at_end")
    before = signup_snapshot(signup)
    mine, theirs = signup.queue, other.queue
    signup.queue = 0  # free the number for the swap (the queue is unique per tournament)
    signup.save(update_fields=["queue"])
    other.queue = mine
    other.save(update_fields=["queue"])
    signup.queue = theirs
    signup.save(update_fields=["queue"])
    audit(
        tournament=tournament, user=user, action=AuditAction.SIGNUP_MOVE,
        before=before, after=signup_snapshot(signup),
    )
    return signup


def _renumber(signups: list[Signup]) -> None:
    """Give `signups` (in their new order) the queue numbers they hold between them, smallest first;
    through free numbers above all others, since the queue is unique per tournament."""
    slots = sorted(signup.queue for signup in signups)
    changed = [(signup, slot) for signup, slot in zip(signups, slots, strict=True) if signup.queue != slot]
    if not changed:
        return
    top = Signup.objects.filter(tournament_id=signups[0].tournament_id).aggregate(top=Max("queue"))["top"]
    for offset, (signup, _slot) in enumerate(changed, start=1):
        signup.queue = top + offset
    Signup.objects.bulk_update([signup for signup, _slot in changed], ["queue"])
    for signup, slot in changed:
        signup.queue = slot
    Signup.objects.bulk_update([signup for signup, _slot in changed], ["queue"])


@transaction.atomic
def signup_to_waiting(*, signup: Signup, user, position: int | None = None) -> Signup:
    """Put a person on the waiting list at `position` (1 = its top; None or beyond its end = the end):
    someone with a place (not yet checked in), a refused person, or a waiting person (moved there).

    A place given up this way stays free: nobody moves up by it (the page says so)."""
    tournament, signup = _locked_signup(signup, user)
    if tournament.signup_capacity is None:
        raise ValidationError(
            _("Without a number of places there is no waiting list; set the places first."),
            code="no_capacity",
        )
    if signup.status == Signup.Status.WITHDRAWN:
        raise ValidationError(_("A withdrawn sign-up cannot be moved."), code="withdrawn")
    if signup.registration_id:
        raise ValidationError(
            _("%(name)s is already checked in and keeps the place.") % {"name": signup.name},
            code="checked_in",
        )
    if position is not None and position < 1:
        raise ValidationError(_("Positions on the waiting list start at 1."), code="bad_position")
    others = list(
        tournament.signups.filter(status=Signup.Status.WAITING).exclude(pk=signup.pk).order_by("queue")
    )
    index = len(others) if position is None else min(position - 1, len(others))
    was_waiting = signup.status == Signup.Status.WAITING
    if was_waiting and index == sum(1 for other in others if other.queue < signup.queue):
        raise ValidationError(
            _("%(name)s is already at position %(position)s of the waiting list.")
            % {"name": signup.name, "position": index + 1},
            code="same_position",
        )
    before = signup_snapshot(signup)
    signup.status = Signup.Status.WAITING
    if not was_waiting:
        signup.save(update_fields=["status"])
    _renumber([*others[:index], signup, *others[index:]])
    audit(
        tournament=tournament, user=user,
        action=AuditAction.SIGNUP_MOVE if was_waiting else AuditAction.SIGNUP_TO_WAITING,
        before=before, after={**signup_snapshot(signup), "position": index + 1},
    )
    return signup


@transaction.atomic
def signup_settings_update(
    *, tournament: Tournament, user, signup_open: bool, signup_capacity: int | None,
    signup_deadline: datetime.datetime | None,
) -> Tournament:
    """Switch the sign-up on or off, set places and deadline; a changed number of places fills the free
    ones from the waiting list (other changes leave a place freed by a move free)."""
    tournament = _locked_tournament(tournament)
    fields = ("signup_open", "signup_capacity", "signup_deadline")
    before = {name: getattr(tournament, name) for name in fields}
    tournament.signup_open, tournament.signup_capacity = signup_open, signup_capacity
    tournament.signup_deadline = signup_deadline
    after = {name: getattr(tournament, name) for name in fields}
    if before != after:
        tournament.save(update_fields=list(fields))
        audit(
            tournament=tournament, user=user, action=AuditAction.TOURNAMENT_UPDATE,
            before={k: str(v) if v is not None else None for k, v in before.items()},
            after={k: str(v) if v is not None else None for k, v in after.items()},
        )
        if before["signup_capacity"] != signup_capacity:  # only other places fill them (the page's rule)
            _fill_places(tournament, user=user)
    return tournament
