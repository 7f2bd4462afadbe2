"""Two helpers at the admission desk at once (#41 item 2): the same person checked in and paid from two
devices in the same moment is registered, checked in and paid exactly once; the other is told why."""

import pytest
from django.core.exceptions import ValidationError

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tests.tournament.signup.test_services import run_together
from tournament.cashdesk.services import registration_admit, signup_check_in
from tournament.models import Payment, Registration
from tournament.signup.services import signup_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_signed_up_person_checked_in_from_two_devices_at_once_is_registered_and_paid_once():
    helpers = [UserFactory(username="door-a"), UserFactory(username="door-b")]
    tournament = TournamentFactory(organizers=helpers, signup_open=True, entry_fee_cents=800)
    anna = signup_create(tournament=tournament, first_name="Anna", last_name="Alt", birth_year=1980)
    results = run_together([
        lambda helper=helper: signup_check_in(signup=anna, user=helper, amount_cents=800, method="cash")
        for helper in helpers
    ])
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 1 and refused[0].code == "checked_in"
    assert Registration.objects.filter(tournament=tournament).count() == 1
    assert Payment.objects.filter(tournament=tournament).count() == 1


def test_one_registered_player_paid_from_two_devices_at_once_pays_once():
    helpers = [UserFactory(username="door-c"), UserFactory(username="door-d")]
    tournament = TournamentFactory(organizers=helpers, entry_fee_cents=800)
    reg = RegistrationFactory(tournament=tournament, start_number=1, status=Registration.Status.REGISTERED)
    results = run_together([
        lambda helper=helper: registration_admit(
            registration=reg, user=helper, amount_cents=800, method="cash"
        )
        for helper in helpers
    ])
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 1 and refused[0].code == "already_paid"
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN
    assert Payment.objects.filter(registration=reg).count() == 1
