"""A second player confirms the captain's report on the same phone (#44): "Stimmt" / "Stimmt nicht".

The player names themselves with their start number; the captain's (seat 1), another table's and an
unknown number are refused and change nothing, and wrong numbers are limited per table. "Stimmt nicht"
disputes the table with a reason, which the organizer resolves. Races meet at a barrier.
"""

import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.test import Client
from django.urls import reverse

from tests.tournament.conftest import numbers, report, report_data, use_mode
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Round, Submission, Table, TableConfirmation
from tournament.results.services import RefusalCode, result_confirm, result_player_check
from tournament.rounds.services import round_close


def check(client, table, *, version=1, number, agrees=True, reason=""):
    return client.post(
        reverse("captain:check", args=[table.token]),
        {"version": version, "start_number": number, "agrees": "1" if agrees else "0", "reason": reason},
    )


def actions(table):
    return list(AuditEntry.objects.filter(table=table).order_by("id").values_list("action", flat=True))


@pytest.fixture
def counts(table):
    use_mode(table, TableConfirmation.PLAYER_COUNTS)
    return table


# --- the phone ----------------------------------------------------------------------------------------


def test_the_phone_asks_a_second_player_after_the_captain_sent(client, counts):
    table = counts
    report(client, table)
    page = client.get(reverse("captain:table", args=[table.token])).content.decode()
    assert "Second player: please check" in page
    assert reverse("captain:check", args=[table.token]) in page
    assert 'name="version" value="1"' in page
    # The captain's own number is named as the one that does not count.
    assert f"Not the captain's number ({numbers(table)[0]}, Anna Alt)" in page


def test_without_the_setting_the_phone_asks_nobody(client, table):
    report(client, table)
    page = client.get(reverse("captain:table", args=[table.token])).content.decode()
    assert "Second player: please check" not in page
    response = check(client, table, number=numbers(table)[1])
    assert response.status_code == 409
    assert Submission.objects.get().player_check == ""


def test_stimmt_by_a_second_player_makes_the_result_count(client, counts):
    table = counts
    report(client, table)
    response = check(client, table, number=numbers(table)[1])
    assert response.status_code == 303
    submission = Submission.objects.get()
    assert submission.player_check == "agreed"
    assert submission.player_check_by.player.first_name == "Ben"
    assert submission.confirmed and submission.confirmed_by is None
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    assert actions(table) == [
        AuditAction.RESULT_SUBMIT, AuditAction.RESULT_PLAYER_CONFIRM, AuditAction.RESULT_CONFIRM
    ]
    entry = AuditEntry.objects.get(action=AuditAction.RESULT_PLAYER_CONFIRM)
    assert entry.after == {"version": 1, "start_number": numbers(table)[1], "name": "Ben Berg"}
    page = client.get(reverse("captain:table", args=[table.token])).content.decode()
    assert "Confirmed result" in page
    assert f"Checked at the table by no. {numbers(table)[1]} Ben Berg." in page


def test_stimmt_without_counting_waits_for_the_organizer_and_shows_who(client, table, organizer):
    use_mode(table, TableConfirmation.PLAYER)
    report(client, table)
    assert check(client, table, number=numbers(table)[2]).status_code == 303
    submission = Submission.objects.get()
    assert submission.player_check == "agreed" and not submission.confirmed
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED
    client.force_login(organizer)
    page = client.get(reverse("organizer:round", args=[table.round.tournament.pk, 1])).content.decode()
    assert f"confirmed at the table by no. {numbers(table)[2]} Cem Cakir" in page


def test_a_result_with_warnings_still_needs_the_organizer(client, counts, organizer):
    table = counts
    report(client, table)
    Submission.objects.update(warnings_confirmed=True)  # the captain confirmed the engine's warnings
    assert check(client, table, number=numbers(table)[1]).status_code == 303
    submission = Submission.objects.get()
    assert submission.player_check == "agreed" and not submission.confirmed
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED


@pytest.mark.parametrize("which", ["captain", "other_table", "unknown", "empty"])
def test_wrong_numbers_are_refused_and_change_nothing(client, counts, other_table, which):
    table = counts
    report(client, table)
    number = {
        "captain": numbers(table)[0], "other_table": numbers(other_table)[1], "unknown": 9999, "empty": "",
    }[which]
    response = check(client, table, number=number)
    assert response.status_code == 400
    text = response.content.decode()
    expected = {
        "captain": "That is the captain&#x27;s start number. Another player of the table must confirm.",
        "other_table": f"Start number {number} does not play at this table.",
        "unknown": "There is no player with start number 9999 at this table.",
        "empty": "Please type your start number.",
    }[which]
    assert expected in text
    # The page is the table's page again (its forms post to the table, not to the check).
    assert f'action="{reverse("captain:table", args=[table.token])}"' in text
    submission = Submission.objects.get()
    assert submission.player_check == "" and submission.player_check_by is None and not submission.confirmed
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED
    assert actions(table) == [AuditAction.RESULT_SUBMIT]


