"""A whole small tournament in a real browser: create, import, check in, seat, enter results, standings."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import go
from tests.factories import UserFactory

SAMPLE = Path(__file__).resolve().parents[2] / "fixtures" / "sample_players.csv"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def page(live_server, browser):
    page = browser.new_context(locale="en-GB", viewport={"width": 1280, "height": 900}).new_page()
    page.set_default_timeout(30000)
    return page


def test_small_tournament_from_creation_to_standings(live_server, page):
    UserFactory(username="orga", password="secret-pass-123")
    base = live_server.url
    page.goto(f"{base}/new/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")

    # Create the tournament (defaults: 6 rounds, tables of 4, minus points).
    page.fill("#id_name", "Browser-Turnier")
    page.fill("#id_date", "2026-05-01")
    page.click("text=Create tournament")
    expect(page.locator("h1")).to_contain_text("Browser-Turnier")

    # Import the sample CSV with a preview.
    page.click("text=Import CSV/Excel")
    page.set_input_files("#id_file", str(SAMPLE))
    page.click("text=Show preview")
    expect(page.locator("table.import-preview tbody tr")).to_have_count(8)
    page.click("button:has-text('Import 8 players')")
    expect(page.locator("table.players tbody tr")).to_have_count(8)

    # Admission: keyboard first. Arrow down to the first line, Enter checks in; the search box takes the
    # focus again, the figures follow.
    go(page, "Admission")
    search = page.locator("[data-desk-search]")
    for done in range(1, 9):
        search.press("ArrowDown")
        page.keyboard.press("Enter")
        expect(page.locator("#desk-list li.kind-in")).to_have_count(done)
        expect(search).to_be_focused()
    expect(page.locator("#desk .stat").nth(1)).to_contain_text("8")

    # Seat round 1; publish, print and open in one step.
    go(page, "Rounds")
    page.click("button:has-text('Seat round 1')")
    expect(page.locator(".table-card")).to_have_count(2)
    page.click("text=Publish only")
    page.click("text=Open for results")
    expect(page.locator(".round-head .badge")).to_have_text("results open")

    # Type both paper sheets from the keyboard: seat 1 went out, then cards, points, cards.
    page.click(".round-actions >> text=Enter results")
    for table_number in (1, 2):
        expect(page.locator(".round-head h2")).to_contain_text(f"Table {table_number}")
        rows = page.locator("table.result-entry tbody tr")
        rows.nth(0).locator("input[type=checkbox]").check()
        rows.nth(1).locator("input.cards-input").fill("R7 Rev W")
        rows.nth(2).locator("input.cards-input").press("Tab")
        page.keyboard.type("12")
        rows.nth(3).locator("input.cards-input").fill("y0 g1")
        rows.nth(3).locator("input.cards-input").press("Enter")
        page.wait_for_load_state()

    # All confirmed: the round closes.
    expect(page.locator("#round-status .stat").first).to_contain_text("2 / 2")
    page.click("button:has-text('Close round')")
    expect(page.locator(".round-head .badge")).to_have_text("closed")

    # Standings: 0, 1, 12, 77 twice each, with shared places.
    go(page, "Rounds", "Standings")
    rows = page.locator("#standings-table table.standings tbody tr")  # not the category rankings below
    expect(rows).to_have_count(8)
    places = [rows.nth(i).locator("td").nth(0).inner_text() for i in range(8)]
    totals = [int(rows.nth(i).locator("td.total").inner_text()) for i in range(8)]
    assert totals == [0, 0, 1, 1, 12, 12, 77, 77]
    assert places == ["1.", "1.", "3.", "3.", "5.", "5.", "7.", "7."]
