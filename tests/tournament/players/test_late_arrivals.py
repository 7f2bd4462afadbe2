"""A player who arrives after round 1: seated from round 2, ranked by the missed-round policy, shown so."""

import pytest
from django.urls import reverse

from engine.seating import table_plan
from engine.standings import MissedRoundPolicy
from tests.factories import play_round, points_report
from tournament.models import Registration, Submission, SubmissionEntry
from tournament.players.services import player_register, registration_readmit, registration_withdraw
from tournament.results.services import result_submit
from tournament.rounds.services import round_close, round_open, round_publish, round_seat
from tournament.standings.selectors import standings

POINTS = (0, 10, 20, 30, 40)  # per seat position; seat 1 goes out


@pytest.fixture
def late_arrival(tournament, players, organizer):
    """Round 1 played by twelve (10, 20, 30 points behind the winner at every table), then a thirteenth
    player checks in and goes out in round 2: charged round 1's highest score, they are not the last."""
    play_round(tournament, organizer, seed=1, points=POINTS)
    late = player_register(
        tournament=tournament, user=organizer, first_name="Lotte", last_name="Spät", check_in=True
    )
    second = round_seat(tournament=tournament, user=organizer, seed=2)
    round_publish(round_=second, user=organizer)
    round_open(round_=second, user=organizer)
    for table in second.tables.all():
        late_seat = table.seats.filter(registration=late).first()
        winner = late_seat.position if late_seat else 1
        outcome = result_submit(
            table=table, seats=points_report(table, POINTS, winner_position=winner),
            source=Submission.Source.ORGANIZER, user=organizer,
            confirm_warnings=True,  # seat 1 may hold 0 points without going out (the late player did)
        )
        assert outcome.stored, outcome.errors
    round_close(round_=second, user=organizer)
    return late, second


def highest_score(tournament, number):
    return max(
        SubmissionEntry.objects.filter(
            submission__confirmed=True, submission__table__round__tournament=tournament,
            submission__table__round__number=number,
        ).values_list("score", flat=True)
    )


def test_late_player_is_seated_from_the_next_round(tournament, late_arrival):
    late, second = late_arrival
    sizes = sorted((table.seats.count() for table in second.tables.all()), reverse=True)
    assert sum(sizes) == 13
    assert sizes == sorted(
        table_plan(13, preferred=4, min_size=3, max_size=5, fill=tournament.fill), reverse=True
    )
    assert second.seats.filter(registration=late).exists()
    assert not tournament.rounds.get(number=1).seats.filter(registration=late).exists()


def test_default_policy_ranks_the_late_player_after_everybody_complete(tournament, late_arrival):
    late, _second = late_arrival
    assert tournament.missed_rounds == MissedRoundPolicy.RANK_AFTER
    rounds, lines = standings(tournament)
    assert rounds == [1, 2] and len(lines) == 13
    last = lines[-1]
    assert last.registration == late
    assert last.row.per_round == {1: None, 2: last.row.per_round[2]} and last.row.per_round[2] is not None
    assert (last.row.rounds_missed, last.row.complete, last.row.charged) == (1, False, {})
    assert last.row.total == last.row.per_round[2]
    assert all(line.row.complete and line.row.rank < last.row.rank for line in lines[:-1])


def test_charge_policy_charges_the_highest_score_of_the_missed_round(tournament, late_arrival):
    late, _second = late_arrival
    tournament.missed_rounds = MissedRoundPolicy.CHARGE_HIGHEST
    tournament.save()
    _rounds, lines = standings(tournament)
    row = next(line.row for line in lines if line.registration == late)
    highest = highest_score(tournament, 1)
    assert highest > 0
    assert row.charged == {1: highest}
    assert row.total == highest + row.per_round[2]
    # Ranked by total among everybody (minus points: lower is better), not after the complete players.
    assert all(line.row.rank < row.rank for line in lines if line.row.total < row.total)
    assert all(line.row.rank > row.rank for line in lines if line.row.total > row.total)
    assert any(line.row.total > row.total for line in lines)


def test_standings_pages_mark_the_missed_round(organizer_client, tournament, late_arrival, client):
    late, _second = late_arrival
    response = organizer_client.get(reverse("organizer:standings", args=[tournament.pk]))
    html = response.content.decode()
    row = next(r for r in response.context["table"].rows if r.record["name"] == late.player.name)
    assert [str(cell) for column, cell in row.items() if column.name == "r1"] == [
        '<span class="missed" title="missed round">\u2013</span>'
    ]
    assert "missed 1 round" in str(row.get_cell("name"))
    assert "\u2013: missed round. Players who missed a round are ranked after everybody" in html

    tournament.missed_rounds = MissedRoundPolicy.CHARGE_HIGHEST
    tournament.public = True
    tournament.save()
    highest = highest_score(tournament, 1)
    html = organizer_client.get(reverse("organizer:standings", args=[tournament.pk])).content.decode()
    assert f"({highest})</span>" in html and "charged with the highest score of that round" in html
    public = client.get(reverse("public:tournament", args=[tournament.pk]))
    assert public.status_code == 200
    text = public.content.decode()
    assert f"({highest})</i>" in text and "missed 1 round" in text


def test_withdrawn_then_readmitted_player_is_ranked_like_a_late_one(tournament, players, organizer):
    play_round(tournament, organizer, seed=1)
    registration_withdraw(registration=players[0], user=organizer)
    play_round(tournament, organizer, seed=2)
    registration_readmit(registration=players[0], user=organizer)
    play_round(tournament, organizer, seed=3)
    _rounds, lines = standings(tournament)
    row = next(line.row for line in lines if line.registration == players[0])
    assert row.per_round[2] is None and row.rounds_missed == 1 and lines[-1].row is row
    assert Registration.objects.get(pk=players[0].pk).status == Registration.Status.CHECKED_IN
