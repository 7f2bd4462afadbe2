"""Backup and restore: one JSON file holds a whole tournament; restoring gives the same tournament."""

import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from engine.validation import SeatReport
from tests.conftest import twelve_players
from tests.factories import TournamentFactory, UserFactory, play_round, report_points
from tournament.backup.format import FORMAT_VERSION, BackupError, dumps, loads
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.models import (
    AuditEntry,
    Club,
    Player,
    Registration,
    Round,
    Seat,
    SeatingPlan,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
)
from tournament.permissions import organizes
from tournament.players.selectors import registrations
from tournament.players.services import registration_withdraw
from tournament.results.services import result_confirm, result_submit
from tournament.rounds.selectors import seating_plan
from tournament.rounds.services import round_close, round_reopen, round_seat
from tournament.standings.selectors import counted_rounds, standings
from tournament.tournaments.services import tournament_snapshot, tournament_update


@pytest.fixture(scope="module")
def module_played(module_db) -> Tournament:
    """Two closed rounds, a third open with a captain's report, a correction and a withdrawal: built
    once for the module (see `module_db`)."""
    organizer = UserFactory(username="orga")
    tournament = TournamentFactory(organizers=[organizer])
    players = twelve_players(tournament)
    tournament_update(tournament=tournament, user=organizer, changes={"rounds_total": 4})
    first = play_round(tournament, organizer, seed=11)
    table = first.tables.get(number=1)
    round_reopen(round_=first, user=organizer)
    result_submit(
        table=table, seats=report_points(table, round_number=1), source=Submission.Source.ORGANIZER,
        user=organizer, confirm_warnings=True,
    )
    round_close(round_=first, user=organizer)
    play_round(tournament, organizer, seed=22)
    registration_withdraw(registration=players[0], user=organizer)
    third = play_round(tournament, organizer, seed=33, close=False, skip_tables={2})
    captain_table = third.tables.get(number=2)
    result_submit(
        table=captain_table, seats=report_points(captain_table, round_number=3),
        source=Submission.Source.CAPTAIN, token=captain_table.token, ip_address="192.168.1.50",
        idempotency_key="abc123", confirm_warnings=True,
    )
    return tournament


@pytest.fixture
def played(module_played, db) -> Tournament:
    """The module's played tournament for one test (in a savepoint: what a test changes is undone)."""
    return Tournament.objects.get(pk=module_played.pk)


def plan_picture(tournament: Tournament) -> dict | None:
    """The stored seating plan with start numbers instead of registration ids."""
    plan = seating_plan(tournament)
    if plan is None:
        return None
    numbers = dict(tournament.registrations.values_list("pk", "start_number"))
    data = plan.to_json()
    data["players"] = [numbers[p] for p in data["players"]]
    data["rounds"] = [[[numbers[p] for p in table] for table in rnd] for rnd in data["rounds"]]
    return data


def picture(tournament: Tournament) -> dict:
    """Everything a restore must reproduce, without database ids."""
    _rounds, lines = standings(tournament)
    return {
        "seating_plan": plan_picture(tournament),
        "settings": tournament_snapshot(tournament),
        "standings": [
            (line.player.name, line.row.rank, line.row.total, dict(line.row.per_round)) for line in lines
        ],
        "rounds": list(
            tournament.rounds.values_list("number", "status", "seed", "published_at", "closed_at")
        ),
        "registrations": [
            (r.start_number, r.player.name, r.player.club_name, r.player.birth_year, r.status,
             r.withdrawn_after_round)
            for r in registrations(tournament)
        ],
        "tables": list(Table.objects.filter(round__tournament=tournament)
                       .order_by("round__number", "number")
                       .values_list("round__number", "number", "token", "status")),
        "seats": list(Seat.objects.filter(round__tournament=tournament)
                      .order_by("round__number", "table__number", "position")
                      .values_list("round__number", "table__number", "position",
                                   "registration__start_number")),
        "submissions": list(Submission.objects.filter(table__round__tournament=tournament)
                            .order_by("table__round__number", "table__number", "version")
                            .values_list("table__round__number", "table__number", "version", "source",
                                         "confirmed", "created_at", "created_by__username", "token",
                                         "ip_address", "idempotency_key", "confirmed_at")),
        "entries": list(SubmissionEntry.objects.filter(submission__table__round__tournament=tournament)
                        .order_by("submission__table__round__number", "submission__table__number",
                                  "submission__version", "registration__start_number")
                        .values_list("submission__table__number", "submission__version",
                                     "registration__start_number", "cards", "hand_points", "score",
                                     "went_out")),
        "audit": list(AuditEntry.objects.filter(tournament=tournament).exclude(action="tournament_restore")
                      .order_by("created_at", "id")
                      .values_list("action", "actor", "user__username", "round__number", "table__number",
                                   "before", "after", "created_at")),
    }


