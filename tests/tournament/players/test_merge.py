"""Two records of the same person (two spellings) merged: registrations move, an audit entry in every
tournament affected."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Player
from tournament.players.services import player_merge

pytestmark = pytest.mark.django_db


def test_merge_moves_registrations_and_audits_each_tournament(organizer):
    first, second, here = (TournamentFactory(organizers=[organizer]) for _ in range(3))
    keep = PlayerFactory(first_name="Jürgen", last_name="Maier", birth_year=None, gender="")
    duplicate = PlayerFactory(first_name="Jurgen", last_name="Meier", birth_year=1970, gender="m")
    RegistrationFactory(tournament=first, player=keep, start_number=1)
    moved_a = RegistrationFactory(tournament=second, player=duplicate, start_number=1)
    moved_b = RegistrationFactory(tournament=here, player=duplicate, start_number=1)
    result = player_merge(tournament=here, user=organizer, keep=keep, duplicate=duplicate)
    assert result.pk == keep.pk and not Player.objects.filter(pk=duplicate.pk).exists()
    moved_a.refresh_from_db()
    moved_b.refresh_from_db()
    assert moved_a.player_id == keep.pk and moved_b.player_id == keep.pk
    keep.refresh_from_db()
    assert (keep.birth_year, keep.gender, keep.last_name) == (1970, "m", "Maier")
    entries = AuditEntry.objects.filter(action=AuditAction.PLAYER_MERGE)
    assert sorted(entries.values_list("tournament_id", flat=True)) == sorted([second.pk, here.pk])
    assert entries.first().after == {"player": "Jürgen Maier", "player_id": keep.pk, "registrations_moved": 2}


def test_merge_refuses_two_registrations_in_one_tournament(organizer, tournament):
    keep, duplicate = PlayerFactory(), PlayerFactory()
    RegistrationFactory(tournament=tournament, player=keep, start_number=1)
    RegistrationFactory(tournament=tournament, player=duplicate, start_number=2)
    with pytest.raises(ValidationError) as refused:
        player_merge(tournament=tournament, user=organizer, keep=keep, duplicate=duplicate)
    assert refused.value.code == "both_registered"
    assert Player.objects.filter(pk=duplicate.pk).exists() and not AuditEntry.objects.exists()


def test_merge_refuses_the_same_record(organizer, tournament):
    player = PlayerFactory(birth_date=datetime.date(1980, 1, 1))
    with pytest.raises(ValidationError) as refused:
        player_merge(tournament=tournament, user=organizer, keep=player, duplicate=player)
    assert refused.value.code == "same_player"
