"""Player records shared by several organizers' tournaments: copy-on-write (#15 item 1).

An organizer changes a record in place only when every tournament using it is theirs (each gets an
audit entry); otherwise the change makes a record of their own and the other tournaments keep theirs.
"""

import datetime

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournament.audit.actions import AuditAction
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.models import AuditEntry, Player, Registration
from tournament.players.imports import ImportRow
from tournament.players.services import players_import


@pytest.fixture
def alice_tournament(db):
    alice = UserFactory(username="alice")
    tournament = TournamentFactory(organizers=[alice], name="Alice cup", public=True)
    reg = RegistrationFactory(
        tournament=tournament, start_number=1,
        player=PlayerFactory(first_name="Anna", last_name="Alt", club__name="UNO Süd", birth_year=1950),
    )
    return tournament, reg


@pytest.fixture
def mallory(db):
    user = UserFactory(username="mallory")
    client = Client()
    client.force_login(user)
    return user, client, TournamentFactory(organizers=[user], name="Mallory cup")


def snapshot(player_pk):
    return Player.objects.filter(pk=player_pk).values(
        "first_name", "last_name", "club__name", "birth_date", "birth_year"
    ).get()


def typed(**changes):
    data = {"first_name": "Anna", "last_name": "Alt", "club": "UNO Süd", "birth_date": "", "birth_year": ""}
    data.update(changes)
    return data


def test_another_organizer_cannot_rename_a_shared_player(alice_tournament, mallory):
    a_tournament, a_reg = alice_tournament
    _user, client, b_tournament = mallory
    before, a_log = snapshot(a_reg.player_id), list(AuditEntry.objects.filter(tournament=a_tournament))
    client.post(reverse("organizer:player_add", args=[b_tournament.pk]), typed())
    b_reg = Registration.objects.get(tournament=b_tournament)
    assert b_reg.player_id != a_reg.player_id  # another organizer's record is never found by name
    response = client.post(
        reverse("organizer:player_edit", args=[b_tournament.pk, b_reg.pk]),
        typed(first_name="Hacked", birth_year="2001"),
    )
    assert response.status_code == 302
    assert snapshot(a_reg.player_id) == before
    b_reg.refresh_from_db()
    assert b_reg.player_id != a_reg.player_id
    assert (b_reg.player.first_name, b_reg.player.birth_year) == ("Hacked", 2001)
    assert list(AuditEntry.objects.filter(tournament=a_tournament)) == a_log
    change = AuditEntry.objects.get(tournament=b_tournament, action=AuditAction.REGISTRATION_UPDATE)
    assert change.before["name"] == "Anna Alt" and change.after["name"] == "Hacked Alt"


def test_typed_birth_data_do_not_change_another_organizers_record(alice_tournament, mallory):
    _a, a_reg = alice_tournament
    _user, client, b_tournament = mallory
    before = snapshot(a_reg.player_id)
    client.post(reverse("organizer:player_add", args=[b_tournament.pk]), typed(birth_date="2001-06-02"))
    assert snapshot(a_reg.player_id) == before
    b_player = Registration.objects.get(tournament=b_tournament).player
    assert b_player.pk != a_reg.player_id and b_player.birth_date == datetime.date(2001, 6, 2)


def test_the_import_follows_the_same_rule(alice_tournament, mallory):
    _a, a_reg = alice_tournament
    user, _client, b_tournament = mallory
    before = snapshot(a_reg.player_id)
    row = ImportRow(line=2, first_name="Anna", last_name="Alt", club="UNO Süd", birth_year=1999)
    assert players_import(tournament=b_tournament, user=user, rows=[row]) == (1, [])
    assert snapshot(a_reg.player_id) == before
    assert Registration.objects.get(tournament=b_tournament).player.birth_year == 1999


def test_a_restore_never_changes_a_record_found_by_name(alice_tournament, mallory):
    a_tournament, a_reg = alice_tournament
    user, _client, _b = mallory
    before = snapshot(a_reg.player_id)
    data = export_tournament(a_tournament)
    data["players"][0]["birth_year"] = 1990
    restored = import_tournament(data, owner=user)
    assert snapshot(a_reg.player_id) == before
    assert Registration.objects.get(tournament=restored).player.birth_year == 1990
    again = import_tournament(export_tournament(a_tournament), owner=user)
    assert Registration.objects.get(tournament=again).player_id != a_reg.player_id  # never another's
    same = import_tournament(export_tournament(a_tournament), owner=a_tournament.organizers.get())
    assert Registration.objects.get(tournament=same).player_id == a_reg.player_id  # her own: reused


def test_an_organizer_of_every_tournament_using_the_record_changes_it_in_place(alice_tournament):
    a_tournament, a_reg = alice_tournament
    alice = a_tournament.organizers.get()
    second = TournamentFactory(organizers=[alice], name="Alice league")
    second_reg = RegistrationFactory(tournament=second, player=a_reg.player, start_number=1)
    client = Client()
    client.force_login(alice)
    client.post(
        reverse("organizer:player_edit", args=[second.pk, second_reg.pk]), typed(first_name="Anne")
    )
    assert Player.objects.get(pk=a_reg.player_id).first_name == "Anne"
    assert Registration.objects.get(pk=second_reg.pk).player_id == a_reg.player_id
    elsewhere = AuditEntry.objects.get(tournament=a_tournament, action=AuditAction.PLAYER_UPDATE_SHARED)
    assert (elsewhere.before["name"], elsewhere.after["name"]) == ("Anna Alt", "Anne Alt")
    assert elsewhere.after["changed_in"] == "Alice league" and elsewhere.actor == "alice"
    assert AuditEntry.objects.filter(tournament=second, action=AuditAction.REGISTRATION_UPDATE).exists()


def test_a_co_organizer_of_only_one_tournament_gets_a_copy(alice_tournament, mallory):
    a_tournament, a_reg = alice_tournament
    user, client, b_tournament = mallory
    b_reg = RegistrationFactory(tournament=b_tournament, player=a_reg.player, start_number=1)
    a_tournament.organizers.add(user)  # mallory helps in Alice's cup too: now both are hers
    client.post(reverse("organizer:player_edit", args=[b_tournament.pk, b_reg.pk]), typed(last_name="Neu"))
    assert Player.objects.get(pk=a_reg.player_id).last_name == "Neu"
    a_tournament.organizers.remove(user)
    client.post(reverse("organizer:player_edit", args=[b_tournament.pk, b_reg.pk]), typed(last_name="Zed"))
    assert Player.objects.get(pk=a_reg.player_id).last_name == "Neu"
    assert Registration.objects.get(pk=b_reg.pk).player.last_name == "Zed"