def test_export_is_json_with_format_version_and_every_section(played):
    data = json.loads(dumps(export_tournament(played)))
    assert data["format"] == "uno-tournament-backup" and data["version"] == FORMAT_VERSION
    assert len(data["registrations"]) == 12 and len(data["players"]) == 12 and len(data["clubs"]) == 3
    assert [r["number"] for r in data["rounds"]] == [1, 2, 3]
    assert len(data["tables"]) == 9 and len(data["seats"]) == 12 + 12 + 11
    assert any(s["idempotency_key"] == "abc123" for s in data["submissions"])
    assert data["tournament"]["organizers"] == ["orga"]
    actions = {a["action"] for a in data["audit"]}
    assert actions >= {"round_close", "round_reopen", "result_submit", "withdraw"}
    # The plan round 3 was seated from, made after the withdrawal: 11 players, rounds 3 and 4.
    plan = data["seating_plan"]
    shape = (plan["kind"], plan["from_round"], len(plan["players"]), len(plan["rounds"]))
    assert shape == ("followed", 3, 11, 2)
    assert set(plan["players"]) < {r["id"] for r in data["registrations"]}


def test_round_trip_into_an_empty_database_is_identical(played, organizer):
    before = picture(played)
    text = dumps(export_tournament(played))
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()
    assert not Submission.objects.exists()

    restored = import_tournament(json.loads(text), owner=organizer)

    assert restored.name == before["settings"]["name"]
    assert before["seating_plan"]["from_round"] == 3
    assert picture(restored) == before
    assert organizes(organizer, restored)
    assert len(before["standings"]) == 12 and before["standings"][0][1] == 1
    assert AuditEntry.objects.filter(tournament=restored, action="tournament_restore").count() == 1


def test_restored_tournament_can_be_continued(played, organizer):
    text = dumps(export_tournament(played))
    Tournament.objects.all().delete()
    restored = import_tournament(json.loads(text), owner=organizer)
    third = restored.rounds.get(number=3)
    for table in third.tables.exclude(status=Table.Status.CONFIRMED):
        result_confirm(submission=table.submissions.order_by("-version").first(), user=organizer)
    round_close(round_=third, user=organizer)
    assert counted_rounds(restored) == [1, 2, 3]


def test_import_beside_the_original_reuses_players_and_clubs(played, organizer):
    data = export_tournament(played)
    players, clubs = Player.objects.count(), Club.objects.count()
    other = UserFactory(username="second-laptop")

    restored = import_tournament(json.loads(dumps(data)), owner=other)

    assert restored.pk != played.pk
    assert restored.name == played.name + " (restored)"
    # Another owner's restore never reuses the organizer's player records (clubs are names: reused).
    assert (Player.objects.count(), Club.objects.count()) == (players + 12, clubs)
    assert not set(restored.registrations.values_list("player_id", flat=True)) & set(
        played.registrations.values_list("player_id", flat=True)
    )
    own = import_tournament(json.loads(dumps(data)), owner=organizer)
    assert set(own.registrations.values_list("player_id", flat=True)) == set(
        played.registrations.values_list("player_id", flat=True)
    )
    assert picture(restored)["standings"] == picture(played)["standings"]
    original_tokens = set(Table.objects.filter(round__tournament=played).values_list("token", flat=True))
    new_tokens = set(Table.objects.filter(round__tournament=restored).values_list("token", flat=True))
    assert len(new_tokens) == 9 and not new_tokens & original_tokens
    assert organizes(other, restored) and not organizes(other, played)


def counts():
    return [m.objects.count() for m in (Tournament, Player, Club, Registration, Round, Table, Seat,
                                        Submission, SubmissionEntry, AuditEntry, SeatingPlan)]


