"""The entry fee is set where the evening is prepared, and the desk says when none is set (#51 point 20)."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, tournament_form_data

pytestmark = pytest.mark.django_db


def test_the_settings_set_the_entry_fee(client, organizer):
    tournament = TournamentFactory(organizers=[organizer])
    client.force_login(organizer)
    page = client.get(reverse("organizer:tournament_edit", args=[tournament.pk])).content.decode()
    assert 'name="entry_fee"' in page
    url = reverse("organizer:tournament_edit", args=[tournament.pk])
    client.post(url, tournament_form_data(entry_fee="7,50"))
    tournament.refresh_from_db()
    assert tournament.entry_fee_cents == 750


def test_settings_posted_without_the_fee_keep_it(client, organizer):
    tournament = TournamentFactory(organizers=[organizer], entry_fee_cents=500)
    client.force_login(organizer)
    url = reverse("organizer:tournament_edit", args=[tournament.pk])
    client.post(url, tournament_form_data(venue="Saal"))
    tournament.refresh_from_db()
    assert (tournament.venue, tournament.entry_fee_cents) == ("Saal", 500)


def test_the_desk_says_when_no_fee_is_set(client, organizer):
    free = TournamentFactory(organizers=[organizer], entry_fee_cents=0)
    paid = TournamentFactory(organizers=[organizer], entry_fee_cents=800)
    client.force_login(organizer)
    assert 'id="no-entry-fee"' in client.get(reverse("organizer:desk", args=[free.pk])).content.decode()
    assert 'id="no-entry-fee"' not in client.get(reverse("organizer:desk", args=[paid.pk])).content.decode()
