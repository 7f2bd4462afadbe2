"""The organizer's pages as seen on a laptop (1366 x 768) and a phone (360 px): every option text of
the settings readable, the round's live tables visible without scrolling."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from engine.validation import SeatReport
from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory, seated_round
from tests.tournament.test_i18n import german_catalogue  # noqa: F401  (fixture)
from tournament.models import Round, Submission
from tournament.results.services import result_submit
from tournament.rounds.services import round_close

pytestmark = [
    pytest.mark.browser, pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("german_catalogue")
]

LAPTOP = {"width": 1366, "height": 768}
PHONE = {"width": 360, "height": 740}
FIRST = ["Theresa", "Maximilian", "Franziska", "Sebastian", "Katharina"]
LAST = ["Egger", "Brunnhuber", "Obermaier", "Hofer"]
CLUBS = ["Seniorenclub Sonnenhof", "UNO-Freunde St. Leonhard"]
# Chromium draws a select's arrow inside the box, on about 20 px at its right.
ARROW = 24

# For every select: the widest option text (measured in the select's own font) and the room it has.
OPTION_ROOM = """() => [...document.querySelectorAll('form.settings-form select')].map(select => {
  const style = getComputedStyle(select);
  const canvas = document.createElement('canvas').getContext('2d');
  canvas.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const widest = Math.max(...[...select.options].map(o => canvas.measureText(o.text).width));
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [select.name, widest, room];
})"""


@pytest.fixture
def evening(live_server):
    """Twenty players with clubs at five tables in round 1, results open, two tables reported (names
    and clubs a little longer than the demo's)."""
    organizer = UserFactory(username="layout", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], rounds_total=6, time_limit_minutes=30)
    players = [
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(first_name=FIRST[i % 5], last_name=LAST[i % 4], club__name=CLUBS[i % 2]),
        )
        for i in range(20)
    ]
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    for table in round_.tables.order_by("number")[:2]:
        seats = table.seats.order_by("position")
        result_submit(
            table=table, source=Submission.Source.CAPTAIN, user=None, token=table.token,
            seats=[SeatReport(player_id=s.registration_id, cards=c, went_out=c is None)
                   for s, c in zip(seats, [None, "R7", "gelb 3", "W"], strict=True)],
        )
    return tournament, round_


def logged_in(browser, base, viewport, language):
    page = browser.new_context(viewport=viewport, locale=language).new_page()
    page.goto(f"{base}{reverse('login')}")
    page.fill("input[name=username]", "layout")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator(".topbar")).to_contain_text("layout")
    return page


