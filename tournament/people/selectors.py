"""Reads of an evening's team and of a series' team: who has which role, the open invitations, an
invitation by its link."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.utils import timezone

from tournament.models import Invitation, Membership, Role, Series, Tournament


@dataclass(frozen=True)
class Person:
    user: object
    role: Role
    via_series: bool  # the role comes from the tournament's series (removed on the series' page)


def team(tournament: Tournament) -> list[Person]:
    """Organizers first, then helpers and viewers, each by user name (three queries)."""
    people = _own_people(tournament.organizers, Membership.objects.filter(tournament=tournament))
    if tournament.series_id is not None:
        own = {person.user.pk for person in people}
        for m in Membership.objects.filter(series_id=tournament.series_id).select_related("user"):
            if m.user_id not in own:
                people.append(Person(m.user, Role(m.role), True))
    return _by_role(people)


def series_team(series: Series) -> list[Person]:
    """A series' own team: its organizers, then its helpers and viewers (of every evening)."""
    return _by_role(_own_people(series.organizers, Membership.objects.filter(series=series)))


def _own_people(organizers, members) -> list[Person]:
    people = [Person(user, Role.ORGANIZER, False) for user in organizers.order_by("username")]
    return people + [Person(m.user, Role(m.role), False) for m in members.select_related("user")]


def _by_role(people: list[Person]) -> list[Person]:
    order = list(Role)
    return sorted(people, key=lambda p: (order.index(p.role), p.user.get_username().casefold()))


def open_invitations(tournament: Tournament) -> list[Invitation]:
    return list(
        Invitation.objects.filter(tournament=tournament, used_at__isnull=True, expires_at__gt=timezone.now())
        .select_related("created_by")
    )


def token_hash(token: str) -> str:
    """What is stored of an invitation's token: the link itself is shown once and never kept."""
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_by_token(token: str) -> Invitation | None:
    return Invitation.objects.select_related("tournament").filter(token_hash=token_hash(token)).first()
