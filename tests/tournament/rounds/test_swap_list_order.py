"""The swap lists name players in German order (#51 item 16)."""

import pytest

from tests.factories import PlayerFactory, RegistrationFactory, seated_round
from tournament.models import Round
from tournament.rounds.forms import SwapForm
from tournament.rounds.selectors import seats_by_name

pytestmark = pytest.mark.django_db


def test_swap_lists_sort_umlauts_as_their_letter(tournament):
    regs = [
        RegistrationFactory(tournament=tournament, start_number=number,
                            player=PlayerFactory(first_name="Kim", last_name=last))
        for number, last in enumerate(["Zander", "Schröder", "Öztürk", "Schäfer", "Otto"], start=1)
    ]
    round_ = seated_round(tournament, regs, status=Round.Status.DRAFT)
    form = SwapForm(seats=seats_by_name(round_))
    for name in ("first", "second"):
        labels = [label.split(" (")[0] for value, label in form.fields[name].choices if value]
        assert labels == ["Kim Otto", "Kim Öztürk", "Kim Schäfer", "Kim Schröder", "Kim Zander"]
    first, second = (seat.pk for seat in seats_by_name(round_)[:2])
    bound = SwapForm({"first": first, "second": second}, seats=seats_by_name(round_))
    assert bound.is_valid(), bound.errors
