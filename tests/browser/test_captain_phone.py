"""A table captain on a phone-sized screen: tap cards, fix an error, lose Wi-Fi, get confirmed."""

import datetime
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.factories import PlayerFactory, RegistrationFactory, RoundFactory, SeatFactory, TableFactory
from tournament.models import Round, Submission, Table
from tournament.standings.selectors import standings

SHOTS = Path(os.environ["SHOTS_DIR"]) if os.environ.get("SHOTS_DIR") else None


@pytest.fixture
def phone_table(tournament):
    round_ = RoundFactory(tournament=tournament, number=1, status=Round.Status.OPEN)
    table = TableFactory(round=round_, number=3)
    people = [
        ("Anna", "Alt", datetime.date(1950, 3, 1)),
        ("Ben", "Berg", datetime.date(1970, 1, 1)),
        ("Cem", "Cakir", datetime.date(1980, 1, 1)),
        ("Dora", "Dorn", datetime.date(2001, 6, 2)),
    ]
    for position, (first, last, born) in enumerate(people, start=1):
        player = PlayerFactory(first_name=first, last_name=last, birth_date=born, birth_year=born.year)
        SeatFactory(
            table=table,
            round=round_,
            registration=RegistrationFactory(tournament=tournament, player=player),
            position=position,
        )
    return table


def player(page, name):
    return page.locator("li.player", has_text=name)


