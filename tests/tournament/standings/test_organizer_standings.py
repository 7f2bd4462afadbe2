"""Standings: shared places, per-round columns, sorting, club filter, after round N, exports, query count."""

import csv
import io

import pytest
from django.urls import reverse
from openpyxl import load_workbook

from engine.rankings import Category
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    SeriesFactory,
    TournamentFactory,
    play_round,
)
from tournament.models import Player, Registration, Round, Seat, Submission, SubmissionEntry, Table, Team


def url(name, tournament):
    return reverse(f"organizer:{name}", args=[tournament.pk])


@pytest.fixture
def two_rounds(tournament, players, organizer):
    play_round(tournament, organizer, seed=1, points=(0, 10, 20, 30))
    play_round(tournament, organizer, seed=2, points=(0, 5, 5, 50))
    return tournament


def test_standings_page_shows_ranks_rounds_and_tiebreaks(organizer_client, two_rounds):
    response = organizer_client.get(url("standings", two_rounds))
    table = response.context["table"]
    columns = [c.name for c in table.columns]
    assert columns[:4] == ["rank", "start_number", "name", "club"]
    assert {"r1", "r2", "total", "rounds_won", "tb_worst_round"} <= set(columns)
    rows = response.context["data"].rows
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    assert all(r["total"] == r["r1"] + r["r2"] for r in rows)
    html = response.content.decode()
    assert '<td class="num rank">1.</td>' in html
    shared = [r for r in rows if r["shared"]]
    for row in shared:
        assert html.count(f'<td class="num rank">{row["rank"]}.</td>') >= 2


def test_after_round_and_club_filter(organizer_client, two_rounds):
    after_one = organizer_client.get(url("standings", two_rounds), {"after": "1"})
    assert after_one.context["data"].rounds == [1]
    assert "r2" not in [c.name for c in after_one.context["table"].columns]
    everyone = organizer_client.get(url("standings", two_rounds)).context["data"].rows
    club = organizer_client.get(
        url("standings", two_rounds),
        {"club": "Club 1"},
        HTTP_HX_REQUEST="true",
        HTTP_HX_TARGET="standings-table",
    )
    html = club.content.decode()
    assert html.lstrip().startswith('<div id="standings-table">')
    shown = [r for r in everyone if r["club"] == "Club 1"]
    assert len(shown) == 4
    for row in shown:
        assert row["name"] in html
    assert not any(r["name"] in html for r in everyone if r["club"] != "Club 1")


def test_sorting_by_total_descending(organizer_client, two_rounds):
    response = organizer_client.get(url("standings", two_rounds), {"sort": "-total"})
    totals = [row.record["total"] for row in response.context["table"].rows]
    assert totals == sorted(totals, reverse=True)


def test_export_csv_and_xlsx(organizer_client, two_rounds):
    response = organizer_client.get(url("standings_export", two_rounds))
    assert response["Content-Type"].startswith("text/csv")
    content = response.content.decode("utf-8-sig")
    lines = list(csv.reader(io.StringIO(content), delimiter=";"))
    assert lines[0][:4] == ["Place", "No.", "Name", "Club"]
    assert lines[0][4:6] == ["R1", "R2"]
    assert len(lines) == 13 and lines[1][0] == "1."
    xlsx = organizer_client.get(url("standings_export", two_rounds), {"format": "xlsx", "club": "Club 2"})
    sheet = load_workbook(io.BytesIO(xlsx.content)).active
    values = list(sheet.iter_rows(values_only=True))
    assert values[1][:4] == ("Place", "No.", "Name", "Club")
    assert len(values) == 2 + 4 and all(row[3] == "Club 2" for row in values[2:])


def test_no_closed_round_yet(organizer_client, tournament, players):
    response = organizer_client.get(url("standings", tournament))
    assert "No round is closed yet." in response.content.decode()


def build_played_tournament(organizer, n_players, n_rounds=6):
    """A finished tournament written with bulk inserts: the query count must not depend on its size
    (and 200 players written one by one cost PostgreSQL seconds)."""
    tournament = TournamentFactory(organizers=[organizer])
    clubs = [ClubFactory(name=f"Club {c}") for c in range(7)]
    players = Player.objects.bulk_create(PlayerFactory.build(club=clubs[i % 7]) for i in range(n_players))
    regs = Registration.objects.bulk_create(
        RegistrationFactory.build(tournament=tournament, player=player, start_number=i + 1)
        for i, player in enumerate(players)
    )
    for number in range(1, n_rounds + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, seed=number, status="closed")
        order = regs[number:] + regs[:number]
        tables = Table.objects.bulk_create(
            Table(round=round_, number=t + 1, status="confirmed") for t in range(n_players // 4)
        )
        groups = [order[t * 4 : (t + 1) * 4] for t in range(len(tables))]
        Seat.objects.bulk_create(
            Seat(round=round_, table=table, registration=r, position=p + 1)
            for table, group in zip(tables, groups, strict=True) for p, r in enumerate(group)
        )
        submissions = Submission.objects.bulk_create(
            Submission(table=table, version=1, source="organizer", confirmed=True) for table in tables
        )
        SubmissionEntry.objects.bulk_create(
            SubmissionEntry(submission=sub, registration=r, hand_points=p * 7, score=p * 7, went_out=p == 0)
            for sub, group in zip(submissions, groups, strict=True) for p, r in enumerate(group)
        )
    return tournament


@pytest.mark.parametrize("n_players", [20, 200])
def test_standings_query_count_is_constant(client, organizer, django_assert_num_queries, n_players):
    tournament = build_played_tournament(organizer, n_players)
    client.force_login(organizer)
    # session + user, tournament, organizer check, the evening's version (its audit entries), rounds,
    # registrations, results, closed rounds; the rankings below the table: the teams (none declared:
    # their players are not asked for)
    with django_assert_num_queries(10):
        response = client.get(url("standings", tournament))
    assert response.status_code == 200
    assert len(response.context["data"].rows) == n_players
    assert Registration.objects.filter(tournament=tournament).count() == n_players
    # The club filter swaps the table only, without the rankings (with the evening's version).
    with django_assert_num_queries(9):
        client.get(url("standings", tournament), {"club": "Club 1"}, HTTP_HX_REQUEST="true",
                   HTTP_HX_TARGET="standings-table")


@pytest.mark.parametrize("n_players", [20, 200])
def test_standings_of_a_series_evening_with_teams_query_count_is_constant(
    client, organizer, django_assert_num_queries, n_players
):
    """An evening of a series with teams: the rankings below the table add the series (K and the age
    limits), the teams, their players and the series' earlier evenings (who is new): four queries."""
    tournament = build_played_tournament(organizer, n_players)
    tournament.series = SeriesFactory()
    tournament.save()
    regs = list(tournament.registrations.order_by("start_number"))
    teams = Team.objects.bulk_create(
        Team(tournament=tournament, name=f"Team {number}") for number in range(n_players // 5)
    )
    Team.members.through.objects.bulk_create(
        Team.members.through(team=team, registration=member)
        for number, team in enumerate(teams) for member in regs[number * 5 : number * 5 + 3]
    )
    client.force_login(organizer)
    with django_assert_num_queries(13):  # (and the evening's version)
        response = client.get(url("standings", tournament))
    rankings = response.context["rankings"]
    assert len(rankings.teams) == n_players // 5 and len(rankings.clubs) == 7
    assert len(rankings.categories[Category.NEWCOMER]) == n_players  # the series' first evening
