"""The prize-giving on the projector in a real browser (docs/rules.md §9): one place per click or key
press from the last prize place to the winner, then the full table, at 1366x768 and 1920x1080, with the
longest names a hall brings; the step is the evening's, so a second screen follows (#51 item 18).
Screenshots go to $SHOTS_DIR if set."""

import os
from pathlib import Path

import pytest
from django.test import Client

from tests.factories import TournamentFactory, UserFactory, long_named_players, play_round
from tournament.tournaments.services import standings_reveal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ["SHOTS_DIR"]) if os.environ.get("SHOTS_DIR") else None
VISIBLE = "[data-step]:not([hidden])"


@pytest.fixture
def evening(transactional_db):
    organizer = UserFactory(username="prize-organizer")
    tournament = TournamentFactory(
        organizers=[organizer], public=True, rounds_total=2, standings_hidden_from=2,
        name="Vereinsmeisterschaft im Leonharder UNO Wintercup 2026/27",
        prize_kind="fixed", prize_table=[50, 30, 20], goods_prizes=["Wanderpokal", "Gutschein Eiscafé"],
    )
    long_named_players(tournament)
    play_round(tournament, organizer, seed=1)
    play_round(tournament, organizer, seed=2)
    standings_reveal(tournament=tournament, user=organizer)
    return tournament


def organizer_context(browser, live_server, organizer, **options):
    """A browser logged in as `organizer`: the screen whose clicker moves the prize-giving."""
    client = Client()
    client.force_login(organizer)
    context = browser.new_context(**options)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    return context


def shown_place(page) -> str | None:
    return page.locator(VISIBLE).get_attribute("data-place")


def shot(page, name: str) -> None:
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fits(page) -> None:
    """Nothing to scroll, and the shown step inside the screen, no text cut off sideways."""
    assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")
    box = page.locator(VISIBLE).bounding_box()
    size = page.viewport_size
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"] + 1
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1
    assert page.evaluate(
        "[...document.querySelectorAll('[data-step]:not([hidden]) .reveal-name')]"
        ".every(e => e.scrollWidth <= e.clientWidth + 1)"
    )
    # Every line of the step inside the stage's body (which cuts off what overflows it).
    assert page.evaluate("""() => {
        const body = document.querySelector('#reveal .stage-body').getBoundingClientRect();
        return [...document.querySelectorAll('[data-step]:not([hidden]) :is(p, li, h2)')].every(e => {
            const r = e.getBoundingClientRect();
            return r.top >= body.top - 1 && r.bottom <= body.bottom + 1;
        });
    }""")


@pytest.mark.parametrize("width,height", [(1366, 768), (1920, 1080)])
def test_one_place_per_press_from_the_last_prize_to_the_winner(live_server, browser, evening, width, height):
    organizer = evening.organizers.get()
    page = organizer_context(
        browser, live_server, organizer, viewport={"width": width, "height": height}, locale="en"
    ).new_page()
    page.goto(f"{live_server.url}/p/{evening.pk}/projector/?show=reveal")
    assert page.locator(VISIBLE).count() == 1
    assert page.locator(f"{VISIBLE}.reveal-start").count() == 1
    shot(page, f"reveal-{width}x{height}-start")
    fits(page)

    shown, n = [], 0
    while True:
        page.keyboard.press("Space" if n % 2 == 0 else "ArrowRight") if n % 3 else page.click("#reveal")
        n += 1
        page.wait_for_function(f"() => document.querySelector('[data-reveal]').dataset.current === '{n}'")
        step = page.locator(VISIBLE)
        assert step.count() == 1
        fits(page)
        place = step.get_attribute("data-place")
        if place is None:
            break
        shown.append(int(place))
        text = step.inner_text()
        assert "point" in text  # the total
        shot(page, f"reveal-{width}x{height}-place-{place}")
    assert shown == sorted(shown, reverse=True) and shown[-1] == 1 and len(shown) >= 2
    winner = page.locator("[data-place='1']")
    assert "€" in winner.inner_text() and "Wanderpokal" in winner.inner_text()

    # Then the full table, every player on it.
    table = page.locator(f"{VISIBLE}.reveal-table")
    assert table.count() == 1 and table.locator(".standings-list li").count() == evening.registrations.count()
    shot(page, f"reveal-{width}x{height}-table")
    # One back: the winner again; the end stays at the table.
    page.keyboard.press("ArrowLeft")
    assert page.locator(VISIBLE).get_attribute("data-place") == "1"
    page.keyboard.press("PageDown")
    page.keyboard.press("PageDown")
    assert page.locator(f"{VISIBLE}.reveal-table").count() == 1


