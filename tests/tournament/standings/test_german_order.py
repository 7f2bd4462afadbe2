"""Players sharing a place are listed by name as German readers sort (#51 item 16)."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, points_report, seated_round
from tournament.models import Registration, Round, Submission
from tournament.results.services import result_submit
from tournament.rounds.services import round_close
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db


def test_players_sharing_a_place_are_listed_in_german_order(tournament, organizer, client):
    # Created so that the ids' order (the engine's last word) is not the German order.
    regs = [
        RegistrationFactory(tournament=tournament, start_number=number,
                            status=Registration.Status.CHECKED_IN,
                            player=PlayerFactory(first_name="Kim", last_name=last))
        for number, last in enumerate(["Zander", "Schröder", "Öztürk", "Schäfer"], start=1)
    ]
    round_ = seated_round(tournament, regs, status=Round.Status.OPEN)
    table = round_.tables.get()
    result_submit(table=table, seats=points_report(table, (0, 10, 10, 10)),
                  source=Submission.Source.ORGANIZER, user=organizer, confirm_warnings=True)
    round_close(round_=round_, user=organizer)

    _rounds, lines = standings(tournament)
    assert [(line.row.rank, line.player.last_name) for line in lines] == [
        (1, "Zander"), (2, "Öztürk"), (2, "Schäfer"), (2, "Schröder"),
    ]
    client.force_login(organizer)
    page = client.get(reverse("organizer:standings", args=[tournament.pk])).content.decode()
    assert page.index("Öztürk") < page.index("Schäfer") < page.index("Schröder")
