"""The players' pages on a phone (issue #41, 6): at 360 x 740 no public page scrolls sideways, every line
of the standings and of the season table shows its place, name and total inside the screen, a line's
round (or evening) details open with a tap, the chart is drawn for the phone's width, touch targets are
at least 24 px, and axe-core finds nothing critical or serious. The longest names a hall brings, an
evening after two closed rounds, the season of two public evenings with a player's season card, the
sign-up and its status page.

German (the default) and anonymous, as a player opens them. Screenshots go to $SHOTS_DIR if set."""

from __future__ import annotations

import datetime
import os
from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.test_accessibility import AXE, axe_problems
from tests.factories import (
    SeriesFactory,
    TournamentFactory,
    UserFactory,
    long_named_players,
    play_round,
    played_evening,
)
from tournament.models import Signup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
DESKTOP = {"width": 1366, "height": 768}


@pytest.fixture
def evening(live_server, transactional_db):
    """The second public evening of a season, two rounds closed, sign-up open, one sign-up waiting."""
    organizer = UserFactory(username="orga")
    series = SeriesFactory(organizers=[organizer], name="Jahreswertung Leonharder UNO Wintercup 2026/27",
                           best_of=1, attendance_bonus=1, miss_deduction=2)
    tournament = TournamentFactory(
        organizers=[organizer], series=series, public=True, signup_open=True, signup_capacity=40,
        name="Vereinsmeisterschaft im Leonharder UNO Wintercup 2026/27", date=datetime.date(2026, 2, 7),
        venue="Bürgerhaus am Marktplatz, großer Saal im Obergeschoss",
    )
    regs = long_named_players(tournament)
    earlier = played_evening(series=series, players=[reg.player for reg in regs[:8]],
                             date=datetime.date(2026, 1, 10), organizers=[organizer])
    earlier.public = True
    earlier.save()
    for seed in (1, 2):
        play_round(tournament, organizer, seed=seed)
    signup = Signup.objects.create(tournament=tournament, first_name="Maximiliane-Friederike-Josephine",
                                   last_name="von und zu Hohenzollern-Sigmaringen-Hechingen",
                                   birth_year=1990, queue=1, status=Signup.Status.WAITING)
    return tournament, signup


@pytest.fixture
def phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, locale="de-DE")
    context.add_init_script(path=AXE)
    page = context.new_page()
    page.set_default_timeout(15000)
    return page


def shot(page, name: str) -> None:
    if os.environ.get("SHOTS_DIR"):
        page.screenshot(path=str(Path(os.environ["SHOTS_DIR"]) / f"{name}.png"), full_page=True)


def scroll_width(page) -> int:
    return page.evaluate("document.scrollingElement.scrollWidth")


