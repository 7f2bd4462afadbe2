"""tournament.sql loads the same instances the ORM would, on SQLite and on PostgreSQL alike."""

import datetime

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import RoundFactory, SeatFactory, TableFactory, UserFactory, play_round
from tests.tournament.conftest import seat_ids, statement
from tournament import services, sql
from tournament.models import (
    Player,
    Registration,
    Round,
    Seat,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
)


def values(instance) -> dict:
    """Every column as the instance holds it (after the ORM's or tournament.sql's converters)."""
    return {field.attname: getattr(instance, field.attname) for field in type(instance)._meta.concrete_fields}


def orm(model, pk):
    return values(model.objects.get(pk=pk))


def submit(table, *, key="k1", points=(0, 12, 7, 30)):
    from engine.validation import SeatReport

    ids = seat_ids(table)
    reports = [
        SeatReport(reg_id, went_out=True) if index == 0 else SeatReport(reg_id, points=str(points[index]))
        for index, reg_id in enumerate(ids)
    ]
    return services.result_submit(
        table=Table.objects.select_related("round__tournament").get(pk=table.pk), seats=reports,
        source=Submission.Source.CAPTAIN, token=table.token, ip_address="192.0.2.7", idempotency_key=key,
    )


def test_table_by_token_loads_table_round_tournament_and_versions_like_the_orm(table):
    tournament = table.round.tournament
    tournament.tiebreaks = ["wins", "best_round"]
    tournament.seating_plan = {"seed": 3, "rounds": [[[1, 2, 3, 4]]]}
    tournament.save()
    Round.objects.filter(pk=table.round_id).update(
        clock_started_at=timezone.now() - datetime.timedelta(minutes=5), clock_seconds=1800,
        published_at=timezone.now(),
    )
    assert sql.table_by_token(table.token)[1] == []
    submit(table, key="first")
    submit(table, key="second", points=(0, 5, 5, 5))

    loaded, versions = sql.table_by_token(table.token)

    assert values(loaded) == orm(Table, table.pk)
    assert values(loaded.round) == orm(Round, table.round_id)
    assert values(loaded.round.tournament) == orm(Tournament, tournament.pk)
    assert loaded.round.tournament.seating_plan == {"seed": 3, "rounds": [[[1, 2, 3, 4]]]}
    assert timezone.is_aware(loaded.round.clock_started_at)
    assert loaded.round.tournament.date == tournament.date
    assert [(v.version, v.idempotency_key) for v in versions] == [(2, "second"), (1, "first")]
    assert [values(v) for v in versions] == [orm(Submission, v.pk) for v in versions]


def test_table_by_token_of_an_unknown_token_is_none(table):
    assert sql.table_by_token("no-such-token") is None


def test_table_seats_in_playing_order_with_registration_and_player(table):
    seats = sql.table_seats(table)

    assert [seat.position for seat in seats] == [1, 2, 3, 4]
    names = [seat.registration.player.name for seat in seats]
    assert names == ["Anna Alt", "Ben Berg", "Cem Cakir", "Dora Dorn"]
    for seat in seats:
        assert values(seat) == orm(Seat, seat.pk)
        assert values(seat.registration) == orm(Registration, seat.registration_id)
        assert values(seat.registration.player) == orm(Player, seat.registration.player_id)
    assert seats[0].registration.player.birth_date == datetime.date(1950, 3, 1)


def test_table_submissions_newest_first_and_their_entries_in_seat_order(table):
    submit(table, key="first")
    submit(table, key="second", points=(0, 5, 5, 5))

    submissions = sql.table_submissions(table)

    assert [s.version for s in submissions] == [2, 1]
    assert [s.idempotency_key for s in submissions] == ["second", "first"]
    for submission in submissions:
        assert values(submission) == orm(Submission, submission.pk)
    assert str(submissions[0].ip_address) == "192.0.2.7" and timezone.is_aware(submissions[0].created_at)
    entries = sql.submission_entries(submissions[1])
    assert [e.registration_id for e in entries] == seat_ids(table)
    assert [e.hand_points for e in entries] == [0, 12, 7, 30]
    assert [e.went_out for e in entries] == [True, False, False, False]
    assert entries[1].registration.player.name == "Ben Berg"
    for entry in entries:
        assert values(entry) == orm(SubmissionEntry, entry.pk)


def test_lock_table_returns_the_statuses_and_version_keys_the_versions(table):
    with transaction.atomic():
        assert sql.lock_table(table) == ("waiting", "open")
        assert sql.table_version_keys(table) == {}
    submit(table, key="first")
    submit(table, key="second", points=(0, 5, 5, 5))

    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert sql.lock_table(table) == ("reported", "open")
    assert sql.table_version_keys(table) == {"first": 1, "second": 2}

    locking = "FOR UPDATE OF t" in statement(queries.captured_queries[-1]["sql"])
    assert locking == connection.features.has_select_for_update_of  # PostgreSQL: the table's row only


