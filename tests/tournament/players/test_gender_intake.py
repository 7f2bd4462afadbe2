"""Gender is asked (optionally, as membership is) wherever players come in (#51 point 2): typed on the
players page, imported from a column, the public sign-up (kept at check-in), the walk-in."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory
from tournament.cashdesk.services import signup_check_in
from tournament.models import Player, Signup
from tournament.players.imports import rows_from_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(organizer):
    return TournamentFactory(organizers=[organizer], signup_open=True, entry_fee_cents=500)


def test_a_typed_player_brings_gender_and_membership(client, organizer, evening):
    client.force_login(organizer)
    client.post(reverse("organizer:player_add", args=[evening.pk]), {
        "first_name": "Erna", "last_name": "Eck", "club": "", "birth_year": "1960", "gender": "f",
        "membership": "guest",
    })
    erna = Player.objects.get(first_name="Erna")
    assert (erna.gender, erna.member) == ("f", False)


def test_the_add_form_asks_gender_and_membership(client, organizer, evening):
    client.force_login(organizer)
    page = client.get(reverse("organizer:players", args=[evening.pk])).content.decode()
    assert 'name="gender"' in page and 'name="membership"' in page


def test_a_walk_in_brings_the_gender(client, organizer, evening):
    client.force_login(organizer)
    client.post(reverse("organizer:desk_walk_in", args=[evening.pk]), {
        "first_name": "Walter", "last_name": "Walk", "club": "", "birth_year": "1970", "membership": "member",
        "gender": "m", "amount": "5.00", "method": "cash", "paid": "on",
    })
    assert Player.objects.get(first_name="Walter").gender == "m"


def test_the_public_sign_up_asks_the_gender_and_check_in_keeps_it(client, organizer, evening):
    page = client.get(reverse("public:signup", args=[evening.pk])).content.decode()
    assert 'name="gender"' in page
    client.post(reverse("public:signup", args=[evening.pk]), {
        "first_name": "Sina", "last_name": "Spät", "club": "", "birth_year": "1990", "membership": "guest",
        "gender": "f", "email": "", "phone": "", "website": "",
    })
    signup = Signup.objects.get()
    assert signup.gender == "f"
    registration = signup_check_in(signup=signup, user=organizer, amount_cents=500, method="cash")
    assert registration.player.gender == "f"


def test_an_imported_list_brings_the_gender_column():
    result = rows_from_table([
        (1, ["Vorname", "Nachname", "Geschlecht"]),
        (2, ["Anna", "Alt", "w"]), (3, ["Ben", "Berg", "männlich"]), (4, ["Cem", "Cakir", ""]),
        (5, ["Dana", "Dorn", "D"]), (6, ["Emil", "Eck", "vielleicht"]),
    ])
    assert [(row.first_name, row.gender) for row in result.rows] == [
        ("Anna", "f"), ("Ben", "m"), ("Cem", ""), ("Dana", "d"),
    ]
    assert [problem.line for problem in result.errors] == [6]


def test_the_import_registers_the_gender(organizer, evening):
    from tournament.players.services import players_import

    result = rows_from_table([(1, ["Vorname", "Nachname", "Gender"]), (2, ["Anna", "Alt", "female"])])
    players_import(tournament=evening, user=organizer, rows=result.rows)
    assert Player.objects.get(first_name="Anna").gender == "f"
