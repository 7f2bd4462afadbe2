"""Fixtures for the tournament tests. Captain tests: an open round with two tables of four."""

import datetime

import pytest
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from tests.conftest import twelve_players
from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournament.audit_guard import services_audited
from tests.tournament.urlmap import World, build_world, refreshed
from tournament.models import Round, Submission


@pytest.fixture
def open_round(tournament):
    return RoundFactory(tournament=tournament, number=1, status=Round.Status.OPEN)


QUICK_SEATING = 0.02


def _table(round_, number, players):
    table = TableFactory(round=round_, number=number)
    for position, player in enumerate(players, start=1):
        reg = RegistrationFactory(tournament=round_.tournament, player=player)
        SeatFactory(table=table, round=round_, registration=reg, position=position)
    return table


@pytest.fixture
def table(open_round):
    """Table 1: Anna (oldest, deals), Ben, Cem, Dora (youngest, starts)."""
    return _table(
        open_round,
        1,
        [
            PlayerFactory(first_name="Anna", last_name="Alt", birth_date=datetime.date(1950, 3, 1)),
            PlayerFactory(first_name="Ben", last_name="Berg", birth_year=1970),
            PlayerFactory(first_name="Cem", last_name="Cakir", birth_year=1980),
            PlayerFactory(first_name="Dora", last_name="Dorn", birth_date=datetime.date(2001, 6, 2)),
        ],
    )


@pytest.fixture
def other_table(open_round):
    return _table(open_round, 2, [PlayerFactory(first_name=f"Other{i}") for i in range(4)])


def seat_ids(table):
    return list(table.seats.order_by("position").values_list("registration_id", flat=True))


def report_data(table, *, winner=0, hands=("", "R7 Rev W", "7 7 +4", "Y0"), key="k1", **extra):
    """POST data: the player at index `winner` went out, the others hold `hands`."""
    ids = seat_ids(table)
    data = {"idempotency_key": key, "outcome": str(ids[winner])}
    for reg_id, hand in zip(ids, hands, strict=True):
        data[f"cards-{reg_id}"] = hand
    data.update(extra)
    return data


def use_mode(table, mode):
    """The table's evening with this `TableConfirmation` mode."""
    tournament = table.round.tournament
    tournament.table_confirmation = mode
    tournament.save(update_fields=["table_confirmation"])


def numbers(table):
    """Start numbers in seat order: [captain (seat 1), the second, the third, the fourth]."""
    return list(table.seats.order_by("position").values_list("registration__start_number", flat=True))


def report(client, table, key="v1", **kwargs):
    """The captain sends a report from the phone; the newest version of the table."""
    data = report_data(table, key=key, **kwargs)
    response = client.post(reverse("captain:table", args=[table.token]), data)
    assert response.status_code == 303
    return Submission.objects.filter(table=table).order_by("-version").first()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """PBKDF2 costs about a second per test user; these tests need no strong hashes."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def quick_seating(settings):
    """The app's flows need valid seatings, not the best: a small fraction of the search's budget (its
    quality is judged at the full budget in tests/engine and bench/seating.py)."""
    settings.SEATING_EFFORT = QUICK_SEATING


@pytest.fixture(autouse=True)
def english(settings):
    """Assertions read the English source strings, whatever translations exist."""
    settings.LANGUAGE_CODE = "en"


@pytest.fixture(autouse=True)
def isolated_cache(settings):
    """Each test gets an empty in-memory cache."""
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}
    }
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def pdf_layout_skipped(monkeypatch):
    """For walks whose subject is who may open a page or what headers it sends: each document's HTML is
    still built from its data, only WeasyPrint's layout (about a second for each of a walk's dozen
    documents) gives way to a fixed PDF. test_smoke and tests/tournament/documents lay out every one."""
    monkeypatch.setattr(
        "tournament.documents.typography.render_pdf", lambda html, **options: b"%PDF-1.7\n% layout skipped\n"
    )


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker, tmp_path_factory):
    """One database state built once for a module of many cases (the URL map, the bad-input data):
    everything the module's fixtures create sits in a transaction rolled back at the module's end, and
    each test runs in a savepoint inside it (pytest-django's `db`), so no test sees another's changes.
    Not for tests that need committed data (`transaction=True`, other threads)."""
    quiet = override_settings(
        SEATING_EFFORT=QUICK_SEATING,
        PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"],
        LANGUAGE_CODE="en",
        CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "build"}},
        BACKUP_DIR=tmp_path_factory.mktemp("backups"),
    )
    with django_db_blocker.unblock(), quiet, transaction.atomic():
        yield
        transaction.set_rollback(True)


@pytest.fixture(scope="module")
def module_world(module_db) -> World:
    """The URL map's tournament in the middle of the day, built once per module (see `module_db`)."""
    organizer = UserFactory(username="orga")
    tournament = TournamentFactory(organizers=[organizer])
    return build_world(organizer=organizer, tournament=tournament, players=twelve_players(tournament))


@pytest.fixture
def world(module_world, db) -> World:
    """The module's world for one test. Its organizer is the `organizer` fixture's user ("orga", got or
    created), so `organizer_client` is logged in as them."""
    return refreshed(module_world)


@pytest.fixture(autouse=True)
def services_write_with_audit_entries():
    """The stored pages' version is the evening's audit log: see tests/tournament/audit_guard.py."""
    with services_audited() as missing:
        yield missing  # (a test of the guard itself clears what it provoked)