@pytest.mark.parametrize("damage", [
    lambda d: d.update(format="something-else"),
    lambda d: d.update(version=FORMAT_VERSION + 1),
    lambda d: d.update(version="1"),
    lambda d: d.pop("seats"),
    lambda d: d["entries"][-1].update(registration=999_999),
    lambda d: d["seats"][0].update(position=d["seats"][1]["position"], table=d["seats"][1]["table"]),
    lambda d: d["tournament"].update(table_min=9, table_max=3),
    lambda d: d["submissions"][0].update(created_at="yesterday"),
    lambda d: d["tournament"].update(logo={"name": "x.png", "data": "not base64!"}),
    lambda d: d["players"].append({"id": 5000, "first_name": "A", "last_name": "B", "birth_year": 3000}),
    lambda d: d["seating_plan"]["rounds"][0][0].append(999_999),  # a player the file does not hold
    lambda d: d["seating_plan"].update(kind="guessed"),
])
def test_damaged_backup_restores_nothing(played, organizer, damage):
    data = json.loads(dumps(export_tournament(played)))
    damage(data)
    before = counts()
    with pytest.raises(BackupError):
        import_tournament(data, owner=organizer)
    assert counts() == before


def test_not_json_is_a_clear_error():
    with pytest.raises(BackupError, match="not a tournament backup"):
        loads(b"\xff\xfe garbage")
    with pytest.raises(BackupError, match="not a tournament backup"):
        import_tournament([1, 2, 3])


def test_logo_travels_inside_the_file(tournament, organizer, settings, tmp_path):
    from django.core.files.base import ContentFile

    settings.MEDIA_ROOT = tmp_path / "media"
    tournament.logo.save("club.png", ContentFile(b"\x89PNG fake logo"), save=True)
    data = json.loads(dumps(export_tournament(tournament)))
    restored = import_tournament(data, owner=organizer)
    with restored.logo.open("rb") as logo:
        assert logo.read() == b"\x89PNG fake logo"


def test_closing_a_round_writes_a_backup(tournament, players, organizer, backup_dir,
                                         django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        round_ = play_round(tournament, organizer)
    (path,) = backup_dir.glob("*.json")
    assert path.name.startswith(f"tournament-{tournament.pk}-round-1-")
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [(r["number"], r["status"]) for r in data["rounds"]] == [(1, "closed")]
    assert round_.status == Round.Status.CLOSED


def test_a_failing_backup_never_undoes_the_close(tournament, players, organizer, settings, tmp_path,
                                                 django_capture_on_commit_callbacks):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    settings.BACKUP_DIR = blocker / "backups"
    with django_capture_on_commit_callbacks(execute=True):
        round_ = play_round(tournament, organizer)
    assert round_.status == Round.Status.CLOSED


def test_management_commands_round_trip(played, organizer, tmp_path):
    target = tmp_path / "t.json"
    call_command("backup_tournament", played.pk, "-o", str(target), stderr=io.StringIO())
    expected = picture(played)
    Tournament.objects.all().delete()
    out = io.StringIO()
    call_command("restore_tournament", str(target), "--owner", "orga", stdout=out)
    restored = Tournament.objects.get()
    assert f"as tournament {restored.pk}" in out.getvalue()
    assert picture(restored) == expected


def test_management_commands_report_errors(tmp_path, db):
    with pytest.raises(CommandError, match="no tournament"):
        call_command("backup_tournament", 424242)
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "uno-tournament-backup", "version": 99}')
    with pytest.raises(CommandError, match="version 99"):
        call_command("restore_tournament", str(bad))
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("restore_tournament", str(tmp_path / "missing.json"))


def test_backup_command_writes_to_stdout(played):
    out = io.StringIO()
    call_command("backup_tournament", played.pk, stdout=out)
    assert json.loads(out.getvalue())["tournament"]["name"] == played.name


