"""Every write that can touch a player record, by the organizer of either tournament sharing it (#40
finding 2): the other organizer's tournament keeps its record, unchanged and undeleted.

Two organizers' tournaments share one record ("Anna Alt, UNO Süd", as designed when the same name and
club are typed in both). Each path is walked by each organizer in turn; the other's registration must
still point to the same record with the same values, and the path must have done its work for the
one who walked it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournament.models import Player, Registration, Signup, Tournament
from tournament.players.imports import ImportRow
from tournament.players.services import players_import

pytestmark = pytest.mark.django_db

VALUES = ("first_name", "last_name", "club__name", "birth_date", "birth_year", "gender", "member")


@dataclass
class Side:
    user: object
    client: Client
    tournament: Tournament  # shares the record
    fresh: Tournament  # another evening of theirs, where the shared person is not registered yet
    shared_reg: Registration
    own: Player  # a second spelling of the same person, registered in `fresh` only


def side(name: str, shared: Player) -> Side:
    user = UserFactory(username=name)
    client = Client()
    client.force_login(user)
    tournament = TournamentFactory(organizers=[user], name=f"{name} cup")
    fresh = TournamentFactory(organizers=[user], name=f"{name} autumn", signup_open=True)
    own = PlayerFactory(first_name="Anne", last_name="Alt", club=None, birth_year=1950, gender="f")
    RegistrationFactory(tournament=fresh, player=own, start_number=1)
    shared_reg = RegistrationFactory(tournament=tournament, player=shared, start_number=1)
    return Side(user, client, tournament, fresh, shared_reg, own)


@pytest.fixture
def sides():
    shared = PlayerFactory(
        first_name="Anna", last_name="Alt", club__name="UNO Süd", birth_year=None, gender=""
    )
    return side("alice", shared), side("bob", shared)


def snapshot(player_pk: int) -> dict:
    return Player.objects.filter(pk=player_pk).values(*VALUES).get()


def typed(**changes) -> dict:
    data = {"first_name": "Anna", "last_name": "Alt", "club": "UNO Süd", "birth_date": ""}
    return {**data, "birth_year": "2001", **changes}


def edit(actor: Side) -> None:
    url = reverse("organizer:player_edit", args=[actor.tournament.pk, actor.shared_reg.pk])
    assert actor.client.post(url, typed(first_name="Hacked")).status_code == 302
    actor.shared_reg.refresh_from_db()
    assert actor.shared_reg.player.first_name == "Hacked"


def add_typed(actor: Side) -> None:
    actor.client.post(reverse("organizer:player_add", args=[actor.fresh.pk]), typed())
    assert actor.fresh.registrations.get(player__first_name="Anna").player.birth_year == 2001


def import_list(actor: Side) -> None:
    row = ImportRow(line=2, first_name="Anna", last_name="Alt", club="UNO Süd", birth_year=2001)
    assert players_import(tournament=actor.fresh, user=actor.user, rows=[row]) == (1, [])


def walk_in(actor: Side) -> None:
    data = {**typed(), "amount": "8", "method": "cash", "paid": "on", "membership": "member"}
    actor.client.post(reverse("organizer:door_walk_in", args=[actor.fresh.pk]), data)
    assert actor.fresh.registrations.get(player__first_name="Anna").player.birth_year == 2001


def signup_at_the_door(actor: Side) -> None:
    signup = Signup.objects.create(
        tournament=actor.fresh, first_name="Anna", last_name="Alt", club="UNO Süd", birth_year=2001, queue=1,
        status=Signup.Status.CONFIRMED,
    )
    url = reverse("organizer:door_signup", args=[actor.fresh.pk, signup.pk])
    actor.client.post(url, {"amount": "8", "method": "cash", "paid": "on"})
    assert actor.fresh.registrations.get(player__first_name="Anna").player.birth_year == 2001


def merge_shared_into_own(actor: Side) -> None:
    url = reverse("organizer:player_merge", args=[actor.tournament.pk])
    actor.client.post(url, {"keep": actor.own.pk, "duplicate": actor.shared_reg.player_id})
    actor.shared_reg.refresh_from_db()
    assert actor.shared_reg.player_id == actor.own.pk


def merge_own_into_shared(actor: Side) -> None:
    url = reverse("organizer:player_merge", args=[actor.tournament.pk])
    actor.client.post(url, {"keep": actor.shared_reg.player_id, "duplicate": actor.own.pk})
    actor.shared_reg.refresh_from_db()
    mine = actor.fresh.registrations.get().player
    assert actor.shared_reg.player_id == mine.pk  # one record for both of the actor's evenings ...
    assert (mine.first_name, mine.birth_year, mine.gender) == ("Anna", 1950, "f")  # ... with the data
    assert not Player.objects.filter(pk=actor.own.pk).exists()


PATHS = [
    edit, add_typed, import_list, walk_in, signup_at_the_door, merge_shared_into_own, merge_own_into_shared,
]


@pytest.mark.parametrize("path", PATHS, ids=[path.__name__ for path in PATHS])
@pytest.mark.parametrize("actor_index", [0, 1], ids=["alice writes", "bob writes"])
def test_no_write_changes_the_record_another_organizer_uses(sides, path, actor_index):
    actor, other = sides[actor_index], sides[1 - actor_index]
    shared_pk = other.shared_reg.player_id
    before = snapshot(shared_pk)
    path(actor)
    other.shared_reg.refresh_from_db()
    assert other.shared_reg.player_id == shared_pk
    assert snapshot(shared_pk) == before


def test_a_merge_within_one_organizers_tournaments_still_deletes_the_duplicate(sides):
    alice = sides[0]
    lone = PlayerFactory(first_name="Ana", last_name="Alt", club=None, birth_year=None)
    RegistrationFactory(tournament=alice.tournament, player=lone, start_number=2)
    url = reverse("organizer:player_merge", args=[alice.tournament.pk])
    alice.client.post(url, {"keep": alice.own.pk, "duplicate": lone.pk})
    assert not Player.objects.filter(pk=lone.pk).exists()
    assert alice.tournament.registrations.get(start_number=2).player_id == alice.own.pk
