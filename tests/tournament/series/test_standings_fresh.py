"""The season standings remember each evening's ranking per process (`_evening_places`), keyed on the
evening's whole input: whatever changes (a confirmed correction, a reopened or a new closed round, the
evening's tie-breaks, a player's registration), the very next read shows it."""

import datetime

import pytest

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    SeriesFactory,
    TournamentFactory,
    play_round,
    played_evening,
    points_report,
    winner_report,
)
from tournament.models import Registration, Submission
from tournament.results.services import result_submit
from tournament.rounds.services import round_close, round_reopen
from tournament.series import selectors
from tournament.series.selectors import series_standings

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 1, 10)


def season(series):
    """(player, place, season score, evenings played) of every line."""
    return [
        (line.player.pk, line.row.rank, line.row.score, line.row.attended)
        for line in series_standings(series).lines
    ]


def computed_afresh(series):
    selectors._evening_places.cache_clear()
    return season(series)


@pytest.fixture
def evenings(organizer):
    """A series of a bulk-stored evening and one played through the services (two closed rounds)."""
    series = SeriesFactory(organizers=[organizer])
    people = PlayerFactory.create_batch(8)
    played_evening(series=series, players=people, date=DAY, organizers=[organizer])
    second = TournamentFactory(series=series, date=DAY + datetime.timedelta(days=28), organizers=[organizer],
                               rounds_total=3)
    for number, player in enumerate(people, start=1):
        RegistrationFactory(tournament=second, player=player, start_number=number,
                            status=Registration.Status.CHECKED_IN)
    # Each round's points follow the start numbers, not the database ids (they differ from run to run),
    # so that every change below moves the evening's places: round 1 favours the low start numbers, round
    # 2 (worth less) the high ones.
    play_round(second, organizer, seed=1, report=by_start_number(lambda number: 10 * number))
    play_round(second, organizer, seed=2, report=by_start_number(lambda number: 9 - number))
    return series, second


def by_start_number(points_of):
    """A report for a seated table: `points_of(start number)` per player; the lowest points went out."""

    def report(table):
        points = {seat.registration_id: points_of(seat.registration.start_number)
                  for seat in table.seats.select_related("registration")}
        return winner_report(table, min(points, key=points.get), points.get)

    return report


def test_a_confirmed_correction_shows_at_once(organizer, evenings):
    series, second = evenings
    before = season(series)
    round_ = second.rounds.get(number=1)
    round_reopen(round_=round_, user=organizer)
    # Reopened, the round does not count: at once.
    assert season(series) == computed_afresh(series) != before
    table = round_.tables.select_related("round__tournament").get(number=1)
    seats = points_report(table, (0, 60, 55, 50))  # the table's three losers lose big
    outcome = result_submit(table=table, seats=seats, source=Submission.Source.ORGANIZER, user=organizer,
                            confirm_warnings=True)
    assert outcome.stored
    round_close(round_=round_, user=organizer)
    corrected = season(series)
    assert corrected != before
    assert corrected == computed_afresh(series)


def test_a_new_round_and_the_evening_settings_show_at_once(organizer, evenings):
    series, second = evenings
    before = season(series)
    play_round(second, organizer, seed=3, report=by_start_number(lambda number: 30 * (9 - number)))
    after_round = season(series)
    assert after_round == computed_afresh(series) != before
    second.tiebreaks = ["worst_round"]
    second.scoring = "winner"  # the highest total wins the evening now
    second.save()
    rescored = season(series)
    assert rescored == computed_afresh(series) != after_round


def test_an_evening_withdrawn_from_the_series_leaves_at_once(organizer, evenings):
    series, second = evenings
    before = season(series)
    second.series = None
    second.save()
    assert all(attended == 1 for *_, attended in season(series))
    assert season(series) == computed_afresh(series) != before
