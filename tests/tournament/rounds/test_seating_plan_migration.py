"""Migration 0013: a plan of all rounds kept in the tournament's row becomes its SeatingPlan, and back."""

import datetime

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournament", "0012_person_keys")]
AFTER = [("tournament", "0013_seating_plan_model")]
DAY = datetime.date(2026, 12, 6)


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_a_stored_plan_dict_moves_into_the_model_and_back():
    try:
        apps = migrate(BEFORE)
        Tournament = apps.get_model("tournament", "Tournament")
        planned = Tournament.objects.create(name="Geplant", date=DAY, seating_plan={
            "players": [9, 3, 5, 7, 4, 8], "sizes": [3, 3], "seed": 77,
            "rounds": {"3": [[9, 3, 5], [7, 4, 8]], "2": [[3, 4, 5], [7, 8, 9]]},
        })
        plain = Tournament.objects.create(name="Ohne Plan", date=DAY)

        apps = migrate(AFTER)
        SeatingPlan = apps.get_model("tournament", "SeatingPlan")
        plan = SeatingPlan.objects.get(tournament_id=planned.pk)
        assert (plan.kind, plan.players, plan.sizes, plan.seed, plan.from_round) == (
            "all", [3, 4, 5, 7, 8, 9], [3, 3], 77, 2
        )
        assert plan.rounds == [[[3, 4, 5], [7, 8, 9]], [[9, 3, 5], [7, 4, 8]]]
        assert not SeatingPlan.objects.filter(tournament_id=plain.pk).exists()

        apps = migrate(BEFORE)
        Tournament = apps.get_model("tournament", "Tournament")
        assert Tournament.objects.get(pk=planned.pk).seating_plan["rounds"] == {
            "2": [[3, 4, 5], [7, 8, 9]], "3": [[9, 3, 5], [7, 4, 8]],
        }
        assert Tournament.objects.get(pk=plain.pk).seating_plan == {}
    finally:
        migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
