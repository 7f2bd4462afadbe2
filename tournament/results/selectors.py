"""Reads of tables and their result versions, for the captain's page, the desk entry and the services."""

from __future__ import annotations

import zlib
from collections.abc import Sequence

from django.db.models import Count, Exists, F, Max, Prefetch, Q

from tournament.models import Seat, Submission, SubmissionEntry, Table


def table_by_token(token: str, *, blocked: Exists | None = None) -> Table | None:
    """The captain link's table with its round and tournament (one query); None for an unknown link.

    `blocked`: a condition (`ratelimit.blocked_exists`) read with it as `table.blocked`."""
    tables = Table.objects.select_related("round__tournament")
    if blocked is not None:
        tables = tables.annotate(blocked=blocked)
    try:
        return tables.get(token=token)
    except Table.DoesNotExist:
        return None


def table_versions(table: Table) -> list[Submission]:
    """The table's versions, newest first, without their entries."""
    return list(table.submissions.order_by("-version"))


# A seat's player's confirmed wins in earlier rounds (a registration belongs to one tournament).
_EARLIER_WINS = Count(
    "registration__entries",
    filter=Q(
        registration__entries__went_out=True,
        registration__entries__submission__confirmed=True,
        registration__entries__submission__table__round__number__lt=F("round__number"),
    ),
)


def table_seats(table: Table) -> list[Seat]:
    """The seats in playing order with their players, and each player's confirmed wins of earlier
    rounds (`wins_before`), which the engine checks a report against: one query."""
    return list(
        Seat.objects.filter(table=table)
        .select_related("registration__player__club")
        .annotate(wins_before=_EARLIER_WINS)
        .order_by("position")
    )


def version_entries(submission: Submission) -> list[SubmissionEntry]:
    """One version's entries in seat order, with their players."""
    return list(
        submission.entries.select_related("registration__player").order_by("id")
    )


def table_history(table: Table) -> list[Submission]:
    """Every version of a table, oldest first, with who stored and confirmed it and its entries."""
    return list(
        table.submissions.select_related("created_by", "confirmed_by")
        .prefetch_related(Prefetch("entries", queryset=SubmissionEntry.objects.order_by("id")))
        .order_by("version")
    )


def entries_signature(submission: Submission, entries: Sequence[SubmissionEntry] | None = None) -> tuple:
    """What two independent entries must agree on: each player's points and who went out.

    Pass the version's `entries` when they are in memory (a version just stored)."""
    entries = submission.entries.all() if entries is None else entries
    lines = sorted((e.registration_id, e.hand_points, e.went_out) for e in entries)
    return (*lines, submission.stopped_by_time)


def table_fingerprint(table: Table) -> str:
    """Changes whenever the table reports, is confirmed or gets a new link (the history page polls it)."""
    figures = table.submissions.aggregate(versions=Count("id"), confirmed=Max("confirmed_at"))
    state = repr((table.status, table.token, table.round.status, sorted(figures.items())))
    return f"{zlib.crc32(state.encode()):08x}"
