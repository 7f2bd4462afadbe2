"""Reads of the sign-up: the organizer's list with likely duplicates, one person's status by link."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Q
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone

from engine.text import name_key, person_key
from tournament.models import Registration, Round, Signup, Tournament
from tournament.permissions import organizes


@dataclass(frozen=True)
class SignupCounts:
    """The places are the evening's: a sign-up with a place takes one, and so does every player
    registered another way (typed, imported, from an earlier evening, a walk-in), withdrawn ones not."""

    confirmed: int
    waiting: int
    capacity: int | None
    registered: int = 0  # players of the evening who did not come through the sign-up

    @property
    def taken(self) -> int:
        return self.confirmed + self.registered

    @property
    def free(self) -> int | None:
        return None if self.capacity is None else max(self.capacity - self.taken, 0)

    @property
    def over(self) -> int:
        """How many more people have a place than there are places (the organizer approved them)."""
        return 0 if self.capacity is None else max(self.taken - self.capacity, 0)


def registered_otherwise(tournament: Tournament) -> int:
    """Players of the evening who hold a place without a sign-up (a checked-in sign-up is its own)."""
    return (
        Registration.objects.filter(tournament=tournament, signup__isnull=True)
        .exclude(status=Registration.Status.WITHDRAWN).count()
    )


def places_taken(tournament: Tournament) -> int:
    """The places of the evening taken: sign-ups with a place and players registered otherwise. The
    service that gives places and the pages that count them ask this."""
    confirmed = tournament.signups.filter(status=Signup.Status.CONFIRMED).count()
    return confirmed + registered_otherwise(tournament)


def tournament_for_signup(user, tournament_pk: int) -> Tournament:
    """The tournament whose sign-up page is asked for: reachable while its sign-up or public page is on
    (the page then says whether one can sign up), and always for its organizers."""
    tournament = get_object_or_404(Tournament, pk=tournament_pk)
    if not (tournament.signup_open or tournament.public or organizes(user, tournament)):
        raise Http404
    return tournament


def signup_by_token(tournament: Tournament, token: str) -> Signup:
    signup = Signup.objects.filter(tournament=tournament, token=token).first()
    if signup is None:
        raise Http404
    return signup


def signup_counts(tournament: Tournament) -> SignupCounts:
    counts = tournament.signups.aggregate(
        confirmed=Count("pk", filter=Q(status=Signup.Status.CONFIRMED)),
        waiting=Count("pk", filter=Q(status=Signup.Status.WAITING)),
    )
    return SignupCounts(
        counts["confirmed"], counts["waiting"], tournament.signup_capacity, registered_otherwise(tournament)
    )


def waiting_position(signup: Signup) -> int | None:
    """1 for the first on the waiting list; None when not waiting."""
    if signup.status != Signup.Status.WAITING:
        return None
    return signup.tournament.signups.filter(status=Signup.Status.WAITING, queue__lt=signup.queue).count() + 1


def duplicate_key(signup: Signup) -> tuple[str, str, int]:
    """The same person as the players' records compare them (`engine.text`), and the same year."""
    return person_key(signup.first_name, signup.last_name), name_key(signup.club), signup.birth_year


def signup_list(tournament: Tournament) -> list[Signup]:
    """Every sign-up in order, each with `duplicate` (same name, club and year as another active one)
    and `waiting_number`; one query."""
    signups = list(tournament.signups.all().order_by("queue"))
    active = (Signup.Status.CONFIRMED, Signup.Status.WAITING)
    keys = Counter(duplicate_key(s) for s in signups if s.status in active)
    waiting = 0
    for signup in signups:
        signup.duplicate = signup.status in active and keys[duplicate_key(signup)] > 1
        if signup.status == Signup.Status.WAITING:
            waiting += 1
            signup.waiting_number = waiting
        else:
            signup.waiting_number = None
    return signups


class SignupState:
    """Whether the public sign-up takes a new entry now, and if not, why (`signup_state`)."""

    OPEN = "open"
    OFF = "off"  # the organizer has not opened it (or closed it)
    STARTED = "started"  # the evening has begun: round 1 is published
    DEADLINE = "deadline"  # its deadline has passed


def signup_state(tournament: Tournament, *, now=None) -> str:
    """The one rule for "does the sign-up take entries": open, before the evening starts (the first
    round published) and before the deadline. The page, the form and the service all ask it."""
    if not tournament.signup_open:
        return SignupState.OFF
    if tournament.rounds.exclude(status=Round.Status.DRAFT).exists():
        return SignupState.STARTED
    if tournament.signup_deadline and (now or timezone.now()) > tournament.signup_deadline:
        return SignupState.DEADLINE
    return SignupState.OPEN