def test_seats_count_the_confirmed_rounds_each_player_won_before(tournament, players):
    user = UserFactory()
    first = play_round(tournament, user, seed=1)
    second = play_round(tournament, user, seed=2, close=False)
    winners = {
        number: set(
            SubmissionEntry.objects.filter(submission__table__round=round_, went_out=True)
            .values_list("registration_id", flat=True)
        )
        for number, round_ in ((1, first), (2, second))
    }

    for table in second.tables.all():
        for seat in sql.table_seats(table):
            assert seat.wins_before == (seat.registration_id in winners[1])
    for table in first.tables.all():
        assert [seat.wins_before for seat in sql.table_seats(table)] == [0, 0, 0, 0]


def test_seats_do_not_count_unconfirmed_reports_as_wins(table, other_table):
    submit(table)  # a captain's report of round 1, waiting for the organizer
    later = RoundFactory(tournament=table.round.tournament, number=2, status=Round.Status.OPEN)
    later_table = TableFactory(round=later, number=1)
    for seat in table.seats.order_by("position"):
        SeatFactory(table=later_table, round=later, registration=seat.registration, position=seat.position)

    assert [seat.wins_before for seat in sql.table_seats(later_table)] == [0, 0, 0, 0]
    Submission.objects.filter(table=table).update(confirmed=True)
    assert [seat.wins_before for seat in sql.table_seats(later_table)] == [1, 0, 0, 0]


def test_insert_stores_what_the_orm_would_and_sets_the_keys(table):
    from tournament.models import AuditEntry

    submission = Submission(table=table, version=1, source=Submission.Source.CAPTAIN, token=table.token,
                            ip_address="2001:db8::7", idempotency_key="k")
    sql.insert([submission])
    points = [0, 57, 3, 9]
    entries = [
        SubmissionEntry(submission=submission, registration_id=reg_id, cards="R7 W" if n == 1 else "",
                        card_count=None, hand_points=points[n], score=points[n], went_out=n == 0)
        for n, reg_id in enumerate(seat_ids(table))
    ]
    sql.insert(entries)
    snapshot = {"entries": [{"cards": "R7 W", "points": 57}], "ok": True}
    entry = AuditEntry(tournament=table.round.tournament, round=table.round, table=table, actor="captain",
                       action="result_submit", after=snapshot)
    sql.insert([entry])

    assert submission.pk and not submission._state.adding and timezone.is_aware(submission.created_at)
    stored = Submission.objects.get(pk=submission.pk)
    assert values(stored) == values(submission)
    assert str(stored.ip_address) == "2001:db8::7" and stored.confirmed is False
    assert [values(e) for e in SubmissionEntry.objects.filter(submission=submission).order_by("id")] == [
        values(e) for e in entries
    ]
    assert AuditEntry.objects.get(pk=entry.pk).after == snapshot


def test_update_table_status_stores_the_status(table):
    table.status = Table.Status.DISPUTED
    sql.update_table_status(table)
    assert Table.objects.get(pk=table.pk).status == "disputed"


postgres_only = pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared on PostgreSQL only")
# These tests close the connection to start a new session, which a test wrapped in a transaction cannot.
new_sessions = pytest.mark.django_db(transaction=True)


@postgres_only
@new_sessions
def test_postgresql_prepares_each_statement_once_per_connection_and_keeps_a_generic_plan(table):
    connection.close()  # a new session, as after CONN_MAX_AGE
    with CaptureQueriesContext(connection) as first:
        sql.table_seats(table)
    with CaptureQueriesContext(connection) as second:
        seats = sql.table_seats(table)

    logged = [q["sql"] for q in first.captured_queries]
    assert logged[-2].startswith("PREPARE uno_table_seats AS SELECT")
    assert "WHERE s.table_id = $3" in logged[-2]
    assert logged[-1] == f"EXECUTE uno_table_seats(true, true, {table.pk})"
    assert [q["sql"] for q in second.captured_queries] == [logged[-1]]  # no PREPARE again
    assert [seat.registration_id for seat in seats] == seat_ids(table)
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("force_generic_plan",)
        cursor.execute("EXECUTE uno_table_seats(true, true, %s)", [table.pk])
        cursor.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = %s",
                       ["uno_table_seats"])
        assert cursor.fetchone() == (3, 0)


@postgres_only
@new_sessions
def test_a_new_session_prepares_again_and_a_rollback_keeps_what_was_prepared(table):
    connection.close()
    with transaction.atomic():
        sql.lock_table(table)
        transaction.set_rollback(True)
    with CaptureQueriesContext(connection) as kept:
        assert sql.lock_table(table) == ("waiting", "open")
    assert [q["sql"] for q in kept.captured_queries] == [f"EXECUTE uno_lock_table({table.pk})"]

    connection.close()
    with CaptureQueriesContext(connection) as again:
        assert sql.lock_table(table) == ("waiting", "open")
    assert again.captured_queries[-2]["sql"].startswith("PREPARE uno_lock_table AS SELECT")


@postgres_only
def test_without_prepared_statements_the_sql_runs_as_it_is(table, settings):
    settings.PREPARED_STATEMENTS = False
    with CaptureQueriesContext(connection) as queries:
        sql.update_table_status(table)
    assert [q["sql"] for q in queries.captured_queries] == [
        f"UPDATE \"tournament_table\" SET status = 'waiting' WHERE id = {table.pk}"
    ]
