"""From sign-up to prize money in a real browser: 30 people sign up for 24 places, two withdraw, the
waiting list moves up, the door checks them in with payments and a walk-in, the evening is played, and
the cash report and the prize list are printed. Screenshots and the PDFs go to $SHOTS_DIR if set."""

import io
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.conftest import go
from tests.factories import TournamentFactory, UserFactory, play_round
from tournament.models import Payment, Registration, Signup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ["SHOTS_DIR"]) if os.environ.get("SHOTS_DIR") else None


@pytest.fixture
def context(live_server, browser):
    context = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 768})
    context.set_default_timeout(30000)
    yield context
    context.close()


def shot(page, name):
    if SHOTS is None:
        return
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def pdf_text(response, name: str) -> str:
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    body = response.body()
    if SHOTS is not None:
        (SHOTS / "pdf").mkdir(parents=True, exist_ok=True)
        (SHOTS / "pdf" / name).write_bytes(body)
    return "".join(page.extract_text() for page in PdfReader(io.BytesIO(body)).pages)


def test_thirty_sign_ups_for_24_places_to_the_prize_list(live_server, context, settings):
    settings.SIGNUPS_PER_ADDRESS = 100
    organizer = UserFactory(username="orga", password="secret-pass-123")
    tournament = TournamentFactory(
        organizers=[organizer], name="Herbstturnier", signup_open=True, signup_capacity=24, rounds_total=2,
        public=True,
    )
    base = live_server.url
    public = context.new_page()

    # 30 people sign up through the public form; from the 25th on they wait.
    for number in range(1, 31):
        public.goto(f"{base}/p/{tournament.pk}/signup/")
        public.fill("#id_first_name", f"Person{number:02d}")
        public.fill("#id_last_name", "Muster")
        public.fill("#id_club", "UNO Freunde" if number % 2 else "Kartenclub")
        public.fill("#id_birth_year", str(1950 + number))
        public.check("#id_membership_0" if number % 3 else "#id_membership_1")  # a member, or a guest
        if number == 1:
            public.set_viewport_size({"width": 360, "height": 740})
            shot(public, "signup-360")
            public.set_viewport_size({"width": 1366, "height": 768})
            shot(public, "signup-1366")
        public.click("button:has-text('Sign up')")
        status = public.locator("#signup-status [data-status]")
        if number <= 24:
            expect(status).to_have_text("You have a place.")
        else:
            expect(status).to_have_text(f"You are number {number - 24} on the waiting list.")
        if number == 25:
            shot(public, "status-waiting-1366")
    links = {s.first_name: s.get_status_url() for s in Signup.objects.filter(tournament=tournament)}

    # Two withdraw by their private links: the first two waiting move up.
    for name in ("Person03", "Person10"):
        public.goto(base + links[name])
        public.click("button:has-text('Withdraw my sign-up')")
        # one tap is not enough: the page asks first
        expect(public.locator("#confirm-withdraw h2")).to_have_text("Really withdraw?")
        expect(public.locator("#signup-status [data-status]")).to_have_text("You have a place.")
        public.click("button:has-text('Yes, withdraw')")
        expect(public.locator("#signup-status [data-status]")).to_have_text("You have withdrawn.")
    for name in ("Person25", "Person26"):
        public.goto(base + links[name])
        expect(public.locator("#signup-status [data-status]")).to_have_text("You have a place.")
    public.goto(base + links["Person27"])
    expect(public.locator("#signup-status [data-status]")).to_have_text(
        "You are number 1 on the waiting list."
    )
    public.set_viewport_size({"width": 360, "height": 740})
    shot(public, "status-360")

    # The organizer's sign-up list.
    page = context.new_page()
    page.goto(f"{base}/{tournament.pk}/signups/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator("table.signups tbody tr.signup-confirmed")).to_have_count(24)
    expect(page.locator("table.signups tbody tr.signup-waiting")).to_have_count(4)
    shot(page, "signups-1366")

    # Prize settings: 8 EUR, 75 % paid out, 50/30/20, goods prizes.
    go(page, "Preparation", "Prize money")
    page.fill("#id_entry_fee", "8")
    page.fill("#id_payout_percent", "75")
    page.fill("#id_prize_table", "50/30/20")
    page.fill("#id_goods_prizes", "UNO Deluxe\nTasse\nKartenmischer")
    page.click("form.prize-settings button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Prize money saved.")

    # Admission: a signed-up player found by the search and checked in with payment in one action; then
    # everybody else with a place, one of them by transfer; a walk-in in one form.
    go(page, "Admission")
    arriving = page.locator("#desk-list li.kind-signup")
    expect(arriving).to_have_count(24)
    first = arriving.first.locator(".who b").inner_text()
    page.fill("[data-desk-search]", first.replace(",", ""))
    expect(page.locator("#desk-list li.kind-signup")).to_have_count(1)
    page.locator("#desk-list li.kind-signup").first.locator("select[name=method]").select_option("transfer")
    page.locator("#desk-list li.kind-signup").first.locator("[data-desk-primary]").click()
    expect(page.locator("#desk .messages")).to_contain_text("paid 8.00 € (transfer)")
    page.fill("[data-desk-search]", "")
    page.locator("[data-desk-search]").dispatch_event("search")
    expect(arriving).to_have_count(23)
    for done in range(23):
        arriving.first.locator("[data-desk-primary]").click()
        expect(arriving).to_have_count(22 - done)
    page.fill("#walk-in #id_first_name", "Walter")
    page.fill("#walk-in #id_last_name", "Walk-in")
    page.fill("#walk-in #id_birth_year", "1966")
    page.check("#walk-in #id_membership_1")  # a guest
    page.click("#walk-in button:has-text('Register, paid and checked in')")
    expect(page.locator(".messages").first).to_contain_text(
        "Walter Walk-in is checked in (no. 25) and paid 8.00 € (cash)."
    )
    shot(page, "desk-1366")
    page.set_viewport_size({"width": 360, "height": 740})
    shot(page, "desk-360")
    page.set_viewport_size({"width": 1366, "height": 768})
    assert Registration.objects.filter(tournament=tournament, status="checked_in").count() == 25
    assert Payment.objects.filter(tournament=tournament).count() == 25
    assert Payment.objects.filter(tournament=tournament, method="transfer").count() == 1

    # The cash report: 25 x 8 EUR expected and collected.
    text = pdf_text(page.request.get(f"{base}/print/{tournament.pk}/cash-report.pdf"), "cash-report.pdf")
    assert "Cash report" in text and "200.00 €" in text and "192.00 €" in text and "8.00 €" in text

    # The evening: both rounds seated, played and closed (through the services, as the desk would).
    for seed in (1, 2):
        play_round(tournament, organizer, seed=seed)

    # The prize list: 25 x 8 EUR x 75 % = 150 EUR, on the prize page, the final standings and the projector.
    page.goto(f"{base}/{tournament.pk}/prizes/")
    expect(page.locator("#prize-pot")).to_have_text("150.00 €")
    expect(page.locator("table.prize-list tbody tr")).to_have_count(3)
    shot(page, "prizes-1366")
    text = pdf_text(page.request.get(f"{base}/print/{tournament.pk}/standings.pdf"), "standings.pdf")
    assert "Prize list" in text and "UNO Deluxe" in text
    assert "Prize pot 150.00 € from the entry fees collected (200.00 €)" in text  # 25 paid 8 €, 75 %
    projector = context.new_page()
    projector.goto(f"{base}/p/{tournament.pk}/projector/?show=prizes")
    expect(projector.locator("#stage")).to_have_attribute("data-slide", "prizes")
    expect(projector.locator(".prize-slide li")).to_have_count(3)
    shot(projector, "projector-prizes-1366")