def test_wrong_numbers_are_limited_per_table(client, counts, other_table, settings):
    settings.TABLE_CHECK_WRONG_NUMBERS_ALLOWED = 3
    table = counts
    report(client, table)
    for number in (numbers(table)[0], 9999, numbers(other_table)[0]):
        assert check(client, table, number=number).status_code == 400
    # Now even the right number is refused for a while: the organizer checks this table.
    response = check(client, table, number=numbers(table)[1])
    assert response.status_code == 429
    assert "Too many wrong start numbers" in response.content.decode()
    assert Submission.objects.get().player_check == ""
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED
    # Another table's phone is not affected.
    report(client, other_table, key="o1")
    assert check(client, other_table, number=numbers(other_table)[1]).status_code == 303


def test_a_correction_after_the_check_needs_a_new_one(client, table):
    use_mode(table, TableConfirmation.PLAYER)
    report(client, table)
    assert check(client, table, number=numbers(table)[1]).status_code == 303
    report(client, table, key="v2", hands=("", "R7", "7 7 +4", "Y0"))
    newest = Submission.objects.get(version=2)
    assert newest.player_check == ""
    page = client.get(reverse("captain:table", args=[table.token])).content.decode()
    assert "Second player: please check" in page and 'name="version" value="2"' in page
    # A check of the old version (a phone that still showed it) is refused.
    response = check(client, table, version=1, number=numbers(table)[2])
    assert response.status_code == 409
    assert "The captain has corrected the report since" in response.content.decode()
    assert check(client, table, version=2, number=numbers(table)[2]).status_code == 303
    assert Submission.objects.get(version=2).player_check_by.player.first_name == "Cem"


# --- disputes ------------------------------------------------------------------------------------------


def test_stimmt_nicht_disputes_the_table_and_the_organizer_resolves_it(client, counts, organizer):
    table = counts
    report(client, table)
    refused = check(client, table, number=numbers(table)[3], agrees=False)
    assert refused.status_code == 400 and "Please say briefly what is wrong." in refused.content.decode()
    response = check(client, table, number=numbers(table)[3], agrees=False, reason="Dora hatte nur R7")
    assert response.status_code == 303
    table.refresh_from_db()
    assert table.status == Table.Status.DISPUTED
    submission = Submission.objects.get()
    assert (submission.player_check, submission.player_check_reason) == ("disputed", "Dora hatte nur R7")
    assert not submission.confirmed
    dispute = AuditEntry.objects.get(action=AuditAction.RESULT_DISPUTE)
    assert dispute.after["player_check_reason"] == "Dora hatte nur R7"
    assert dispute.after["start_number"] == numbers(table)[3]
    phone = client.get(reverse("captain:table", args=[table.token])).content.decode()
    assert "Dora hatte nur R7" in phone and "Second player: please check" not in phone
    # The organizer sees it at once, in the round's live status, among what needs a person.
    client.force_login(organizer)
    status_url = reverse("organizer:round_status", args=[table.round.tournament.pk, 1])
    status = client.get(status_url).content.decode()
    needs = status.split('id="needs-you"')[1].split('id="all-tables"')[0]
    assert "Dora hatte nur R7" in needs and 'id="table-1"' in needs
    # … and resolves it by confirming the version.
    result_confirm(submission=submission, user=organizer)
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    assert actions(table) == [
        AuditAction.RESULT_SUBMIT, AuditAction.RESULT_DISPUTE, AuditAction.RESULT_CONFIRM,
        AuditAction.DISPUTE_RESOLVE,
    ]
    log = client.get(reverse("organizer:audit", args=[table.round.tournament.pk])).content.decode()
    assert "Dora hatte nur R7" in log and "result disputed at the table" in log and "dispute resolved" in log


def test_a_dispute_resolved_by_an_entry_at_the_desk(client, counts, organizer):
    table = counts
    report(client, table)
    check(client, table, number=numbers(table)[1], agrees=False, reason="falsch")
    client.force_login(organizer)
    url = reverse("organizer:table_result", args=[table.round.tournament.pk, 1, 1])
    response = client.post(url, report_data(table, key="desk", hands=("", "R7", "7 7 +4", "Y0")))
    assert response.status_code in (302, 303)
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    confirmed = Submission.objects.get(confirmed=True)
    assert confirmed.source == Submission.Source.ORGANIZER and confirmed.version == 2
    assert AuditAction.DISPUTE_RESOLVE in actions(table)


def test_a_check_after_the_round_closed_is_refused(client, counts):
    table = counts
    report(client, table)
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    response = check(client, table, number=numbers(table)[1])
    assert response.status_code == 409
    assert Submission.objects.get().player_check == ""
    with pytest.raises(ValidationError) as refused:
        result_player_check(table=table, version=1, start_number=numbers(table)[1], agrees=True)
    assert refused.value.code == RefusalCode.ROUND_CLOSED


