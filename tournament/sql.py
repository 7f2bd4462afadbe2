"""Hand-written SQL for the captain's report, the path fifty phones take at one moment.

Django's query compiler costs 0.5 to 1.5 ms for each of these reads on a two-core laptop, the SQL itself
0.03 to 0.05 ms (docs/performance.md), and a report needs half a dozen of them plus four writes. So the
statements here are written out, their column lists generated from the models' metadata. Each row read
becomes a model instance through `Model.from_db` after the fields' own converters ran, and each value
written goes through the field's own `pre_save` and `get_db_prep_save`: the instances are the ones the
ORM would load and store (tests/tournament/test_sql.py compares them on both databases). No model
here has save() overrides or signal receivers that such a write would skip. Everything else uses
the ORM.

On PostgreSQL, planning these statements took the server longer than running them (up to 0.7 ms
against at most 0.2 ms), every time. So each is prepared once per connection under a name of its own
(`PREPARE`, shown in the query log) and then run with `EXECUTE`, its plan kept: the settings make
PostgreSQL keep one generic plan (`plan_cache_mode`), and the ORM's statements are never prepared.
`PREPARED_STATEMENTS = False` turns this off for a connection pooler that cannot keep them.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from weakref import WeakKeyDictionary

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.backends.utils import CursorWrapper
from django.db.models import Model
from django.db.models.expressions import Col

from .models import Player, Registration, Round, Seat, Submission, SubmissionEntry, Table, Tournament


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@cache
def _select_list(model: type[Model], alias: str) -> str:
    return ", ".join(f"{alias}.{_quote(field.column)}" for field in model._meta.concrete_fields)


@cache
def _table(model: type[Model]) -> str:
    return _quote(model._meta.db_table)


# Per connection (the converters are bound to it) and model: (index, field's column, its converters).
_converters: WeakKeyDictionary[BaseDatabaseWrapper, dict[type[Model], list]] = WeakKeyDictionary()


def _field_converters(db: BaseDatabaseWrapper, model: type[Model]) -> list[tuple[int, Col, list]]:
    by_model = _converters.setdefault(db, {})
    if model not in by_model:
        by_model[model] = [
            (index, field.cached_col, converters)
            for index, field in enumerate(model._meta.concrete_fields)
            if (converters := db.ops.get_db_converters(field.cached_col) + field.get_db_converters(db))
        ]
    return by_model[model]


def _instances(db: BaseDatabaseWrapper, row: Sequence, *models: type[Model]) -> list[Model]:
    """Split one row into one instance per model, in the order of their select lists."""
    instances, start = [], 0
    for model in models:
        fields = model._meta.concrete_fields
        values = list(row[start:start + len(fields)])
        start += len(fields)
        for index, column, converters in _field_converters(db, model):
            for converter in converters:
                values[index] = converter(values[index], column, db)
        instances.append(model.from_db(db.alias, [f.attname for f in fields], values))
    return instances


def _with_player(db: BaseDatabaseWrapper, row: Sequence, model: type[Model]) -> Model:
    """An instance of `model` (a seat or an entry) from a row that selects it, then the registration it
    points to and its player (`_registration_columns`, `_registration_joins`), attached to each other."""
    instance, registration, player = _instances(db, row, model, Registration, Player)
    registration.player = player
    instance.registration = registration
    return instance


def _registration_columns() -> str:
    return f"{_select_list(Registration, 'g')}, {_select_list(Player, 'p')}"


def _registration_joins(alias: str) -> str:
    """Joins the registration of the row `alias` (as g) and its player (as p)."""
    return (
        f"JOIN {_table(Registration)} g ON g.id = {alias}.registration_id "
        f"JOIN {_table(Player)} p ON p.id = g.player_id"
    )


# Per database connection: the connection to the server its statements were prepared on, and their names.
_prepared: WeakKeyDictionary[BaseDatabaseWrapper, tuple[object, set[str]]] = WeakKeyDictionary()


def _execute(db: BaseDatabaseWrapper, cursor: CursorWrapper, name: str, sql: str, params: Sequence) -> None:
    """Run `sql`; on PostgreSQL as the statement `name`, prepared at its first use on this connection.

    A prepared statement lives as long as the server's session, also through a rollback; a new
    session (Django reconnects after CONN_MAX_AGE or an error) prepares again.
    """
    if db.vendor != "postgresql" or not settings.PREPARED_STATEMENTS:
        cursor.execute(sql, params)
        return
    session, names = _prepared.get(db, (None, set()))
    if session is not db.connection:
        session, names = db.connection, set()
        _prepared[db] = session, names
    if name not in names:
        first, *rest = sql.split("%s")  # PREPARE numbers its parameters: $1, $2, …
        numbered = first + "".join(f"${n}{part}" for n, part in enumerate(rest, 1))
        cursor.execute(f"PREPARE {name} AS {numbered}")
        names.add(name)
    cursor.execute(f"EXECUTE {name}({', '.join(['%s'] * len(params))})", params)


def _rows(name: str, sql: str, params: Sequence) -> tuple[BaseDatabaseWrapper, list[tuple]]:
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        _execute(db, cursor, name, sql, params)
        return db, cursor.fetchall()


def table_by_token(token: str) -> tuple[Table, list[Submission]] | None:
    """The table a captain link opens, with its round and the round's tournament, and the table's
    versions, newest first and without their entries (one query: every request of the link needs them)."""
    db, rows = _rows(
        "uno_table_by_token",
        f"SELECT {_select_list(Table, 't')}, {_select_list(Round, 'r')}, {_select_list(Tournament, 'tt')}, "
        f"{_select_list(Submission, 's')} FROM {_table(Table)} t JOIN {_table(Round)} r ON r.id = t.round_id "
        f"JOIN {_table(Tournament)} tt ON tt.id = r.tournament_id "
        f"LEFT JOIN {_table(Submission)} s ON s.table_id = t.id WHERE t.token = %s ORDER BY s.version DESC",
        [token],
    )
    if not rows:
        return None
    table, round_, tournament = _instances(db, rows[0], Table, Round, Tournament)
    round_.tournament = tournament
    table.round = round_
    version_columns = -len(Submission._meta.concrete_fields)  # the row's last columns
    versions = []
    for row in rows:
        if row[version_columns] is not None:  # the LEFT JOIN found a version
            version = _instances(db, row[version_columns:], Submission)[0]
            version.table = table
            versions.append(version)
    return table, versions


def table_seats(table: Table) -> list[Seat]:
    """The table's seats in playing order, each with its registration and player, and annotated with
    `wins_before`: the confirmed rounds the player went out in before this one (for the engine's checks)."""
    db, rows = _rows(
        "uno_table_seats",
        f"SELECT {_select_list(Seat, 's')}, {_registration_columns()}, "
        f"(SELECT COUNT(*) FROM {_table(SubmissionEntry)} e "
        f"JOIN {_table(Submission)} v ON v.id = e.submission_id JOIN {_table(Table)} t ON t.id = v.table_id "
        f"JOIN {_table(Round)} earlier ON earlier.id = t.round_id "
        f"WHERE e.registration_id = s.registration_id AND e.went_out = %s AND v.confirmed = %s "
        f"AND earlier.tournament_id = r.tournament_id AND earlier.number < r.number) "
        f"FROM {_table(Seat)} s JOIN {_table(Round)} r ON r.id = s.round_id {_registration_joins('s')} "
        f"WHERE s.table_id = %s ORDER BY s.position",
        [True, True, table.pk],
    )
    seats = []
    for row in rows:
        seat = _with_player(db, row, Seat)
        seat.table = table
        seat.wins_before = row[-1]
        seats.append(seat)
    return seats


def table_submissions(table: Table) -> list[Submission]:
    """The table's versions, newest first, without their entries."""
    db, rows = _rows(
        "uno_table_submissions",
        f"SELECT {_select_list(Submission, 's')} FROM {_table(Submission)} s "
        f"WHERE s.table_id = %s ORDER BY s.version DESC",
        [table.pk],
    )
    submissions = [_instances(db, row, Submission)[0] for row in rows]
    for submission in submissions:
        submission.table = table
    return submissions


def submission_entries(submission: Submission) -> list[SubmissionEntry]:
    """A version's entries in the order they were stored (seat order), with registration and player."""
    db, rows = _rows(
        "uno_submission_entries",
        f"SELECT {_select_list(SubmissionEntry, 'e')}, {_registration_columns()} "
        f"FROM {_table(SubmissionEntry)} e {_registration_joins('e')} "
        f"WHERE e.submission_id = %s ORDER BY e.id",
        [submission.pk],
    )
    entries = []
    for row in rows:
        entry = _with_player(db, row, SubmissionEntry)
        entry.submission = submission
        entries.append(entry)
    return entries


def lock_table(table: Table) -> tuple[str, str]:
    """Lock the table's row until the transaction ends; return its status and its round's status.

    PostgreSQL locks the table's row only (not the round's: fifty captains must not queue on it);
    SQLite has a single writer, and the transaction already holds the write lock (BEGIN IMMEDIATE).
    """
    lock = " FOR UPDATE OF t" if connection.features.has_select_for_update_of else ""
    _db, rows = _rows(
        "uno_lock_table",
        f"SELECT t.status, r.status FROM {_table(Table)} t JOIN {_table(Round)} r ON r.id = t.round_id "
        f"WHERE t.id = %s{lock}",
        [table.pk],
    )
    return rows[0]


def table_version_keys(table: Table) -> dict[str, int]:
    """Idempotency key -> version of the table's versions ("" for those sent without one).

    Read after `lock_table`, in a statement of its own: on PostgreSQL a statement that waited for the
    lock still sees the rows of its start, so a version stored meanwhile would be missed.
    """
    _db, rows = _rows(
        "uno_table_version_keys",
        f"SELECT s.idempotency_key, s.version FROM {_table(Submission)} s WHERE s.table_id = %s "
        f"ORDER BY s.version",
        [table.pk],
    )
    return dict(rows)


@cache
def _insert_statement(model: type[Model], rows: int) -> tuple[str, str]:
    """The name and SQL of an INSERT of `rows` instances of `model`, every column but the key."""
    meta = model._meta
    columns = [_quote(field.column) for field in meta.concrete_fields if field is not meta.pk]
    row = "(" + ", ".join(["%s"] * len(columns)) + ")"
    return (
        f"uno_insert_{meta.model_name}_{rows}",
        f"INSERT INTO {_table(model)} ({', '.join(columns)}) VALUES {', '.join([row] * rows)} "
        f"RETURNING {_quote(meta.pk.column)}",
    )


def insert(instances: Sequence[Model]) -> None:
    """Store new instances of one model with one INSERT and set their primary keys (like bulk_create)."""
    model = type(instances[0])
    db = connections[DEFAULT_DB_ALIAS]
    meta = model._meta
    params = [
        field.get_db_prep_save(field.pre_save(instance, add=True), db)
        for instance in instances for field in meta.concrete_fields if field is not meta.pk
    ]
    with db.cursor() as cursor:
        _execute(db, cursor, *_insert_statement(model, len(instances)), params)
        keys = cursor.fetchall()
    for instance, (key,) in zip(instances, keys, strict=True):
        instance.pk = key
        instance._state.adding, instance._state.db = False, db.alias


def update_table_status(table: Table) -> None:
    """Store the table's status (the organizer's overview shows it without reading any version)."""
    db = connections[DEFAULT_DB_ALIAS]
    with db.cursor() as cursor:
        _execute(
            db, cursor, "uno_update_table_status", f"UPDATE {_table(Table)} SET status = %s WHERE id = %s",
            [table.status, table.pk],
        )
