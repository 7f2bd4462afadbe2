"""An evening driven through the real services, so the audit log holds exactly what they write: every
action a service of today records, for the vocabulary tests (test_audit_vocabulary.py)."""

from __future__ import annotations

import datetime
import json

from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import TournamentFactory, UserFactory, colleague_of
from tests.tournament.conftest import report_data
from tournament.accounts.services import password_change, password_reset, reset_link_create
from tournament.backup.format import dumps
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.cashdesk.services import (
    cash_update,
    payment_record,
    payment_undo,
    prize_hand_over,
    prize_hand_over_undo,
    signup_check_in,
    walk_in,
)
from tournament.clock.services import clock_pause, clock_reset, clock_resume, clock_start
from tournament.models import Registration, Role, Round, Seat, Submission, TableConfirmation, Tournament
from tournament.people.services import (
    invitation_accept,
    invitation_create,
    invitation_withdraw,
    person_add,
    person_remove,
    series_team_take,
)
from tournament.players.services import (
    player_merge,
    player_register,
    registration_check_in,
    registration_readmit,
    registration_update,
    registration_withdraw,
)
from tournament.prizes.services import prizes_update
from tournament.results.forms import ResultForm
from tournament.results.services import result_confirm, result_player_check, result_submit
from tournament.rounds.services import (
    round_close,
    round_open,
    round_publish,
    round_reopen,
    round_seat,
    round_swap,
    seating_plan_create,
    table_regenerate_token,
)
from tournament.series.services import series_create, series_join, series_leave, series_update
from tournament.signup.services import (
    signup_approve,
    signup_create,
    signup_move,
    signup_refuse,
    signup_settings_update,
    signup_to_waiting,
    signup_withdraw,
)
from tournament.teams.services import team_create, team_delete, teams_separate
from tournament.tournaments.services import (
    reveal_step_set,
    standings_reveal,
    tournament_create,
    tournament_set_logo,
    tournament_update,
)

# A one-pixel PNG: the smallest logo the upload takes.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000100e221bc330000000049454e44ae426082"
)
NAMES = [("Anna", "Alt"), ("Ben", "Berg"), ("Cem", "Cakir"), ("Dora", "Dorn"), ("Emil", "Eck"),
         ("Frieda", "Fink"), ("Gül", "Gök"), ("Jana", "Jung")]


def _submit(table, winner: int) -> Submission:
    seats = list(table.seats.order_by("position"))
    hands = tuple("" if index == winner else hand for index, hand in enumerate(("R7", "R7 W", "7 +4", "Y0")))
    form = ResultForm(report_data(table, winner=winner, hands=hands, key=f"k{table.pk}"), seats=seats)
    assert form.is_valid(), form.errors
    outcome = result_submit(table=table, user=None, source=Submission.Source.CAPTAIN, token=table.token,
                            **{**form.report(), "confirm_warnings": True})
    assert outcome.submission is not None, outcome.validation
    return outcome.submission


def _sign_up(tournament: Tournament, first: str, last: str):
    return signup_create(tournament=tournament, first_name=first, last_name=last, club="UNO Süd",
                         birth_year=1980)


