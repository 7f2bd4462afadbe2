"""Text and numbers enter through one rule (tournament/fields.py over engine.text and engine.numbers):
the reproductions of #15 items 3 and 9 get a clear answer, never a 500, and store nothing."""

import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from tests.factories import play_round, tournament_form_data
from tournament.models import Player, Registration, Round


def url(name, tournament, *args):
    return reverse(f"organizer:{name}", args=[tournament.pk, *args])


@pytest.mark.parametrize("value", ["²", "٣", "\uff11\uff12"])
def test_odd_digits_in_get_parameters_are_ignored(organizer_client, tournament, players, organizer, value):
    play_round(tournament, organizer, seed=1)
    for name, params in (
        ("desk", {"q": value}),
        ("standings", {"after": value}),
        ("standings_export", {"after": value}),
        ("standings_export", {"after": value, "format": "xlsx"}),
    ):
        response = organizer_client.get(url(name, tournament), params)
        assert response.status_code == 200, (name, response.status_code)


@pytest.mark.parametrize("seed", ["²", "٣", "9" * 20, "-1", "1e5"])
def test_a_seed_that_is_no_number_or_too_large_is_refused(organizer_client, tournament, players, seed):
    response = organizer_client.post(url("round_seat", tournament), {"seed": seed}, follow=True)
    assert response.status_code == 200
    assert "The seed must be a whole number." in response.content.decode()
    assert not Round.objects.filter(tournament=tournament).exists()


def test_a_large_seed_the_column_holds_is_used(organizer_client, tournament, players):
    organizer_client.post(url("round_seat", tournament), {"seed": str(2**63 - 1)})
    assert Round.objects.get(tournament=tournament).seed == 2**63 - 1


def test_known_player_with_odd_digits_adds_nobody(organizer_client, tournament, players):
    before = Registration.objects.count()
    response = organizer_client.post(url("player_add", tournament), {"known_player": ["²", "٣"]}, follow=True)
    assert response.status_code == 200
    assert "Select a valid choice" in response.content.decode()
    assert Registration.objects.count() == before


@pytest.mark.parametrize("ch", ["\x1b", "\x0b", "\x07", "\x0c", "\x00", "\u202e"])
def test_control_characters_in_a_name_are_refused_and_the_export_keeps_working(
    organizer_client, tournament, players, organizer, ch
):
    reg = players[0]
    before = Player.objects.get(pk=reg.player_id).first_name
    response = organizer_client.post(
        url("player_edit", tournament, reg.pk),
        {"first_name": f"Ann{ch}a", "last_name": "Alt", "club": "", "birth_date": "", "birth_year": ""},
    )
    assert response.status_code == 200
    assert "Control characters" in response.content.decode()
    assert Player.objects.get(pk=reg.player_id).first_name == before
    play_round(tournament, organizer, seed=1)
    xlsx = organizer_client.get(url("standings_export", tournament), {"format": "xlsx"})
    assert xlsx.status_code == 200
    assert load_workbook(io.BytesIO(xlsx.content)).active.max_row == 2 + len(players)


@pytest.mark.parametrize("year", ["١٩٧٠", "\uff11\uff19\uff17\uff10", "1970²"])
def test_unicode_digits_in_a_year_are_refused_like_the_engine_does(organizer_client, tournament, year):
    response = organizer_client.post(
        url("player_add", tournament),
        {"first_name": "Nina", "last_name": "Neu", "club": "", "birth_date": "", "birth_year": year},
    )
    assert "Enter a whole number in digits 0-9." in response.content.decode()
    assert not Player.objects.filter(last_name="Neu").exists()


def test_settings_refuse_unicode_digits(organizer_client, tournament):
    data = tournament_form_data(rounds_total="٦")
    response = organizer_client.post(url("tournament_edit", tournament), data)
    assert "Enter a whole number in digits 0-9." in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.rounds_total == 6


def test_names_are_stored_in_nfc(organizer_client, tournament):
    organizer_client.post(
        url("player_add", tournament),
        {"first_name": "Jo\u0308rg", "last_name": "Mu\u0308ller", "club": "", "birth_year": ""},
    )
    assert Player.objects.filter(first_name="Jörg", last_name="Müller").exists()
