"""The existing write services: registrations, seating, results, confirmations, round states."""

import pytest
from django.core.exceptions import ValidationError

from engine.validation import SeatReport
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, play_round, points_report
from tournament.models import AuditEntry, Registration, Round, Seat, Submission, Table
from tournament.permissions import organizes
from tournament.players.services import (
    player_register,
    registration_check_in,
    registration_readmit,
    registration_withdraw,
)
from tournament.results.services import result_confirm, result_submit
from tournament.rounds.selectors import seating_history
from tournament.rounds.services import (
    round_close,
    round_open,
    round_publish,
    round_reopen,
    round_seat,
    round_snapshot,
    round_swap,
)
from tournament.standings.selectors import standings, tournament_finished
from tournament.tournaments.services import tournament_create, tournament_delete, tournament_update


@pytest.fixture
def open_round(tournament, players, organizer):
    round_ = round_seat(tournament=tournament, user=organizer, seed=7)
    round_publish(round_=round_, user=organizer)
    return round_open(round_=round_, user=organizer)


def test_tournament_create_adds_organizer_and_audit(organizer):
    import datetime

    t = tournament_create(user=organizer, name="Herbst", date=datetime.date(2026, 10, 1))
    assert list(t.organizers.all()) == [organizer]
    assert t.rounds_total == 6 and t.table_size == 4
    assert AuditEntry.objects.get(tournament=t).action == "tournament_create"


def test_tournament_update_audits_only_changes(tournament, organizer):
    tournament_update(
        tournament=tournament, user=organizer, changes={"rounds_total": 4, "venue": "x"}
    )
    entry = AuditEntry.objects.get(tournament=tournament, action="tournament_update")
    assert entry.after == {"rounds_total": 4, "venue": "x"}
    assert entry.before["rounds_total"] == 6


def test_tournament_update_rejects_inconsistent_table_sizes(tournament, organizer):
    with pytest.raises(ValidationError):
        tournament_update(tournament=tournament, user=organizer, changes={"table_min": 5})


def test_tournament_delete_keeps_players(tournament, players, organizer):
    tournament_delete(tournament=tournament, user=organizer)
    assert not Registration.objects.exists()
    assert len(players) == 12
    from tournament.models import Player

    assert Player.objects.count() == 12


def test_player_register_numbers_and_reuses_player(tournament, organizer):
    first = player_register(
        tournament=tournament, user=organizer, first_name=" Anna ", last_name="Huber", club_name="UNO  Club"
    )
    second = player_register(
        tournament=tournament, user=organizer, first_name="Bernd", last_name="Maier", check_in=True
    )
    assert (first.start_number, second.start_number) == (1, 2)
    assert first.player.club.name == "UNO Club"
    assert second.status == Registration.Status.CHECKED_IN
    with pytest.raises(ValidationError):
        player_register(
            tournament=tournament, user=organizer, first_name="anna", last_name="huber", club_name="uno club"
        )
    other = TournamentFactory(organizers=[organizer])
    again = player_register(
        tournament=other, user=organizer, first_name="Anna", last_name="Huber", club_name="UNO Club"
    )
    assert again.player_id == first.player_id


def test_withdraw_readmit_and_check_in(players, organizer):
    reg = players[0]
    reg = registration_withdraw(registration=reg, user=organizer)
    assert reg.status == Registration.Status.WITHDRAWN and reg.withdrawn_after_round == 0
    with pytest.raises(ValidationError):
        registration_check_in(registration=reg, user=organizer)
    reg = registration_readmit(registration=reg, user=organizer)
    assert reg.status == Registration.Status.CHECKED_IN
    reg = registration_check_in(registration=reg, user=organizer, checked_in=False)
    assert reg.status == Registration.Status.REGISTERED


def test_round_seat_is_reproducible_and_seats_everyone_once(tournament, players, organizer):
    round_ = round_seat(tournament=tournament, user=organizer, seed=42)
    first = round_snapshot(round_)
    assert sorted(len(t) for t in first) == [4, 4, 4]
    assert sorted(n for t in first for n in t) == list(range(1, 13))
    again = round_seat(tournament=tournament, user=organizer, seed=42)
    assert again.pk == round_.pk and round_snapshot(again) == first


