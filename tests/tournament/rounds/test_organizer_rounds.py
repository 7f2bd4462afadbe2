"""Rounds: seat, check, swap, publish, open; keyboard result entry; confirm; close and reopen."""

import pytest
from django.urls import reverse

from tests.factories import play_round, points_report
from tournament.models import Round, Seat, Submission, Table
from tournament.results.services import result_confirm, result_submit
from tournament.rounds.selectors import seating_history
from tournament.rounds.services import round_close, round_open, round_publish, round_seat

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(name, tournament, *args):
    return reverse(f"organizer:{name}", args=[tournament.pk, *args])


@pytest.fixture
def open_round(tournament, players, organizer):
    round_ = round_seat(tournament=tournament, user=organizer, seed=11)
    round_publish(round_=round_, user=organizer)
    return round_open(round_=round_, user=organizer)


def row_data(table, values, winner_position=1):
    """POST data for the result form: cards or points per seat position."""
    data = {"idempotency_key": f"k-{table.pk}-{values}"}
    for seat in table.seats.all():
        if seat.position == winner_position:
            data["outcome"] = str(seat.registration_id)
            continue
        value = values[seat.position - 1]
        data[f"{'points' if isinstance(value, int) else 'cards'}-{seat.registration_id}"] = str(value)
    return data


def test_seat_round_one_and_see_the_draft(organizer_client, tournament, players):
    response = organizer_client.post(url("round_seat", tournament), {"seed": "4242"})
    round_ = Round.objects.get(tournament=tournament)
    assert response["Location"] == url("round", tournament, 1)
    assert round_.seed == 4242 and round_.status == Round.Status.DRAFT
    page = organizer_client.get(url("round", tournament, 1))
    assert page.context["repeats"] == []
    html = page.content.decode()
    assert "No pair of players meets again." in html
    assert "{% block" not in html and 'name="first"' in html
    first_table = page.context["tables"][0]
    assert [s.position for s in first_table.seats] == [1, 2, 3, 4]


def test_bad_seed_is_refused(organizer_client, tournament, players):
    organizer_client.post(url("round_seat", tournament), {"seed": "abc"})
    assert not Round.objects.exists()


def test_round_two_reports_repeat_pairs_by_name(organizer_client, tournament, players, organizer):
    play_round(tournament, organizer, seed=1)
    round_seat(tournament=tournament, user=organizer, seed=2)
    page = organizer_client.get(url("round", tournament, 2))
    report = page.context["report"]
    assert len(page.context["repeats"]) == len(report.new_repeats)
    names = {reg.player.name for reg in players}
    assert all(a in names and b in names and times == 2 for a, b, times in page.context["repeats"])


def test_swap_updates_the_repeat_pairs_shown(organizer_client, tournament, players, organizer):
    """After a swap the seating check counts the new seating: the page and the engine agree."""
    from engine.seating import seating_report

    play_round(tournament, organizer, seed=1)
    round_ = round_seat(tournament=tournament, user=organizer, seed=2)
    before = organizer_client.get(url("round", tournament, 2)).context["repeats"]
    history = seating_history(tournament, before_round=2)
    tables = [
        list(t.seats.order_by("position").values_list("registration_id", flat=True))
        for t in round_.tables.order_by("number")
    ]
    # The first swap between tables 1 and 2 that changes how many pairs meet again.
    for i, a in enumerate(tables[0]):
        for j, b in enumerate(tables[1]):
            proposal = [list(t) for t in tables]
            proposal[0][i], proposal[1][j] = b, a
            after = seating_report(history, proposal, tournament.table_size)
            if len(after.new_repeats) != len(before):
                break
        else:
            continue
        break
    first = Seat.objects.get(round=round_, registration_id=a)
    second = Seat.objects.get(round=round_, registration_id=b)
    organizer_client.post(url("round_swap", tournament, 2), {"first": first.pk, "second": second.pk})
    page = organizer_client.get(url("round", tournament, 2))
    names = {reg.pk: reg.player.name for reg in players}
    expected = [(names[x], names[y], times) for x, y, times in after.new_repeats]
    assert page.context["repeats"] == expected and len(expected) != len(before)
    html = page.content.decode()
    if expected:
        assert f"{len(expected)} pair{'s meet' if len(expected) > 1 else ' meets'} again:" in html
        assert all(f"{x} \u2013 {y}" in html for x, y, _times in expected)
    else:
        assert "No pair of players meets again." in html


