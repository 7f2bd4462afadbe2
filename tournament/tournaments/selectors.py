"""Reads of tournaments: which ones a visitor sees and which ones they manage."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from ..models import Tournament
from ..organizations.selectors import managed_q
from ..permissions import only_helps


def team_of(user) -> Q:
    """The tournaments the user has a role in: organizer (their own or their clubs'), or helper/viewer
    of it or of its series."""
    return managed_q(user) | Q(memberships__user=user) | Q(series__memberships__user=user)


def visible_tournaments(user) -> QuerySet[Tournament]:
    """The user's own tournaments (any role, their clubs' too) and the public ones, with their player
    counts; an account that only helps sees only the evenings it helps with (a door tablet shows
    nothing else)."""
    tournaments = Tournament.objects.all()
    if not user.is_superuser:
        if not user.is_authenticated:
            visible = Q(public=True)
        elif only_helps(user):
            visible = team_of(user)
        else:
            visible = Q(public=True) | team_of(user)
        tournaments = tournaments.filter(pk__in=Tournament.objects.filter(visible).values("pk"))
    return tournaments.annotate(player_count=Count("registrations", distinct=True)).order_by("-date", "name")


def managed_tournament_ids(user) -> set[int]:
    """Tournaments whose organizer pages the user opens (with whatever their role allows)."""
    if user.is_superuser:
        return set(Tournament.objects.values_list("pk", flat=True))
    if user.is_authenticated:
        return set(Tournament.objects.filter(team_of(user)).values_list("pk", flat=True))
    return set()
