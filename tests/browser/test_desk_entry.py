"""The desk form from the keyboard: Tab reaches every row's "went out" mark, a 0 marks the winner."""

import pytest
from playwright.sync_api import expect

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, seated_round
from tournament.models import Round, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def desk(live_server, browser):
    organizer = UserFactory(username="desk", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer])
    players = [RegistrationFactory(tournament=tournament, start_number=i + 1) for i in range(4)]
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    page = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 768}).new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/{tournament.pk}/rounds/1/tables/1/result/")
    page.fill("input[name=username]", "desk")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    return page, round_


def test_tab_reaches_every_went_out_mark(desk):
    page, _round = desk
    page.wait_for_selector("table.result-entry")
    page.locator("table.result-entry tbody tr").nth(0).locator("input.cards-input").focus()
    focused = []
    for _ in range(20):
        page.keyboard.press("Tab")
        focused.append(page.evaluate("document.activeElement.getAttribute('name') + '|' + "
                                     "document.activeElement.type"))
    marks = [f for f in focused if f.startswith("outcome|")]
    assert len(marks) == 4, focused
    assert all(f == "outcome|checkbox" for f in marks)


def test_a_zero_typed_for_the_winner_saves_the_table(desk):
    page, round_ = desk
    rows = page.locator("table.result-entry tbody tr")
    rows.nth(0).locator("input.cards-input").press("Tab")
    page.keyboard.type("0")
    rows.nth(1).locator("input.cards-input").fill("R7 Rev W")
    rows.nth(2).locator("input.cards-input").fill("gelb 3")
    rows.nth(3).locator("input.cards-input").fill("9")
    rows.nth(3).locator("input.cards-input").press("Enter")
    expect(page.locator(".round-head .badge")).to_be_visible()
    page.wait_for_load_state()
    table = Table.objects.get(round=round_, number=1)
    assert table.status == Table.Status.CONFIRMED
