"""Writing the audit log: who changed what, when, with the state before and after.

Every service that changes data calls `audit` inside its own transaction, so an entry exists exactly
when the change does. What concerns a person's account rather than an evening (a password reset
link) is recorded without a tournament.
"""

from __future__ import annotations

from typing import Any

from tournament.models import AuditEntry, Round, Table, Tournament

from .actions import AuditAction


def audit(
    *,
    tournament: Tournament | None,
    action: AuditAction,
    user=None,
    actor: str = "",
    round_: Round | None = None,
    table: Table | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    if not actor and user is not None and user.is_authenticated:
        actor = user.get_username()
    return AuditEntry.objects.create(
        tournament=tournament,
        round=round_,
        table=table,
        user=user if user is not None and user.is_authenticated else None,
        actor=actor,
        action=AuditAction(action),
        before=before,
        after=after,
    )
