"""Two phones submitting for the same table at the same moment: a clean version history."""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.test import Client
from django.urls import reverse

from engine.validation import SeatReport
from tests.tournament.conftest import report_data, seat_ids
from tournament.models import Submission, Table
from tournament.results.services import RefusalCode, result_confirm, result_submit
from tournament.rounds.selectors import table_counts, table_views
from tournament.rounds.services import round_close


def seat_reports(table, hands):
    """The first seat went out, the others hold `hands` (the first one empty)."""
    return [
        SeatReport(player_id=reg_id, cards=hand or None, went_out=not hand)
        for reg_id, hand in zip(seat_ids(table), hands, strict=True)
    ]


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


# --- a confirmation racing a correction ------------------------------------------------------


def test_confirming_a_version_that_a_correction_overtook_fails_cleanly(client, table, organizer):
    """The organizer's round page showed version 1; the captain's correction (version 2) is stored
    before the organizer's click arrives: the click names version 1, and nothing is confirmed."""
    client.post(reverse("captain:table", args=[table.token]), report_data(table, key="v1"))
    shown = Submission.objects.get(version=1)
    correction = report_data(table, key="v2", hands=("", "R7", "7 7 +4", "Y0"))
    assert client.post(reverse("captain:table", args=[table.token]), correction).status_code == 303
    with pytest.raises(ValidationError) as refused:
        result_confirm(submission=shown, user=organizer)
    assert refused.value.code == RefusalCode.NEWER_VERSION
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED
    assert not Submission.objects.filter(confirmed=True).exists()
    # The round page offers to confirm the newest version, and that works.
    view = next(v for v in table_views(table.round) if v.table.pk == table.pk)
    assert view.awaiting_confirmation.version == 2 and view.confirmed is None
    result_confirm(submission=view.awaiting_confirmation, user=organizer)
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    assert Submission.objects.get(confirmed=True).version == 2


def test_a_correction_after_a_confirmation_needs_a_new_one(table, organizer):
    """With a second entry: both entries agreed and were confirmed; then the organizer corrects one.
    The table shows the correction (not "confirmed") until it is confirmed again."""
    tournament = table.round.tournament
    tournament.require_second_entry = True
    tournament.save(update_fields=["require_second_entry"])
    hands = ("", "R7 Rev W", "7 7 +4", "Y0")
    for source, key in ((Submission.Source.CAPTAIN, "c1"), (Submission.Source.ORGANIZER, "o1")):
        result_submit(
            table=table, seats=seat_reports(table, hands), source=source, user=organizer, idempotency_key=key
        )
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    agreed = Submission.objects.get(confirmed=True)
    outcome = result_submit(
        table=table, seats=seat_reports(table, ("", "R7", "7 7 +4", "Y0")),
        source=Submission.Source.ORGANIZER, user=organizer, idempotency_key="o2",
    )
    table.refresh_from_db()
    assert table.status == Table.Status.CORRECTED
    assert Submission.objects.get(confirmed=True) == agreed  # still counts until confirmed again
    view = next(v for v in table_views(table.round) if v.table.pk == table.pk)
    assert view.awaiting_confirmation == outcome.submission and view.confirmed == agreed
    assert table_counts(table.round)[Table.Status.CORRECTED] == 1
    with pytest.raises(ValidationError):  # it disagrees with the captain's entry
        round_close(round_=table.round, user=organizer)


@pytest.mark.django_db(transaction=True)
def test_confirmation_and_correction_at_the_same_moment_never_hide_the_correction(table, organizer):
    """Ten real races between the organizer's click on version 1 and the captain's version 2: whichever
    comes first, the table is never shown as confirmed while a newer, unconfirmed version exists."""
    for attempt in range(10):
        Submission.objects.filter(table=table).delete()
        Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)
        Client().post(reverse("captain:table", args=[table.token]), report_data(table, key=f"a{attempt}"))
        shown = Submission.objects.get(table=table)
        barrier, errors = threading.Barrier(2), []

        def confirm(shown=shown, barrier=barrier, errors=errors):
            barrier.wait()
            try:
                result_confirm(submission=shown, user=organizer)
            except ValidationError as exc:
                errors.append(exc.code)
            finally:
                connections.close_all()

        correction = report_data(table, key=f"b{attempt}", hands=("", "R7", "7 7 +4", "Y0"))
        statuses = []

        def correct(barrier=barrier, statuses=statuses, correction=correction):
            barrier.wait()
            response = Client().post(reverse("captain:table", args=[table.token]), correction)
            statuses.append(response.status_code)
            connections.close_all()

        threads = [threading.Thread(target=confirm), threading.Thread(target=correct)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        table.refresh_from_db()
        newest = Submission.objects.filter(table=table).order_by("-version").first()
        if statuses == [303]:  # the correction came first: the click on version 1 was refused
            assert errors == [RefusalCode.NEWER_VERSION] and newest.version == 2
            assert table.status == Table.Status.REPORTED and not newest.confirmed
        else:  # the confirmation came first: the captain is told the result is final
            assert statuses == [403] and errors == [] and newest.version == 1
            assert table.status == Table.Status.CONFIRMED and newest.confirmed
