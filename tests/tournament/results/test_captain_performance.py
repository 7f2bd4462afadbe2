"""The captain's POST stays cheap: fifty phones send at once (bench/load.py measures the real server)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.tournament.conftest import report_data
from tournament.models import Submission
from tournament.results.services import result_confirm


def test_htmx_report_is_answered_with_a_small_partial(client, table):
    url = table.get_captain_url()
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, report_data(table), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="captain-page"')
    assert "waiting for the organizer" in html and "R7 W Rev" in html
    assert "<form" not in html and 'class="picker"' not in html  # no entry form: the link reloads it
    assert f'href="{url}"' in html
    assert len(html) < 4000
    run = [q["sql"] for q in queries.captured_queries]
    writes = [sql for sql in run if sql.startswith(("INSERT", "UPDATE"))]
    assert len(writes) == 4  # the version, its entries (one bulk insert), the audit entry, the table status
    assert len(run) <= 22  # two of them the test transaction's savepoint
    assert Submission.objects.count() == 1


def test_repeated_htmx_report_costs_a_handful_of_queries(client, table, django_assert_max_num_queries):
    url, data = table.get_captain_url(), report_data(table)
    client.post(url, data, HTTP_HX_REQUEST="true")
    with django_assert_max_num_queries(7):
        response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "waiting for the organizer" in response.content.decode()
    assert Submission.objects.count() == 1


def test_a_refused_report_takes_no_write_lock(client, table):
    """The engine checks the report before the transaction: a wrong report never waits for the lock."""
    data = report_data(table, hands=("", "R7 Kuh", "7 7 +4", "Y0"))
    with CaptureQueriesContext(connection) as queries:
        response = client.post(table.get_captain_url(), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    sql = " ".join(q["sql"] for q in queries.captured_queries)
    assert "BEGIN" not in sql and "SAVEPOINT" not in sql and "FOR UPDATE" not in sql
    assert not Submission.objects.exists()


def test_page_of_a_confirmed_captain_report_reads_its_entries_once(client, table, organizer):
    """The confirmed version and the captain's last report are one and the same here."""

    url = table.get_captain_url()
    client.post(url, report_data(table), HTTP_HX_REQUEST="true")
    result_confirm(submission=Submission.objects.get(), user=organizer)

    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200 and "R7 W Rev" in response.content.decode()
    run = [q["sql"] for q in queries.captured_queries]
    assert sum('FROM "tournament_submissionentry"' in sql for sql in run) == 1  # a version's entries


def test_one_report_and_its_repeat_run_a_fixed_number_of_queries(client, table, django_assert_num_queries):
    """The ORM only: the link's table (with whether the address is blocked), its seats with earlier
    wins, then under the lock the table's row and its versions, three inserts and the table's status;
    the test's transaction adds a savepoint and its release. A repeat stops after the versions and
    reads the stored version's entries."""
    url, data = table.get_captain_url(), report_data(table)
    with django_assert_num_queries(10):
        first = client.post(url, data, HTTP_HX_REQUEST="true")
    with django_assert_num_queries(7):
        repeat = client.post(url, data, HTTP_HX_REQUEST="true")
    assert first.status_code == repeat.status_code == 200
    assert "R7 W Rev" in first.content.decode() and "R7 W Rev" in repeat.content.decode()
    assert Submission.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_report_outside_a_test_transaction_runs_at_most_ten_queries(
    client, table, django_assert_max_num_queries
):
    """As in the hall, without the test's savepoints: 8 queries, with BEGIN and COMMIT 10."""
    url, data = table.get_captain_url(), report_data(table)
    with django_assert_max_num_queries(10):
        first = client.post(url, data, HTTP_HX_REQUEST="true")
    with django_assert_max_num_queries(7):
        repeat = client.post(url, data, HTTP_HX_REQUEST="true")
    assert first.status_code == repeat.status_code == 200
    assert Submission.objects.count() == 1
