"""Upgrading to roles (#45, migration 0015_roles) keeps every tournament with its organizers: the demo,
loaded with today's code, is taken back to the migration before and migrated forward again."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory
from tournament.models import Membership, Role, Tournament
from tournament.permissions import role_of

ROLES_MIGRATION = ("tournament", "0015_roles")


def migrate(targets) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.mark.django_db(transaction=True)
def test_every_tournament_keeps_its_organizers_through_the_upgrade(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    graph = MigrationExecutor(connection).loader.graph
    # The app's migration before this one, whatever the chain of merged branches puts there.
    (before,) = [node.key for node in graph.node_map[ROLES_MIGRATION].parents if node.key[0] == "tournament"]
    leaves = graph.leaf_nodes()
    organizer = UserFactory(username="orga")
    colleague = UserFactory(username="colleague")
    call_command("load_demo", owner=organizer.username)
    last = Tournament.objects.order_by("date").last()
    last.organizers.add(colleague)
    organizers = {
        t.pk: sorted(t.organizers.values_list("username", flat=True)) for t in Tournament.objects.all()
    }
    assert len(organizers) == 3 and organizers[last.pk] == ["colleague", "orga"]
    migrate([before])
    try:
        assert "tournament_membership" not in connection.introspection.table_names()
    finally:
        migrate(leaves)
    assert {
        t.pk: sorted(t.organizers.values_list("username", flat=True)) for t in Tournament.objects.all()
    } == organizers
    assert not Membership.objects.exists()
    for tournament in Tournament.objects.all():
        assert role_of(organizer, tournament) == Role.ORGANIZER
    client = Client()
    client.force_login(colleague)
    assert client.get(reverse("organizer:people", args=[last.pk])).status_code == 200
    assert client.get(reverse("organizer:tournament_edit", args=[last.pk])).status_code == 200
