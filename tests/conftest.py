from pathlib import Path

import pytest
from django.test import override_settings
from whitenoise.middleware import WhiteNoiseMiddleware

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory

TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """The long suites first: the real-browser tests and the cross-cutting suites that walk every page
    or start the app in a subprocess (tests/tournament/test_*.py). pytest-xdist hands the modules out
    in this order, so both workers are still busy at the end instead of one waiting for the other's
    last long module. The order within a module (and pytest's grouping by fixtures) is kept."""

    def rank(item) -> int:
        if item.get_closest_marker("browser"):  # (tests/browser/conftest.py marks them)
            return 0
        return 1 if item.path.parent == TESTS / "tournament" else 2

    items.sort(key=rank)


@pytest.fixture(autouse=True, scope="session")
def static_files_listed_once():
    """The test client builds the middleware anew for every client, and WhiteNoise then lists and
    stats every static file (a tenth of a view test's time); they do not change during a run."""
    original = WhiteNoiseMiddleware.add_files_from_finders
    listed: dict = {}

    def add_files_once(self) -> None:
        if not listed:
            original(self)
            listed.update(self.files)
        else:
            self.files.update(listed)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(WhiteNoiseMiddleware, "add_files_from_finders", add_files_once)
        yield


@pytest.fixture(autouse=True, scope="session")
def static_root_without_manifest(tmp_path_factory):
    """Pages name static files as in a checkout (`/static/css/app.css`), also after `make run` wrote
    hashed copies and their manifest into var/staticfiles (tests/tournament/test_static_files.py
    collects its own)."""
    with override_settings(STATIC_ROOT=tmp_path_factory.mktemp("staticfiles")):
        yield


@pytest.fixture(autouse=True)
def backup_dir(settings, tmp_path):
    """Every test, the real-browser ones too, writes backups (after every closed round) and uploads (a
    logo) into its own temporary folder, never into the checkout's var/, where the hall laptop's
    Sicherungen page would list them."""
    settings.BACKUP_DIR = tmp_path / "backups"
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.BACKUP_DIR


@pytest.fixture(autouse=True)
def pages_drawn_per_request(settings):
    """Tests read what a page was drawn from (`response.context`), which a page served from the store
    of the hall's pages has not: drawn anew on every request, except in the tests of that store
    (tests/tournament/live/test_stored_pages.py), which switch it on."""
    settings.STORED_PAGES = False


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
