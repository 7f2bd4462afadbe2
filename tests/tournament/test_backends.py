"""tournament.backends.postgresql: the health check of a kept connection costs no round trip."""

import time

import pytest
from django.db import DatabaseError, connection, transaction

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="the PostgreSQL backend"),
    # These tests end sessions and open new ones, which a test wrapped in a transaction cannot.
    pytest.mark.django_db(transaction=True),
]


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def last_query_of(pid: int) -> str:
    """What the server last ran for the session `pid`, asked over another connection."""
    other = connection.copy()
    try:
        with other.cursor() as cursor:
            cursor.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", [pid])
            return cursor.fetchone()[0]
    finally:
        other.close()


def test_a_healthy_idle_connection_is_usable_without_a_query_to_the_server():
    assert connection.settings_dict["ENGINE"] == "tournament.backends.postgresql"
    pid = backend_pid()
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'the last query before the check'")

    assert connection.is_usable()
    assert last_query_of(pid) == "SELECT 'the last query before the check'"


def test_a_session_the_server_ended_is_found_unusable_and_replaced():
    pid = backend_pid()
    other = connection.copy()
    with other.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    other.close()
    deadline = time.monotonic() + 10
    while connection.is_usable() and time.monotonic() < deadline:
        time.sleep(0.01)  # until the server's goodbye has arrived

    assert not connection.is_usable()
    connection.health_check_done = False  # as at the start of the next request
    connection.close_if_health_check_failed()
    assert connection.connection is None
    assert backend_pid() != pid  # a new session, and no error for the request


def test_a_failed_transaction_is_unusable():
    with pytest.raises(DatabaseError), transaction.atomic(), connection.cursor() as cursor:
        try:
            cursor.execute("SELECT 1 / 0")
        finally:
            assert not connection.is_usable()
    assert connection.is_usable()  # the rollback made it usable again
