"""A backup carries the tournament's teams and its series: restored, the evening has the same teams and
team ranking, and counts for its season (a series of that name its user may add evenings to, or a new
one with the file's rule) with the same season points."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

from tests.conftest import twelve_players
from tests.factories import TournamentFactory, UserFactory, play_round, winner_report
from tournament.backup.format import BackupError, dumps
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.models import (
    AuditEntry,
    Club,
    Player,
    Registration,
    Round,
    Series,
    Submission,
    SubmissionEntry,
    Team,
    Tournament,
)
from tournament.series.selectors import series_standings
from tournament.series.services import series_create, series_snapshot
from tournament.standings.selectors import standings, tournament_rankings
from tournament.teams.services import team_create

SERIES = "Jahreswertung 2026"
RULE = {
    "points": "table", "points_table": [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4], "best_of": 5,
    "min_evenings": 1, "attendance_bonus": 2, "free_misses": 1, "miss_deduction": 3, "members_only": False,
    "tiebreaks": ["best_evening", "wins"], "club_best": 2, "club_value": "average", "junior_under": 16,
    "senior_from": 65,
}
TEAMS = {"Die Asse": (0, 3), "Buben": (3, 5), "Damen & Könige": (5, 8)}


@pytest.fixture(scope="module")
def module_evening(module_db) -> Tournament:
    """Three teams (3, 2 and 3 players), two closed rounds, the first evening of a series with a rule of
    its own: built once for the module (see `module_db`), as every test restores from it."""
    organizer = UserFactory(username="orga")
    tournament = TournamentFactory(organizers=[organizer])
    players = twelve_players(tournament)
    for name, (first, last) in TEAMS.items():
        team_create(tournament=tournament, user=organizer, name=name, members=players[first:last])
    series_create(tournament=tournament, user=organizer, name=SERIES, **RULE)
    # Results chosen after the seating, so that the standings do not hang on who sits where: the first
    # player wins both rounds, the others at most one, and what they keep grows from team to team so
    # that every player and every team has a place of its own (teams ranked as listed in TEAMS).
    keeps = dict(zip([reg.pk for reg in players], [2, 3, 4, 10, 11, 30, 31, 32, 40, 41, 42, 43], strict=True))
    first = players[0].pk
    won: set[int] = set()

    def round_one(table):
        winner = min(table.seats.values_list("registration_id", flat=True))
        won.add(winner)
        return winner_report(table, winner, keeps.get)

    def round_two(table):
        seated = set(table.seats.values_list("registration_id", flat=True))
        return winner_report(table, first if first in seated else min(seated - won), keeps.get)

    play_round(tournament, organizer, seed=3, report=round_one)
    play_round(tournament, organizer, seed=4, report=round_two)
    return tournament


@pytest.fixture
def evening(module_evening, db) -> Tournament:
    """The module's evening for one test (in a savepoint: what a test changes is undone after it)."""
    return Tournament.objects.get(pk=module_evening.pk)


def backup(tournament):
    return json.loads(dumps(export_tournament(tournament)))


def teams_of(tournament):
    """Each team with its players by name."""
    return sorted(
        (team.name, sorted(reg.player.name for reg in team.members.select_related("player")))
        for team in tournament.teams.all()
    )


def team_ranking(tournament):
    """The evening's team ranking: name, place, shared, value and the players that make it, by name."""
    _rounds, lines = standings(tournament)
    names = {line.registration.pk: line.player.name for line in lines}
    return [
        (team.name, row.rank, row.shared, row.value, row.complete, [names[pk] for pk in row.counted])
        for row, team in tournament_rankings(tournament, lines).teams
    ]


def evening_points(series, evening):
    """Every player's season points for that one evening, by name."""
    return {
        line.player.name: line.row.points[evening.pk]
        for line in series_standings(series).lines if evening.pk in line.row.points
    }


def season(series):
    """The season standings, by name (an evening's points in evening order)."""
    standing = series_standings(series)
    return [
        (line.player.name, line.row.rank, line.row.shared, line.row.score, line.row.attended, line.row.bonus,
         line.row.deduction, [line.row.points.get(evening.pk) for evening in standing.evenings])
        for line in standing.lines
    ]


def restore_entries(tournament):
    """What the restore itself wrote to the log: its own entry and what follows it (the file's entries
    come first)."""
    entries = list(
        AuditEntry.objects.filter(tournament=tournament).order_by("id")
        .values_list("action", "actor", "before", "after")
    )
    (start,) = [index for index, entry in enumerate(entries) if entry[0] == "tournament_restore"]
    return entries[start:]


def test_export_writes_the_teams_and_the_series(evening, organizer):
    data = backup(evening)
    player_names = {row["id"]: f"{row['first_name']} {row['last_name']}" for row in data["players"]}
    names = {row["id"]: player_names[row["player"]] for row in data["registrations"]}
    assert sorted((row["name"], sorted(names[reg] for reg in row["members"])) for row in data["teams"]) == (
        teams_of(evening)
    )
    assert {row["tournament"] for row in data["teams"]} == {data["tournament"]["id"]}
    assert all(row["created_at"] for row in data["teams"])
    series = data["series"]
    assert series["id"] == data["tournament"]["series"] == evening.series_id
    assert series["name"] == SERIES and series["organizers"] == ["orga"]
    assert {key: series[key] for key in RULE} == RULE
    assert data["tournament"]["organizers"] == ["orga"]