@pytest.mark.parametrize("language", ["de-DE", "en-GB"])
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366", "360"])
def test_every_option_text_of_the_settings_is_readable(live_server, browser, evening, viewport, language):
    tournament, _round = evening
    page = logged_in(browser, live_server.url, viewport, language)
    page.goto(live_server.url + reverse("organizer:tournament_edit", args=[tournament.pk]))
    expect(page.locator("form.settings-form")).to_be_visible()
    rooms = page.evaluate(OPTION_ROOM)
    assert {name for name, _widest, _room in rooms} == {
        "fill", "scoring", "end_rule", "missed_rounds", "table_confirmation"
    }
    cut = [(name, round(widest), round(room)) for name, widest, room in rooms if widest > room - ARROW]
    assert cut == [], f"option texts cut off at {viewport['width']} px"
    # the tie-break orders are radio buttons whose text wraps inside the form
    orders = page.locator("fieldset.radios label.radio")
    expect(orders).to_have_count(4)
    form = page.locator("form.settings-form").bounding_box()
    for box in (orders.nth(i).bounding_box() for i in range(4)):
        assert box["x"] + box["width"] <= form["x"] + form["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


def test_the_live_tables_are_seen_without_scrolling_at_1366_x_768(live_server, browser, evening):
    tournament, round_ = evening
    page = logged_in(browser, live_server.url, LAPTOP, "de-DE")
    page.goto(live_server.url + reverse("organizer:round", args=[tournament.pk, round_.number]))
    expect(page.locator(".round-head .badge")).to_have_text("Ergebniseingabe offen")
    expect(page.locator(".clock-controls")).to_be_visible()
    tables = page.locator("#needs-you .tables-grid").bounding_box()
    assert tables["y"] < 768
    # the whole first row of tables, the reported ones with their confirm button included
    first_row = [page.locator(f"#table-{n}").bounding_box() for n in (1, 2, 3, 4)]
    assert len({round(box["y"]) for box in first_row}) == 1, first_row
    assert max(box["y"] + box["height"] for box in first_row) <= 768, first_row
    expect(page.locator("#table-1").get_by_role("button", name="Ergebnis bestätigen")).to_be_in_viewport()
    # the secondary panels are still there, after the tables
    prints = page.locator(".print-buttons").bounding_box()
    assert prints["y"] > tables["y"] + tables["height"]


# Every word of a name in the category grid's cards that is drawn on more than one line: broken inside
# the word. A word carries its hyphen, after which a line may end ("Hohenzollern-" / "Sigmaringen").
BROKEN_WORDS = """() => {
  const broken = [];
  for (const cell of document.querySelectorAll('.category-grid .card table.compact td:not(.num)')) {
    const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.data.matchAll(/[^\\s-]+-?/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map(rect => Math.round(rect.top)));
        if (lines.size > 1) { broken.push(match[0]); }
      }
    }
  }
  return broken;
}"""
LONG_NAMES = [  # (first name, last name, gender): the longest a club brings
    ("Maximiliane-Friederike", "von Hohenzollern-Sigmaringen", "f"),
    ("Hans-Friedrich", "Müller-Lüdenscheidt", "m"),
    ("Walburga", "Obermüller-Brunnhuber", "f"),
    ("Bartholomäus", "Hinterseer", "m"),
]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366", "360"])
def test_names_in_the_category_cards_break_between_words(live_server, browser, viewport):
    organizer = UserFactory(username="layout", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], rounds_total=6)
    players = [
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(
                first_name=LONG_NAMES[i % 4][0], last_name=LONG_NAMES[i % 4][1], gender=LONG_NAMES[i % 4][2],
                club__name=["Kartenfreunde Oberschwaben-Allgäu", "Farbwechsel"][i % 2],
            ),
        )
        for i in range(8)
    ]
    round_ = seated_round(tournament, players, status=Round.Status.OPEN)
    for table in round_.tables.all():
        seats = table.seats.order_by("position")
        result_submit(
            table=table, source=Submission.Source.ORGANIZER, user=organizer,
            seats=[SeatReport(player_id=s.registration_id, points=p, went_out=p is None)
                   for s, p in zip(seats, [None, "5", "12", "30"], strict=True)],
        )
    round_close(round_=round_, user=organizer)
    page = logged_in(browser, live_server.url, viewport, "de-DE")
    page.goto(live_server.url + reverse("organizer:standings", args=[tournament.pk]))
    expect(page.locator("#category-women")).to_contain_text("Hohenzollern-Sigmaringen")
    expect(page.locator("#club-ranking")).to_contain_text("Oberschwaben-Allgäu")
    assert page.evaluate(BROKEN_WORDS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1366", "360"])
def test_the_navigation_is_six_phases_and_one_menu_on_a_phone(live_server, browser, evening, viewport):
    """#41 item 1: at most six entries in the order of the evening; on a phone one compact menu right
    under the title (not rows of tabs), the page's own buttons after it."""
    tournament, _round = evening
    page = logged_in(browser, live_server.url, viewport, "en-GB")
    page.goto(live_server.url + reverse("organizer:players", args=[tournament.pk]))
    phases = ["Overview", "Preparation", "Admission", "Rounds", "Finish", "Log"]
    if viewport is LAPTOP:
        expect(page.locator("nav.phase-nav .phases a")).to_have_text(phases)
        expect(page.locator("nav.phase-nav .phases a.active")).to_have_text("Preparation")
        expect(page.locator(".phase-menu")).to_be_hidden()
        return
    expect(page.locator("nav.phase-nav")).to_be_hidden()
    menu = page.locator(".phase-menu")
    expect(menu.locator("summary")).to_have_text("Menu: Preparation")
    title, summary = page.locator("h1").bounding_box(), menu.bounding_box()
    import_button = page.locator(".page-head a:has-text('Import CSV/Excel')").bounding_box()
    assert title["y"] < summary["y"] < import_button["y"]
    assert summary["height"] < 60  # one line, not two screens of tabs
    menu.locator("summary").click()
    expect(menu.locator("a.phase-link")).to_have_text(phases)
    menu.locator("a:has-text('Admission')").first.click()
    expect(page.locator("[data-desk-search]")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
