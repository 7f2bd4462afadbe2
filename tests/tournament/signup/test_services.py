"""Sign-up: places up to the capacity, then the waiting list; withdrawals move it up, once."""

import datetime
import threading

import pytest
from django.core.exceptions import ValidationError
from django.db import connections
from django.utils import timezone

from tests.factories import TournamentFactory
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Signup
from tournament.signup.selectors import signup_counts, signup_list, waiting_position
from tournament.signup.services import (
    signup_approve,
    signup_create,
    signup_move,
    signup_refuse,
    signup_withdraw,
)

pytestmark = pytest.mark.django_db


def open_tournament(capacity=2, **extra):
    return TournamentFactory(signup_open=True, signup_capacity=capacity, **extra)


def sign(tournament, name, **extra):
    data = {"first_name": name, "last_name": "Muster", "club": "UNO Club", "birth_year": 1980, **extra}
    return signup_create(tournament=tournament, **data)


def statuses(tournament):
    return [(s.first_name, s.status) for s in tournament.signups.order_by("queue")]


def test_places_then_waiting_list():
    tournament = open_tournament(capacity=2)
    for name in ("Anna", "Ben", "Cem", "Dora"):
        sign(tournament, name)
    assert statuses(tournament) == [
        ("Anna", "confirmed"), ("Ben", "confirmed"), ("Cem", "waiting"), ("Dora", "waiting"),
    ]
    assert signup_counts(tournament).free == 0
    assert waiting_position(Signup.objects.get(first_name="Dora")) == 2
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP).count() == 4


def test_withdrawal_moves_the_first_waiting_up_with_an_audit_entry():
    tournament = open_tournament(capacity=2)
    anna, *_rest = [sign(tournament, name) for name in ("Anna", "Ben", "Cem", "Dora")]
    signup_withdraw(tournament=tournament, token=anna.token)
    assert statuses(tournament) == [
        ("Anna", "withdrawn"), ("Ben", "confirmed"), ("Cem", "confirmed"), ("Dora", "waiting"),
    ]
    promoted = AuditEntry.objects.get(action=AuditAction.SIGNUP_PROMOTE)
    assert promoted.after["name"] == "Cem Muster" and promoted.after["status"] == "confirmed"
    with pytest.raises(ValidationError) as error:
        signup_withdraw(tournament=tournament, token=anna.token)
    assert error.value.code == "already_withdrawn"
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_PROMOTE).count() == 1


def test_waiting_withdrawal_promotes_nobody():
    tournament = open_tournament(capacity=1)
    sign(tournament, "Anna")
    ben = sign(tournament, "Ben")
    sign(tournament, "Cem")
    signup_withdraw(tournament=tournament, token=ben.token)
    assert statuses(tournament) == [("Anna", "confirmed"), ("Ben", "withdrawn"), ("Cem", "waiting")]


def test_refusals_for_closed_deadline_bad_link_and_bad_data():
    tournament = TournamentFactory(signup_open=False)
    with pytest.raises(ValidationError) as error:
        sign(tournament, "Anna")
    assert error.value.code == "signup_closed"
    late = open_tournament(signup_deadline=timezone.now() - datetime.timedelta(minutes=1))
    with pytest.raises(ValidationError) as error:
        sign(late, "Anna")
    assert error.value.code == "signup_deadline"
    tournament = open_tournament()
    with pytest.raises(ValidationError) as error:
        signup_withdraw(tournament=tournament, token="not-a-token")
    assert error.value.code == "unknown_link"
    with pytest.raises(ValidationError):
        sign(tournament, "Anna", birth_year=1800)
    assert Signup.objects.count() == 0


def test_organizer_approves_refuses_and_moves(organizer):
    tournament = open_tournament(capacity=1)
    anna, ben, cem, dora = (sign(tournament, name) for name in ("Anna", "Ben", "Cem", "Dora"))
    signup_move(signup=dora, user=organizer, up=True)
    assert [s.first_name for s in signup_list(tournament) if s.status == "waiting"] == ["Ben", "Dora", "Cem"]
    with pytest.raises(ValidationError) as error:
        signup_move(signup=Signup.objects.get(pk=ben.pk), user=organizer, up=True)
    assert error.value.code == "at_end"
    signup_refuse(signup=anna, user=organizer)
    assert statuses(tournament)[:2] == [("Anna", "refused"), ("Ben", "confirmed")]
    signup_approve(signup=cem, user=organizer)  # beyond the capacity: the organizer's decision
    assert Signup.objects.get(pk=cem.pk).status == "confirmed"
    with pytest.raises(ValidationError) as error:
        signup_approve(signup=cem, user=organizer)
    assert error.value.code == "not_waiting"
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_MOVE, actor=organizer.username).count() == 1


def test_likely_duplicates_are_marked():
    tournament = open_tournament(capacity=None)
    sign(tournament, "Anna")
    sign(tournament, "anna", club="uno club")
    sign(tournament, "Anna", birth_year=1990)
    assert [s.duplicate for s in signup_list(tournament)] == [True, True, False]


def run_together(functions):
    barrier = threading.Barrier(len(functions))
    results, failures = [], []

    def run(function):
        try:
            barrier.wait()
            results.append(function())
        except ValidationError as exc:
            results.append(exc)
        except Exception as exc:  # collected so the main thread fails the test with it
            failures.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(function,)) for function in functions]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not failures, failures
    return results


@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_last_place_at_once_one_gets_it_the_other_waits():
    tournament = open_tournament(capacity=2)
    sign(tournament, "Anna")
    run_together([lambda: sign(tournament, "Ben"), lambda: sign(tournament, "Cem")])
    assert sorted(s.status for s in tournament.signups.exclude(first_name="Anna")) == ["confirmed", "waiting"]
    assert signup_counts(tournament).confirmed == 2


@pytest.mark.django_db(transaction=True)
def test_concurrent_withdrawals_move_the_waiting_list_up_exactly_once():
    tournament = open_tournament(capacity=2)
    anna, _ben, cem, dora = (sign(tournament, name) for name in ("Anna", "Ben", "Cem", "Dora"))
    results = run_together([lambda: signup_withdraw(tournament=tournament, token=anna.token)] * 3)
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 2 and {r.code for r in refused} == {"already_withdrawn"}
    assert Signup.objects.get(pk=cem.pk).status == "confirmed"
    assert Signup.objects.get(pk=dora.pk).status == "waiting"
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_PROMOTE).count() == 1
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_WITHDRAW).count() == 1
