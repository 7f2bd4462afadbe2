"""The version of an evening's (and a season's) standings: what every stored snapshot is keyed by.

Derived, not counted: every write of the app is a service that adds an audit entry inside its own
transaction (docs/architecture.md), so the entry becomes visible exactly when its change does. The
version is the newest entry's id together with the number of entries: the count also moves when a
transaction with a lower id commits after one with a higher id, so a snapshot computed before that
commit is never served after it. No row is updated, so fifty captains' reports never queue behind a
version counter's row lock. One query.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from typing import TypeVar

from django.db import IntegrityError, transaction
from django.db.models import Count, Max

from tournament.models import AuditEntry, PageSnapshot, Tournament

T = TypeVar("T")


def _version(entries) -> str:
    figures = entries.aggregate(newest=Max("id"), count=Count("id"))
    return f"{figures['newest'] or 0}.{figures['count']}"


def evening_version(tournament: Tournament) -> str:
    """Changes with every audited write of the evening: results, rounds, players, settings, reveal,
    restore (a restored evening is a new tournament with its own entries)."""
    return _version(AuditEntry.objects.filter(tournament_id=tournament.pk))


def series_version(series_id: int) -> str:
    """Changes with every audited write of any evening of the series (and of the series' rule, which is
    recorded in the evening it was changed from)."""
    return _version(AuditEntry.objects.filter(tournament__series_id=series_id))


MAX_PAGES = 300  # stored pages per evening: its pages in each language, for each of its organizers


def _make_room(tournament_id: int) -> None:
    """Keep at most MAX_PAGES rows per evening (the least recently stored go first): the number of
    addresses, languages and viewers is bounded, but nobody need trust that for the disk's sake."""
    rows = PageSnapshot.objects.filter(tournament_id=tournament_id)
    if rows.count() >= MAX_PAGES:
        old = rows.order_by("-stored_at").values_list("pk", flat=True)[MAX_PAGES // 2:]
        PageSnapshot.objects.filter(pk__in=list(old)).delete()


def stored(tournament_id: int, scope: str, version: str, compute: Callable[[], T]) -> T:
    """The value stored for `scope` at `version`, computed and stored when there is none (one query
    when stored, three or four when not). Read the version before computing: a change committed meanwhile
    gives a newer version, so what is stored under the older one is never served after the change."""
    row = PageSnapshot.objects.filter(scope=scope).values_list("version", "body").first()
    if row is not None and row[0] == version:
        return pickle.loads(row[1])  # written only by `stored` below
    value = compute()
    if row is None:
        _make_room(tournament_id)
    try:
        with transaction.atomic():
            PageSnapshot.objects.update_or_create(
                scope=scope,
                defaults={"tournament_id": tournament_id, "version": version, "body": pickle.dumps(value)},
            )
    except IntegrityError:
        pass  # another server stored the same scope at the same moment: its row serves as well
    return value