def boxes_outside(page, selector: str) -> list[str]:
    """Every element of `selector` that is not shown whole within the screen's width."""
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)].flatMap(e => {
        const r = e.getBoundingClientRect();
        return (r.width > 0 && r.height > 0 && r.x >= 0 && r.x + r.width <= innerWidth)
            ? [] : [`${selector} "${e.textContent.trim().slice(0, 30)}" x=${r.x} w=${r.width} h=${r.height}`];
    })""", selector)


def small_targets(page, selector: str) -> list[str]:
    return page.evaluate("""(selector) => [...document.querySelectorAll(selector)]
        .filter(e => e.getClientRects().length)
        .map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 24 || r.height < 24)
        .map(([text, r]) => `"${text}" ${r.width}x${r.height}`)""", selector)


def check_lines(page, rows: str, expected: int) -> None:
    """Each line's place, name and total are inside the screen's width (their element boxes)."""
    assert page.locator(rows).count() == expected
    for part in ("td.place", "td.name", "td.total"):
        assert not boxes_outside(page, f"{rows} > {part}")
    assert scroll_width(page) <= PHONE["width"], scroll_width(page)
    assert not small_targets(page, f"{rows} summary, {rows} a")


def test_the_public_pages_fit_a_phone(phone, live_server, evening):
    tournament, signup = evening
    base = live_server.url
    phone.goto(base + reverse("public:tournament", args=[tournament.pk]))
    shot(phone, "public-tournament-360")
    check_lines(phone, "table.public-standings tbody tr", 12)
    # The rounds' columns are the desktop's: on the phone a tap on a name shows its rounds.
    line = phone.locator("table.public-standings tbody tr").nth(4)
    assert not line.locator(".round-scores").is_visible()
    line.locator("summary").click()
    scores = line.locator(".round-scores")
    assert scores.is_visible() and scores.locator("dt").all_inner_texts() == ["R1", "R2"]
    assert not boxes_outside(phone, "table.public-standings .round-scores")
    assert scroll_width(phone) <= PHONE["width"]
    shot(phone, "public-tournament-360-open")
    # The chart drawn for the phone: its labels at least 11 px high, nothing past the screen.
    chart = phone.locator(".standings-chart-figure svg:visible")
    assert chart.count() == 1
    label_heights = chart.first.evaluate(
        "svg => [...svg.querySelectorAll('text')].map(t => t.getBoundingClientRect().height)")
    assert label_heights and min(label_heights) >= 11, label_heights
    box = chart.first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], box
    assert not axe_problems(phone), axe_problems(phone)

    phone.goto(base + reverse("public:series", args=[tournament.pk]))
    shot(phone, "public-series-360")
    check_lines(phone, "table.season tbody tr", 12)
    assert not axe_problems(phone), axe_problems(phone)
    # A tap on a name: the evenings (the one that does not count struck through), bonus, deduction, the
    # gap to the line above and the way to the season card, all inside the screen (issue #42, 9).
    line = phone.locator("table.season tbody tr").nth(1)
    line.locator("summary").click()
    details = line.locator("details")
    assert details.locator("dt").all_inner_texts() == ["10.01.", "07.02."]
    assert details.locator("s.dropped").count() == 1
    assert "Bonus +2" in details.inner_text() and "hinter Platz 1" in details.inner_text()
    assert not boxes_outside(phone, "table.season details[open] > :not(summary)")
    assert not small_targets(phone, "table.season details[open] a")
    assert scroll_width(phone) <= PHONE["width"]
    shot(phone, "public-series-360-open")
    name = line.locator("summary").inner_text()
    details.locator("a").click()
    phone.wait_for_load_state()
    assert phone.locator("h1").inner_text() == name
    shot(phone, "public-season-card-360")
    assert phone.locator("table.season-card tbody tr").count() == 2
    assert not boxes_outside(phone, "table.season-card tbody td")
    assert scroll_width(phone) <= PHONE["width"], scroll_width(phone)
    assert not axe_problems(phone), axe_problems(phone)

    for name, url in [("signup", reverse("public:signup", args=[tournament.pk])),
                      ("signup-status", signup.get_status_url())]:
        phone.goto(base + url)
        shot(phone, f"public-{name}-360")
        assert scroll_width(phone) <= PHONE["width"], (name, scroll_width(phone))
        assert not axe_problems(phone), (name, axe_problems(phone))


def test_on_a_desktop_the_rounds_are_columns(phone, live_server, evening):
    tournament, _signup = evening
    phone.set_viewport_size(DESKTOP)
    phone.goto(live_server.url + reverse("public:tournament", args=[tournament.pk]))
    shot(phone, "public-tournament-1366")
    header = phone.locator("table.public-standings thead th:visible").all_inner_texts()
    assert header == ["Platz", "Name", "Verein", "R1", "R2", "Gesamt"]
    assert not phone.locator("table.public-standings summary:visible").count()
    assert phone.locator(".standings-chart-figure svg:visible").count() == 1
    assert not axe_problems(phone), axe_problems(phone)
    phone.goto(live_server.url + reverse("public:series", args=[tournament.pk]))
    shot(phone, "public-series-1366")
    assert not axe_problems(phone), axe_problems(phone)
