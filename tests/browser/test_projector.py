"""The projector in a real browser: a confirmed result shows up by itself, without a page reload."""

import pytest

from engine.validation import SeatReport
from tests.factories import (
    LONG_NAMES,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    long_named_players,
    play_round,
    seated_round,
)
from tournament.clock.services import clock_start
from tournament.models import Round, Submission
from tournament.results.services import result_submit

pytestmark = pytest.mark.browser

@pytest.fixture
def page(browser):
    return browser.new_context(viewport={"width": 1600, "height": 900}, locale="en").new_page()


@pytest.fixture
def hall(transactional_db):
    organizer = UserFactory(username="hall-organizer")
    tournament = TournamentFactory(public=True, organizers=[organizer])
    names = [("Anna", "Adler"), ("Bruno", "Berg"), ("Carla", "Cramer"), ("Dirk", "Dorn")]
    players = [
        RegistrationFactory(tournament=tournament, start_number=i + 1, player__first_name=first,
                            player__last_name=last)
        for i, (first, last) in enumerate(names)
    ]
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    return tournament, organizer, players, round_


def test_confirmed_result_appears_on_the_projector_within_one_refresh(live_server, page, hall):
    tournament, organizer, players, round_ = hall
    every = 2
    page.goto(f"{live_server.url}/p/{tournament.pk}/projector/?show=standings&every={every}")
    page.wait_for_selector("#stage[data-slide='empty']")
    page.evaluate("window.notReloaded = true")

    table = round_.tables.get()
    outcome = result_submit(
        table=table, source=Submission.Source.ORGANIZER, user=organizer,
        seats=[SeatReport(player_id=reg.pk, points=points, went_out=points == 0)
               for reg, points in zip(players, [23, 0, 7, 61], strict=True)],
    )
    assert outcome.submission.confirmed

    # One refresh is `every` seconds away; allow for the request itself, no more.
    page.wait_for_selector("#stage[data-slide='standings']", timeout=(every + 1.5) * 1000)
    rows = page.locator(".standings-list li")
    assert rows.count() == 4
    assert [rows.nth(i).get_attribute("data-player") for i in range(4)] == [
        "Bruno Berg", "Carla Cramer", "Anna Adler", "Dirk Dorn",
    ]
    assert [rows.nth(i).get_attribute("data-total") for i in range(4)] == ["0", "7", "23", "61"]
    assert page.evaluate("window.notReloaded") is True  # swapped by htmx, not reloaded
    first = page.locator(".standings-list li.top-1 .rank")
    assert first.evaluate("e => getComputedStyle(e).color") == "rgb(255, 213, 74)"  # gold, not alarm red
    # Nothing to scroll: the projector never jumps.
    assert page.evaluate("document.scrollingElement.scrollHeight <= window.innerHeight")


def test_projector_counts_the_clock_down_without_polling(live_server, page, hall):
    tournament, organizer, _players, round_ = hall
    clock_start(round_=round_, user=organizer, minutes=10)
    requests = []
    page.on("request", lambda request: requests.append(request.url) if "/projector/" in request.url else None)
    page.goto(f"{live_server.url}/p/{tournament.pk}/projector/?every=30")
    page.wait_for_selector("#stage[data-slide='seating'] .round-clock.running")
    first = page.text_content("[data-clock-time]")
    changed = "(first) => document.querySelector('[data-clock-time]').textContent !== first"
    page.wait_for_function(changed, arg=first, timeout=3000)
    assert page.text_content("[data-clock-time]").startswith("9:5")
    assert len(requests) == 1  # the countdown ran without asking the server
    assert page.locator(".seat-list li").count() == 4


def test_projector_qr_code_is_drawn_whole_inside_its_box(live_server, browser, hall):
    tournament, _organizer, _players, _round = hall
    page = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en").new_page()
    page.goto(f"{live_server.url}/p/{tournament.pk}/projector/?show=seating")
    page.wait_for_selector(".stage-qr svg")
    box = page.evaluate("""() => {
        const svg = document.querySelector('.stage-qr svg');
        const outer = svg.getBoundingClientRect();
        const drawn = svg.querySelector('path.qrline').getBoundingClientRect();
        return {outer: [outer.left, outer.top, outer.right, outer.bottom],
                drawn: [drawn.left, drawn.top, drawn.right, drawn.bottom]};
    }""")
    (ol, ot, orr, ob), (dl, dt, dr, db) = box["outer"], box["drawn"]
    assert ol <= dl and ot <= dt and dr <= orr + 0.5 and db <= ob + 0.5  # nothing drawn outside the box
    assert orr - ol >= 88  # 12% of 768 px: at least about 3 px per module for a phone camera


# Every line of a list slide inside its column, its parts (place, name, table or total) side by side,
# none over another, all inside the line.
LINE_PARTS_OVERLAPPING = """() => {
    const bad = [];
    for (const li of document.querySelectorAll('.seat-list li, .standings-list li')) {
        const row = li.getBoundingClientRect();
        const column = li.parentElement.getBoundingClientRect();
        if (row.left < column.left - 0.5 || row.right > column.right + 0.5) bad.push(li.textContent);
        const parts = [...li.children].map(e => e.getBoundingClientRect());
        parts.forEach((r, i) => {
            if (r.left < row.left - 0.5 || r.right > row.right + 0.5) bad.push(li.textContent + ': outside');
            if (i && r.left < parts[i - 1].right - 0.5) bad.push(li.textContent + ': overlaps');
        });
    }
    return bad;
}"""


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080), (1024, 768)])
@pytest.mark.parametrize("show", ["seating", "standings"])
def test_long_names_give_way_to_table_numbers_and_totals(live_server, browser, transactional_db, size, show):
    organizer = UserFactory(username="hall-organizer")
    tournament = TournamentFactory(public=True, organizers=[organizer])
    long_named_players(tournament)
    play_round(tournament, organizer, seed=1)
    play_round(tournament, organizer, seed=2, close=False)
    width, height = size
    page = browser.new_context(viewport={"width": width, "height": height}, locale="de").new_page()
    page.goto(f"{live_server.url}/p/{tournament.pk}/projector/?show={show}")
    page.wait_for_selector(f"#stage[data-slide='{show}']")
    assert page.locator(".seat-list li, .standings-list li").count() == len(LONG_NAMES)
    assert page.evaluate(LINE_PARTS_OVERLAPPING) == []
