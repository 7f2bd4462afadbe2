"""Clubs (Verein) side by side on one server: club A and club B each with their admins, tournaments,
series and player records. B's admin sees nothing of A but what is public; A's admins manage all of A."""

from __future__ import annotations

import datetime
import json

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import (
    OrganizationFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    tournament_form_data,
)
from tournament.backup.format import dumps
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.cashdesk.selectors import desk
from tournament.models import OrganizationLog, Player, Series, Tournament
from tournament.organizations.services import (
    organization_admin_add,
    organization_admin_remove,
    organization_create,
)
from tournament.permissions import administers, organizes
from tournament.permissions.scopes import administered_clubs, own_club
from tournament.players.selectors import known_players, mergeable_players
from tournament.players.services import player_register, registration_update
from tournament.series.selectors import series_of_user
from tournament.series.services import series_create
from tournament.tournaments.selectors import managed_tournament_ids, visible_tournaments
from tournament.tournaments.services import tournament_create


@pytest.fixture
def clubs(db):
    """A: admins anna (organizes the earlier evening) and alex (organizes nothing directly); B: admin bea."""
    anna, alex, bea = UserFactory(username="anna"), UserFactory(username="alex"), UserFactory(username="bea")
    a = OrganizationFactory(name="UNO-Freunde Leonhard", admins=[anna, alex])
    b = OrganizationFactory(name="Kartenclub Nord", admins=[bea])
    earlier = TournamentFactory(organizers=[anna], organization=a, name="A im Oktober",
                                date=datetime.date(2026, 10, 1))
    tonight = TournamentFactory(organizers=[anna], organization=a, name="A im November")
    b_evening = TournamentFactory(organizers=[bea], organization=b, name="B im November")
    hanna = PlayerFactory(first_name="Hanna", last_name="Herz", club=None, organization=a, birth_year=1980)
    RegistrationFactory(tournament=earlier, player=hanna)
    series = series_create(tournament=earlier, user=anna, name="Jahreswertung A")
    return {"anna": anna, "alex": alex, "bea": bea, "a": a, "b": b, "earlier": earlier, "tonight": tonight,
            "b_evening": b_evening, "hanna": hanna, "series": series}


def test_a_club_admin_manages_every_tournament_and_series_of_the_club(clubs):
    alex, bea = clubs["alex"], clubs["bea"]
    assert organizes(alex, clubs["tonight"]) and organizes(alex, clubs["series"])
    club = clubs["tonight"].organization
    assert administers(alex, club) and not administers(bea, club)
    assert not organizes(bea, clubs["tonight"]) and not organizes(bea, clubs["series"])
    assert managed_tournament_ids(alex) == {clubs["earlier"].pk, clubs["tonight"].pk}
    assert managed_tournament_ids(bea) == {clubs["b_evening"].pk}
    assert list(series_of_user(alex)) == [clubs["series"]]
    assert clubs["series"].organization == clubs["a"]
    assert list(series_of_user(bea)) == []


def test_another_clubs_admin_sees_only_what_is_public(clubs):
    bea = clubs["bea"]
    assert {t.name for t in visible_tournaments(bea)} == {"B im November"}
    client = Client()
    client.force_login(bea)
    home = client.get(reverse("home")).content.decode()
    assert "B im November" in home and "A im November" not in home
    assert client.get(reverse("organizer:tournament", args=[clubs["tonight"].pk])).status_code == 403
    assert client.get(reverse("public:tournament", args=[clubs["tonight"].pk])).status_code == 404
    clubs["tonight"].public = True
    clubs["tonight"].save()
    assert {t.name for t in visible_tournaments(bea)} == {"B im November", "A im November"}
    assert client.get(reverse("public:tournament", args=[clubs["tonight"].pk])).status_code == 200
    assert Client().get(reverse("public:tournament", args=[clubs["tonight"].pk])).status_code == 200
    assert client.get(reverse("organizer:tournament", args=[clubs["tonight"].pk])).status_code == 403


def test_known_players_desk_and_merge_candidates_stay_within_the_club(clubs):
    bea, hanna = clubs["bea"], clubs["hanna"]
    assert list(known_players(clubs["tonight"])) == [hanna]  # the club's, whoever asks
    assert list(known_players(clubs["b_evening"])) == []
    assert [line.pk for line in desk(clubs["tonight"], "Hanna").lines] == [hanna.pk]
    assert desk(clubs["b_evening"], "Hanna").lines == []
    assert hanna in mergeable_players(clubs["tonight"])
    assert hanna not in mergeable_players(clubs["b_evening"])
    client = Client()
    client.force_login(bea)
    page = client.get(reverse("organizer:desk", args=[clubs["b_evening"].pk]), {"q": "Hanna"})
    assert page.status_code == 200 and "Herz" not in page.content.decode()


