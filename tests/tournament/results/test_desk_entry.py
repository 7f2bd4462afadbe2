"""The organizer's desk form: a 0 for the winner, Enter skips tables a captain reported, no blind confirm."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory
from tests.tournament.conftest import _table, report_data, seat_ids
from tournament.models import Submission, Table
from tournament.results.forms import ResultForm
from tournament.results.services import result_submit

pytestmark = pytest.mark.django_db


def desk_url(table):
    round_ = table.round
    return reverse("organizer:table_result", args=[round_.tournament_id, round_.number, table.number])


def captain_report(table):
    form = ResultForm(report_data(table), seats=list(table.seats.order_by("position")))
    assert form.is_valid()
    return result_submit(table=table, user=None, source=Submission.Source.CAPTAIN, token=table.token,
                         **form.report())


@pytest.fixture
def three_tables(table, other_table):
    third = _table(table.round, 3, [PlayerFactory(first_name=f"Third{i}") for i in range(4)])
    return table, other_table, third


def test_a_zero_in_the_points_is_the_player_who_went_out(organizer_client, table):
    ids = seat_ids(table)
    data = {"idempotency_key": "desk-1", f"points-{ids[0]}": "0", f"points-{ids[1]}": "12",
            f"points-{ids[2]}": "30", f"points-{ids[3]}": "5"}
    response = organizer_client.post(desk_url(table), data)
    assert response.status_code == 302
    version = table.submissions.get()
    assert version.confirmed and version.source == Submission.Source.ORGANIZER
    winner = version.entries.get(went_out=True)
    assert winner.registration_id == ids[0] and winner.score == 0


def test_two_ticked_raus_boxes_are_two_winners(organizer_client, table):
    ids = seat_ids(table)
    data = {"idempotency_key": "desk-2", "outcome": [str(ids[0]), str(ids[1])],
            f"points-{ids[2]}": "30", f"points-{ids[3]}": "5"}
    response = organizer_client.post(desk_url(table), data)
    assert response.status_code == 422
    assert any("Only one player can go out" in text for text in response.context["table_issues"].errors)
    assert not table.submissions.exists()


def test_enter_skips_a_table_the_captain_reported(organizer_client, three_tables):
    first, second, third = three_tables
    captain_report(second)
    assert Table.objects.get(pk=second.pk).status == Table.Status.REPORTED
    ids = seat_ids(first)
    data = {"idempotency_key": "desk-3", "outcome": str(ids[0]), f"points-{ids[1]}": "12",
            f"points-{ids[2]}": "30", f"points-{ids[3]}": "5"}
    response = organizer_client.post(desk_url(first), data)
    assert response["Location"] == desk_url(third)


def test_a_captains_report_is_prefilled_except_as_a_second_entry(organizer_client, table):
    """#51 item 11: correcting a reported table starts from its newest version; the Enter flow never
    lands there (it goes to tables nobody reported). A second, independent entry starts empty."""
    captain_report(table)
    page = organizer_client.get(desk_url(table))
    html = page.content.decode()
    assert page.context["shown"].version == 1 and page.context["unreviewed"] is None
    ids = seat_ids(table)
    assert f'name="cards-{ids[1]}" id="id_cards-{ids[1]}" value=""' not in html
    assert page.context["form"].initial[f"cards-{ids[1]}"].split() == ["R7", "W", "Rev"]
    tournament = table.round.tournament
    tournament.require_second_entry = True
    tournament.save(update_fields=["require_second_entry"])
    page = organizer_client.get(desk_url(table))
    html = page.content.decode()
    assert page.context["shown"] is None and page.context["unreviewed"].version == 1
    assert f'name="cards-{ids[1]}" id="id_cards-{ids[1]}" value=""' in html
    # Enter on the untouched form stores nothing and confirms nothing.
    data = {"idempotency_key": page.context["form"].key}
    response = organizer_client.post(desk_url(table), data)
    assert response.status_code == 422
    assert not table.submissions.filter(confirmed=True).exists()
    assert table.submissions.count() == 1


def test_a_confirmed_result_is_still_prefilled_for_a_correction(organizer_client, table):
    ids = seat_ids(table)
    organizer_client.post(desk_url(table), {"idempotency_key": "desk-4", f"points-{ids[0]}": "0",
                                            f"points-{ids[1]}": "12", f"points-{ids[2]}": "30",
                                            f"cards-{ids[3]}": "R5"})
    page = organizer_client.get(desk_url(table))
    assert page.context["shown"].confirmed
    assert 'value="R5"' in page.content.decode()


def test_each_raus_mark_is_its_own_checkbox(organizer_client, table):
    html = organizer_client.get(desk_url(table)).content.decode()
    assert html.count('type="checkbox" name="outcome"') == 4
    assert 'type="radio" name="outcome"' not in html


