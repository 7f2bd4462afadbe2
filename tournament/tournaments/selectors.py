"""Reads of tournaments: which ones a visitor sees and which ones they manage."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from ..models import Tournament
from ..organizations.selectors import managed_q


def visible_tournaments(user) -> QuerySet[Tournament]:
    """The tournaments the user manages (their own and their clubs') and the public ones, with their
    player counts."""
    tournaments = Tournament.objects.all()
    if not user.is_superuser:
        visible = Q(public=True) | managed_q(user) if user.is_authenticated else Q(public=True)
        tournaments = tournaments.filter(visible).distinct()
    return tournaments.annotate(player_count=Count("registrations", distinct=True)).order_by("-date", "name")


def managed_tournament_ids(user) -> set[int]:
    if user.is_superuser:
        return set(Tournament.objects.values_list("pk", flat=True))
    if user.is_authenticated:
        return set(Tournament.objects.filter(managed_q(user)).values_list("pk", flat=True))
    return set()
