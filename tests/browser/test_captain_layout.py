"""The captain's phone page as seen at 360 px: a regular card picker, no empty gap, alerts that are seen."""

import pytest
from playwright.sync_api import expect

from tests.browser.test_captain_phone import phone_table  # noqa: F401  (fixture)
from tests.tournament.test_i18n import german_catalogue  # noqa: F401  (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
# (grid, columns, keys): colours, the ten numbers, the other cards with ⌫
GRIDS = [(".picker-colours", 4, 4), (".picker-numbers", 5, 10), (".picker-actions", 3, 6)]

# Every key of a grid row as a box, grouped by row: [[(left, top, width, height, overflows), ...], ...]
KEY_ROWS = """(grid) => {
  const rows = new Map();
  for (const key of document.querySelector(grid).querySelectorAll(':scope > button')) {
    const box = key.getBoundingClientRect();
    const row = Math.round(box.top);
    if (!rows.has(row)) rows.set(row, []);
    rows.get(row).push([box.left, box.top, box.width, box.height, key.scrollWidth > key.clientWidth]);
  }
  return [...rows.values()];
}"""


def open_picker(browser, url, language):
    context = browser.new_context(viewport=PHONE, locale=language, has_touch=True)
    page = context.new_page()
    page.goto(url)
    page.locator("li.player").first.locator(".cards-input").click()
    expect(page.locator(".picker").first).to_be_visible()
    return page


@pytest.mark.usefixtures("german_catalogue")
@pytest.mark.parametrize(
    ("language", "words"),
    [("de-DE", ["+2", "Aussetzen", "Retour", "Farbwahl", "+4", "⌫"]),
     ("en-GB", ["+2", "Skip", "Reverse", "Wild", "+4", "⌫"])],
)
def test_every_row_of_the_picker_has_keys_of_one_width_and_at_least_44_px(
    live_server, browser, phone_table, language, words  # noqa: F811
):
    page = open_picker(browser, f"{live_server.url}/t/{phone_table.token}/", language)
    picker = page.locator(".picker").first
    expect(picker.locator(".picker-actions > button")).to_have_text(words)
    for grid, columns, keys in GRIDS:
        rows = page.evaluate(KEY_ROWS, f"li.player:first-child {grid}")
        assert [len(row) for row in rows] == [columns] * (keys // columns), (grid, rows)
        for row in rows:
            widths = [width for _left, _top, width, _height, _over in row]
            assert max(widths) - min(widths) < 0.5, (language, grid, widths)
            assert all(width >= 44 and height >= 44 for _l, _t, width, height, _o in row), (grid, row)
            assert not any(over for *_box, over in row), (language, grid, "a key's text is cut off")
        # the columns of all rows line up
        assert len({round(row[0][0]) for row in rows}) == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_no_empty_gap_under_the_status_badge(live_server, browser, phone_table):  # noqa: F811
    page = browser.new_context(viewport=PHONE, locale="en-GB").new_page()
    page.goto(f"{live_server.url}/t/{phone_table.token}/")
    expect(page.locator(".captain-head .badge")).to_have_text("waiting")
    # no round clock yet: it takes no room at all
    assert page.evaluate("getComputedStyle(document.querySelector('.round-clock')).display") == "none"
    badge = page.locator(".captain-head .badge").bounding_box()
    first_text = page.locator(".report-form .how").bounding_box()
    assert first_text["y"] - (badge["y"] + badge["height"]) < 32, (badge, first_text)


def test_an_error_of_the_whole_report_is_a_focused_alert_box(live_server, browser, phone_table):  # noqa: F811
    page = browser.new_context(viewport=PHONE, locale="en-GB", has_touch=True).new_page()
    page.goto(f"{live_server.url}/t/{phone_table.token}/")
    for row in page.locator("li.player").all():
        row.locator(".cards-input").fill("R5")
    page.get_by_role("button", name="Send result").click()  # nobody marked as went out
    alert = page.get_by_role("alert").filter(has_text="Nobody went out")
    expect(alert).to_be_visible()
    expect(alert).to_be_focused()
    expect(alert).to_have_class("message page-alert table-issues error")
    expect(alert.locator(".alert-title")).to_have_text("The result was not saved:")
    box = alert.bounding_box()
    assert 0 <= box["y"] < PHONE["height"]
    # styled like the app's other error messages: the error colours, not plain text
    colours = alert.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    assert colours == ["rgb(179, 38, 30)", "rgb(252, 232, 230)"]
