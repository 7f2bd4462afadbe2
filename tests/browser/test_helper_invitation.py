"""#45 done-criterion: the organizer invites a helper by link; on a phone (360 px) the helper creates an
account, checks in two players and takes their fees while the organizer seats round 1 on the laptop;
the audit log names each person on their own actions, and the helper's phone offers no seating."""

import re

import pytest
from playwright.sync_api import expect

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Payment, Registration, Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 360, "height": 740}
LAPTOP = {"width": 1366, "height": 768}
ARRIVING = ("Alt", "Berg")


@pytest.fixture
def evening(live_server, browser):
    organizer = UserFactory(username="chef", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], rounds_total=2, entry_fee_cents=800)
    for number in range(1, 9):
        RegistrationFactory(
            tournament=tournament, start_number=number, player__last_name=f"Spieler{number}",
            player__first_name="Vorab",
        )
    for number, last_name in enumerate(ARRIVING, start=9):
        RegistrationFactory(
            tournament=tournament, start_number=number, player__last_name=last_name,
            player__first_name="Gast", status=Registration.Status.REGISTERED,
        )
    context = browser.new_context(locale="en-GB", viewport=LAPTOP)
    page = context.new_page()
    page.goto(f"{live_server.url}/accounts/login/?next=/{tournament.pk}/people/")
    page.fill("input[name=username]", "chef")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")
    expect(page.locator("h1")).to_contain_text(tournament.name)
    return page, tournament, live_server.url


def test_an_invited_helper_takes_the_door_on_a_phone_while_the_organizer_seats(evening, browser):
    organizer_page, tournament, base = evening
    t = tournament.pk

    # The organizer makes a helper's link (shown once, with its QR code).
    organizer_page.select_option("select[name=role] >> nth=1", "helper")
    organizer_page.click("#create-invitation")
    link = organizer_page.locator("#invitation-link").input_value()
    # The link names the address phones in the hall reach (tournament/qr.py); the test's phone opens
    # its path on the test's server.
    path = re.fullmatch(r"https?://[^/]+(/invite/[A-Za-z0-9_-]{43}/)", link).group(1)
    expect(organizer_page.locator("#new-invitation svg")).to_be_visible()

    # On the helper's phone: the link, a new account, straight into the tournament.
    phone = browser.new_context(locale="en-GB", viewport=PHONE, is_mobile=True, has_touch=True).new_page()
    phone.goto(base + path)
    expect(phone.locator("h1")).to_contain_text(tournament.name)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.fill("#id_username", "anna-door")
    phone.fill("#id_first_name", "Anna")
    phone.fill("#id_password1", "Kassenbuch-2026!")
    phone.fill("#id_password2", "Kassenbuch-2026!")
    phone.click("button:has-text('Create account and join')")
    expect(phone.locator(".topbar")).to_contain_text("Log out (Anna)")
    expect(phone.locator("#next-step")).to_be_visible()
    expect(phone.locator("button:has-text('Seat round')")).to_have_count(0)  # the draw is not hers

    # The door: the first arrival checked in and paid on the phone.
    phone.goto(f"{base}/{t}/desk/")
    admit(phone, "Alt")
    # Meanwhile the organizer seats round 1 on the laptop.
    organizer_page.goto(f"{base}/{t}/rounds/")
    organizer_page.click("form.seat-next button[type=submit]")
    expect(organizer_page.locator(".round-head .badge")).to_have_text("seating drafted")
    # The second arrival, while round 1 is drafted.
    admit(phone, "Berg")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    payments = Payment.objects.filter(tournament=tournament, registration__player__last_name__in=ARRIVING)
    assert sorted(payments.values_list("amount_cents", "created_by__username")) == [
        (800, "anna-door"), (800, "anna-door"),
    ]
    assert Round.objects.get(tournament=tournament).status == Round.Status.DRAFT

    # The helper's phone opens no round's draw or settings; the audit log names each person.
    phone.goto(f"{base}/{t}/settings/")
    expect(phone.locator("h1")).to_have_text("Access denied")
    organizer_page.goto(f"{base}/{t}/audit/")
    rows = organizer_page.locator("table.audit > tbody > tr")
    expect(rows.filter(has_text="seating drawn")).to_contain_text("chef")
    expect(rows.filter(has_text="invitation accepted")).to_contain_text("anna-door")
    expect(rows.filter(has_text="invitation link created")).to_contain_text("chef")
    door = rows.filter(has_text="anna-door").filter(has_text="Alt")
    expect(door.first).to_be_visible()
    actors = dict(AuditEntry.objects.filter(tournament=tournament).values_list("action", "actor").distinct())
    assert actors[AuditAction.ROUND_SEAT] == "chef" and actors[AuditAction.INVITATION_ACCEPT] == "anna-door"
    door_actions = [AuditAction.CHECK_IN, AuditAction.PAYMENT]
    door_entries = AuditEntry.objects.filter(tournament=tournament, action__in=door_actions)
    assert set(door_entries.values_list("actor", flat=True)) == {"anna-door"}


def admit(phone, last_name: str) -> None:
    phone.fill("[data-desk-search]", last_name)
    line = phone.locator("#desk-list li.kind-registered")
    expect(line).to_have_count(1)
    line.locator("[data-desk-primary]").click()
    expect(phone.locator("#desk .messages")).to_contain_text(f"Gast {last_name} is checked in")
