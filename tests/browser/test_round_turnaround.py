"""From the last confirmation to the next round's table sheets printing with results open, in at most
two clicks (the draft preview with its repeats and swap stays on the way)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from engine.validation import SeatReport
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, seated_round
from tournament.models import Round, Submission
from tournament.results.services import result_submit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def evening(live_server, browser):
    organizer = UserFactory(username="turnaround", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], rounds_total=6)
    players = [RegistrationFactory(tournament=tournament, start_number=i + 1) for i in range(8)]
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    for table in round_.tables.all():
        seats = list(table.seats.order_by("position"))
        result_submit(
            table=table, source=Submission.Source.ORGANIZER, user=organizer,
            seats=[SeatReport(player_id=seat.registration_id, points=points, went_out=points == 0)
                   for seat, points in zip(seats, [0, 12, 30, 7], strict=True)],
        )
    context = browser.new_context(
        locale="en-GB", viewport={"width": 1366, "height": 768}, accept_downloads=True
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/{tournament.pk}/rounds/1/")
    page.fill("input[name=username]", "turnaround")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator(".round-head h2")).to_contain_text("Round 1")
    return page, tournament


def test_round_turnaround_takes_two_clicks(evening):
    page, tournament = evening
    clicks = 0

    def click(selector):
        nonlocal clicks
        clicks += 1
        page.click(selector)

    click("button:has-text('Close and seat round 2')")
    expect(page.locator(".round-head h2")).to_contain_text("Round 2")
    expect(page.locator(".round-head .badge")).to_have_text("seating drafted")
    expect(page.locator("form.swap-form")).to_be_visible()  # the draft preview, swap possible
    expect(page.locator(".tables-grid .table-card")).to_have_count(2)
    # The sheets open in a new tab, inline like every PDF of the app (#51 item 14), not as a download.
    sheets_url = f"/print/{tournament.pk}/rounds/2/table-sheets.pdf"
    with page.context.expect_page() as new_tab, page.context.expect_event(
        "request", lambda request: request.url.endswith(sheets_url)
    ) as asked:
        click("button:has-text('Publish, print table sheets and open for results')")
    assert new_tab.value != page and asked.value.frame.page == new_tab.value
    sheets = asked.value.response()
    assert sheets.headers["content-type"] == "application/pdf"
    assert sheets.headers["content-disposition"].startswith("inline")
    expect(page.locator(".round-head .badge")).to_have_text("results open")
    # The success message stays when the live status refreshes (every few seconds).
    message = page.locator(".messages", has_text="Round 2 published and open for results.")
    expect(message).to_be_visible()
    with page.expect_response(lambda response: response.url.endswith("/rounds/2/status/")):
        pass
    with page.expect_response(lambda response: response.url.endswith("/rounds/2/status/")):
        pass
    expect(message).to_be_visible()
    expect(page.locator(".sheets-ready a[target=_blank]")).to_have_text("Print table sheets")
    if os.environ.get("SHOTS_DIR"):
        page.screenshot(path=str(Path(os.environ["SHOTS_DIR"]) / "turnaround-1366.png"))
        page.set_viewport_size({"width": 360, "height": 740})
        page.screenshot(path=str(Path(os.environ["SHOTS_DIR"]) / "turnaround-360.png"))
    assert clicks == 2
    assert Round.objects.get(tournament=tournament, number=1).status == Round.Status.CLOSED
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.OPEN


def test_after_the_last_round_the_first_action_is_the_final_standings(live_server, browser):
    organizer = UserFactory(username="last-round", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], rounds_total=1)
    players = [RegistrationFactory(tournament=tournament, start_number=i + 1) for i in range(4)]
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    table = round_.tables.get()
    result_submit(
        table=table, source=Submission.Source.ORGANIZER, user=organizer,
        seats=[SeatReport(player_id=seat.registration_id, points=points, went_out=points == 0)
               for seat, points in zip(table.seats.order_by("position"), [0, 12, 30, 7], strict=True)],
    )
    page = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/{tournament.pk}/rounds/1/")
    page.fill("input[name=username]", "last-round")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator("button:has-text('Close and seat round')")).to_have_count(0)
    page.click("button:has-text('Close round')")
    first = page.locator(".round-actions .button").first
    expect(first).to_have_text("End of the evening")
    expect(page.locator(".round-actions a:has-text('Certificates (PDF)')")).to_be_visible()