def test_withdrawn_players_are_not_seated(tournament, players, organizer):
    registration_withdraw(registration=players[0], user=organizer)
    registration_withdraw(registration=players[1], user=organizer)
    registration_withdraw(registration=players[2], user=organizer)
    round_ = round_seat(tournament=tournament, user=organizer, seed=1)
    assert Seat.objects.filter(round=round_).count() == 9
    assert not Seat.objects.filter(round=round_, registration__in=players[:3]).exists()


def test_round_swap_only_in_draft(tournament, players, organizer):
    round_ = round_seat(tournament=tournament, user=organizer, seed=3)
    a = Seat.objects.filter(round=round_, table__number=1, position=1).get()
    b = Seat.objects.filter(round=round_, table__number=2, position=2).get()
    reg_a, reg_b = a.registration_id, b.registration_id
    round_swap(round_=round_, user=organizer, first=a, second=b)
    assert Seat.objects.get(round=round_, table__number=1, position=1).registration_id == reg_b
    assert Seat.objects.get(round=round_, table__number=2, position=2).registration_id == reg_a
    round_publish(round_=round_, user=organizer)
    first, second = Seat.objects.filter(round=round_)[:2]
    with pytest.raises(ValidationError):
        round_swap(round_=round_, user=organizer, first=first, second=second)


def test_organizer_result_is_confirmed_and_scored(open_round, organizer):
    table = open_round.tables.get(number=1)
    outcome = result_submit(
        table=table,
        seats=points_report(table, [0, 5, 77, 12]),
        source=Submission.Source.ORGANIZER,
        user=organizer,
    )
    assert outcome.stored and outcome.submission.confirmed
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    scores = sorted(outcome.submission.entries.values_list("score", flat=True))
    assert scores == [0, 5, 12, 77]


def test_result_errors_are_not_stored(open_round, organizer):
    table = open_round.tables.get(number=1)
    seats = [SeatReport(player_id=s.registration_id, cards="R7 X9") for s in table.seats.all()]
    outcome = result_submit(table=table, seats=seats, source="organizer", user=organizer)
    assert not outcome.stored
    assert {issue.code for issue in outcome.errors} >= {"no_winner", "unknown_card"}
    assert not table.submissions.exists()


def test_warnings_need_confirmation(open_round, organizer):
    table = open_round.tables.get(number=1)
    seats = points_report(table, [0, 5, 300, 12])
    outcome = result_submit(table=table, seats=seats, source="organizer", user=organizer)
    assert outcome.needs_confirmation and not outcome.stored
    outcome = result_submit(
        table=table, seats=seats, source="organizer", user=organizer, confirm_warnings=True
    )
    assert outcome.stored and outcome.submission.warnings_confirmed


def test_captain_report_then_organizer_confirms(open_round, organizer):
    table = open_round.tables.get(number=2)
    outcome = result_submit(
        table=table,
        seats=points_report(table, [0, 1, 2, 3]),
        source="captain",
        token=table.token,
        idempotency_key="k1",
    )
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED and not outcome.submission.confirmed
    repeat = result_submit(
        table=table, seats=points_report(table, [0, 1, 2, 3]), source="captain", idempotency_key="k1"
    )
    assert repeat.duplicate and repeat.submission.pk == outcome.submission.pk
    result_confirm(submission=outcome.submission, user=organizer)
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED


def test_correction_moves_the_confirmation(open_round, organizer):
    table = open_round.tables.get(number=1)
    first = result_submit(
        table=table, seats=points_report(table, [0, 1, 2, 3]), source="organizer", user=organizer
    ).submission
    second = result_submit(
        table=table, seats=points_report(table, [0, 4, 5, 6]), source="organizer", user=organizer
    ).submission
    first.refresh_from_db()
    assert second.version == 2 and second.confirmed and not first.confirmed