def test_a_tournament_in_no_series_without_teams_writes_empty_sections(tournament, players):
    data = backup(tournament)
    assert data["series"] is None and data["teams"] == []


def test_round_trip_into_an_empty_database(evening, organizer):
    teams, ranking, rule = teams_of(evening), team_ranking(evening), series_snapshot(evening.series)
    table = season(evening.series)
    text = dumps(export_tournament(evening))
    Tournament.objects.all().delete()
    Series.objects.all().delete()
    Player.objects.all().delete()
    Club.objects.all().delete()

    restored = import_tournament(json.loads(text), owner=organizer)

    assert teams_of(restored) == teams
    assert team_ranking(restored) == ranking
    assert sorted(row[0] for row in ranking) == sorted(TEAMS) and [row[1] for row in ranking] == [1, 2, 3]
    assert Team.objects.count() == 3 and Team.members.through.objects.count() == 8
    series = Series.objects.get()
    assert restored.series == series
    assert series_snapshot(series) == rule
    assert list(series.organizers.values_list("username", flat=True)) == ["orga"]
    assert season(series) == table
    assert len(table) == 12 and table[0][1:] == (1, False, 25 + 2, 1, 2, 0, [25])  # 25 and the bonus
    assert restore_entries(restored) == [
        ("tournament_restore", "orga", None, {"exported_at": json.loads(text)["exported_at"],
                                               "format_version": 1}),
        ("series_create", "orga", None, rule),
    ]


def test_beside_the_original_the_evening_joins_the_series_its_user_organizes(evening, organizer):
    data = backup(evening)
    data["series"].update(attendance_bonus=9, points="field")  # the season's rule is not overwritten
    rule, series = series_snapshot(evening.series), evening.series

    restored = import_tournament(data, owner=organizer)

    assert restored.series == series and Series.objects.count() == 1
    series.refresh_from_db()
    assert series_snapshot(series) == rule
    assert list(series.tournaments.order_by("pk")) == [evening, restored]
    points = evening_points(series, evening)
    assert evening_points(series, restored) == points
    assert len(points) == 12 and sorted(points.values(), reverse=True)[:3] == [25, 20, 16]
    assert teams_of(restored) == teams_of(evening)
    assert team_ranking(restored) == team_ranking(evening)
    assert set(Team.objects.filter(tournament=restored).values_list("members__tournament", flat=True)) == {
        restored.pk
    }
    assert restore_entries(restored)[1:] == [("series_join", "orga", {"series": None}, {"series": SERIES})]


def test_a_user_who_does_not_organize_the_series_gets_a_new_one(evening, organizer):
    data = backup(evening)
    data["series"]["organizers"].append("gone-long-ago")  # no such account here: left out
    other = UserFactory(username="second-laptop")
    table = season(evening.series)

    restored = import_tournament(data, owner=other)

    assert Series.objects.count() == 2
    new = restored.series
    assert new != evening.series and new.name == SERIES
    assert series_snapshot(new) == series_snapshot(evening.series)
    # The file's organizers are not of the restoring owner's club: nobody is put into a team unasked.
    assert sorted(new.organizers.values_list("username", flat=True)) == ["second-laptop"]
    assert list(evening.series.tournaments.all()) == [evening]
    assert season(new) == table
    assert season(evening.series) == table
    assert restore_entries(restored)[1:] == [("series_create", "second-laptop", None, series_snapshot(new))]


def test_a_superuser_joins_a_series_of_that_name_written_otherwise(evening):
    admin = UserFactory(username="admin", is_superuser=True)
    data = backup(evening)
    data["series"]["name"] = "  jahreswertung   2026 "

    restored = import_tournament(data, owner=admin)

    assert restored.series == evening.series and Series.objects.count() == 1
    assert evening_points(evening.series, restored) == evening_points(evening.series, evening)


def test_without_an_owner_the_series_is_new_and_keeps_the_files_organizers(evening):
    restored = import_tournament(backup(evening), owner=None)
    assert restored.series != evening.series and Series.objects.count() == 2
    assert list(restored.series.organizers.values_list("username", flat=True)) == ["orga"]
    assert season(restored.series) == season(evening.series)


def test_an_older_backup_without_teams_and_series_restores_without_them(evening, organizer):
    data = backup(evening)
    del data["teams"], data["series"]  # written before teams and series were in the backup
    assert data["tournament"]["series"] == evening.series_id  # the old files had the id, and only that
    series_count = Series.objects.count()

    restored = import_tournament(data, owner=organizer)

    assert restored.series is None and Series.objects.count() == series_count
    assert not restored.teams.exists() and team_ranking(restored) == []
    _rounds, lines = standings(restored)
    assert [(line.player.name, line.row.total) for line in lines] == [
        (line.player.name, line.row.total) for line in standings(evening)[1]
    ]
    assert restore_entries(restored)[1:] == []


