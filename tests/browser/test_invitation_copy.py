"""The invitation link has a copy button (#51 point 20): a click puts the link on the clipboard and
says so beside the button, on the laptop and on a phone."""

import pytest
from playwright.sync_api import expect

from tests.factories import TournamentFactory, UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 768}, {"width": 360, "height": 740}])
def test_the_copy_button_copies_the_invitation_link(live_server, browser, viewport, tmp_path):
    organizer = UserFactory(username="chef", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer])
    context = browser.new_context(locale="en-GB", viewport=viewport)
    # localhost is a secure context: the Clipboard API is there once the page may write to it.
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/{tournament.pk}/people/")
    page.fill("input[name=username]", "chef")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    page.select_option("select[name=role] >> nth=1", "helper")
    page.click("#create-invitation")
    link = page.locator("#invitation-link").input_value()
    page.click("#copy-invitation")
    expect(page.locator("#copy-invitation-status")).to_have_text("Link copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    box = page.locator("#copy-invitation").bounding_box()
    assert box["x"] + box["width"] <= viewport["width"]
    page.screenshot(path=str(tmp_path / f"invitation-{viewport['width']}.png"), full_page=True)
