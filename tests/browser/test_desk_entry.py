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


def test_on_a_phone_each_player_s_name_stands_above_their_inputs(desk):
    """#41 item 9: at 360 px the desk form is one card per player, nothing scrolls sideways."""
    page, _round = desk
    page.set_viewport_size({"width": 360, "height": 740})
    page.wait_for_selector("table.result-entry")
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 360
    rows = page.locator("table.result-entry tbody tr")
    for index in range(4):
        row = rows.nth(index)
        name = row.locator("td.who b").bounding_box()
        inputs = [row.locator(selector).bounding_box() for selector in (
            "input.cards-input", "input[name^=points]", "input[name^=count]", "input[name=outcome]"
        )]
        for box in [name, *inputs]:
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert all(box["y"] >= name["y"] + name["height"] - 1 for box in inputs)
        assert row.locator("td.who b").inner_text().strip()
