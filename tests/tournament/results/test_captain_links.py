"""The organizer's captain links with QR codes and a table's history with confirmation."""

import pytest
from django.urls import reverse

from engine.validation import SeatReport
from tests.tournament.conftest import report_data, seat_ids
from tournament.models import AuditEntry, Round, Submission, Table
from tournament.results.services import result_submit
from tournament.rounds.services import table_regenerate_token
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db


def links_url(round_):
    return reverse("organizer:round_links", args=[round_.tournament_id, round_.number])


def detail_url(table):
    return reverse(
        "organizer:table_detail", args=[table.round.tournament_id, table.round.number, table.number]
    )


def captain_report(client, table, key="cap", **kwargs):
    response = client.post(
        reverse("captain:table", args=[table.token]), report_data(table, key=key, **kwargs)
    )
    assert response.status_code == 303
    return Submission.objects.get(table=table, idempotency_key=key)


def test_links_page_shows_every_tables_link_and_qr_code(
    organizer_client, table, other_table, django_assert_max_num_queries, settings
):
    settings.ALLOWED_HOSTS = ["testserver"]  # a host Django checked goes into the links
    with django_assert_max_num_queries(12):
        response = organizer_client.get(links_url(table.round))
    assert response.status_code == 200
    html = response.content.decode()
    for t in (table, other_table):
        assert f"http://testserver/t/{t.token}/" in html
    assert html.count("<svg") == 2
    assert "Anna Alt" in html


def test_links_page_query_count_does_not_grow_with_tables(
    organizer_client, table, other_table, django_assert_max_num_queries
):
    from tests.factories import RegistrationFactory, SeatFactory, TableFactory

    for number in range(3, 9):
        extra = TableFactory(round=table.round, number=number)
        for position in range(1, 5):
            SeatFactory(
                table=extra,
                round=table.round,
                position=position,
                registration=RegistrationFactory(tournament=table.round.tournament),
            )
    with django_assert_max_num_queries(12):
        response = organizer_client.get(links_url(table.round))
    assert response.content.decode().count("<svg") == 8


def test_links_use_the_public_base_url(organizer_client, table, settings):
    settings.PUBLIC_BASE_URL = "http://192.168.1.20:8000"
    html = organizer_client.get(links_url(table.round)).content.decode()
    assert f"http://192.168.1.20:8000/t/{table.token}/" in html


def test_links_are_hidden_while_the_seating_is_a_draft(organizer_client, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.DRAFT)
    html = organizer_client.get(links_url(table.round)).content.decode()
    assert table.token not in html


def test_links_page_polls_and_reloads_when_a_table_reports(organizer_client, client, table):
    fingerprint = organizer_client.get(links_url(table.round)).context["fingerprint"]
    quiet = organizer_client.get(links_url(table.round), {"since": fingerprint}, HTTP_HX_REQUEST="true")
    assert quiet.status_code == 204 and "HX-Refresh" not in quiet
    captain_report(client, table)
    changed = organizer_client.get(links_url(table.round), {"since": fingerprint}, HTTP_HX_REQUEST="true")
    assert changed["HX-Refresh"] == "true"


def test_table_history_shows_every_version_with_link_and_address(organizer_client, client, table, organizer):
    captain_report(client, table, key="v1")
    captain_report(client, table, key="v2", hands=("", "R7 Rev", "7 7 +4", "Y0"))
    table_regenerate_token(table=table, user=organizer)
    response = organizer_client.get(detail_url(table))
    html = response.content.decode()
    assert [s.version for s in response.context["submissions"]] == [1, 2]
    assert html.count("127.0.0.1") == 2
    assert html.count("(old link)") == 2
    assert "R7 W Rev" in html and "R7 Rev" in html


