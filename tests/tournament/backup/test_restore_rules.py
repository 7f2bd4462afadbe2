"""A backup is validated like typed input: a refused restore changes nothing (#15 items 6 and 8)."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.factories import play_round, tournament_form_data
from tournament.backup.format import BackupError, dumps
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.models import AuditEntry, Club, Player, Registration, Round, Submission, Tournament


def counts():
    models = (Tournament, Club, Player, Registration, Round, Submission, AuditEntry)
    return {model.__name__: model.objects.count() for model in models}


@pytest.fixture
def backup(tournament, players, organizer):
    play_round(tournament, organizer, seed=1)
    return json.loads(dumps(export_tournament(tournament)))


def many_rounds(data):
    template = data["rounds"][0]
    data["rounds"] = [{**template, "id": 10_000 + n, "number": n} for n in range(1, 100_000)]


@pytest.mark.parametrize(("damage", "message"), [
    (many_rounds, "round 7, but the tournament has 6 rounds"),
    (lambda d: d["tournament"].update(rounds_total=99_999), "would be refused by the form"),
    (lambda d: d["tournament"].update(name="Cup\x00"), "control characters"),
    (lambda d: d["players"][0].update(first_name="An\x00na"), "control characters"),
    (lambda d: d["players"][0].update(last_name="Alt\x1b[31m"), "control characters"),
    (lambda d: d["clubs"][0].update(name="Club\x07"), "control characters"),
    (lambda d: d["audit"][0].update(actor="x\x00"), "control characters"),
    (lambda d: d["players"][0].update(first_name="x" * 500), "would be refused by the form"),
    (lambda d: d["players"][0].update(birth_year="١٩٧٠"), "would be refused by the form"),
    (lambda d: d["tournament"].update(threshold=10**20, end_rule="threshold"), "refused by the form"),
    (lambda d: d["clubs"][0].update(name="C" * 500), "longer than"),
])
def test_a_backup_the_forms_would_refuse_restores_nothing(backup, organizer, damage, message):
    damage(backup)
    before = counts()
    with pytest.raises(BackupError, match=message):
        import_tournament(backup, owner=organizer)
    assert counts() == before


def test_a_restored_tournament_can_be_saved_with_the_settings_form(backup, organizer, client):
    restored = import_tournament(backup, owner=organizer)
    client.force_login(organizer)
    data = tournament_form_data(name=restored.name, rounds_total=str(restored.rounds_total))
    response = client.post(reverse("organizer:tournament_edit", args=[restored.pk]), data)
    assert response.status_code == 302


def test_the_restore_page_names_the_problem(backup, organizer_client):
    backup["players"][0]["first_name"] = "An\x00na"
    before = counts()
    response = organizer_client.post(
        reverse("restore"), {"file": SimpleUploadedFile("b.json", json.dumps(backup).encode())}
    )
    assert response.status_code == 200
    assert "control characters" in response.content.decode()
    assert counts() == before
