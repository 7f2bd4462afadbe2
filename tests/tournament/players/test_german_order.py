"""Lists of players and clubs in German order (#51 item 16): Öztürk among the O's, Schäfer before
Schröder, whatever the database's collation."""

import pytest

from tests.factories import ClubFactory, PlayerFactory, RegistrationFactory, TournamentFactory
from tournament.players.forms import PlayerMergeForm
from tournament.players.selectors import club_names, known_players_listed, mergeable_players

pytestmark = pytest.mark.django_db

LAST = ["Zander", "Schröder", "Öztürk", "Schäfer", "Otto"]
GERMAN = ["Otto", "Öztürk", "Schäfer", "Schröder", "Zander"]


def test_the_merge_lists_and_the_club_suggestions_sort_umlauts_as_their_letter(tournament, organizer):
    for number, last in enumerate(LAST, start=1):
        RegistrationFactory(tournament=tournament, start_number=number,
                            player=PlayerFactory(first_name="Kim", last_name=last, club=None))
    form = PlayerMergeForm(players=mergeable_players(tournament))
    for name in ("keep", "duplicate"):
        assert [label.split(",")[0] for value, label in form.fields[name].choices if value] == GERMAN
    clubs = ["Zug", "Öhringen UNO", "Ostend", "Äpfel e.V.", "Bären"]
    for number, club in enumerate(clubs, start=10):
        player = PlayerFactory(first_name="Kim", last_name="Club", club=ClubFactory(name=club))
        RegistrationFactory(tournament=tournament, start_number=number, player=player)
    listed = [name for name in club_names(tournament) if name in clubs]
    assert listed == ["Äpfel e.V.", "Bären", "Öhringen UNO", "Ostend", "Zug"]


def test_known_players_of_earlier_evenings_in_german_order(tournament, organizer):
    earlier = TournamentFactory(organizers=[organizer])
    for number, last in enumerate(LAST, start=1):
        RegistrationFactory(tournament=earlier, start_number=number,
                            player=PlayerFactory(first_name="Kim", last_name=last, club=None))
    assert [p.last_name for p in known_players_listed(tournament)] == GERMAN