def test_close_needs_every_table_confirmed_and_reopen(tournament, players, organizer):
    round_ = play_round(tournament, organizer, close=False)
    table = round_.tables.first()
    Submission.objects.filter(table=table).update(confirmed=False)
    Table.objects.filter(pk=table.pk).update(status=Table.Status.REPORTED)
    with pytest.raises(ValidationError):
        round_close(round_=round_, user=organizer)
    result_confirm(submission=table.submissions.get(), user=organizer)
    round_close(round_=round_, user=organizer)
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    with pytest.raises(ValidationError):
        result_confirm(submission=table.submissions.get(), user=organizer)
    assert round_reopen(round_=round_, user=organizer).status == Round.Status.OPEN


def test_round_cannot_skip_states(tournament, players, organizer):
    round_ = round_seat(tournament=tournament, user=organizer, seed=1)
    with pytest.raises(ValidationError):
        round_open(round_=round_, user=organizer)
    with pytest.raises(ValidationError):
        round_reopen(round_=round_, user=organizer)


def test_later_rounds_avoid_repeat_table_mates_where_possible(tournament, players, organizer):
    play_round(tournament, organizer, seed=1)
    round_ = round_seat(tournament=tournament, user=organizer, seed=2)
    history = seating_history(tournament, before_round=2)
    from engine.seating import seating_report

    proposal = seating_history(tournament)[1]
    assert round_.number == 2
    # 12 players at 3 tables of 4: a second round can always avoid every repeat in theory,
    # the engine must not produce more than a handful.
    assert len(seating_report(history, proposal, 4).new_repeats) <= 3


def test_standings_rank_over_closed_rounds(tournament, players, organizer):
    play_round(tournament, organizer, seed=1, points=(0, 10, 20, 30))
    rounds, lines = standings(tournament)
    assert rounds == [1]
    totals = sorted(line.row.total for line in lines)
    assert totals == [0, 0, 0, 10, 10, 10, 20, 20, 20, 30, 30, 30]
    winners = [line for line in lines if line.row.total == 0]
    assert all(line.row.rank == 1 and line.row.shared for line in winners)


def test_other_user_is_not_organizer(tournament):
    stranger = UserFactory(username="stranger")
    assert not organizes(stranger, tournament)
    RegistrationFactory(tournament=tournament)
    assert tournament.registrations.count() == 1


def test_state_rules_are_enforced_by_the_services(tournament, organizer, players):
    import pytest
    from django.core.exceptions import ValidationError

    round_ = round_seat(tournament=tournament, user=organizer, seed=1)
    round_publish(round_=round_, user=organizer)
    with pytest.raises(ValidationError, match="Close round 1"):
        round_seat(tournament=tournament, user=organizer, seed=2)
    with pytest.raises(ValidationError):
        registration_readmit(registration=players[0], user=organizer)
    registration_withdraw(registration=players[0], user=organizer)
    with pytest.raises(ValidationError):
        registration_withdraw(registration=players[0], user=organizer)


def test_a_table_made_too_small_by_a_withdrawal_is_not_published(tournament, organizer, players):
    import pytest
    from django.core.exceptions import ValidationError

    round_ = round_seat(tournament=tournament, user=organizer, seed=1)
    first_table = list(round_.tables.get(number=1).seats.values_list("registration_id", flat=True))
    for reg in players:
        if reg.pk in first_table[:2]:
            registration_withdraw(registration=reg, user=organizer)
    with pytest.raises(ValidationError, match="draw the round again"):
        round_publish(round_=round_, user=organizer)
    redrawn = round_seat(tournament=tournament, user=organizer, seed=2)
    round_publish(round_=redrawn, user=organizer)


def test_a_threshold_tournament_ends_when_a_total_reaches_it(tournament, organizer, players):
    import pytest
    from django.core.exceptions import ValidationError

    from tests.factories import play_round

    tournament.end_rule, tournament.threshold = "threshold", 25
    tournament.save()
    play_round(tournament, organizer, points=(0, 10, 20, 30))
    assert tournament_finished(tournament)
    with pytest.raises(ValidationError, match="finished"):
        round_seat(tournament=tournament, user=organizer, seed=2)
    tournament.threshold = 200
    tournament.save()
    assert not tournament_finished(tournament)
    assert round_seat(tournament=tournament, user=organizer, seed=2).number == 2
