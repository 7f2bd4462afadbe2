"""People are shown by their name where they gave one, by their user name otherwise (#51 point 20)."""

import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tournament.cashdesk.selectors import cash_record
from tournament.cashdesk.services import payment_record
from tournament.people.services import invitation_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def named(db):
    return UserFactory(username="orga7", first_name="Olga", last_name="Ordnung")


def test_the_header_the_invitations_and_the_cash_record_name_the_person(client, named):
    tournament = TournamentFactory(organizers=[named], entry_fee_cents=500)
    invitation_create(tournament=tournament, user=named, role="helper")
    payment_record(registration=RegistrationFactory(tournament=tournament), user=named, amount_cents=500,
                   method="cash")
    client.force_login(named)
    page = client.get(reverse("organizer:people", args=[tournament.pk])).content.decode()
    assert "(Olga Ordnung)" in page  # the header's "Log out (…)"
    assert "<td>Olga Ordnung</td>" in page  # who made the invitation
    assert [row.taken_by for row in cash_record(tournament).payments] == ["Olga Ordnung"]


def test_without_a_name_the_user_name(client):
    user = UserFactory(username="kasse")
    tournament = TournamentFactory(organizers=[user])
    client.force_login(user)
    assert "(kasse)" in client.get(reverse("organizer:tournament", args=[tournament.pk])).content.decode()
