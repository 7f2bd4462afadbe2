"""The audit log: who changed what, when, with the state before and after."""

from __future__ import annotations

from typing import Any

from . import sql
from .models import AuditEntry, Round, Table, Tournament


def audit(
    *,
    tournament: Tournament,
    action: str,
    user=None,
    actor: str = "",
    round_: Round | None = None,
    table: Table | None = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    if not actor and user is not None and user.is_authenticated:
        actor = user.get_username()
    entry = AuditEntry(
        tournament=tournament,
        round=round_,
        table=table,
        user=user if user is not None and user.is_authenticated else None,
        actor=actor,
        action=action,
        before=before,
        after=after,
    )
    sql.insert([entry])  # every captain's report writes one: see tournament.sql
    return entry