def test_swap_then_publish_then_open(organizer_client, tournament, players, organizer):
    round_ = round_seat(tournament=tournament, user=organizer, seed=9)
    a = Seat.objects.get(round=round_, table__number=1, position=1)
    b = Seat.objects.get(round=round_, table__number=3, position=4)
    reg_a, reg_b = a.registration_id, b.registration_id
    organizer_client.post(url("round_swap", tournament, 1), {"first": a.pk, "second": b.pk})
    assert Seat.objects.get(round=round_, table__number=1, position=1).registration_id == reg_b
    assert Seat.objects.get(round=round_, table__number=3, position=4).registration_id == reg_a
    same = Seat.objects.get(round=round_, table__number=2, position=1)
    response = organizer_client.post(url("round_swap", tournament, 1), {"first": same.pk, "second": same.pk})
    assert response.status_code == 200 and response.context["swap_form"].errors
    organizer_client.post(url("round_publish", tournament, 1))
    round_.refresh_from_db()
    assert round_.status == Round.Status.PUBLISHED and round_.published_at
    organizer_client.post(url("round_open", tournament, 1))
    round_.refresh_from_db()
    assert round_.status == Round.Status.OPEN


def test_status_partial_polls_and_counts(organizer_client, tournament, open_round):
    page = organizer_client.get(url("round", tournament, 1))
    html = page.content.decode()
    assert f'hx-get="{url("round_status", tournament, 1)}"' in html and 'hx-trigger="every 3s"' in html
    assert "_round_extras" not in html
    partial = organizer_client.get(url("round_status", tournament, 1), **HTMX)
    text = partial.content.decode()
    assert text.lstrip().startswith('<div id="round-status"') and "<html" not in text
    assert partial.context["counts"]["waiting"] == 3


def test_enter_result_from_cards_and_points_jumps_to_next_table(organizer_client, tournament, open_round):
    table = open_round.tables.get(number=1)
    data = row_data(table, [None, "R7 Rev W", 12, "y0 g1"])
    response = organizer_client.post(url("table_result", tournament, 1, 1), data)
    assert response.status_code == 302
    assert response["Location"] == url("table_result", tournament, 1, 2)
    submission = table.submissions.get()
    assert submission.source == Submission.Source.ORGANIZER and submission.confirmed
    entries = {e.registration.start_number: e for e in submission.entries.select_related("registration")}
    by_position = {
        s.position: s.registration.start_number for s in table.seats.select_related("registration")
    }
    assert entries[by_position[2]].cards == "R7 W Rev" and entries[by_position[2]].score == 77
    assert entries[by_position[3]].score == 12 and entries[by_position[3]].cards == ""
    assert entries[by_position[4]].score == 1 and entries[by_position[1]].went_out
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    # The last open table sends the organizer back round to the first one still missing.
    organizer_client.post(
        url("table_result", tournament, 1, 3), row_data(open_round.tables.get(number=3), [None, 5, 6, 7])
    )
    last = organizer_client.post(
        url("table_result", tournament, 1, 2), row_data(open_round.tables.get(number=2), [None, 5, 6, 7])
    )
    assert last["Location"] == url("round", tournament, 1)


