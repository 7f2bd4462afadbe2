"""What /healthz checks: the database answers, every migration is applied, the storages take a file.

A proxy stops sending requests to an app server that fails any of these, so each check is one a real
request would fail on: a page reads the database, a new column missing breaks every page that reads
the table, a closed round writes a backup and a logo is uploaded into storage.
"""

from __future__ import annotations

import uuid

from django.core.files.base import ContentFile
from django.core.files.storage import storages
from django.db import DatabaseError, connection
from django.db.migrations.executor import MigrationExecutor

# Once every migration is applied the answer cannot change for this process's code, so the migration
# files are read once, not on every probe.
_migrations_applied = False

STORAGES_CHECKED = ("default", "backups")


def database_problem() -> str | None:
    """None when the database answers a query, else what went wrong."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return f"database: {exc.__class__.__name__}"
    return None


def migrations_problem() -> str | None:
    """None when the database has every migration this code ships, else how many are missing."""
    global _migrations_applied
    if _migrations_applied:
        return None
    try:
        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    except DatabaseError as exc:
        return f"migrations: {exc.__class__.__name__}"
    if plan:
        return f"migrations: {len(plan)} not applied"
    _migrations_applied = True
    return None


def storage_problem(alias: str) -> str | None:
    """None when a small file can be written to and deleted from the storage, else why not."""
    storage = storages[alias]
    try:
        name = storage.save(f".healthz-{uuid.uuid4().hex}", ContentFile(b"ok"))
        storage.delete(name)
    except Exception as exc:  # any storage backend: a folder, an object store
        return f"storage {alias}: {exc.__class__.__name__}"
    return None


def health_problems() -> list[str]:
    """Everything that keeps this server from serving requests; empty when it is healthy."""
    problems = [database_problem()]
    if problems[0] is None:
        problems.append(migrations_problem())
    problems.extend(storage_problem(alias) for alias in STORAGES_CHECKED)
    return [problem for problem in problems if problem]