def test_a_null_series_restores_outside_any_season(evening, organizer):
    data = backup(evening)
    data["series"] = None
    restored = import_tournament(data, owner=organizer)
    assert restored.series is None and teams_of(restored) == teams_of(evening)


def counts():
    models = (Tournament, Club, Player, Registration, Round, Submission, SubmissionEntry, AuditEntry, Team,
              Team.members.through, Series, Series.organizers.through)
    return {model.__name__: model.objects.count() for model in models}


def members(data, first, last):
    return [row["id"] for row in data["registrations"][first:last]]


@pytest.mark.parametrize(("damage", "message"), [
    (lambda d: d["teams"][0]["members"].append(999_999),
     r"^The backup's team Die Asse has a player who is not registered in the tournament \(999999\); "),
    (lambda d: d["teams"][1].update(members=d["teams"][1]["members"][:1]),
     r"^The backup's team Buben has 1 player, but a team has 2 to 6 players; nothing was restored\.$"),
    (lambda d: d["teams"][1].update(members=[]), r"team Buben has 0 players, but a team has 2 to 6"),
    (lambda d: d["teams"][2].update(members=members(d, 5, 12)), r"team Damen & Könige has 7 players, but"),
    (lambda d: d["teams"][1].update(name=" die  ASSE "), r"^The backup has two teams named die ASSE; "),
    (lambda d: d["teams"][1]["members"].append(d["teams"][0]["members"][0]),
     r"^In the backup, .+ is in two teams \(Die Asse and Buben\); nothing was restored\.$"),
    (lambda d: d["teams"][0].update(name="   "), r"team name that is empty or longer than 80 characters"),
    (lambda d: d["teams"][0].update(name="T" * 81), r"team name that is empty or longer than 80 characters"),
    (lambda d: d["series"].update(points_table=[]),
     r"^The backup's series Jahreswertung 2026 would be refused by the form \(Points table: Points by "
     r"table need a points table\.\); nothing was restored\.$"),
    (lambda d: d["series"].update(points_table=[25, -3]), r"Points table: The points table has a negative"),
    (lambda d: d["series"].update(points_table=[10, 20]), r"must not give a lower place more points"),
    (lambda d: d["series"].update(points_table=["25", 20]), r"Give the points as whole numbers"),
    (lambda d: d["series"].update(best_of=2, min_evenings=3),
     r"The minimum of 3 evenings is more than the 2 evenings that count"),
    (lambda d: d["series"].update(best_of=0), r"Evenings that count: Ensure this value is greater than"),
    (lambda d: d["series"].update(club_best=50), r"Players per club that count: Ensure this value is less"),
    (lambda d: d["series"].update(points="dice"), r"Season points: Select a valid choice"),
    (lambda d: d["series"].update(tiebreaks=["wins", "coin_toss"]), r"Tie-breaks: Select a valid choice"),
    (lambda d: d["series"].update(tiebreaks=["wins,best_evening"]),
     r"Tie-breaks: Unknown tie-break: wins,best_evening\."),
    (lambda d: d["series"].update(name=""), r"series  would be refused by the form \(Name: This field is "),
    (lambda d: d["series"].update(organizers="orga"), r"^The backup is incomplete or damaged"),
    # A damage found only while writing: the series created before it is taken back with the rest.
    (lambda d: d["entries"][-1].update(registration=999_999), r"refers to a missing registration"),
])
def test_a_bad_team_or_series_restores_nothing(evening, damage, message):
    other = UserFactory(username="second-laptop")  # not an organizer of the series: a new one would be made
    data = backup(evening)
    damage(data)
    before = counts()
    with pytest.raises(BackupError, match=message):
        import_tournament(data, owner=other)
    assert counts() == before


def test_the_messages_are_in_german(evening, settings):
    data = backup(evening)
    data["teams"][1]["members"] = data["teams"][1]["members"][:1]
    with translation.override("de"), pytest.raises(BackupError) as refused:
        import_tournament(data)
    assert str(refused.value) == (
        "Das Team Buben der Sicherung hat 1 Spieler, ein Team hat aber 2 bis 6 Spieler; "
        "nichts wurde wiederhergestellt."
    )
    data = backup(evening)
    data["series"]["points_table"] = []
    with translation.override("de"), pytest.raises(BackupError, match="Turnierserie Jahreswertung 2026"):
        import_tournament(data)


def test_the_restore_page_names_the_team_problem(evening, organizer_client):
    data = backup(evening)
    data["teams"][1]["name"] = "Die Asse"
    before = counts()
    response = organizer_client.post(
        reverse("restore"), {"file": SimpleUploadedFile("b.json", json.dumps(data).encode())}
    )
    assert response.status_code == 200
    assert "The backup has two teams named Die Asse" in response.content.decode()
    assert counts() == before
