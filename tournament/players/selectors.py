"""Reads of players and registrations, in a fixed number of queries."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from engine.text import person_sort_key, sort_key
from tournament.models import Player, Registration, Tournament
from tournament.permissions.scopes import owner_clubs, owner_players, owner_tournaments


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


def known_players(tournament: Tournament) -> QuerySet[Player]:
    """The owner's player records (`permissions.scopes.owner_players`) who played one of the owner's
    earlier evenings and are not registered here: the same for whoever of the evening's team asks (the
    players page, the desk; `known_players_listed` in the pages' order).

    Offered on the players page and at the desk so a club's member list is typed once and added with
    one click; the known player's id in a request is looked up in this queryset, so no other record can
    be registered through it.
    """
    earlier = owner_tournaments(tournament).exclude(pk=tournament.pk)
    return (
        owner_players(tournament)
        .filter(pk__in=Player.objects.filter(registrations__tournament__in=earlier).values("pk"))
        .exclude(registrations__tournament=tournament)
        .select_related("club")
    )


def known_players_listed(tournament: Tournament) -> list[Player]:
    """The known players as the pages list them: by club, then name, in German order."""
    return sorted(
        known_players(tournament),
        key=lambda p: (sort_key(p.club_name), person_sort_key(p.last_name, p.first_name), p.pk),
    )


def registered_keys(tournament: Tournament) -> set[tuple[str, str]]:
    """(person key, club key) of everyone registered, as `ImportRow.identity`: an import skips them."""
    return {
        (person, club or "")
        for person, club in Player.objects.filter(registrations__tournament=tournament)
        .values_list("name_key", "club__name_key")
    }


def club_names(tournament: Tournament) -> list[str]:
    """The clubs the owner's players play for, for the club field's suggestions (never another
    club's), in German order (`engine.text`)."""
    return sorted(owner_clubs(tournament).values_list("name", flat=True), key=sort_key)


def mergeable_players(tournament: Tournament) -> QuerySet[Player]:
    """The players of this tournament and the owner's other records (one queryset)."""
    return (
        Player.objects.filter(Q(registrations__tournament=tournament) | Q(pk__in=owner_players(tournament)))
        .select_related("club").distinct().order_by("last_name", "first_name", "pk")
    )