def test_errors_are_shown_next_to_the_player_and_nothing_is_lost(organizer_client, tournament, open_round):
    table = open_round.tables.get(number=1)
    seats = list(table.seats.select_related("registration__player").order_by("position"))
    data = row_data(table, [None, "R7 Q5", 10, 20])
    response = organizer_client.post(url("table_result", tournament, 1, 1), data)
    assert response.status_code == 422
    rows = response.context["rows"]
    assert rows[1].errors and not rows[1].warnings
    assert "Q5" in rows[1].errors[0] and seats[1].registration.player.name in rows[1].errors[0]
    assert (rows[0].errors, rows[0].warnings, rows[2].errors, rows[2].warnings) == ([], [], [], [])
    assert 'value="R7 Q5"' in response.content.decode()
    assert not table.submissions.exists()
    no_winner = organizer_client.post(
        url("table_result", tournament, 1, 1), {f"points-{s.registration_id}": "5" for s in seats}
    )
    assert "Nobody went out" in no_winner.context["table_issues"].errors[0]


def test_warnings_need_the_confirm_checkbox(organizer_client, tournament, open_round):
    table = open_round.tables.get(number=1)
    data = row_data(table, [None, 300, 10, 20])
    first = organizer_client.post(url("table_result", tournament, 1, 1), data)
    assert first.status_code == 422 and first.context["needs_confirmation"]
    assert first.context["rows"][1].warnings and not first.context["rows"][1].errors
    assert 'name="confirm_warnings"' in first.content.decode()
    assert not table.submissions.exists()
    second = organizer_client.post(url("table_result", tournament, 1, 1), {**data, "confirm_warnings": "on"})
    assert second.status_code == 302
    assert table.submissions.get().warnings_confirmed


def test_correction_prefills_and_stores_new_version(organizer_client, tournament, open_round, organizer):
    table = open_round.tables.get(number=1)
    result_submit(
        table=table, seats=points_report(table, [0, 5, 6, 7]), source="organizer", user=organizer
    )
    page = organizer_client.get(url("table_result", tournament, 1, 1))
    seat2 = table.seats.get(position=2)
    assert page.context["form"].initial[f"points-{seat2.registration_id}"] == "5"
    organizer_client.post(url("table_result", tournament, 1, 1), row_data(table, [None, 9, 6, 7]))
    versions = list(table.submissions.order_by("version").values_list("version", "confirmed"))
    assert versions == [(1, False), (2, True)]


def test_confirm_captain_report_with_one_click(organizer_client, tournament, open_round):
    table = open_round.tables.get(number=2)
    outcome = result_submit(
        table=table, seats=points_report(table, [0, 1, 2, 3]), source="captain", token=table.token
    )
    page = organizer_client.get(url("round", tournament, 1))
    confirm_url = url("submission_confirm", tournament, outcome.submission.pk)
    assert confirm_url in page.content.decode()
    response = organizer_client.post(confirm_url, **HTMX)
    assert response.content.decode().lstrip().startswith('<div id="round-status"')
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED


def test_close_only_when_all_confirmed_then_reopen(organizer_client, tournament, players, organizer):
    round_ = play_round(tournament, organizer, seed=3, close=False)
    Table.objects.filter(pk=round_.tables.first().pk).update(status=Table.Status.REPORTED)
    Submission.objects.filter(table=round_.tables.first()).update(confirmed=False)
    organizer_client.post(url("round_close", tournament, 1))
    round_.refresh_from_db()
    assert round_.status == Round.Status.OPEN
    page = organizer_client.get(url("round", tournament, 1))
    assert not page.context["all_confirmed"]
    result_confirm(submission=round_.tables.first().submissions.get(), user=organizer)
    organizer_client.post(url("round_close", tournament, 1))
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    organizer_client.post(url("round_reopen", tournament, 1))
    round_.refresh_from_db()
    assert round_.status == Round.Status.OPEN


def test_rounds_page_offers_the_next_round_only_after_closing(
    organizer_client, tournament, players, organizer
):
    page = organizer_client.get(url("rounds", tournament))
    assert page.context["can_seat_next"] and page.context["next_number"] == 1
    play_round(tournament, organizer, seed=3, close=False)
    assert not organizer_client.get(url("rounds", tournament)).context["can_seat_next"]
    round_close(round_=tournament.rounds.get(), user=organizer)
    page = organizer_client.get(url("rounds", tournament))
    assert page.context["can_seat_next"] and page.context["next_number"] == 2