def test_download_button(organizer_client, played):
    response = organizer_client.get(reverse("organizer:backup", args=[played.pk]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert f'filename="tournament-{played.pk}-' in response["Content-Disposition"]
    assert json.loads(response.content)["tournament"]["name"] == played.name


def test_download_is_only_for_the_tournaments_organizers(client, played):
    url = reverse("organizer:backup", args=[played.pk])
    assert client.get(url).status_code == 302
    client.force_login(UserFactory(username="stranger"))
    assert client.get(url).status_code == 403


def test_restore_page_creates_a_tournament_for_the_uploader(client, played):
    text = dumps(export_tournament(played))
    uploader = UserFactory(username="uploader")
    client.force_login(uploader)
    page = client.get(reverse("restore"))
    assert page.status_code == 200 and 'type="file"' in page.content.decode()
    response = client.post(reverse("restore"), {"file": SimpleUploadedFile("b.json", text.encode())})
    restored = Tournament.objects.exclude(pk=played.pk).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("organizer:audit", args=[restored.pk])
    assert organizes(uploader, restored)


@pytest.mark.parametrize("content", [b"", b"{}", b"not json", b'{"format": "uno-tournament-backup"}',
                                     b'{"format": "uno-tournament-backup", "version": 1}'])
def test_restore_page_rejects_bad_files(organizer_client, played, content):
    before = counts()
    response = organizer_client.post(reverse("restore"), {"file": SimpleUploadedFile("b.json", content)})
    assert response.status_code == 200
    assert response.context["form"].errors["file"]
    assert counts() == before


def test_restore_page_needs_login(client, db):
    before = Tournament.objects.count()
    response = client.get(reverse("restore"))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert client.post(reverse("restore"), {"file": SimpleUploadedFile("b.json", b"{}")}).status_code == 302
    assert Tournament.objects.count() == before


def test_report_helper_is_valid(tournament, players, organizer):
    round_ = round_seat(tournament=tournament, user=organizer, seed=5)
    reports = report_points(round_.tables.first())
    assert sum(isinstance(r, SeatReport) and r.went_out for r in reports) == 1


def test_sign_ups_and_payments_travel_with_the_backup(tournament, players, organizer):
    from tournament.cashdesk.services import payment_record, signup_check_in
    from tournament.models import Payment, Signup
    from tournament.signup.services import signup_create

    # The twelve registered players hold twelve of the places: one is left for a sign-up.
    tournament.signup_open, tournament.signup_capacity, tournament.entry_fee_cents = True, 13, 800
    tournament.save()
    anna = signup_create(tournament=tournament, first_name="Anna", last_name="Alt", birth_year=1970)
    signup_create(tournament=tournament, first_name="Ben", last_name="Berg", birth_year=1980)
    signup_check_in(signup=anna, user=organizer, amount_cents=800, method="transfer")
    payment_record(registration=players[0], user=organizer, amount_cents=500, method="cash")
    data = json.loads(dumps(export_tournament(tournament)))
    assert len(data["signups"]) == 2 and len(data["payments"]) == 2

    beside = import_tournament(json.loads(dumps(data)), owner=organizer)
    restored = list(beside.signups.order_by("queue").values_list("first_name", "status", "token"))
    assert [(name, status) for name, status, _token in restored] == [
        ("Anna", "confirmed"), ("Ben", "waiting"),
    ]
    assert not {token for *_rest, token in restored} & set(tournament.signups.values_list("token", flat=True))
    assert beside.signups.get(first_name="Anna").registration.tournament == beside
    assert sorted(Payment.objects.filter(tournament=beside).values_list("amount_cents", "method",
                                                                        "created_by__username")) == [
        (500, "cash", "orga"), (800, "transfer", "orga")]

    del data["signups"], data["payments"]  # a file written before sign-ups existed
    older = import_tournament(data, owner=organizer)
    assert not Signup.objects.filter(tournament=older).exists()


def test_an_older_file_with_the_plan_of_all_rounds_in_the_tournaments_row(played, organizer):
    """Files written before the plan had its own section kept it in the tournament's row, round number →
    tables of registration ids of the file; restored, it is the new tournament's plan of all rounds."""
    data = json.loads(dumps(export_tournament(played)))
    ids = [r["id"] for r in data["registrations"] if r["status"] == "checked_in"]
    del data["seating_plan"]
    data["tournament"]["seating_plan"] = {
        "players": ids, "sizes": [4, 4, 3], "seed": 5,
        "rounds": {"4": [ids[:4], ids[4:8], ids[8:]], "3": [ids[8:], ids[:4], ids[4:8]]},
    }
    restored = import_tournament(data, owner=organizer)
    plan = seating_plan(restored)
    numbers = {r["id"]: r["start_number"] for r in data["registrations"]}
    new_numbers = dict(restored.registrations.values_list("pk", "start_number"))
    assert (plan.kind, plan.from_round, plan.seed, plan.sizes) == ("all", 3, 5, (4, 4, 3))
    assert [new_numbers[p] for p in plan.players] == [numbers[p] for p in sorted(ids)]
    assert [[new_numbers[p] for p in table] for table in plan.round(4)] == [
        [numbers[p] for p in table] for table in (ids[:4], ids[4:8], ids[8:])
    ]
