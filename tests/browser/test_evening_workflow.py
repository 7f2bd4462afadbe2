"""One evening through the navigation by phases (#41): the overview's next step leads the way; at the
admission desk a signed-up player is found and checked in with payment in one action, a walk-in in one
form; each round's turnaround takes at most two clicks; after the last round every document of the
end of the evening is one click from the overview."""

import pytest
from playwright.sync_api import expect

from engine.validation import SeatReport
from tests.factories import TournamentFactory, UserFactory
from tournament.models import Payment, Registration, Round, Submission
from tournament.prizes.selectors import prize_list
from tournament.results.services import result_submit
from tournament.series.services import series_create
from tournament.signup.services import signup_create
from tournament.standings.selectors import standings

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Anna Alt", "Ben Berg", "Cem Çelik", "Dora Dorn", "Emil Eck", "Frida Fuß", "Gerd Groß"]


def confirm_every_table(round_: Round, organizer) -> None:
    """Every table of the round reported and confirmed (as the captains and the desk would)."""
    for table in round_.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        result_submit(
            table=table, source=Submission.Source.ORGANIZER, user=organizer, confirm_warnings=True,
            seats=[SeatReport(player_id=seat.registration_id, points=0 if i == 0 else 5 * i + table.number,
                              went_out=i == 0) for i, seat in enumerate(seats)],
        )


@pytest.fixture
def evening(live_server, browser):
    organizer = UserFactory(username="evening", password="secret-pass-123")
    tournament = TournamentFactory(
        organizers=[organizer], rounds_total=2, signup_open=True, entry_fee_cents=800,
        prize_table=[50, 30, 20], payout_percent=100,
    )
    for name in NAMES:
        first, last = name.split()
        signup_create(tournament=tournament, first_name=first, last_name=last, birth_year=1980, member=True)
    series_create(tournament=tournament, user=organizer, name="Jahreswertung")
    context = browser.new_context(
        locale="en-GB", viewport={"width": 1366, "height": 768}, accept_downloads=True
    )
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/{tournament.pk}/")
    page.fill("input[name=username]", "evening")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator("#next-step")).to_have_attribute("data-step", "check_in")
    return page, tournament, organizer, live_server.url


def test_an_evening_through_the_phases(evening):
    page, tournament, organizer, base = evening

    # Admission, from the overview's next step: one search, one action checks in and takes the fee.
    page.click("#next-step a.button:has-text('Admission')")
    page.fill("[data-desk-search]", "fuss")  # ß folded: "Fuß" is found by "fuss"
    line = page.locator("#desk-list li.kind-signup")
    expect(line).to_have_count(1)
    expect(line.locator(".who")).to_contain_text("Fuß, Frida")
    line.locator("[data-desk-primary]").click()
    expect(page.locator("#desk .messages")).to_contain_text("Frida Fuß is checked in (no. 1) and paid 8.00 €")
    frida = Registration.objects.get(tournament=tournament, player__last_name="Fuß")
    assert frida.status == Registration.Status.CHECKED_IN and frida.payment.amount_cents == 800
    # Everybody else with a place, from the keyboard (arrow down, Enter).
    search = page.locator("[data-desk-search]")
    search.fill("")
    search.dispatch_event("search")
    expect(page.locator("#desk-list li.kind-signup")).to_have_count(6)
    for left in range(5, -1, -1):
        search.press("ArrowDown")
        page.keyboard.press("Enter")
        expect(page.locator("#desk-list li.kind-signup")).to_have_count(left)
    # A walk-in in one form.
    page.fill("#walk-in #id_first_name", "Walter")
    page.fill("#walk-in #id_last_name", "Walk")
    page.check("#walk-in #id_membership_1")
    page.fill("#walk-in #id_amount", "5")
    page.fill("#walk-in #id_reason", "Jugend")
    page.click("#walk-in button[type=submit]")
    expect(page.locator(".messages").first).to_contain_text("Walter Walk is checked in (no. 8)")
    assert Payment.objects.filter(tournament=tournament).count() == 8

    # Round 1 from the overview's next step; the second click publishes, prints and opens.
    page.click("nav.phase-nav .phases >> text=Overview")
    page.click("#next-step button:has-text('Seat round 1')")
    expect(page.locator(".round-head .badge")).to_have_text("seating drafted")
    with page.expect_download():
        page.click("button:has-text('Publish, print table sheets and open for results')")
    expect(page.locator(".round-head .badge")).to_have_text("results open")

    # Each turnaround: from the last confirmed table to the next round printing with results open.
    confirm_every_table(Round.objects.get(tournament=tournament, number=1), organizer)
    page.reload()
    clicks = 0
    page.click("button:has-text('Close and seat round 2')")
    clicks += 1
    expect(page.locator("form.swap-form")).to_be_visible()  # the draft with its repeats and the swap
    expect(page.locator(".seating-check")).to_be_visible()
    with page.expect_download():
        page.click("button:has-text('Publish, print table sheets and open for results')")
        clicks += 1
    expect(page.locator(".round-head .badge")).to_have_text("results open")
    assert clicks <= 2
    assert Round.objects.get(tournament=tournament, number=2).status == Round.Status.OPEN

    # The last round closes to the end of the evening; the overview offers every document at once.
    confirm_every_table(Round.objects.get(tournament=tournament, number=2), organizer)
    page.reload()
    page.click("button:has-text('Close round')")
    expect(page.locator(".round-actions .button").first).to_have_text("End of the evening")
    page.click("nav.phase-nav .phases >> text=Overview")
    expect(page.locator("#next-step")).to_have_attribute("data-step", "finish")
    links = page.locator("#next-step .finish-links a:not(.pdf-download)")
    wanted = {
        "Final standings (PDF)": "application/pdf", "Certificates: places 1 to 3": "application/pdf",
        "Places 1 to 3, participation for everyone else": "application/pdf",
        "Cash report (PDF)": "application/pdf", "Cash record (PDF)": "application/pdf",
        "Season standings (PDF)": "application/pdf", "Season certificates (PDF)": "application/pdf",
        "Download backup (JSON)": "application/json",
    }
    found = {
        links.nth(i).inner_text().strip(): links.nth(i).get_attribute("href") for i in range(links.count())
    }
    assert set(wanted) <= set(found), found
    for label, kind in wanted.items():
        response = page.request.get(base + found[label])
        assert response.status == 200 and response.headers["content-type"].startswith(kind), label
    # The end-of-evening page: standings, prize list, certificates, cash and season in one place.
    page.click("#next-step a.button:has-text('End of the evening')")
    prizes = prize_list(tournament, standings(tournament)[1])  # places shared by a tie share the prize
    assert len(prizes.rows) >= 3
    expect(page.locator("#finish-prizes table.prize-list tbody tr")).to_have_count(len(prizes.rows))
    expect(page.locator("#finish-season")).to_be_visible()