def tap_cards(page, name, *buttons):
    row = player(page, name)
    row.locator(".cards-input").click()
    for button in buttons:
        selector = f'.pick[data-colour="{button}"]' if button in "RYGB" else f'.pick[data-rank="{button}"]'
        row.locator(selector).click()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_captain_reports_from_a_phone_and_the_organizer_confirms(
    live_server, browser, phone_table, organizer
):
    captain_url = f"{live_server.url}/t/{phone_table.token}/"
    phone = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US", has_touch=True)
    page = phone.new_page()
    page.goto(captain_url)
    expect(page.locator("h1")).to_have_text("Round 1 · Table 3")
    expect(player(page, "Anna Alt").locator(".role.deals")).to_be_visible()
    expect(player(page, "Dora Dorn").locator(".role.starts")).to_be_visible()
    # no horizontal scrolling at 360 px
    assert page.evaluate("document.documentElement.scrollWidth") <= 360

    player(page, "Anna Alt").get_by_label("went out").check()
    tap_cards(page, "Ben Berg", "R", "7", "Rev", "W", "9")
    expect(player(page, "Ben Berg").locator(".chip")).to_have_count(4)
    player(page, "Ben Berg").locator(".chip").nth(3).click()  # remove the 9 again
    expect(player(page, "Ben Berg").locator(".cards-input")).to_have_value("R7 Rev W")
    expect(player(page, "Ben Berg").locator(".total")).to_have_text("77 points · 3 cards")
    player(page, "Cem Cakir").locator(".cards-input").fill("7 7 Kuh")
    tap_cards(page, "Dora Dorn", "Y", "0")
    expect(player(page, "Dora Dorn").locator(".cards-input")).to_have_value("Y0")

    page.get_by_role("button", name="Send result").click()
    expect(player(page, "Cem Cakir").locator(".errorlist")).to_have_text(
        "Cem Cakir: the card Kuh is unknown."
    )
    for other in ("Anna Alt", "Ben Berg", "Dora Dorn"):
        expect(player(page, other).locator(".errorlist")).to_have_count(0)
    expect(player(page, "Ben Berg").locator(".cards-input")).to_have_value("R7 Rev W")
    expect(player(page, "Cem Cakir").locator(".cards-input")).to_have_value("7 7 Kuh")
    expect(player(page, "Anna Alt").get_by_label("went out")).to_be_checked()
    assert not Submission.objects.exists()

    # a reload keeps everything typed, even what the server has not seen yet
    player(page, "Cem Cakir").locator(".cards-input").fill("7 7 +4")
    page.reload()
    expect(player(page, "Cem Cakir").locator(".cards-input")).to_have_value("7 7 +4")
    expect(player(page, "Ben Berg").locator(".cards-input")).to_have_value("R7 Rev W")
    expect(player(page, "Anna Alt").get_by_label("went out")).to_be_checked()

    # the Wi-Fi drops while sending: nothing is lost, sending again stores it once
    phone.set_offline(True)
    page.get_by_role("button", name="Send result").click()
    expect(page.locator(".offline-note")).to_be_visible()
    expect(player(page, "Cem Cakir").locator(".cards-input")).to_have_value("7 7 +4")
    phone.set_offline(False)
    page.get_by_role("button", name="Send result").click()
    expect(page.locator(".message.success")).to_contain_text("waiting for the organizer")
    expect(page.locator(".result.is-reported")).to_contain_text("R7 W Rev")
    submission = Submission.objects.get()
    assert (submission.version, submission.source, submission.token) == (1, "captain", phone_table.token)
    # Once the server has confirmed the report, the phone forgets its saved copy.
    page.wait_for_function(f"localStorage.getItem('captain:{phone_table.token}') === null")

    _rounds, before = standings(phone_table.round.tournament, include_open=True)
    assert all(line.row.total == 0 for line in before)

    # the organizer confirms on the table's history page
    desk = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    organizer_page = desk.new_page()
    organizer_page.goto(f"{live_server.url}/accounts/login/")
    organizer_page.fill("input[name=username]", organizer.username)
    organizer_page.fill("input[name=password]", "secret-pass-123")
    organizer_page.locator("main form [type=submit]").click()
    tournament_id = phone_table.round.tournament_id
    organizer_page.goto(f"{live_server.url}/{tournament_id}/rounds/1/tables/3/")
    organizer_page.get_by_role("button", name="Confirm this version").click()
    expect(organizer_page.locator("#table-status")).to_have_text("confirmed")

    phone_table.refresh_from_db()
    assert phone_table.status == Table.Status.CONFIRMED
    _rounds, after = standings(phone_table.round.tournament, include_open=True)
    totals = {line.registration.player.first_name: line.row.total for line in after}
    assert totals == {"Anna": 0, "Ben": 77, "Cem": 64, "Dora": 0}

    # the captain now sees the confirmed result, read-only
    page.reload()
    expect(page.locator(".result.is-confirmed")).to_contain_text("Confirmed result")
    expect(page.locator("form.report-form")).to_have_count(0)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_phone_totals_typed_names_as_the_server_reads_them(live_server, browser, phone_table):
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-US").new_page()
    page.goto(f"{live_server.url}/t/{phone_table.token}/")
    cards = player(page, "Ben Berg").locator(".cards-input")
    summary = player(page, "Ben Berg").locator(".hand-summary")
    cards.fill("wild 4")  # one Wild Draw Four, as engine.notation reads it
    expect(summary).to_contain_text("50 points · 1 card")
    cards.fill("W, 4")  # a Wild and a four
    expect(summary).to_contain_text("54 points · 2 cards")
    cards.fill("rot 7, grün zieh 2, Joker")
    expect(summary).to_contain_text("77 points · 3 cards")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_german_phone_types_and_shows_german_colours(live_server, browser, phone_table):
    """The keys, the chips, the field and the sent report all spell yellow "Ge" and green "Gr"."""
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE").new_page()
    page.goto(f"{live_server.url}/t/{phone_table.token}/")
    player(page, "Anna Alt").get_by_label("ist raus").check()
    tap_cards(page, "Ben Berg", "Y", "9", "G", "Rev", "R", "7")
    cards = player(page, "Ben Berg").locator(".cards-input")
    expect(cards).to_have_value("Ge9 GrRet R7")
    expect(player(page, "Ben Berg").locator(".chip")).to_have_text(["Ge9", "GrRet", "R7"])
    player(page, "Ben Berg").locator(".chip").nth(2).click()  # remove the red 7 again
    expect(cards).to_have_value("Ge9 GrRet")
    expect(player(page, "Ben Berg").locator(".total")).to_have_text("29 Punkte · 2 Karten")
    for name in ("Cem Cakir", "Dora Dorn"):
        tap_cards(page, name, "B", "1")
    page.get_by_role("button", name="Ergebnis senden").click()
    expect(page.locator(".result.is-reported")).to_contain_text("Ge9 GrRet")
    assert Submission.objects.get().entries.get(cards__startswith="Y").cards == "Y9 GRev"  # stored canonical


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_points_only_opens_with_one_tap(live_server, browser, phone_table, locale):
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale, has_touch=True)
    page = context.new_page()
    page.goto(f"{live_server.url}/t/{phone_table.token}/")
    for name in ("Ben Berg", "Cem Cakir"):
        row = player(page, name)
        row.locator(".points-only summary").scroll_into_view_if_needed()
        box = row.locator(".points-only summary").bounding_box()
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        expect(row.locator(".points-only")).to_have_attribute("open", "")
        expect(row.locator(".picker")).to_be_hidden()
        expect(row.locator(".pick.colour[aria-pressed=true]")).to_have_count(0)
        row.locator("input[name^=points-]").fill("12")
    # The cards field still opens the picker.
    player(page, "Dora Dorn").locator(".cards-input").click()
    expect(player(page, "Dora Dorn").locator(".picker")).to_be_visible()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_warning_is_brought_into_view_as_not_saved(live_server, browser, phone_table):
    """#51 item 5: the captain sends from the bottom of the page; the plausibility warning comes back
    as a "not saved" banner that is scrolled into view and has the focus, naming the player."""
    phone = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE", has_touch=True)
    page = phone.new_page()
    page.goto(f"{live_server.url}/t/{phone_table.token}/")
    player(page, "Anna Alt").locator("input[name=outcome]").check()
    tap_cards(page, "Ben Berg", "R", "7")
    tap_cards(page, "Cem Cakir", "G", "3")
    dora = player(page, "Dora Dorn")
    dora.locator("details.points-only summary").click()
    dora.locator("input[name^=points]").fill("250")
    page.locator("button.send").scroll_into_view_if_needed()
    page.locator("button.send").click()
    banner = page.locator(".table-issues.not-saved")
    expect(banner).to_be_focused()
    expect(banner).to_contain_text("Noch nicht gespeichert")
    expect(banner).to_contain_text("Dora Dorn")
    box = banner.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + 40 <= 740, box
    expect(page.locator("input[name=confirm_warnings]")).to_be_visible()
    assert not Submission.objects.filter(table=phone_table).exists()
    if SHOTS is not None:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / "captain-360-not-saved.png"))
