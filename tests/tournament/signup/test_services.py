"""Sign-up: places up to the capacity, then the waiting list; withdrawals move it up, once."""

import datetime
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import connections
from django.utils import timezone

from tests.factories import RegistrationFactory, TournamentFactory
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Signup
from tournament.signup.selectors import signup_counts, signup_list, waiting_position
from tournament.signup.services import (
    signup_approve,
    signup_create,
    signup_move,
    signup_refuse,
    signup_settings_update,
    signup_to_waiting,
    signup_withdraw,
)

pytestmark = pytest.mark.django_db


def open_tournament(capacity=2, **extra):
    """An evening with its sign-up open, organized by the `organizer` fixture's account where the test
    has one (places and moves are the organizer's: the players capability)."""
    extra.setdefault("organizers", list(get_user_model().objects.filter(username="orga")))
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
    signup_withdraw(tournament=tournament, token=anna.token, confirmed=True)
    assert statuses(tournament) == [
        ("Anna", "withdrawn"), ("Ben", "confirmed"), ("Cem", "confirmed"), ("Dora", "waiting"),
    ]
    promoted = AuditEntry.objects.get(action=AuditAction.SIGNUP_PROMOTE)
    assert promoted.after["name"] == "Cem Muster" and promoted.after["status"] == "confirmed"
    with pytest.raises(ValidationError) as error:
        signup_withdraw(tournament=tournament, token=anna.token, confirmed=True)
    assert error.value.code == "already_withdrawn"
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_PROMOTE).count() == 1


def test_withdrawal_without_confirmation_changes_nothing():
    tournament = open_tournament(capacity=1)
    anna, _ben = sign(tournament, "Anna"), sign(tournament, "Ben")
    with pytest.raises(ValidationError) as error:
        signup_withdraw(tournament=tournament, token=anna.token, confirmed=False)
    assert error.value.code == "not_confirmed"
    assert statuses(tournament) == [("Anna", "confirmed"), ("Ben", "waiting")]  # the waiting list stays
    assert not AuditEntry.objects.filter(
        action__in=[AuditAction.SIGNUP_WITHDRAW, AuditAction.SIGNUP_PROMOTE]
    ).exists()
    # the other refusals come first: the question is only asked where withdrawing is possible
    signup_withdraw(tournament=tournament, token=anna.token, confirmed=True)
    with pytest.raises(ValidationError) as error:
        signup_withdraw(tournament=tournament, token=anna.token, confirmed=False)
    assert error.value.code == "already_withdrawn"


def test_waiting_withdrawal_promotes_nobody():
    tournament = open_tournament(capacity=1)
    sign(tournament, "Anna")
    ben = sign(tournament, "Ben")
    sign(tournament, "Cem")
    signup_withdraw(tournament=tournament, token=ben.token, confirmed=True)
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
        signup_withdraw(tournament=tournament, token="not-a-token", confirmed=True)
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
    withdraw = lambda: signup_withdraw(tournament=tournament, token=anna.token, confirmed=True)  # noqa: E731
    results = run_together([withdraw] * 3)
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 2 and {r.code for r in refused} == {"already_withdrawn"}
    assert Signup.objects.get(pk=cem.pk).status == "confirmed"
    assert Signup.objects.get(pk=dora.pk).status == "waiting"
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_PROMOTE).count() == 1
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_WITHDRAW).count() == 1


def waiting_names(tournament):
    return [s.first_name for s in signup_list(tournament) if s.status == "waiting"]


def reload(signup):
    return Signup.objects.get(pk=signup.pk)


def test_a_place_given_up_by_a_move_goes_to_nobody_until_approved_or_a_withdrawal(organizer):
    tournament = open_tournament(capacity=2)
    anna, ben, cem, dora = (sign(tournament, name) for name in ("Anna", "Ben", "Cem", "Dora"))
    signup_to_waiting(signup=anna, user=organizer, position=1)
    assert waiting_names(tournament) == ["Anna", "Cem", "Dora"]
    assert waiting_position(reload(anna)) == 1
    counts = signup_counts(tournament)
    assert (counts.confirmed, counts.waiting, counts.free, counts.over) == (1, 3, 1, 0)
    assert not AuditEntry.objects.filter(action=AuditAction.SIGNUP_PROMOTE).exists()
    entry = AuditEntry.objects.get(action=AuditAction.SIGNUP_TO_WAITING)
    assert entry.actor == organizer.username
    assert (entry.before["status"], entry.after["status"], entry.after["position"]) == (
        "confirmed", "waiting", 1
    )
    deadline = timezone.now() + datetime.timedelta(days=3)  # other settings leave the place free
    signup_settings_update(tournament=tournament, user=organizer, signup_open=True, signup_capacity=2,
                           signup_deadline=deadline)
    assert signup_counts(tournament).confirmed == 1
    emil = sign(tournament, "Emil")  # a free place, but people wait: Emil does not overtake them
    assert emil.status == "waiting" and waiting_names(tournament)[-1] == "Emil"
    signup_withdraw(tournament=tournament, token=ben.token, confirmed=True)  # fills free places from the top
    assert [reload(s).status for s in (anna, cem, dora)] == ["confirmed", "confirmed", "waiting"]
    assert signup_counts(tournament).confirmed == 2