def test_a_name_typed_at_another_club_never_finds_this_clubs_record(clubs):
    """B types Hanna Herz (A's record: same name, no club): B gets a record of its own, without A's year
    of birth, and A's record stays as it is; B's players list shows nothing of A's."""
    bea, hanna = clubs["bea"], clubs["hanna"]
    reg = player_register(tournament=clubs["b_evening"], user=bea, first_name="Hanna", last_name="Herz")
    assert reg.player_id != hanna.pk
    own = Player.objects.get(pk=reg.player_id)
    assert (own.birth_year, own.organization) == (None, clubs["b"])
    hanna.refresh_from_db()
    assert (hanna.birth_year, hanna.organization) == (1980, clubs["a"])
    client = Client()
    client.force_login(bea)
    page = client.get(reverse("organizer:players", args=[clubs["b_evening"].pk])).content.decode()
    assert "Hanna" in page and "1980" not in page
    b_later = TournamentFactory(organizers=[bea], organization=clubs["b"], name="B im Dezember")
    again = player_register(tournament=b_later, user=bea, first_name="hanna", last_name="HERZ")
    assert again.player_id == own.pk  # the club's own record is found again


def test_a_record_of_the_own_club_changes_in_place_for_any_of_its_admins(clubs):
    alex, hanna = clubs["alex"], clubs["hanna"]
    reg = RegistrationFactory(tournament=clubs["tonight"], player=hanna)
    changed = registration_update(registration=reg, user=alex, first_name="Hanna", last_name="Herz",
                                  birth_year=1979)
    hanna.refresh_from_db()
    assert changed.player_id == hanna.pk and hanna.birth_year == 1979


def test_a_record_owned_by_another_club_is_copied_even_when_no_tournament_of_it_uses_it(clubs):
    ole = PlayerFactory(
        first_name="Ole", last_name="Ohne", club=None, organization=clubs["a"], birth_year=None
    )
    reg = RegistrationFactory(tournament=clubs["b_evening"], player=ole)
    changed = registration_update(registration=reg, user=clubs["bea"], first_name="Ole", last_name="Ohne",
                                  birth_year=1990)
    ole.refresh_from_db()
    assert ole.birth_year is None
    assert Player.objects.get(pk=changed.player_id).organization == clubs["b"]


def test_new_tournaments_series_and_players_belong_to_the_club(clubs):
    bea = clubs["bea"]
    tournament = tournament_create(user=bea, name="B im Dezember", date=datetime.date(2026, 12, 20))
    assert tournament.organization == clubs["b"]
    series = series_create(tournament=tournament, user=bea, name="Saison B")
    assert Series.objects.get(pk=series.pk).organization == clubs["b"]
    reg = player_register(tournament=tournament, user=bea, first_name="Neu", last_name="Ling")
    assert reg.player.organization == clubs["b"]
    # With no club or several, a tournament is its organizer's alone (as before clubs).
    loner = UserFactory(username="loner")
    assert tournament_create(user=loner, name="Solo", date=datetime.date(2026, 12, 21)).organization is None
    OrganizationFactory(name="Zweiter Verein", admins=[bea])
    assert own_club(bea) is None


def test_admins_are_added_and_removed_with_a_log(clubs):
    anna, alex, bea, a = clubs["anna"], clubs["alex"], clubs["bea"], clubs["a"]
    organization_admin_add(organization=a, user=anna, username="BEA")
    assert set(a.admins.values_list("username", flat=True)) == {"anna", "alex", "bea"}
    assert organizes(bea, clubs["tonight"])
    with pytest.raises(ValidationError) as error:
        organization_admin_add(organization=a, user=anna, username="bea")
    assert error.value.code == "already_admin"
    with pytest.raises(ValidationError) as error:
        organization_admin_add(organization=a, user=anna, username="nobody")
    assert error.value.code == "no_such_user"
    organization_admin_remove(organization=a, user=anna, admin_pk=bea.pk)
    organization_admin_remove(organization=a, user=anna, admin_pk=alex.pk)
    with pytest.raises(ValidationError) as error:
        organization_admin_remove(organization=a, user=anna, admin_pk=anna.pk)
    assert error.value.code == "last_admin"
    assert list(a.admins.values_list("username", flat=True)) == ["anna"]
    assert [(e.action, e.detail, e.user) for e in a.log.order_by("pk")] == [
        (OrganizationLog.Action.ADMIN_ADD, "bea", anna),
        (OrganizationLog.Action.ADMIN_REMOVE, "bea", anna),
        (OrganizationLog.Action.ADMIN_REMOVE, "alex", anna),
    ]