def test_in_german_the_hall_sees_the_silence_then_the_prize_giving(live_server, browser, transactional_db):
    organizer = UserFactory(username="stille-runden")
    tournament = TournamentFactory(
        organizers=[organizer], public=True, rounds_total=2, standings_hidden_from=2,
        prize_kind="fixed", prize_table=[30, 20, 10],
    )
    long_named_players(tournament)
    play_round(tournament, organizer, seed=3)
    play_round(tournament, organizer, seed=4)
    page = organizer_context(
        browser, live_server, organizer, viewport={"width": 1366, "height": 768}, locale="de-DE"
    ).new_page()
    page.goto(f"{live_server.url}/p/{tournament.pk}/projector/?show=standings&every=2")
    assert page.locator("#stage[data-slide='hidden']").count() == 1
    assert "Die letzten Runden werden verdeckt gespielt." in page.inner_text("#stage")
    assert page.locator("[data-total]").count() == 0
    shot(page, "projector-1366x768-hidden-de")
    # The ceremony's address shows nothing either until the organizer reveals.
    other = browser.new_context(viewport={"width": 1366, "height": 768}, locale="de-DE").new_page()
    other.goto(f"{live_server.url}/p/{tournament.pk}/projector/?show=reveal")
    assert other.locator("#reveal").count() == 0 and other.locator("[data-total]").count() == 0
    other.close()

    # The organizer reveals (from any device): the polling projector goes to the prize-giving by itself.
    standings_reveal(tournament=tournament, user=organizer)
    page.wait_for_url("**/projector/?show=reveal", timeout=5000)
    page.wait_for_selector("#reveal")
    assert "Siegerehrung" in page.inner_text("h1")
    while page.locator(VISIBLE).get_attribute("data-place") != "1":
        page.keyboard.press("Enter")
    step = page.locator(VISIBLE)
    assert step.inner_text().startswith("Platz 1") and "30,00 €" in step.inner_text()
    fits(page)
    shot(page, "reveal-1366x768-place-1-de")


def test_a_second_screen_follows_the_organizers_step(live_server, browser, evening):
    """Two projector screens nobody is logged in on; the organizer moves the prize-giving from the
    standings page (a POST) and then from a third screen's clicker: both screens show each step."""
    screens = []
    for _ in range(2):
        screen = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en").new_page()
        screen.goto(f"{live_server.url}/p/{evening.pk}/projector/?show=reveal")
        screens.append(screen)
    # A key on a screen nobody is logged in on moves nothing.
    screens[1].keyboard.press("Space")
    assert [shown_place(s) for s in screens] == [None, None]
    assert all(s.locator(f"{VISIBLE}.reveal-start").count() == 1 for s in screens)

    organizer = evening.organizers.get()
    desk = organizer_context(browser, live_server, organizer, viewport={"width": 360, "height": 740},
                             locale="en").new_page()
    desk.goto(f"{live_server.url}/{evening.pk}/standings/")
    assert "Every projector shows step 1 of" in desk.inner_text("#reveal-control")
    shot(desk, "reveal-control-360")
    desk.click("[data-reveal-next]")
    assert "Every projector shows step 2 of" in desk.inner_text("#reveal-control")
    first_place = desk.inner_text("#reveal-control b")
    for screen in screens:
        screen.wait_for_function("() => document.querySelector('[data-reveal]').dataset.current === '1'",
                                 timeout=10000)
        assert screen.locator(VISIBLE).inner_text().startswith(first_place)
        assert screen.inner_text("[data-reveal-count]").startswith("2 / ")

    # The organizer's own projector screen: its clicker moves both others too.
    clicker = organizer_context(browser, live_server, organizer, viewport={"width": 1366, "height": 768},
                                locale="en").new_page()
    clicker.goto(f"{live_server.url}/p/{evening.pk}/projector/?show=reveal")
    assert clicker.locator("[data-reveal]").get_attribute("data-current") == "1"
    clicker.keyboard.press("ArrowRight")
    expected = clicker.locator(VISIBLE).get_attribute("data-place")
    for screen in screens:
        screen.wait_for_function("() => document.querySelector('[data-reveal]').dataset.current === '2'",
                                 timeout=10000)
        assert shown_place(screen) == expected
    shot(screens[1], "reveal-second-screen-1366x768")
