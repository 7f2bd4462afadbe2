"""Reads of an evening's team: who has which role, the open invitations, an invitation by its link."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.utils import timezone

from tournament.models import Invitation, Membership, Role, Tournament


@dataclass(frozen=True)
class Person:
    user: object
    role: Role
    via_series: bool  # the role comes from the tournament's series (removed on the series' page)


def team(tournament: Tournament) -> list[Person]:
    """Organizers first, then helpers and viewers, each by user name (three queries)."""
    people = [Person(user, Role.ORGANIZER, False) for user in tournament.organizers.order_by("username")]
    members = Membership.objects.filter(tournament=tournament).select_related("user")
    people += [Person(m.user, Role(m.role), False) for m in members]
    if tournament.series_id is not None:
        own = {person.user.pk for person in people}
        for m in Membership.objects.filter(series_id=tournament.series_id).select_related("user"):
            if m.user_id not in own:
                people.append(Person(m.user, Role(m.role), True))
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
