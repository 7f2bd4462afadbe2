"""Reads of players and registrations, in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from engine.text import person_sort_key, sort_key
from tournament.models import Club, Player, Registration, Tournament
from tournament.organizations.selectors import managed_q


def registrations(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player", "player__club").order_by("start_number")


def registration_counts(tournament: Tournament) -> dict[str, int]:
    """Players per registration status, and "total" (one query)."""
    counts = {status: 0 for status in Registration.Status.values}
    for status in tournament.registrations.values_list("status", flat=True):
        counts[status] += 1
    counts["total"] = sum(counts.values())
    return counts


def active_registrations(tournament: Tournament) -> list[Registration]:
    """Who is seated in the next round: checked in and not withdrawn."""
    return list(registrations(tournament).filter(status=Registration.Status.CHECKED_IN))


def known_players(tournament: Tournament, user) -> list:
    """Players of the earlier tournaments the user manages (their own and their clubs') not yet
    registered here, by club then name (German order, `engine.text`).

    Offered on the players page so a club's member list is typed once and added with one click.
    """
    earlier = Tournament.objects.exclude(pk=tournament.pk)
    if not user.is_superuser:
        earlier = earlier.filter(managed_q(user))
    players = (
        Player.objects.filter(registrations__tournament__in=earlier)
        .exclude(registrations__tournament=tournament)
        .select_related("club")
        .distinct()
    )
    return sorted(
        players, key=lambda p: (sort_key(p.club_name), person_sort_key(p.last_name, p.first_name), p.pk)
    )


def registered_keys(tournament: Tournament) -> set[tuple[str, str]]:
    """(person key, club key) of everyone registered, as `ImportRow.identity`: an import skips them."""
    return {
        (person, club or "")
        for person, club in Player.objects.filter(registrations__tournament=tournament)
        .values_list("name_key", "club__name_key")
    }


def club_names() -> list[str]:
    """Every club typed so far, for the club field's suggestions, in German order (`engine.text`)."""
    return sorted(Club.objects.values_list("name", flat=True), key=sort_key)


def mergeable_players(tournament: Tournament, user):
    """The players of this tournament and of the organizer's other tournaments (one queryset)."""
    mine = Tournament.objects.all() if user.is_superuser else Tournament.objects.filter(managed_q(user))
    return (
        Player.objects.filter(Q(registrations__tournament=tournament) | Q(registrations__tournament__in=mine))
        .select_related("club").distinct().order_by("last_name", "first_name", "pk")
    )