def test_the_round_page_s_confirm_answers_htmx_with_the_round_status(organizer_client, client, table):
    """The one-click confirmation on the round page swaps in the round's live status, not a page."""
    submission = captain_report(client, table)
    url = reverse("organizer:submission_confirm", args=[table.round.tournament_id, submission.pk])
    response = organizer_client.post(url, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.context["round"] == table.round
    assert response.context["counts"][Table.Status.CONFIRMED] == 1
    assert "<html" not in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED


def test_confirm_one_click_changes_the_standings(organizer_client, client, table):
    submission = captain_report(client, table)
    response = organizer_client.post(detail_url(table), {"action": "confirm", "submission": submission.pk})
    assert response.status_code == 302
    submission.refresh_from_db()
    table.refresh_from_db()
    assert submission.confirmed and table.status == Table.Status.CONFIRMED
    assert AuditEntry.objects.filter(action="result_confirm", table=table).exists()
    _rounds, lines = standings(table.round.tournament, include_open=True)
    totals = {line.registration.player.first_name: line.row.total for line in lines}
    assert {name: totals[name] for name in ("Anna", "Ben", "Cem", "Dora")} == {
        "Anna": 0,
        "Ben": 77,
        "Cem": 64,
        "Dora": 0,
    }
    page = client.get(reverse("captain:table", args=[table.token]))
    assert page.context["confirmed"] == submission and page.context["read_only"]


def test_confirm_cannot_reach_another_tables_submission(organizer_client, client, table, other_table):
    submission = captain_report(client, table)
    response = organizer_client.post(
        detail_url(other_table), {"action": "confirm", "submission": submission.pk}, follow=True
    )
    assert "Select a valid choice" in response.content.decode()
    submission.refresh_from_db()
    assert not submission.confirmed


def test_regenerate_link_from_the_history(organizer_client, client, table):
    old = table.token
    response = organizer_client.post(detail_url(table), {"action": "regenerate"})
    assert response.status_code == 302
    table.refresh_from_db()
    assert table.token != old
    assert client.get(reverse("captain:table", args=[old])).status_code == 404
    assert AuditEntry.objects.filter(action="token_new", table=table).exists()


def test_second_entry_mismatch_shown_side_by_side_and_not_confirmable(
    organizer_client, client, table, organizer
):
    tournament = table.round.tournament
    tournament.require_second_entry = True
    tournament.save()
    captain = captain_report(client, table)
    ids = seat_ids(table)
    result_submit(
        table=table,
        source=Submission.Source.ORGANIZER,
        user=organizer,
        seats=[
            SeatReport(ids[0], went_out=True),
            SeatReport(ids[1], cards="R7 Rev W"),
            SeatReport(ids[2], cards="7 7 +2"),
            SeatReport(ids[3], cards="Y0"),
        ],
    )
    table.refresh_from_db()
    assert table.status == Table.Status.DISPUTED
    response = organizer_client.get(detail_url(table))
    assert response.context["mismatch"]
    assert [line.differs for line in response.context["compared"]] == [False, False, True, False]
    assert 'class="differs"' in response.content.decode()
    refused = organizer_client.post(
        detail_url(table), {"action": "confirm", "submission": captain.pk}, follow=True
    )
    assert "requires a second, matching entry" in refused.content.decode()
    captain.refresh_from_db()
    assert not captain.confirmed


def test_matching_second_entry_confirms_by_itself(organizer_client, client, table, organizer):
    tournament = table.round.tournament
    tournament.require_second_entry = True
    tournament.save()
    captain_report(client, table)
    ids = seat_ids(table)
    result_submit(
        table=table,
        source=Submission.Source.ORGANIZER,
        user=organizer,
        seats=[
            SeatReport(ids[0], went_out=True),
            SeatReport(ids[1], points="77"),
            SeatReport(ids[2], points="64", card_count="3"),
            SeatReport(ids[3], cards="Y0"),
        ],
    )
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    response = organizer_client.get(detail_url(table))
    assert not response.context["mismatch"]
    assert "The two entries match." in response.content.decode()


def test_round_extras_links_to_the_links_page(table, rf):
    from django.template.loader import render_to_string

    html = render_to_string(
        "tournament/organizer/_round_extras.html",
        {"round": table.round, "tournament": table.round.tournament, "may": {"results": True}},
    )
    assert links_url(table.round) in html
    # A role without the results (a viewer) is not shown the links (#45).
    viewer = render_to_string(
        "tournament/organizer/_round_extras.html",
        {"round": table.round, "tournament": table.round.tournament, "may": {"view": True}},
    )
    assert links_url(table.round) not in viewer
