"""Reads of tournaments: which ones a visitor sees and which ones they manage."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from ..models import Tournament
from ..permissions import is_superuser, only_helps
from ..permissions.scopes import team_tournaments


def visible_tournaments(user) -> QuerySet[Tournament]:
    """The user's own tournaments (any role, their clubs' too) and the public ones, with their player
    counts; an account that only helps sees only the evenings it helps with (a door tablet shows
    nothing else)."""
    mine = team_tournaments(user)
    if is_superuser(user) or only_helps(user):
        tournaments = mine
    else:
        tournaments = Tournament.objects.filter(Q(public=True) | Q(pk__in=mine.values("pk")))
    return tournaments.annotate(player_count=Count("registrations", distinct=True)).order_by("-date", "name")


def managed_tournament_ids(user) -> set[int]:
    """Tournaments whose organizer pages the user opens (with whatever their role allows)."""
    return set(team_tournaments(user).values_list("pk", flat=True))
