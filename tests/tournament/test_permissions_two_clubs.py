"""Two clubs on one server: nothing of one club reaches the other's team, by any URL.

Each club has an evening in the middle of the day (the URL map's world), an admin (who organizes the
evening), an organizer who is no admin, a helper and a viewer. Every URL is read from the resolver, so
a new URL or a new id in a URL is checked without anybody listing it:

- every organizer and print URL of club A, for each of club B's four people: GET and POST refused (403),
  nothing changes;
- every URL of club B's own evening that names a row by id (registrations, submissions, sign-ups,
  teams, players, people, invitations, backups, clubs), with one id replaced by club A's, for each of
  club B's people: refused (404, or 403 where the role may not open the URL at all; 405 for a GET of a
  POST-only URL), nothing changes.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import twelve_players
from tests.factories import TournamentFactory, UserFactory
from tests.tournament.test_permissions_matrix import row_counts, team_snapshot
from tests.tournament.urlmap import POST_ONLY, audience, build_world, named_urls, refreshed
from tournament.models import AuditEntry, Player, Tournament

pytestmark = pytest.mark.one_database  # who may open what: test_smoke opens every page on both

ROLES = ("admin", "organizer", "helper", "viewer")

# Kwargs naming a row by its id. Tokens are credentials, not ids (the captain's, sign-up's, invitation's
# and reset links are tested on their own); round and table numbers count within the evening.
ID_KWARGS = (
    "registration_pk", "submission_pk", "signup_pk", "team_pk", "player_pk", "user_pk", "invitation_pk",
    "backup_name", "organization_pk",
)

FORM = {"first_name": "Eve", "last_name": "Intruder", "club": "", "birth_year": "1990", "action": "in",
        "amount": "8", "method": "cash", "paid": "on", "username": "a-orga", "role": "viewer",
        "name": "Taken", "confirm_name": "Turnier"}


def club_world(prefix: str):
    organizer = UserFactory(username=f"{prefix}orga")
    tournament = TournamentFactory(organizers=[organizer], name=f"Abend {prefix}")
    world = build_world(
        organizer=organizer, tournament=tournament, players=twelve_players(tournament), prefix=prefix
    )
    Player.objects.filter(registrations__tournament=tournament).update(organization=tournament.organization)
    world.stored_backup()
    return world


@pytest.fixture(scope="module")
def module_clubs(module_db):
    return {"a": club_world("a-"), "b": club_world("b-")}


@pytest.fixture
def clubs(module_clubs, db):
    return {key: refreshed(world) for key, world in module_clubs.items()}


def person(world, role: str):
    return {
        "admin": world.organizer, "organizer": world.extra["person"], "helper": world.extra["helper"],
        "viewer": world.extra["viewer"],
    }[role]


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def state() -> tuple:
    return (
        row_counts(), AuditEntry.objects.count(), list(Tournament.objects.values_list("pk", "name")),
        [team_snapshot(t) for t in Tournament.objects.order_by("pk")],
    )


def urls_of(world, *, only_ids: bool = False):
    for name, kwarg_names in named_urls().items():
        if only_ids and not set(ID_KWARGS) & set(kwarg_names):
            continue
        if "token" in kwarg_names:
            continue
        for number in (1, 2) if "number" in kwarg_names else (2,):
            yield name, kwarg_names, world.kwargs_for(kwarg_names, number=number)


def test_the_clubs_are_apart_to_begin_with(clubs):
    a, b = clubs["a"], clubs["b"]
    assert a.tournament.organization != b.tournament.organization
    assert a.tournament.organization.admins.get() == a.organizer
    assert not b.tournament.organization.admins.filter(pk=b.extra["person"].pk).exists()


@pytest.mark.usefixtures("pdf_layout_skipped")
@pytest.mark.parametrize("role", ROLES)
def test_nobody_of_one_club_opens_or_changes_anything_of_the_other(clubs, role):
    a, b = clubs["a"], clubs["b"]
    client = client_of(person(b, role))
    before = state()
    cells = 0
    for name, _names, kwargs in urls_of(a):
        if audience(name) != "organizer":
            continue
        url = reverse(name, kwargs=kwargs)
        if name not in POST_ONLY:
            assert client.get(url).status_code == 403, (role, name, url)
        assert client.post(url, FORM).status_code == 403, (role, name, url)
        cells += 1
    assert cells > 100
    assert state() == before


@pytest.mark.usefixtures("pdf_layout_skipped")
@pytest.mark.parametrize("role", ROLES)
def test_an_id_of_the_other_club_in_ones_own_url_is_not_found(clubs, role):
    a, b = clubs["a"], clubs["b"]
    client = client_of(person(b, role))
    before = state()
    seen: set[str] = set()
    for name, names, kwargs in urls_of(b, only_ids=True):
        foreign = a.kwargs_for(names, number=kwargs.get("number", 2))
        for kwarg in set(ID_KWARGS) & set(names):
            if foreign[kwarg] == kwargs[kwarg]:
                continue
            url = reverse(name, kwargs={**kwargs, kwarg: foreign[kwarg]})
            allowed = {404, 403} if kwarg != "organization_pk" else {403}
            if name not in POST_ONLY:
                got = client.get(url).status_code
                assert got in allowed, (role, name, kwarg, url, got)
            got = client.post(url, FORM).status_code
            assert got in allowed | {405}, (role, name, kwarg, url, got)
            seen.add(kwarg)
    assert seen == set(ID_KWARGS), set(ID_KWARGS) - seen
    assert state() == before
