"""The real-browser tests write nothing into the checkout (#51 point 10): a round closed through the
live server writes its backup, and an uploaded logo its file, into the test's temporary folder, never
into var/ where the hall laptop's Sicherungen page would list them beside the real evenings."""

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.files.storage import default_storage, storages
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.conftest import twelve_players
from tests.factories import play_round
from tournament.tournaments.services import tournament_set_logo

pytestmark = pytest.mark.django_db(transaction=True)

CHECKOUT = Path(django_settings.BASE_DIR).resolve()
PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4"
    b"\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND"
    b"\xaeB`\x82"
)


def test_the_storages_of_a_browser_test_lie_in_its_temporary_folder(tmp_path):
    for folder in (storages["backups"].location, default_storage.location):
        assert Path(folder).resolve().is_relative_to(tmp_path.resolve())
        assert not Path(folder).resolve().is_relative_to(CHECKOUT)


def test_a_closed_round_and_a_logo_write_into_the_temporary_folder(tmp_path, tournament, organizer):
    twelve_players(tournament)
    play_round(tournament, organizer, seed=3)
    tournament_set_logo(tournament=tournament, user=organizer,
                        logo=SimpleUploadedFile("logo.png", PNG, content_type="image/png"))
    written = [path for path in tmp_path.rglob("*") if path.is_file()]
    assert any(path.suffix == ".json" and "round-1" in path.name for path in written)
    assert any(path.suffix == ".png" for path in written)
