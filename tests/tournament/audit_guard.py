"""Every service's write of what the pages show comes with an audit entry (the evening's version).

The stored pages (tournament/live/pages.py) are keyed by the evening's audit entries
(`standings.versioning`): a service that changed a round, a table, a result, a registration, a player
or a tournament without an audit entry would leave every reader the page from before. This guard
watches the SQL of a test: each transaction block a service opens (`transaction.atomic`, a savepoint
inside the test's own transaction) that writes one of those tables and is not rolled back must insert
an audit entry within the same block. Tests of the tournament app run under it (conftest.py).
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.db import connection

APP = Path(__file__).resolve().parents[2] / "tournament"
WATCHED = re.compile(
    r'^(INSERT INTO|UPDATE|DELETE FROM) "tournament_(submission|submissionentry|table|round|seat|registration'
    r'|player|club|team|tournament|series)"'
)
AUDITED = re.compile(r'^INSERT INTO "tournament_auditentry"')
# Deleting a tournament leaves nothing to audit it in: its stored pages go with it (a foreign key).
UNAUDITED = {"tournaments.tournament_delete"}
SAVEPOINT = re.compile(r'^(SAVEPOINT|RELEASE SAVEPOINT|ROLLBACK TO SAVEPOINT) "?([^"\s]+)"?')


def calling_service() -> str:
    """The outermost function of a tournament/<domain>/services.py on the stack, or ""."""
    frame, found = sys._getframe(2), ""
    while frame is not None:
        path = frame.f_code.co_filename
        if path.endswith("services.py") and Path(path).resolve().parent.parent == APP:
            found = f"{Path(path).parent.name}.{frame.f_code.co_name}"
        frame = frame.f_back
    return found


@dataclass
class Block:
    savepoint: str
    service: str
    writes: list[str] = field(default_factory=list)
    audited: bool = False


@contextmanager
def services_audited():
    """Fails the block when a committed savepoint in which a service wrote a watched table has no
    audit entry (writes of factories and of the test itself are not a service's)."""
    blocks: list[Block] = []
    missing: list[str] = []

    def watch(execute, sql, params, many, context):
        text = sql.lstrip()
        marker = SAVEPOINT.match(text)
        if marker:
            kind, name = marker.groups()
            if kind == "SAVEPOINT" and not blocks:
                blocks.append(Block(name, ""))
            elif blocks and name == blocks[0].savepoint:
                block = blocks.pop()
                if kind == "RELEASE SAVEPOINT" and block.service and not block.audited \
                        and block.service not in UNAUDITED:
                    missing.append(f"{block.service}: {block.writes[0][:70]}")
        elif blocks:
            if WATCHED.match(text):
                # Asked at the write: a service decorated with `transaction.atomic` is not yet on the
                # stack when its savepoint is made.
                service = calling_service()
                if service:
                    blocks[0].service = blocks[0].service or service
                    blocks[0].writes.append(text)
            elif AUDITED.match(text):
                blocks[0].audited = True
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        yield missing
    assert not missing, f"a service wrote without an audit entry (stored pages would go stale): {missing}"
