import pytest

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory


@pytest.fixture
def organizer(db):
    return UserFactory(username="orga")


@pytest.fixture
def tournament(organizer):
    return TournamentFactory(organizers=[organizer])


def twelve_players(tournament):
    """Twelve checked-in players of three clubs."""
    return [
        RegistrationFactory(tournament=tournament, start_number=i + 1, player__club__name=f"Club {i % 3}")
        for i in range(12)
    ]


@pytest.fixture
def players(tournament):
    return twelve_players(tournament)


@pytest.fixture
def organizer_client(client, organizer):
    client.force_login(organizer)
    return client