# --- races -------------------------------------------------------------------------------------------


def run_together(*calls):
    """Run each call in its own thread (own connection), released at one barrier; return what each
    returned or raised."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(index, call):
        try:
            barrier.wait()
            results[index] = call()
        except Exception as exc:  # collected: the test judges them
            results[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def fresh(table):
    return Table.objects.select_related("round__tournament").get(pk=table.pk)


@pytest.mark.django_db(transaction=True)
def test_two_confirmations_at_once_count_once(counts):
    table = counts
    Client().post(reverse("captain:table", args=[table.token]), report_data(table, key="v1"))
    ben, cem = numbers(table)[1:3]
    results = run_together(
        lambda: result_player_check(table=fresh(table), version=1, start_number=ben, agrees=True),
        lambda: result_player_check(table=fresh(table), version=1, start_number=cem, agrees=True),
    )
    stored = [r for r in results if isinstance(r, Submission)]
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(stored) == 1 and len(refused) == 1, results
    assert refused[0].code in (RefusalCode.ALREADY_CHECKED, RefusalCode.RESULT_FINAL)
    assert actions(table).count(AuditAction.RESULT_PLAYER_CONFIRM) == 1
    assert actions(table).count(AuditAction.RESULT_CONFIRM) == 1
    assert fresh(table).status == Table.Status.CONFIRMED


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_racing_a_correction_never_confirms_the_old_version_over_the_new(counts):
    """Five races between "Stimmt" for version 1 and the captain's version 2: either the check came
    first (version 1 confirmed, version 2 a correction after the confirmation) or the correction did
    (the check is refused, nothing confirmed): never a confirmed table with an unchecked newer version."""
    table = counts
    seen = set()
    for attempt in range(5):
        Submission.objects.filter(table=table).delete()
        AuditEntry.objects.filter(table=table).delete()
        Table.objects.filter(pk=table.pk).update(status=Table.Status.WAITING)
        Client().post(reverse("captain:table", args=[table.token]), report_data(table, key=f"a{attempt}"))
        version = Submission.objects.get(table=table).version
        correction = report_data(table, key=f"b{attempt}", hands=("", "R7", "7 7 +4", "Y0"))
        checked, corrected = run_together(
            lambda version=version: result_player_check(
                table=fresh(table), version=version, start_number=numbers(table)[1], agrees=True
            ),
            lambda correction=correction: Client().post(
                reverse("captain:table", args=[table.token]), correction
            ).status_code,
        )
        status = fresh(table).status
        versions = list(Submission.objects.filter(table=table).order_by("version"))
        if isinstance(checked, Submission):
            seen.add("check first")
            # The correction came after the confirmation: refused for the captain (final now).
            assert corrected == 403
            assert len(versions) == 1 and versions[0].confirmed and status == Table.Status.CONFIRMED
        else:
            seen.add("correction first")
            assert corrected == 303
            assert checked.code == RefusalCode.NEWER_VERSION
            assert len(versions) == 2 and not any(v.confirmed or v.player_check for v in versions)
            assert status == Table.Status.REPORTED
    assert seen  # which came first is up to the scheduler; each outcome was checked


@pytest.mark.django_db(transaction=True)
def test_a_confirmation_racing_the_close_of_the_round(counts, organizer, other_table):
    """The organizer closes while a second player taps "Stimmt" on the last table: either the check is
    stored first (and the close finds every table confirmed) or the close is refused first and the check
    then counts; never a check stored in a closed round."""
    table = counts
    Client().post(reverse("captain:table", args=[other_table.token]), report_data(other_table, key="o"))
    result_confirm(submission=Submission.objects.get(table=other_table), user=organizer)
    Client().post(reverse("captain:table", args=[table.token]), report_data(table, key="v1"))
    checked, closed = run_together(
        lambda: result_player_check(
            table=fresh(table), version=1, start_number=numbers(table)[1], agrees=True
        ),
        lambda: round_close(round_=Round.objects.get(pk=table.round_id), user=organizer),
    )
    assert isinstance(checked, Submission), checked
    round_ = Round.objects.get(pk=table.round_id)
    if round_.status == Round.Status.CLOSED:
        check_entry = AuditEntry.objects.get(action=AuditAction.RESULT_PLAYER_CONFIRM)
        close_entry = AuditEntry.objects.get(action=AuditAction.ROUND_CLOSE)
        assert check_entry.pk < close_entry.pk
    else:
        assert isinstance(closed, ValidationError)
    assert fresh(table).status == Table.Status.CONFIRMED
    # After the close, a check is refused and changes nothing.
    if round_.status != Round.Status.CLOSED:
        round_close(round_=round_, user=organizer)
    with pytest.raises(ValidationError) as refused:
        result_player_check(table=fresh(table), version=1, start_number=numbers(table)[2], agrees=True)
    assert refused.value.code == RefusalCode.ROUND_CLOSED
