"""The seating list on the wall sorts names in German order (#51 item 16)."""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory, seated_round
from tournament.documents.seating import seating_lines

pytestmark = pytest.mark.django_db


def test_the_wall_list_puts_ozturk_among_the_os_and_schafer_before_schroder(tournament):
    regs = [
        RegistrationFactory(tournament=tournament, start_number=number,
                            player=PlayerFactory(first_name="Kim", last_name=last))
        for number, last in enumerate(["Zander", "Schröder", "Öztürk", "Schäfer", "Otto", "Pohl"], start=1)
    ]
    round_ = seated_round(tournament, regs)
    assert [line.sort_name for line in seating_lines(round_)] == [
        "Otto, Kim", "Öztürk, Kim", "Pohl, Kim", "Schäfer, Kim", "Schröder, Kim", "Zander, Kim",
    ]