def drive_every_service(organizer) -> Tournament:
    """One tournament's evening (and a second tournament of the organizer for the shared records)."""
    tournament = tournament_create(
        user=organizer, name="Herbstturnier", date=datetime.date(2026, 11, 29), venue="Vereinsheim",
        rounds_total=2, table_size=4, table_min=4, table_max=4, standings_hidden_from=2,
    )
    tournament_update(
        tournament=tournament, user=organizer, changes={"venue": "Stadthalle", "time_limit_minutes": 20}
    )
    tournament_set_logo(
        tournament=tournament, user=organizer, logo=SimpleUploadedFile("logo.png", PNG, "image/png")
    )
    tournament_set_logo(tournament=tournament, user=organizer, logo=None)

    # The sign-up: two places, the rest waits.
    signup_settings_update(tournament=tournament, user=organizer, signup_open=True, signup_capacity=2,
                           signup_deadline=None)
    anna, ben, cem, dora = (_sign_up(tournament, first, last) for first, last in NAMES[:4])
    signup_move(signup=dora, user=organizer, up=True)
    signup_refuse(signup=dora, user=organizer)
    signup_approve(signup=dora, user=organizer)
    signup_to_waiting(signup=dora, user=organizer)
    signup_withdraw(tournament=tournament, token=cem.token, confirmed=True)
    signup_check_in(signup=anna, user=organizer, amount_cents=600, method="cash")
    signup_check_in(signup=ben, user=organizer, amount_cents=None, method="cash")

    # The desk and the players page.
    regs = [Registration.objects.get(signup__pk=pk) for pk in (anna.pk, ben.pk)]
    for first, last in NAMES[4:]:
        regs.append(walk_in(tournament=tournament, user=organizer, first_name=first, last_name=last,
                            amount_cents=500, method="transfer", reason="Vereinsrabatt"))
    hans = player_register(tournament=tournament, user=organizer, first_name="Hans", last_name="Huber",
                           club_name="UNO Nord", birth_year=1960)
    registration_check_in(registration=hans, user=organizer)
    registration_check_in(registration=hans, user=organizer, checked_in=False)
    registration_check_in(registration=hans, user=organizer)
    regs.append(hans)
    payment_record(registration=regs[1], user=organizer, amount_cents=600, method="cash")
    payment_undo(registration=regs[1], user=organizer)
    payment_record(registration=regs[1], user=organizer, amount_cents=600, method="cash")

    # A record shared with the organizer's other tournament, and a second spelling of a person there.
    other = TournamentFactory(organizers=[organizer], name="Sommerturnier")
    shared = player_register(tournament=other, user=organizer, first_name="Ida", last_name="Imhof")
    ida = player_register(tournament=tournament, user=organizer, first_name="Ida", last_name="Imhof")
    assert ida.player_id == shared.player_id
    registration_update(registration=ida, user=organizer, first_name="Ida", last_name="Imhof",
                        birth_year=1990, gender="f", member=True)
    typo = player_register(tournament=other, user=organizer, first_name="Hans", last_name="Hubr")
    player_merge(tournament=tournament, user=organizer, keep=hans.player, duplicate=typo.player)
    registration_withdraw(registration=ida, user=organizer)
    registration_readmit(registration=ida, user=organizer)

    team = team_create(tournament=tournament, user=organizer, name="Die Asse", members=regs[:2])
    team_delete(team=team, user=organizer)
    team_create(tournament=tournament, user=organizer, name="Die Asse", members=regs[:2])
    teams_separate(tournament=tournament, user=organizer, separate=False)
    teams_separate(tournament=tournament, user=organizer, separate=True)

    series = series_create(tournament=tournament, user=organizer, name="Wintercup")
    series_update(series=series, tournament=tournament, user=organizer, changes={"best_of": 3})
    series_leave(tournament=tournament, user=organizer)
    series_join(tournament=tournament, user=organizer, series=series)

    prizes_update(
        tournament=tournament, user=organizer, entry_fee_cents=600, payout_percent=50, prize_kind="percent",
        prize_table=[60, 40], shared_places="split", goods_prizes=["Pokal"], prize_overrides={"1": 1500},
    )
    tournament.refresh_from_db()  # the update saves the instance it is given: the one the page read
    tournament_update(tournament=tournament, user=organizer,
                      changes={"table_confirmation": TableConfirmation.PLAYER})

    # Round 1: planned, drawn, a swap, published, opened; the clock; results by the captains.
    seating_plan_create(tournament=tournament, user=organizer, seed=7)
    round1 = round_seat(tournament=tournament, user=organizer, seed=7)
    first, second = Seat.objects.filter(round=round1).order_by("table__number", "position")[::4][:2]
    round_swap(round_=round1, user=organizer, first=first, second=second)
    round_publish(round_=round1, user=organizer)
    round_open(round_=round1, user=organizer)
    clock_start(round_=round1, user=organizer, minutes=20)
    clock_pause(round_=round1, user=organizer)
    clock_resume(round_=round1, user=organizer)
    clock_reset(round_=round1, user=organizer)
    table_regenerate_token(table=round1.tables.get(number=1), user=organizer)
    table1, table2 = Round.objects.get(pk=round1.pk).tables.order_by("number")
    numbers = [seat.registration.start_number for seat in table1.seats.order_by("position")]
    agreed = _submit(table1, winner=0)
    result_player_check(table=table1, version=agreed.version, start_number=numbers[1], agrees=True)
    result_confirm(submission=agreed, user=organizer)
    disputed = _submit(table2, winner=1)
    table2_numbers = [seat.registration.start_number for seat in table2.seats.order_by("position")]
    result_player_check(table=table2, version=disputed.version, start_number=table2_numbers[2],
                        agrees=False, reason="Karten falsch gezählt")
    result_confirm(submission=disputed, user=organizer)
    round_close(round_=Round.objects.get(pk=round1.pk), user=organizer)
    round_reopen(round_=Round.objects.get(pk=round1.pk), user=organizer)
    round_close(round_=Round.objects.get(pk=round1.pk), user=organizer)

    # Round 2 and the end of the evening: standings revealed, the till, the prizes.
    round2 = round_seat(tournament=tournament, user=organizer, seed=8)
    round_publish(round_=round2, user=organizer)
    round_open(round_=round2, user=organizer)
    for table in Round.objects.get(pk=round2.pk).tables.order_by("number"):
        result_confirm(submission=_submit(table, winner=2), user=organizer)
    round_close(round_=Round.objects.get(pk=round2.pk), user=organizer)
    standings_reveal(tournament=tournament, user=organizer)
    reveal_step_set(tournament=tournament, user=organizer, step=1)
    cash_update(tournament=tournament, user=organizer, float_cents=5000, counted_cents=None, note="")
    winner = next(reg for reg in Registration.objects.filter(tournament=tournament) if _has_prize(reg))
    prize_hand_over(tournament=tournament, user=organizer, registration=winner)
    prize_hand_over_undo(tournament=tournament, user=organizer, registration=winner)
    prize_hand_over(tournament=tournament, user=organizer, registration=winner)

    # The evening's team: a helper added and removed, an invitation withdrawn, another accepted, the
    # series' organizers taken over.
    door = colleague_of(organizer, username="tuer")
    person_add(tournament=tournament, user=organizer, username="tuer", role=Role.HELPER)
    person_remove(tournament=tournament, user=organizer, person=door)
    withdrawn, _token = invitation_create(tournament=tournament, user=organizer, role=Role.VIEWER)
    invitation_withdraw(invitation=withdrawn, user=organizer)
    _invitation, token = invitation_create(tournament=tournament, user=organizer, role=Role.HELPER)
    invitation_accept(token=token, user=UserFactory(username="kasse"))
    tournament.series.organizers.add(UserFactory(username="saison"))
    series_team_take(tournament=tournament, user=organizer)
    # The series' team, changed from this evening (the entries say whose team).
    person_add(tournament=tournament, user=organizer, username="tuer", role=Role.VIEWER, of_series=True)
    person_remove(tournament=tournament, user=organizer, person=door, of_series=True)

    # The accounts (entries of no tournament): one's own password, and a colleague's reset link used.
    colleague = UserFactory(username="kollegin")
    tournament.organizers.add(colleague)
    organizer.set_password("alt-Passwort-2026")
    organizer.save()
    password_change(user=organizer, old_password="alt-Passwort-2026", new_password="neu-Passwort-2026!")
    link = reset_link_create(user=organizer, person=colleague)
    password_reset(person=colleague, token=link.token, new_password="Kollegin-Passwort-2026")

    import_tournament(json.loads(dumps(export_tournament(tournament))), owner=organizer)
    return tournament


def _has_prize(registration: Registration) -> bool:
    from tournament.cashdesk.selectors import cash_record

    return any(p.registration_id == registration.pk for p in cash_record(registration.tournament).prizes)
