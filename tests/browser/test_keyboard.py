"""Keyboard only (#51 item 21): the desk, the captain's page and the public sign-up are worked without a
mouse. Every page starts with a skip link; the card picker is two Tab stops (arrow keys inside), not
twenty buttons per player."""

import pytest
from django.test import Client

from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, seated_round
from tournament.models import Registration, Round, Signup

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def focused(page) -> dict:
    return page.evaluate(
        "() => { const e = document.activeElement; return {tag: e.tagName.toLowerCase(), id: e.id,"
        " name: e.getAttribute('name') || '', cls: e.className || '', text: (e.innerText || '').trim(),"
        " value: e.value || ''}; }"
    )


TABBABLE = "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])"
FIRST_TABBABLE = (f'() => [...document.querySelectorAll("{TABBABLE}")]'
                  ".find(e => !e.disabled && e.getClientRects().length || e.classList.contains('skip-link'))")


def start_with_the_skip_link(page) -> None:
    """The skip link is the page's first Tab stop (Shift+Tab goes back to it from wherever the page
    put the focus); Enter on it takes the focus past the header to the content."""
    assert page.evaluate(f"() => ({FIRST_TABBABLE})().className") == "skip-link"
    if page.evaluate("() => document.activeElement === document.body"):
        page.keyboard.press("Tab")
    for _ in range(40):
        if focused(page)["cls"] == "skip-link":
            break
        page.keyboard.press("Shift+Tab")
    assert focused(page)["cls"] == "skip-link"
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "main"


def logged_in_page(browser, live_server, user, **options):
    client = Client()
    client.force_login(user)
    context = browser.new_context(**options)
    context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                          "url": live_server.url}])
    return context.new_page()


def test_the_desk_by_keyboard(live_server, browser):
    organizer = UserFactory(username="desk-keys")
    tournament = TournamentFactory(organizers=[organizer])
    players = [RegistrationFactory(tournament=tournament, start_number=n, player__first_name=f"Kim{n}",
                                   status=Registration.Status.REGISTERED) for n in range(1, 4)]
    page = logged_in_page(browser, live_server, organizer, viewport={"width": 1366, "height": 768},
                          locale="en-GB")
    page.goto(f"{live_server.url}/{tournament.pk}/desk/")
    assert focused(page)["id"] == "desk-search"  # the search has the focus on arrival
    start_with_the_skip_link(page)
    tabs = 0
    while focused(page)["id"] != "desk-search":  # past the evening's phase tabs
        page.keyboard.press("Tab")
        tabs += 1
        assert tabs < 15, focused(page)
    page.keyboard.type("Kim2")
    page.wait_for_function(
        "() => document.querySelectorAll('#desk-list [data-desk-primary]').length === 1"
        " && document.querySelector('#desk-list').innerText.includes('Kim2')"
    )
    page.keyboard.press("ArrowDown")  # to the line's first action
    assert focused(page)["text"] == "Check in"
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement.id === 'desk-search'")
    page.wait_for_function("() => document.querySelector('#desk-list').innerText.includes('Undo check-in')")
    players[1].refresh_from_db()
    assert players[1].status == Registration.Status.CHECKED_IN

    # A walk-in with a mistake: the focus goes to the errors, whose link leads to the field.
    page.focus("#id_last_name")
    page.keyboard.type("Spontan")
    page.keyboard.press("Enter")
    page.wait_for_selector("#walk-in-errors")
    assert focused(page)["id"] == "walk-in-errors"
    page.keyboard.press("Tab")
    assert focused(page)["tag"] == "a"
    page.keyboard.press("Enter")
    assert focused(page)["id"] == "id_first_name"


def test_the_captain_page_by_keyboard(live_server, browser, transactional_db):
    organizer = UserFactory(username="captain-keys")
    tournament = TournamentFactory(organizers=[organizer])
    regs = [RegistrationFactory(tournament=tournament, start_number=n, player__first_name=f"P{n}",
                                status=Registration.Status.CHECKED_IN) for n in range(1, 5)]
    table = seated_round(tournament, regs, status=Round.Status.OPEN).tables.get()
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB").new_page()
    page.goto(f"{live_server.url}/t/{table.token}/")
    start_with_the_skip_link(page)
    # Tab through the page to "Send result": the first player's picker opens on its cards field and
    # adds two stops (colours, cards), never twenty.
    stops, picks = 0, set()
    while "send" not in focused(page)["cls"].split():
        page.keyboard.press("Tab")
        stops += 1
        now = focused(page)
        if "pick" in now["cls"].split():
            picks.add((now["cls"], now["text"]))
        assert stops < 60, focused(page)
    assert len(picks) <= 2 * 4 and stops < 45, (stops, picks)

    # Cards by keyboard: into P2's cards field, Tab to the colours, → to yellow, Tab to the cards, End
    # is the last card key (undo), Home the first ("0"); Enter picks it.
    page.focus("li.player:nth-child(2) .cards-input")
    page.keyboard.press("Tab")
    assert focused(page)["cls"].startswith("pick colour")
    page.keyboard.press("ArrowRight")
    colour = focused(page)["text"]
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert "rank" in focused(page)["cls"]
    page.keyboard.press("End")
    assert focused(page)["text"] == "\u232b"
    page.keyboard.press("Home")
    first_card = focused(page)["text"]
    page.keyboard.press("Enter")
    value = page.input_value("li.player:nth-child(2) .cards-input")
    assert value.endswith(first_card) and len(value) > len(first_card), (colour, value)


def test_the_public_sign_up_by_keyboard(live_server, browser):
    tournament = TournamentFactory(signup_open=True, public=True)
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB").new_page()
    page.goto(f"{live_server.url}/p/{tournament.pk}/signup/")
    start_with_the_skip_link(page)
    typed = {"first_name": "Tara", "last_name": "Tastatur", "club": "", "birth_year": "1990",
             "email": "", "phone": ""}
    while focused(page)["name"] != "first_name":
        page.keyboard.press("Tab")
    for name, text in typed.items():
        assert focused(page)["name"] == name
        page.keyboard.type(text)
        page.keyboard.press("Tab")
    assert focused(page)["name"] == "membership"
    page.keyboard.press("Space")  # the first choice: club member
    while focused(page)["tag"] != "button":
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # sends the form
    page.wait_for_url("**/signup/*/**")
    signup = Signup.objects.get(tournament=tournament)
    assert (signup.first_name, signup.last_name, signup.birth_year) == ("Tara", "Tastatur", 1990)
