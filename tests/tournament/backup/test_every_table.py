"""A backup carries every row an evening owns (#51 point 9).

What an evening owns is found by walking the models: every model with a path of CASCADE foreign keys to
`Tournament`. A finished evening with a row in each of them is backed up, deleted and restored; each
model's rows are then compared field by field (ids of the evening's own rows as their position among
that model's rows, so the new ids do not count). A model added later is compared without being listed
here, and a model the backup leaves out must be named in `NOT_CARRIED` with its reason.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import models

from tests.conftest import twelve_players
from tests.factories import MembershipFactory, OrganizationFactory, TournamentFactory, UserFactory, play_round
from tournament.backup.format import NOT_CARRIED, SECTIONS, dumps
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament, write_backup
from tournament.cashdesk.selectors import cash_record
from tournament.cashdesk.services import payment_record, prize_hand_over
from tournament.models import AuditEntry, Invitation, Player, Registration, SeatingPlan, Tournament
from tournament.people.services import invitation_create
from tournament.prizes.services import prizes_update
from tournament.signup.services import signup_create, signup_settings_update
from tournament.teams.services import team_create
from tournament.tournaments.services import tournament_delete

pytestmark = pytest.mark.django_db

# JSON fields that hold ids of the evening's rows (the stored seating plan: registrations).
JSON_IDS: dict[tuple[type[models.Model], str], type[models.Model]] = {
    (SeatingPlan, "players"): Registration,
    (SeatingPlan, "rounds"): Registration,
}


def owned_models() -> dict[type[models.Model], str]:
    """Every model an evening owns, with the lookup from it to its tournament."""
    found: dict[type[models.Model], str] = {Tournament: ""}
    grew = True
    while grew:
        grew = False
        for model in apps.get_app_config("tournament").get_models():
            if model in found:
                continue
            for field in model._meta.concrete_fields:
                target = field.related_model
                if field.is_relation and target in found and field.remote_field.on_delete is models.CASCADE:
                    found[model] = field.name + ("__" + found[target] if found[target] else "")
                    grew = True
                    break
    del found[Tournament]
    return found


def rows(model: type[models.Model], lookup: str, tournament: Tournament) -> list[models.Model]:
    return list(model.objects.filter(**{lookup: tournament}).order_by("pk"))


def picture(tournament: Tournament) -> dict[str, list[dict[str, Any]]]:
    """Each owned model's rows, their own ids left out and ids of the evening's rows as positions."""
    owned = owned_models()
    position = {
        model: {obj.pk: index for index, obj in enumerate(rows(model, lookup, tournament))}
        for model, lookup in owned.items()
    }
    position[Tournament] = {tournament.pk: 0}

    def mapped(value: Any, target: type[models.Model]) -> Any:
        if isinstance(value, list):
            return [mapped(item, target) for item in value]
        return None if value is None else position[target].get(value, ("missing", value))

    result = {}
    for model, lookup in owned.items():
        pictured = []
        for obj in rows(model, lookup, tournament):
            row: dict[str, Any] = {}
            for field in model._meta.concrete_fields:
                if field.primary_key or getattr(field, "auto_now", False):
                    continue
                value = getattr(obj, field.attname)
                if field.is_relation and field.related_model in position:
                    value = mapped(value, field.related_model)
                elif (model, field.name) in JSON_IDS:
                    value = mapped(value, JSON_IDS[model, field.name])
                row[field.name] = value
            for field in model._meta.many_to_many:
                linked = sorted(getattr(obj, field.name).values_list("pk", flat=True))
                row[field.name] = (
                    sorted(mapped(linked, field.related_model)) if field.related_model in position else linked
                )
            pictured.append(row)
        result[model._meta.label] = pictured
    return result


@pytest.fixture
def finished(organizer) -> Tournament:
    """A finished evening with a row in every table it owns: a prize handed over, a payment, a sign-up,
    a team, a helper, an invitation, the seating plan, the log."""
    club = OrganizationFactory(admins=[organizer])
    tournament = TournamentFactory(organizers=[organizer], rounds_total=2, organization=club)
    players = twelve_players(tournament)
    # The club's own records and people: a restore finds them again (never another club's).
    Player.objects.filter(registrations__tournament=tournament).update(organization=club)
    MembershipFactory(tournament=TournamentFactory(organizers=[organizer], organization=club),
                      user=UserFactory(username="tür"), role="viewer")
    signup_settings_update(tournament=tournament, user=organizer, signup_open=True, signup_capacity=20,
                           signup_deadline=None)
    signup_create(tournament=tournament, first_name="Sina", last_name="Spät", birth_year=1990)
    team_create(tournament=tournament, user=organizer, name="Die Roten", members=players[:2])
    MembershipFactory(tournament=tournament, user=get_user_model().objects.get(username="tür"))
    invitation_create(tournament=tournament, user=organizer, role="helper")
    prizes_update(tournament=tournament, user=organizer, entry_fee_cents=500, payout_percent=100,
                  prize_kind="percent", prize_table=[100], shared_places="split", goods_prizes=["Buch"],
                  prize_overrides={})
    for registration in players:
        payment_record(registration=registration, user=organizer, amount_cents=500, method="cash")
    play_round(tournament, organizer, seed=7, points=(0, 5, 10, 20))
    play_round(tournament, organizer, seed=8, points=(0, 5, 10, 20))
    tournament.refresh_from_db()
    winner = Registration.objects.get(
        pk=next(prize.registration_id for prize in cash_record(tournament).prizes if prize.amount_cents)
    )
    prize_hand_over(tournament=tournament, user=organizer, registration=winner)
    write_backup(tournament, 2)  # closing a round writes one once its transaction commits
    return tournament


def test_the_walk_finds_what_an_evening_owns():
    owned = set(owned_models())
    assert {m for _key, m in SECTIONS} | {SeatingPlan, Invitation} <= owned
    assert {"PrizeHandover", "Payment", "Membership", "Invitation"} <= {m.__name__ for m in owned}


def test_every_model_an_evening_owns_is_carried_or_named():
    carried = {model for _key, model in SECTIONS} | {SeatingPlan}
    assert set(owned_models()) - carried == set(NOT_CARRIED)


def test_a_round_trip_keeps_every_row_the_evening_owns(finished, organizer):
    before = picture(finished)
    not_carried = {model._meta.label for model in NOT_CARRIED}
    empty = [label for label, pictured in before.items() if not pictured and label not in not_carried]
    assert empty == [], "a row in every table that is carried"
    text = dumps(export_tournament(finished))
    tournament_delete(tournament=finished, user=organizer)
    restored = import_tournament(json.loads(text), owner=organizer)
    after = picture(restored)
    restore_entries = after[AuditEntry._meta.label][len(before[AuditEntry._meta.label]):]
    assert [entry["action"] for entry in restore_entries] == ["tournament_restore"]
    after[AuditEntry._meta.label] = after[AuditEntry._meta.label][:len(before[AuditEntry._meta.label])]
    for model in NOT_CARRIED:
        assert after.pop(model._meta.label) == []
        before.pop(model._meta.label)
    assert after == before


def test_the_prize_handed_over_is_in_the_cash_record_after_a_restore(finished, organizer):
    handed = cash_record(finished).paid_out_cents
    assert handed > 0
    restored = import_tournament(json.loads(dumps(export_tournament(finished))), owner=organizer)
    assert cash_record(restored).paid_out_cents == handed