def test_moves_to_a_chosen_position_to_the_end_and_within_the_waiting_list(organizer):
    tournament = open_tournament(capacity=1)
    anna, ben, cem, dora = (sign(tournament, name) for name in ("Anna", "Ben", "Cem", "Dora"))
    queues = sorted(tournament.signups.values_list("queue", flat=True))
    signup_to_waiting(signup=anna, user=organizer, position=2)
    assert waiting_names(tournament) == ["Ben", "Anna", "Cem", "Dora"]
    assert signup_counts(tournament).confirmed == 0  # nobody moved up into Anna's place
    signup_to_waiting(signup=dora, user=organizer, position=1)
    assert waiting_names(tournament) == ["Dora", "Ben", "Anna", "Cem"]
    signup_to_waiting(signup=ben, user=organizer)  # no position: the end
    assert waiting_names(tournament) == ["Dora", "Anna", "Cem", "Ben"]
    signup_to_waiting(signup=dora, user=organizer, position=99)  # beyond the end: the end
    assert waiting_names(tournament) == ["Anna", "Cem", "Ben", "Dora"]
    assert sorted(tournament.signups.values_list("queue", flat=True)) == queues  # same numbers, reordered
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_MOVE).count() == 3
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_TO_WAITING).count() == 1
    signup_approve(signup=reload(cem), user=organizer)
    assert (reload(cem).status, waiting_names(tournament)) == ("confirmed", ["Anna", "Ben", "Dora"])


def test_a_refused_person_can_be_put_back_on_the_waiting_list(organizer):
    tournament = open_tournament(capacity=1)
    anna, ben = sign(tournament, "Anna"), sign(tournament, "Ben")
    signup_refuse(signup=ben, user=organizer)
    signup_to_waiting(signup=reload(ben), user=organizer, position=1)
    assert (reload(ben).status, waiting_position(reload(ben))) == ("waiting", 1)
    assert reload(anna).status == "confirmed"


def test_moves_that_are_refused_change_nothing(organizer):
    tournament = open_tournament(capacity=1)
    anna, ben, cem = (sign(tournament, name) for name in ("Anna", "Ben", "Cem"))
    unlimited = open_tournament(capacity=None)
    free = sign(unlimited, "Frei")
    anna.registration = RegistrationFactory(tournament=tournament)
    anna.save(update_fields=["registration"])
    signup_withdraw(tournament=tournament, token=cem.token, confirmed=True)
    before = (statuses(tournament), AuditEntry.objects.count())
    cases = [
        (anna, 1, "checked_in"), (reload(cem), 1, "withdrawn"), (ben, 0, "bad_position"),
        (ben, 1, "same_position"), (ben, None, "same_position"), (free, 1, "no_capacity"),
    ]
    for signup, position, code in cases:
        with pytest.raises(ValidationError) as error:
            signup_to_waiting(signup=signup, user=organizer, position=position)
        assert error.value.code == code, (signup, position)
    assert (statuses(tournament), AuditEntry.objects.count()) == before


def test_approving_when_full_gives_a_place_beyond_the_capacity(organizer):
    tournament = open_tournament(capacity=1)
    sign(tournament, "Anna")
    ben = sign(tournament, "Ben")
    signup_approve(signup=ben, user=organizer)
    counts = signup_counts(tournament)
    assert (counts.confirmed, counts.capacity, counts.free, counts.over) == (2, 1, 0, 1)


@pytest.mark.django_db(transaction=True)
def test_a_sign_up_racing_the_organizers_move_never_takes_the_freed_place(organizer):
    tournament = open_tournament(capacity=2)
    anna, _ben = sign(tournament, "Anna"), sign(tournament, "Ben")
    results = run_together([
        lambda: signup_to_waiting(signup=anna, user=organizer, position=1),
        lambda: sign(tournament, "Cem"),
    ])
    assert not [r for r in results if isinstance(r, ValidationError)]
    assert statuses(tournament) == [("Anna", "waiting"), ("Ben", "confirmed"), ("Cem", "waiting")]
    assert waiting_names(tournament) == ["Anna", "Cem"]
    assert signup_counts(tournament).free == 1


@pytest.mark.django_db(transaction=True)
def test_two_organizers_moving_the_same_person_at_once_move_them_once(organizer):
    tournament = open_tournament(capacity=1)
    anna, _ben, _cem = (sign(tournament, name) for name in ("Anna", "Ben", "Cem"))
    results = run_together([lambda: signup_to_waiting(signup=anna, user=organizer, position=1)] * 2)
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert [r.code for r in refused] == ["same_position"]
    assert waiting_names(tournament) == ["Anna", "Ben", "Cem"]
    assert AuditEntry.objects.filter(action=AuditAction.SIGNUP_TO_WAITING).count() == 1
