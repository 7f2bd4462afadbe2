"""Upgrading to clubs (0016_organizations) on a copy of the demo database: every tournament keeps its
organizers and gets a club whose admins they are; series and player records follow their tournaments."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tournament.management.commands.load_demo import DEMO_NAME
from tournament.models import Player, Tournament

BEFORE = [("tournament", "0015_roles")]
AFTER = [("tournament", "0016_organizations")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.fixture
def at_latest_afterwards():
    yield
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("at_latest_afterwards")
def test_upgrade_gives_every_tournament_a_club_of_its_organizers():
    demo_owner = UserFactory(username="leonhard")
    call_command("load_demo", owner=demo_owner.username)
    other, helper = UserFactory(username="other"), UserFactory(username="helper")
    shared = Player.objects.filter(registrations__tournament__name=DEMO_NAME).first()
    # After the demo's evenings, whatever today is (they are dated from today).
    own = TournamentFactory(
        organizers=[other, helper], name="Anderer Abend", date=timezone.localdate() + dt.timedelta(days=1)
    )
    RegistrationFactory(tournament=own, player=shared)  # the demo's player plays here later too
    orphan = TournamentFactory(organizers=[], name="Ohne Organisator")
    organizers = {t.pk: set(t.organizers.values_list("pk", flat=True)) for t in Tournament.objects.all()}
    assert len(organizers) == 5  # the demo's three evenings, ours, the orphan

    apps = migrate(BEFORE)
    assert "organization" not in {f.name for f in apps.get_model("tournament", "Tournament")._meta.fields}
    apps = migrate(AFTER)

    Organization = apps.get_model("tournament", "Organization")
    Tournament_ = apps.get_model("tournament", "Tournament")
    assert sorted(Organization.objects.values_list("name", flat=True)) == [
        "Verein von leonhard", "Verein von other",
    ]
    leonhard = Organization.objects.get(name="Verein von leonhard")
    assert set(leonhard.admins.values_list("username", flat=True)) == {"leonhard"}
    other_club = Organization.objects.get(name="Verein von other")
    assert set(other_club.admins.values_list("username", flat=True)) == {"other", "helper"}
    for tournament in Tournament_.objects.all():
        assert set(tournament.organizers.values_list("pk", flat=True)) == organizers[tournament.pk]
        if tournament.pk == orphan.pk:
            assert tournament.organization_id is None
        else:
            first = min(organizers[tournament.pk])
            assert tournament.organization.admins.filter(pk=first).exists(), tournament.name
    demo = Tournament_.objects.filter(name=DEMO_NAME).get()
    assert demo.organization_id == leonhard.pk
    series = apps.get_model("tournament", "Series").objects.get(pk=demo.series_id)
    assert series.organization_id == leonhard.pk
    Player_ = apps.get_model("tournament", "Player")
    demo_players = Player_.objects.filter(registrations__tournament=demo)
    assert demo_players.count() == 23
    assert set(demo_players.values_list("organization_id", flat=True)) == {leonhard.pk}
    # A record used by both clubs belongs to the one where it played first (the demo's earlier evenings).
    assert Player_.objects.get(pk=shared.pk).organization_id == leonhard.pk
