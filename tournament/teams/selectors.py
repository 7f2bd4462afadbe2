"""Reads of teams: the tournament's teams with their players (two queries), and who is in which team."""

from __future__ import annotations

from django.db.models import Prefetch

from tournament.models import Registration, Team, Tournament


def teams(tournament: Tournament) -> list[Team]:
    return list(
        tournament.teams.order_by("name").prefetch_related(
            Prefetch(
                "members", queryset=Registration.objects.select_related("player").order_by("start_number")
            )
        )
    )


def team_of_registration(tournament: Tournament) -> dict[int, int]:
    """Registration id → team id (one query)."""
    return dict(
        Team.members.through.objects.filter(team__tournament=tournament)
        .values_list("registration_id", "team_id")
    )
