"""The hall's pages forgive spelling and sort names as German readers do (#51 items 12, 16)."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, seated_round
from tournament.live.selectors import find_players, seating_alphabetical
from tournament.models import Round

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
LAST_NAMES = ["Zander", "Schröder", "Öztürk", "Weiß", "Schäfer", "Otto", "Müller", "Y\u0131lmaz"]


@pytest.fixture
def field(tournament):
    tournament.public = True
    tournament.save()
    regs = [
        RegistrationFactory(tournament=tournament, start_number=number,
                            player=PlayerFactory(first_name="Kim", last_name=last))
        for number, last in enumerate(LAST_NAMES, start=1)
    ]
    seated_round(tournament, regs, number=1)
    return regs


@pytest.mark.parametrize(
    ("typed", "found"),
    [("mueller", "Müller"), ("muller", "Müller"), ("MÜLLER", "Müller"), ("Schafer", "Schäfer"),
     ("schaefer", "Schäfer"), ("Weiss", "Weiß"), ("Yilmaz", "Y\u0131lmaz"), ("kim oztuerk", "Öztürk"),
     ("Ozturk", "Öztürk")],
)
def test_where_do_i_sit_forgives_spelling(tournament, field, client, typed, found):
    assert [reg.player.last_name for reg in find_players(tournament, typed)] == [found]
    html = client.get(reverse("public:seat_lookup", args=[tournament.pk]), {"q": typed}, headers=HX)
    assert f"Kim {found}" in html.content.decode()


def test_where_do_i_sit_lists_several_in_german_order(tournament, field):
    assert [reg.player.last_name for reg in find_players(tournament, "kim")] == [
        "Müller", "Otto", "Öztürk", "Schäfer", "Schröder", "Weiß", "Y\u0131lmaz", "Zander",
    ]


def test_the_projectors_seating_list_sorts_umlauts_as_their_letter(tournament, field):
    round_ = Round.objects.get(tournament=tournament, number=1)
    assert [line.sort_name for line in seating_alphabetical(round_)] == [
        "Müller, Kim", "Otto, Kim", "Öztürk, Kim", "Schäfer, Kim", "Schröder, Kim", "Weiß, Kim",
        "Y\u0131lmaz, Kim", "Zander, Kim",
    ]