def test_only_a_clubs_admin_changes_its_admins(clubs):
    with pytest.raises(PermissionDenied):
        organization_admin_add(organization=clubs["a"], user=clubs["bea"], username="bea")
    assert not clubs["a"].admins.filter(username="bea").exists()
    assert not clubs["a"].log.exists()


def test_organization_create_makes_its_creator_admin(db):
    user = UserFactory(username="gründerin")
    club = organization_create(user=user, name="  Neue   Kartenrunde ")
    assert club.name == "Neue Kartenrunde"
    assert list(administered_clubs(user)) == [club]
    assert club.log.get().action == OrganizationLog.Action.CREATE


def test_club_pages(clubs):
    anna, bea, a = clubs["anna"], clubs["bea"], clubs["a"]
    client = Client()
    client.force_login(bea)
    page = client.get(reverse("organizer:clubs")).content.decode()
    assert "Kartenclub Nord" in page and "UNO-Freunde Leonhard" not in page
    assert client.get(reverse("organizer:club", args=[a.pk])).status_code == 403
    add_url = reverse("organizer:club_admin_add", args=[a.pk])
    assert client.post(add_url, {"username": "bea"}).status_code == 403
    client.force_login(anna)
    page = client.get(reverse("organizer:club", args=[a.pk]), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Verein: UNO-Freunde Leonhard" in page and "A im November" in page and "B im November" not in page
    response = client.post(add_url, {"username": "bea"})
    assert response.status_code == 302 and a.admins.filter(username="bea").exists()
    response = client.post(add_url, {"username": "niemand"}, follow=True, HTTP_ACCEPT_LANGUAGE="de")
    assert "Es gibt keinen Benutzer mit diesem Namen." in response.content.decode()
    client.post(reverse("organizer:club_admin_remove", args=[a.pk]), {"admin": bea.pk})
    assert not a.admins.filter(username="bea").exists()


def test_a_new_club_from_the_clubs_page(clubs):
    client = Client()
    client.force_login(clubs["alex"])
    response = client.post(reverse("organizer:clubs"), {"name": "Dritter Verein"})
    club = clubs["alex"].administered_organizations.get(name="Dritter Verein")
    assert response["Location"] == reverse("organizer:club", args=[club.pk])
    page = client.post(reverse("organizer:clubs"), {"name": "Kartenclub Nord"})
    assert page.status_code == 200 and page.context["form"].errors["name"]
    assert list(administered_clubs(clubs["alex"]).values_list("name", flat=True)) == [
        "Dritter Verein", "UNO-Freunde Leonhard",
    ]


def test_an_admin_of_several_clubs_chooses_the_tournaments_club(clubs):
    """anna administers A and B: the new tournament's form asks which club (or none) it belongs to."""
    anna, b = clubs["anna"], clubs["b"]
    b.admins.add(anna)
    client = Client()
    client.force_login(anna)
    assert client.get(reverse("organizer:tournament_create")).context["organization_form"] is not None
    client.post(reverse("organizer:tournament_create"),
                tournament_form_data(name="Für B", **{"club-organization": str(b.pk)}))
    assert Tournament.objects.get(name="Für B").organization == b
    client.post(reverse("organizer:tournament_create"), tournament_form_data(name="Für niemanden"))
    assert Tournament.objects.get(name="Für niemanden").organization is None
    client.force_login(clubs["bea"])  # one club: no choice, the tournament is that club's
    assert client.get(reverse("organizer:tournament_create")).context["organization_form"] is None


def test_a_restored_tournament_belongs_to_the_restoring_admins_club(clubs):
    """The file's club means nothing on another server: the tournament and its new records are bea's
    club's; A's records are never looked at (Hanna of club A gets a record of B's too)."""
    anna, bea = clubs["anna"], clubs["bea"]
    tonight = clubs["tonight"]
    RegistrationFactory(tournament=tonight, player=clubs["hanna"])
    RegistrationFactory(tournament=tonight, player__first_name="Nur", player__last_name="Hier",
                        player__organization=clubs["a"])
    data = json.loads(dumps(export_tournament(tonight)))
    hier = next(row for row in data["players"] if row["last_name"] == "Hier")
    hier["birth_year"], hier["birth_date"] = 1999, None  # not found again: a new record
    restored = import_tournament(data, owner=bea)
    assert restored.organization == clubs["b"]
    assert organizes(bea, restored) and not organizes(anna, restored)
    owners = dict(restored.registrations.values_list("player__last_name", "player__organization"))
    assert owners == {"Herz": clubs["b"].pk, "Hier": clubs["b"].pk}
    assert restored.registrations.get(player__last_name="Herz").player_id != clubs["hanna"].pk
