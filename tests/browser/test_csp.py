"""Under the Content-Security-Policy, the behaviours moved out of inline handlers still work (#15,
headers), and none of them makes the browser report a violation. That no page reports one is checked on
every page of the URL map, at both widths, by the walk of tests/browser/test_accessibility.py."""

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.test_accessibility import CSP_LISTENER
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tests.tournament.urlmap import build_world

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world(transactional_db):
    organizer = UserFactory(username="orga", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], name="CSP-Turnier")
    players = [
        RegistrationFactory(tournament=tournament, start_number=i + 1, player__club__name=f"Club {i % 3}")
        for i in range(12)
    ]
    return build_world(organizer=organizer, tournament=tournament, players=players)


def logged_in_context(browser, live_server, viewport):
    client = Client()
    client.login(username="orga", password="secret-pass-123")
    context = browser.new_context(locale="en-GB", viewport=viewport)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    context.add_init_script(CSP_LISTENER)
    return context


def test_moved_behaviours_still_work(live_server, browser, world):
    t = world.tournament.pk
    context = logged_in_context(browser, live_server, {"width": 1366, "height": 768})
    page = context.new_page()
    # The round choice on the standings page submits itself.
    page.goto(f"{live_server.url}/{t}/standings/")
    with page.expect_navigation(url="**/standings/?after=1&club="):
        page.dispatch_event("select[name=after]", "change")
    # A click selects the whole captain link.
    page.goto(f"{live_server.url}/{t}/rounds/2/links/")
    page.locator("input.link-url").first.click()
    selected = page.evaluate("(() => { const f = document.querySelector('input.link-url');"
                             " return f.selectionEnd - f.selectionStart === f.value.length; })()")
    assert selected
    # "New link" asks first; dismissing keeps the link.
    page.goto(f"{live_server.url}/{t}/rounds/2/tables/{world.waiting_table.number}/")
    old = page.locator("input.link-url").input_value()
    page.once("dialog", lambda dialog: dialog.dismiss())
    page.click("button:has-text('New link')")
    assert page.locator("input.link-url").input_value() == old
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('New link')")
    page.wait_for_load_state("networkidle")
    assert page.locator("input.link-url").input_value() != old
    # After adding a player over htmx, the first name has the focus again.
    page.goto(f"{live_server.url}/{t}/players/")
    page.fill("#id_first_name", "Nina")
    page.fill("#id_last_name", "Neu")
    page.click("form.add-player button[type=submit]")
    expect(page.locator("#players-section .message")).to_contain_text("Nina Neu")
    expect(page.locator("#id_first_name")).to_be_focused()
    assert page.evaluate("window.__violations") == []
    context.close()
