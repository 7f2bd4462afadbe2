"""Accounts: people who organize together, each with a password of their own."""

import pytest
from django.test import Client

from tests.factories import TournamentFactory, UserFactory

PASSWORD = "secret-pass-123"
NEW_PASSWORD = "Kartenmischen-2027"


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"


@pytest.fixture
def colleague(organizer):
    """Vera organizes a tournament with the organizer."""
    user = UserFactory(username="vera", first_name="Vera", last_name="Vergesslich")
    TournamentFactory(organizers=[organizer, user], name="Wintercup")
    return user


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client
