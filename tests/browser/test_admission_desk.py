"""The admission desk in a real browser (#51 items 8 and 15): Enter acts on the list for what the box
holds, even typed faster than the list follows; on a phone the first result stands right under the
search box, above where the keyboard opens."""

import os
from pathlib import Path

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory
from tournament.models import Registration

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ["SHOTS_DIR"]) if os.environ.get("SHOTS_DIR") else None
PHONE = {"width": 360, "height": 740}
# A phone's keyboard covers about the lower 45 % of a 740 px high screen.
KEYBOARD_TOP = 400


def shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


@pytest.fixture
def door(live_server):
    organizer = UserFactory(username="door", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], entry_fee_cents=800)
    names = [("Anna", "Alt"), ("Ben", "Berg"), ("Cem", "Cakir"), ("Dora", "Dorn")]
    players = [
        RegistrationFactory(
            tournament=tournament, start_number=n + 1, status=Registration.Status.REGISTERED,
            player=PlayerFactory(first_name=first, last_name=last, club__name="UNO-Freunde St. Leonhard"),
        )
        for n, (first, last) in enumerate(names)
    ]
    return tournament, players


def desk_page(browser, live_server, tournament, viewport):
    page = browser.new_context(viewport=viewport, locale="en-GB").new_page()
    page.goto(f"{live_server.url}{reverse('login')}?next={reverse('organizer:desk', args=[tournament.pk])}")
    page.fill("input[name=username]", "door")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator("[data-desk-search]")).to_be_visible()
    page.wait_for_load_state("load")
    page.wait_for_function("() => window.htmx !== undefined")  # the box asks once htmx listens
    return page


def test_enter_typed_at_once_acts_on_the_new_search_not_the_last_line(browser, live_server, door):
    tournament, _players = door
    page = desk_page(browser, live_server, tournament, {"width": 1366, "height": 768})
    search = page.locator("[data-desk-search]")
    search.click()
    page.keyboard.type("2")
    expect(page.locator("#desk")).to_have_attribute("data-desk-query", "2")
    expect(page.locator("#desk-list li.desk-line")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator("#desk .messages")).to_contain_text("Ben Berg is checked in (no. 2) and paid 8.00 €")
    # The box has the focus with "2" selected; "3" and Enter in one go, faster than the list follows.
    page.keyboard.type("3")
    page.keyboard.press("Enter")
    expect(page.locator("#desk .messages")).to_contain_text("Cem Cakir is checked in (no. 3) and paid 8.00 €")
    statuses = dict(Registration.objects.values_list("start_number", "status"))
    assert statuses[2] == Registration.Status.CHECKED_IN
    assert statuses[3] == Registration.Status.CHECKED_IN
    assert Registration.objects.get(start_number=3).payment.amount_cents == 800


def test_undo_payment_in_a_stale_tab_does_not_check_out(browser, live_server, door):
    """Two helpers (or a stale tab) both see "Undo payment": the second tap takes back nothing more."""
    tournament, _players = door
    first = desk_page(browser, live_server, tournament, {"width": 1366, "height": 768})
    first.locator("[data-desk-search]").fill("Anna")
    expect(first.locator("#desk")).to_have_attribute("data-desk-query", "Anna")
    first.locator("#desk-list [data-desk-primary]").click()
    expect(first.locator("#desk .messages")).to_contain_text("Anna Alt is checked in")
    second = desk_page(browser, live_server, tournament, {"width": 1366, "height": 768})
    second.locator("[data-desk-search]").fill("Anna")
    expect(second.locator("#desk")).to_have_attribute("data-desk-query", "Anna")
    expect(second.locator("#desk-list button[value=undo]")).to_have_text("Undo payment")
    first.locator("#desk-list button[value=undo]").click()
    expect(first.locator("#desk .messages")).to_contain_text("Undone: the payment of 8.00 €")
    second.locator("#desk-list button[value=undo]").click()
    expect(second.locator("#desk .messages")).to_contain_text(
        "The payment of Anna Alt has already been taken back."
    )
    expect(second.locator("#desk-list button[value=undo]")).to_have_text("Undo check-in")
    registration = Registration.objects.get(start_number=1)
    assert registration.status == Registration.Status.CHECKED_IN
    assert not Registration.objects.filter(start_number=1, payment__isnull=False).exists()


def test_on_a_phone_the_first_result_stands_right_under_the_search_box(browser, live_server, door):
    tournament, _players = door
    page = desk_page(browser, live_server, tournament, PHONE)
    page.locator("[data-desk-search]").fill("Berg")
    expect(page.locator("#desk")).to_have_attribute("data-desk-query", "Berg")
    search = page.locator("[data-desk-search]").bounding_box()
    first = page.locator("#desk-list li.desk-line").first.bounding_box()
    shot(page, "desk-360-search")
    assert first["y"] >= search["y"] + search["height"]
    # The line's name and its first action are above where the keyboard opens.
    button = page.locator("#desk-list [data-desk-primary]").first.bounding_box()
    assert button["y"] + button["height"] <= KEYBOARD_TOP, (search, first, button)
    assert first["y"] - (search["y"] + search["height"]) < 80, (search, first)
