"""An evening with "a second player confirms and the result counts" (#44): captains report on their
phones, a second player of each table taps "Stimmt" on the same phone with their start number, and the
organizer's clicks per round are only the turnaround (close and seat, publish-print-open). One table
says "Stimmt nicht"; the organizer sees it on top of the round page and resolves it."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, seated_round
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Round, Submission, Table, TableConfirmation

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/table-confirmation-shots"))


def seats_of(table):
    return list(table.seats.order_by("position").select_related("registration__player"))


def captain_reports(phone, url, table):
    """The captain (seat 1) went out; the others hold a card each."""
    phone.goto(url)
    seats = seats_of(table)
    phone.locator("li.player", has_text=seats[0].registration.player.name).get_by_label("went out").check()
    for seat, hand in zip(seats[1:], ("R7", "G5 Y2", "B9"), strict=False):
        phone.locator("li.player", has_text=seat.registration.player.name).locator(".cards-input").fill(hand)
    phone.get_by_role("button", name="Send result").click()
    expect(phone.locator("#table-check h2")).to_have_text("Second player: please check")


def second_player(phone, number, *, agrees=True, reason=""):
    phone.locator("input[name=start_number]").fill(str(number))
    if agrees:
        phone.get_by_role("button", name="That is right").click()
    else:
        phone.locator(".check-no summary").click()
        phone.locator("input[name=reason]").fill(reason)
        phone.locator("button.check-dispute").click()


def test_an_evening_confirmed_at_the_tables(live_server, browser):
    SHOTS.mkdir(parents=True, exist_ok=True)
    organizer = UserFactory(username="tables-confirm", password="secret-pass-123")
    tournament = TournamentFactory(
        organizers=[organizer], rounds_total=3, table_confirmation=TableConfirmation.PLAYER_COUNTS
    )
    players = [RegistrationFactory(tournament=tournament, start_number=i + 1) for i in range(8)]
    seated_round(tournament, players, status=Round.Status.OPEN)

    desk = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 768}, accept_downloads=True)
    page = desk.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/{tournament.pk}/rounds/1/")
    page.fill("input[name=username]", "tables-confirm")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator(".round-head h2")).to_contain_text("Round 1")
    # Nothing reported yet: every table needs the organizer (not reported).
    expect(page.locator("#needs-you .table-card")).to_have_count(2)

    phone_context = browser.new_context(
        viewport={"width": 360, "height": 740}, locale="en-US", has_touch=True
    )
    phone = phone_context.new_page()
    organizer_clicks = 0

    def click(selector):
        nonlocal organizer_clicks
        organizer_clicks += 1
        page.click(selector)

    for number in (1, 2):
        round_ = Round.objects.get(tournament=tournament, number=number)
        assert round_.status == Round.Status.OPEN
        clicks_before = organizer_clicks
        for table in round_.tables.order_by("number"):
            url = f"{live_server.url}/t/{table.token}/"
            captain_reports(phone, url, table)
            seats = seats_of(table)
            if number == 1 and table.number == 1:
                phone.screenshot(path=str(SHOTS / "1-check-open.png"), full_page=True)
                assert phone.evaluate("document.documentElement.scrollWidth") <= 360
                # The captain's own number is refused, with a clear message, and changes nothing.
                second_player(phone, seats[0].registration.start_number)
                expect(phone.locator("#table-check .page-alert")).to_contain_text(
                    "That is the captain's start number"
                )
                phone.screenshot(path=str(SHOTS / "2-captain-number-refused.png"), full_page=True)
                assert Submission.objects.get(table=table).player_check == ""
            if number == 2 and table.number == 2:
                second_player(phone, seats[3].registration.start_number, agrees=False,
                              reason="Cards of seat 3 were G5 only")
                expect(phone.locator(".check-disputed")).to_contain_text("Cards of seat 3 were G5 only")
                phone.screenshot(path=str(SHOTS / "4-disputed.png"), full_page=True)
                # The organizer's round page brings the dispute to the top by itself; they resolve it.
                card = page.locator("#needs-you #table-2")
                expect(card.locator(".table-disputed")).to_contain_text("Cards of seat 3 were G5 only")
                page.screenshot(path=str(SHOTS / "5-organizer-dispute.png"))
                # No one-click confirmation of a disputed table (#51 item 11): the form opens with
                # the newest version and the reason; saving it resolves the dispute.
                expect(card.locator("button:has-text('Confirm result')")).to_have_count(0)
                click("#needs-you #table-2 a:has-text('Resolve the dispute')")
                expect(page.locator(".table-dispute")).to_contain_text("Cards of seat 3 were G5 only")
                click("button:has-text('Save and next table')")
                expect(page.locator("#needs-you .table-card")).to_have_count(0)
                continue
            second_player(phone, seats[1].registration.start_number)
            expect(phone.locator(".result.is-confirmed h2")).to_have_text("Confirmed result")
            expect(phone.locator(".check-done")).to_contain_text(
                f"Checked at the table by no. {seats[1].registration.start_number}"
            )
            if number == 1 and table.number == 1:
                phone.screenshot(path=str(SHOTS / "3-confirmed.png"), full_page=True)
                # The organizer's card says who confirmed, among the tables that need nobody.
                expect(page.locator("#all-tables #table-1 .table-checked")).to_contain_text(
                    f"confirmed at the table by no. {seats[1].registration.start_number}"
                )
        assert set(Table.objects.filter(round=round_).values_list("status", flat=True)) == {"confirmed"}
        # The turnaround: close and seat, then publish, print and open: two clicks.
        page.wait_for_selector("button:has-text('Close and seat round'):not([disabled])")
        click(f"button:has-text('Close and seat round {number + 1}')")
        expect(page.locator(".round-head .badge")).to_have_text("seating drafted")
        with page.context.expect_page():  # the sheets open in a new tab, inline (#51 item 14)
            click("button:has-text('Publish, print table sheets and open for results')")
        expect(page.locator(".round-head .badge")).to_have_text("results open")
        resolved = 2 if number == 2 else 0  # "Resolve the dispute", then save the prefilled form
        assert organizer_clicks - clicks_before == 2 + resolved

    round_3 = Round.objects.get(tournament=tournament, number=3)
    assert round_3.status == Round.Status.OPEN
    # The phone in German (the default language): the captain sends, "Stimmt" / "Stimmt nicht".
    german = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE", has_touch=True)
    phone_de = german.new_page()
    table = round_3.tables.order_by("number").first()
    phone_de.goto(f"{live_server.url}/t/{table.token}/")
    phone_de.locator("li.player input[type=radio]").first.check()
    for row, hand in zip(range(1, 4), ("R7", "G5", "B9"), strict=True):
        phone_de.locator("li.player").nth(row).locator(".cards-input").fill(hand)
    phone_de.locator("button.send").click()
    expect(phone_de.locator("#table-check h2")).to_have_text("Zweiter Spieler: bitte prüfen")
    expect(phone_de.locator("button.check-yes")).to_have_text("Stimmt")
    expect(phone_de.locator(".check-no summary")).to_have_text("Stimmt nicht")
    phone_de.screenshot(path=str(SHOTS / "6-check-open-de.png"), full_page=True)
    assert phone_de.evaluate("document.documentElement.scrollWidth") <= 360
    log = list(AuditEntry.objects.filter(tournament=tournament).values_list("action", flat=True))
    assert log.count(AuditAction.RESULT_PLAYER_CONFIRM) == 3
    assert log.count(AuditAction.RESULT_DISPUTE) == 1
    assert log.count(AuditAction.DISPUTE_RESOLVE) == 1
    disputed = Submission.objects.get(player_check="disputed")
    resolution = Submission.objects.get(table=disputed.table, confirmed=True)
    assert resolution.source == Submission.Source.ORGANIZER and resolution.confirmed_by == organizer
    assert resolution.version == disputed.version + 1
