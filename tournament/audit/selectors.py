"""Reads of the audit log, newest first, filtered the way the log page offers."""

from __future__ import annotations

from django.db.models import QuerySet

from ..models import AuditEntry, Registration, Tournament
from .actions import AuditAction


def audit_entries(
    tournament: Tournament, *, round_number: int | None = None, table_number: int | None = None,
    action: str = "",
) -> QuerySet[AuditEntry]:
    entries = AuditEntry.objects.filter(tournament=tournament).select_related("round", "table")
    if round_number is not None:
        entries = entries.filter(round__number=round_number)
    if table_number is not None:
        entries = entries.filter(table__number=table_number)
    if action in AuditAction.values:
        entries = entries.filter(action=action)
    return entries.order_by("-created_at", "-id")


def round_numbers(tournament: Tournament) -> list[int]:
    return list(tournament.rounds.order_by("number").values_list("number", flat=True))


def audit_registrations(tournament: Tournament) -> list[Registration]:
    """Every registration of the tournament (withdrawn ones too) with its player, in one query: the log
    names the players of its per-player lines by start number."""
    return list(
        Registration.objects.filter(tournament=tournament).select_related("player")
        .only("pk", "start_number", "player", "player__first_name", "player__last_name")
        .order_by("start_number")
    )
