"""Faults in the hall: a submission interrupted half-way, a repeated POST, a briefly locked database."""

import sqlite3
import threading
from unittest import mock

import pytest
from django.db import connection
from django.urls import reverse

from tests.factories import report_points, seated_round
from tournament.models import AuditEntry, Round, Submission, SubmissionEntry, Table
from tournament.results.services import result_submit


@pytest.fixture
def open_table(tournament, players):
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    return round_.tables.get(number=1)


def submit(table, key="key-1", **extra):
    return result_submit(
        table=table, seats=report_points(table), source=Submission.Source.CAPTAIN, token=table.token,
        idempotency_key=key, confirm_warnings=True, **extra,
    )


def test_interrupted_submission_stores_nothing(open_table):
    """The version is written, then the disk fails while its entries are written."""
    audit_before = AuditEntry.objects.count()
    failing_entries = mock.patch.object(
        type(SubmissionEntry.objects), "bulk_create", side_effect=OSError("disk gone")
    )
    with failing_entries, pytest.raises(OSError):
        submit(open_table)
    assert not Submission.objects.exists()
    assert not SubmissionEntry.objects.exists()
    assert AuditEntry.objects.count() == audit_before
    open_table.refresh_from_db()
    assert open_table.status == Table.Status.WAITING
    # The captain sends again: now it is stored, whole.
    outcome = submit(open_table)
    assert outcome.stored and outcome.submission.entries.count() == 4


def test_interrupted_after_the_entries_stores_nothing(open_table):
    crash = mock.patch("tournament.results.services.audit", side_effect=RuntimeError("crash"))
    with crash, pytest.raises(RuntimeError):
        submit(open_table)
    assert (Submission.objects.count(), SubmissionEntry.objects.count()) == (0, 0)


def test_repeated_submission_with_the_same_key_stores_one_version(open_table):
    first = submit(open_table)
    second = submit(open_table)
    assert first.stored and not first.duplicate
    assert second.duplicate and second.submission.pk == first.submission.pk
    assert Submission.objects.filter(table=open_table).count() == 1
    assert SubmissionEntry.objects.count() == 4


def test_a_new_key_is_a_new_version(open_table):
    submit(open_table, key="a")
    submit(open_table, key="b")
    assert list(open_table.submissions.values_list("version", flat=True)) == [1, 2]


def test_repeated_post_to_the_captain_page_stores_one_version(client, open_table):
    ids = list(open_table.seats.order_by("position").values_list("registration_id", flat=True))
    data = {"idempotency_key": "double-tap", "outcome": str(ids[0])}
    data.update({f"points-{reg_id}": "12" for reg_id in ids[1:]})
    url = reverse("captain:table", args=[open_table.token])
    responses = [client.post(url, data) for _ in range(3)]
    assert [r.status_code for r in responses] == [303, 303, 303]
    assert Submission.objects.filter(table=open_table).count() == 1


class WriteLockHolder:
    """Another program holding SQLite's write lock until this test's request tries to write.

    `order` records the events: the holder commits only after our BEGIN IMMEDIATE was sent, and our
    BEGIN can only finish after that, so a request that finished waited for the lock (SQLite's busy
    timeout) instead of failing at once with "database is locked". No sleeps: threads meet at events."""

    def __init__(self):
        self.locked, self.trying, self.released = threading.Event(), threading.Event(), threading.Event()
        self.order: list[str] = []
        self.thread = threading.Thread(target=self.hold)

    def hold(self):
        other = sqlite3.connect(connection.settings_dict["NAME"], timeout=5)
        try:
            other.execute("BEGIN IMMEDIATE")
            self.locked.set()
            assert self.trying.wait(10)
            self.order.append("committing")  # the lock is still held until COMMIT has run
            other.execute("COMMIT")
        finally:
            other.close()
            self.released.set()

    def wrapper(self, execute, sql, params, many, context):
        if sql.startswith("BEGIN") and not self.trying.is_set():
            self.order.append("begin sent")
            self.trying.set()
            result = execute(sql, params, many, context)
            self.order.append("begin done")
            return result
        return execute(sql, params, many, context)

    def __enter__(self):
        self.thread.start()
        assert self.locked.wait(10)
        return self

    def __exit__(self, *exc):
        self.thread.join(10)
        assert self.released.is_set()


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's file lock; PostgreSQL locks rows")
@pytest.mark.django_db(transaction=True)
def test_briefly_locked_database_is_waited_for_not_an_error(tournament, players):
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    table = round_.tables.get(number=1)
    with WriteLockHolder() as holder, connection.execute_wrapper(holder.wrapper):
        outcome = submit(table)
    assert outcome.stored
    order = holder.order
    assert order.index("begin sent") < order.index("committing") < order.index("begin done")
    assert Submission.objects.filter(table=table).count() == 1


@pytest.mark.skipif(connection.vendor != "sqlite", reason="SQLite's file lock; PostgreSQL locks rows")
@pytest.mark.django_db(transaction=True)
def test_captain_page_during_a_lock_answers_normally(client, tournament, players):
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    table = round_.tables.get(number=1)
    ids = list(table.seats.order_by("position").values_list("registration_id", flat=True))
    data = {"idempotency_key": "during-lock", "outcome": str(ids[0])}
    data.update({f"points-{reg_id}": "7" for reg_id in ids[1:]})
    with WriteLockHolder() as holder, connection.execute_wrapper(holder.wrapper):
        response = client.post(reverse("captain:table", args=[table.token]), data)
    assert response.status_code == 303
    assert holder.order.index("committing") < holder.order.index("begin done")
    assert Submission.objects.filter(table=table).count() == 1
