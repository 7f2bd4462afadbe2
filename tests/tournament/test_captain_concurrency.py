"""Two phones submitting for the same table at the same moment: a clean version history."""

import threading

import pytest
from django.db import connections
from django.test import Client
from django.urls import reverse

from tests.tournament.conftest import report_data
from tournament.models import Submission, Table


def submit_together(table, payloads):
    """POST every payload from its own thread (own connection), released at the same instant."""
    barrier = threading.Barrier(len(payloads))
    statuses, failures = [], []

    def send(data):
        try:
            client = Client()
            barrier.wait()
            statuses.append(client.post(reverse("captain:table", args=[table.token]), data).status_code)
        except Exception as exc:  # collected so the main thread can fail the test with it
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=send, args=(data,)) for data in payloads]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    return statuses


@pytest.mark.django_db(transaction=True)
def test_two_different_reports_at_once_become_two_versions(table):
    first = report_data(table, key="phone-a")
    second = report_data(table, key="phone-b", hands=("", "R7", "7 7 +4", "Y0"))
    statuses = submit_together(table, [first, second])
    assert statuses == [303, 303]
    versions = list(Submission.objects.filter(table=table).order_by("version"))
    assert [s.version for s in versions] == [1, 2]
    assert {s.idempotency_key for s in versions} == {"phone-a", "phone-b"}
    assert all(s.entries.count() == 4 for s in versions)
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED


@pytest.mark.django_db(transaction=True)
def test_the_same_report_sent_twice_at_once_is_stored_once(table):
    data = report_data(table, key="double-tap")
    statuses = submit_together(table, [data, data, data])
    assert statuses == [303, 303, 303]
    assert Submission.objects.filter(table=table).count() == 1
