"""axe-core (installed from the npm registry by scripts/npm-packages.sh, injected from the disk) on
every page at 360 px and at desktop width: no critical or serious violation, no sideways scrolling, and
no violation of the Content-Security-Policy (the browser reports each one as an event and on the console).

The pages come from the URL map (tests/tournament/urlmap.py): every named URL that answers a whole HTML
page to GET (not the POST-only ones, the files, the redirect, the htmx fragments) is opened with every
URL the map's world gives it, as the organizer for the organizer's (and logged-in) pages and anonymously
for the public and captain pages, so a new page is checked without anybody remembering to add it. The
states the map's world lacks are added by hand: sign-up open, forms with the server's errors, the import
preview, a drafted and a published round, refused reports, captain and organizer entries side by side,
the end of the day with prizes, an unknown link and a blocked address on the captain's page.
German (the default), one browser context per audience. Screenshots go to $SHOTS_DIR if set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.text import slugify

from tests.conftest import twelve_players
from tests.factories import TournamentFactory, UserFactory, play_round, points_report
from tests.tournament.urlmap import (
    CONTENT_TYPES,
    FRAGMENTS,
    POST_ONLY,
    SPECIAL_GET_STATUS,
    audience,
    build_long_names_world,
    build_world,
    named_urls,
)
from tournament.accounts import tokens
from tournament.models import Registration, Round, Signup, Submission
from tournament.prizes.services import prizes_update
from tournament.results.services import result_submit
from tournament.rounds.services import round_close, round_publish, round_seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / ".npm-test" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = [(360, 740), (1366, 768)]
PASSWORD = "secret-pass-123"


# Every violation of the Content-Security-Policy the page reports (the browser fires the event for each).
CSP_LISTENER = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__violations.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sample || ""));
});
"""


# Names and descriptions of fields: axe's "needs review" (incomplete) results of these rules count too,
# and their violations at any impact (a help text announced nowhere, a label naming another form's field).
LABEL_RULES = frozenset({
    "label", "select-name", "aria-input-field-name", "aria-toggle-field-name", "form-field-multiple-labels",
    "label-title-only", "aria-valid-attr-value", "duplicate-id", "duplicate-id-aria", "duplicate-id-active",
    "button-name", "input-button-name", "aria-command-name",
})


def axe_problems(page) -> list[str]:
    """axe is in every page of the context (`add_init_script`: through the browser's developer protocol,
    as the page's Content-Security-Policy, no inline script, would refuse a <script> tag)."""
    result = page.evaluate(
        "async () => { const r = await axe.run(document, {resultTypes: ['violations', 'incomplete']});"
        " const brief = (kind) => (v) => ({kind: kind, id: v.id, impact: v.impact, n: v.nodes.length,"
        " targets: v.nodes.slice(0, 3).map(n => n.target.join(' '))});"
        " return r.violations.map(brief('')).concat(r.incomplete.map(brief('needs review: '))); }"
    )
    return [f"{v['kind']}{v['impact']} {v['id']} x{v['n']} ({', '.join(v['targets'])})" for v in result
            if v["id"] in LABEL_RULES or (not v["kind"] and v["impact"] in ("critical", "serious"))]


def sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def too_wide(page) -> list[str]:
    """The outermost elements reaching past the right edge (for the failure message)."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .filter(e => !(e.parentElement && e.parentElement.getBoundingClientRect().right > innerWidth + 1))
        .slice(0, 4).map(e => e.tagName.toLowerCase() + '.' + [...e.classList].join('.'))""")


def get_html_names() -> dict[str, tuple[str, ...]]:
    """The URL map's names whose GET answers a whole HTML page."""
    return {
        name: kwargs for name, kwargs in named_urls().items()
        if name not in POST_ONLY | set(CONTENT_TYPES) | set(SPECIAL_GET_STATUS) | FRAGMENTS
    }


class Checker:
    """One page per audience (organizer / anonymous), reused for every URL: each URL is opened once and
    checked at both widths (the viewport is resized in between; no script of the app reads the width,
    the style sheets' media queries apply at once). Problems are collected per page and width, and
    asserted at the end."""

    def __init__(self, browser, live_server, organizer_session: str):
        self.base = live_server.url
        self.pages = {}
        self.console: list[str] = []
        width, height = WIDTHS[0]
        for who in ("organizer", "anonymous"):
            context = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE")
            context.add_init_script(path=AXE)
            context.add_init_script(CSP_LISTENER)
            if who == "organizer":
                context.add_cookies([{"name": "sessionid", "value": organizer_session, "url": self.base}])
            page = context.new_page()
            page.on("console", lambda message: self.console.append(message.text))
            self.pages[who] = page
        self.found: dict[str, list[str]] = {}
        self.visited: dict[str, list[str]] = {}
        self.shots = os.environ.get("SHOTS_DIR")

    def open(self, label: str, who: str, url: str, *, status: int = 200, then=None) -> None:
        """Open `url` as `who`, run `then(page)` (e.g. submit a form), check the page at both widths.

        No page loads a part of itself after the load event (htmx only polls, every few seconds), so the
        page is judged as `goto` leaves it; after `then`, once the network is idle."""
        page = self.pages[who]
        if page.url == self.base + url:
            # Going to the URL the page shows may give no response at all (the browser reuses it).
            page.goto("about:blank")
        response = page.goto(self.base + url)
        if response.status != status or not response.headers["content-type"].startswith("text/html"):
            self.found.setdefault(f"{label} {url}", []).append(
                f"answered {response.status} {response.headers['content-type']}")
            return
        if then:
            then(page)
            page.wait_for_load_state("networkidle")
        # the width the page was left at first, so that every page costs one resize
        widths = WIDTHS if page.viewport_size["width"] == WIDTHS[0][0] else WIDTHS[::-1]
        for width, height in widths:
            page.set_viewport_size({"width": width, "height": height})
            key = f"{label} {url} @{width}"
            self.check(page, key)
            if self.shots:
                name = f"{label}-{len(self.visited.get(label, []))}-{width}"
                page.screenshot(path=str(Path(self.shots) / f"{slugify(name)}.png"), full_page=True)
        self.visited.setdefault(label, []).append(url)

    def check(self, page, key: str) -> None:
        problems = axe_problems(page)
        if page.viewport_size["width"] == 360 and sideways(page) > 0:
            problems.append(f"scrolls sideways by {sideways(page)} px: {too_wide(page)}")
        problems += [f"Content-Security-Policy: {v}" for v in page.evaluate("window.__violations.splice(0)")]
        if problems:
            self.found.setdefault(key, []).extend(problems)

    def close(self) -> None:
        for page in self.pages.values():
            page.context.close()

    def report(self) -> str:
        csp_console = [text for text in self.console if "Content Security Policy" in text]
        return f"{len(self.found)} page(s) with problems:\n" + "\n".join(
            f"{key}:\n    " + "\n    ".join(problems) for key, problems in sorted(self.found.items())
        ) + "".join(f"\nconsole: {text}" for text in csp_console)

    def assert_clean(self) -> None:
        assert not self.found, self.report()
        assert not [text for text in self.console if "Content Security Policy" in text], self.report()


@pytest.fixture
def world(live_server, transactional_db):
    assert AXE.exists(), "run scripts/npm-packages.sh (make test does)"
    organizer = UserFactory(username="axe", password=PASSWORD)
    tournament = TournamentFactory(organizers=[organizer], name="Stadtmeisterschaft Leonhardsberg")
    return build_world(organizer=organizer, tournament=tournament, players=twelve_players(tournament))


@pytest.fixture
def checker(browser, live_server, world):
    client = Client()
    assert client.login(username="axe", password=PASSWORD)
    checker = Checker(browser, live_server, client.cookies["sessionid"].value)
    yield checker
    checker.close()


@pytest.fixture
def long_names_world(live_server, transactional_db):
    return build_long_names_world(organizer=UserFactory(username="axe", password=PASSWORD))


def test_every_page_with_the_longest_names(browser, live_server, long_names_world):
    """The longest names, clubs and titles a hall brings: no page scrolls sideways on a phone, and a
    table that must scroll can be reached with the keyboard."""
    client = Client()
    assert client.login(username="axe", password=PASSWORD)
    checker = Checker(browser, live_server, client.cookies["sessionid"].value)
    try:
        for name, kwarg_names in get_html_names().items():
            for url in long_names_world.urls(name, kwarg_names):
                checker.open(name, who_for(name), url)
        checker.assert_clean()
    finally:
        checker.close()


def who_for(name: str) -> str:
    return "organizer" if audience(name) in ("organizer", "login") else "anonymous"


def test_every_page_of_the_url_map(checker, world):
    names = get_html_names()
    opened = 0
    for name, kwarg_names in names.items():
        for url in world.urls(name, kwarg_names):
            checker.open(name, who_for(name), url)
            opened += 1
    # The start page also as the organizer (their tournaments), the login page's error.
    checker.open("home (logged in)", "organizer", reverse("home"))
    checker.open("login (wrong password)", "anonymous", reverse("login"), then=wrong_password)
    assert set(checker.visited) >= set(names), set(names) - set(checker.visited)
    assert opened >= len(names)
    checker.assert_clean()


def wrong_password(page) -> None:
    page.fill("input[name=username]", "axe")
    page.fill("input[name=password]", "not-the-password")
    page.click("main form button[type=submit]")


def submit_empty(page) -> None:
    """Send the page's main form as it is, past the browser's own checks: the server's errors show."""
    page.evaluate("document.querySelector('main form[method=post]:not([action])').noValidate = true")
    with page.expect_navigation():
        page.click("main form[method=post]:not([action]) button[type=submit]")


def test_states_the_url_map_lacks(checker, world, settings):
    """A second tournament at the start of the day, then the map's tournament to its end."""
    organizer = world.organizer
    # A second tournament at the start of the day: sign-up open, players to import, round 1 drafted.
    early = TournamentFactory(organizers=[organizer], name="Frühjahrsturnier", public=True, signup_open=True,
                              signup_capacity=20)
    twelve_players(early)
    Signup.objects.create(tournament=early, first_name="Wanda", last_name="Warteliste", birth_year=1985,
                          queue=1, status=Signup.Status.WAITING)
    t = early.pk
    checker.open("public signup (open)", "anonymous", reverse("public:signup", args=[t]))
    checker.open("public signup (errors)", "anonymous", reverse("public:signup", args=[t]), then=submit_empty)
    checker.open("public (before seating)", "anonymous", reverse("public:tournament", args=[t]))
    checker.open("projector (before seating)", "anonymous", reverse("public:projector", args=[t]))
    checker.open("overview (start)", "organizer", reverse("organizer:tournament", args=[t]))
    checker.open("rounds (none yet)", "organizer", reverse("organizer:rounds", args=[t]))
    checker.open("signups (open)", "organizer", reverse("organizer:signups", args=[t]))
    checker.open("door (open)", "organizer", reverse("organizer:door", args=[t]))
    checker.open("player form (errors)", "organizer",
                 reverse("organizer:player_edit", args=[t, Registration.objects.filter(tournament=early)
                                                        .first().pk]), then=clear_and_submit)
    checker.open("settings (errors)", "organizer", reverse("organizer:tournament_edit", args=[t]),
                 then=clear_and_submit)
    checker.open("import (preview)", "organizer", reverse("organizer:players_import", args=[t]),
                 then=upload_players)
    round_ = round_seat(tournament=early, user=organizer, seed=1)
    checker.open("round (draft)", "organizer", reverse("organizer:round", args=[t, 1]))
    checker.open("rounds (draft)", "organizer", reverse("organizer:rounds", args=[t]))
    round_publish(round_=round_, user=organizer)
    table = round_.tables.order_by("number").first()
    checker.open("round (published)", "organizer", reverse("organizer:round", args=[t, 1]))
    checker.open("public (published)", "anonymous", reverse("public:tournament", args=[t]))
    checker.open("projector (published)", "anonymous", reverse("public:projector", args=[t]))
    checker.open("captain (published)", "anonymous", reverse("captain:table", args=[table.token]))
    checker.open("captain (unknown link)", "anonymous", reverse("captain:table", args=["no-such-token"]),
                 status=404)

    # The map's tournament: reports with errors, then the end of the day (round 2 completed and closed,
    # the rest played).
    late = world.tournament
    waiting = world.waiting_table
    checker.open("captain (report refused)", "anonymous", waiting.get_captain_url(), then=report_nonsense)
    checker.open("desk entry (errors)", "organizer",
                 reverse("organizer:table_result", args=[late.pk, 2, waiting.number]), then=report_nonsense)
    # The captain reports, the organizer types the paper sheet differently: both side by side, and
    # every version (the organizer's is confirmed).
    result_submit(table=waiting, seats=points_report(waiting, [0, 12, 30, 7]),
                  source=Submission.Source.CAPTAIN, token=waiting.token, confirm_warnings=True)
    for points in ([0, 12, 31, 7], [0, 12, 30, 7]):
        result_submit(table=waiting, seats=points_report(waiting, points), source=Submission.Source.ORGANIZER,
                      user=organizer, confirm_warnings=True)
    checker.open("table (three versions)", "organizer",
                 reverse("organizer:table_detail", args=[late.pk, 2, waiting.number]))
    round_close(round_=waiting.round, user=organizer)
    for seed in range(late.rounds.count() + 1, late.rounds_total + 1):
        play_round(late, organizer, seed=seed)
    t = late.pk
    assert not late.rounds.exclude(status=Round.Status.CLOSED).exists()
    prizes_update(tournament=late, user=organizer, entry_fee_cents=500, payout_percent=80,
                  prize_kind="percent", prize_table=[50, 30, 20], shared_places="split", prize_overrides={},
                  goods_prizes=["Präsentkorb mit Spezialitäten aus dem Leonhardsberger Land", "Gutschein"])
    for label, name in [("overview (end)", "organizer:tournament"), ("rounds (end)", "organizer:rounds"),
                        ("standings (end)", "organizer:standings"), ("prizes (end)", "organizer:prizes"),
                        ("documents (end)", "print:documents")]:
        checker.open(label, "organizer", reverse(name, args=[t]))
    last = late.rounds_total
    checker.open("round (last, closed)", "organizer", reverse("organizer:round", args=[t, last]))
    for label, name in [("public (end)", "public:tournament"), ("projector (end)", "public:projector"),
                        ("public series (end)", "public:series")]:
        checker.open(label, "anonymous", reverse(name, args=[t]))
    # Accounts: the password form's errors, a reset link shown once (its QR code and address), the
    # reset page's errors, a link that no longer works.
    checker.open("account (errors)", "organizer", reverse("account"), then=submit_empty)
    checker.open("people (link shown)", "organizer", reverse("account_people"), then=make_reset_link)
    person = world.extra["person"]
    reset = reverse("account_reset", args=[tokens.uid_of(person), tokens.make_token(person)])
    checker.open("reset (errors)", "anonymous", reset, then=submit_empty)
    checker.open("reset (link no longer valid)", "anonymous",
                 reverse("account_reset", args=[tokens.uid_of(person), "1-2"]), status=404)
    # Last, as it locks this address out: the page after too many unknown links (one so far).
    settings.CAPTAIN_WRONG_TOKENS_ALLOWED = 1
    checker.open("captain (address blocked)", "anonymous", reverse("captain:table", args=[table.token]),
                 status=429)
    checker.assert_clean()


def make_reset_link(page) -> None:
    with page.expect_navigation():
        page.click("main .people form button[type=submit]")


def clear_and_submit(page) -> None:
    page.evaluate("""() => { const form = document.querySelector('main form[method=post]');
        form.noValidate = true;
        form.querySelectorAll('input[type=text], input[type=number], input:not([type])')
            .forEach(input => { input.value = ''; }); }""")
    with page.expect_navigation():
        page.locator("main form[method=post]").first.locator("button[type=submit]").first.click()


def upload_players(page) -> None:
    """A file with two new players and a line that cannot be imported: the preview and its errors."""
    lines = "Vorname;Nachname;Verein;Geburtsjahr\nErika;Neumann;UNO Freunde;1979\n;Ohnevorname;;\n" \
            "Bartholomäus;Oberhuber-Leutheusser;Spielgemeinschaft Leonhardsberg;2001\n"
    page.set_input_files("main input[type=file]", files=[
        {"name": "spieler.csv", "mimeType": "text/csv", "buffer": lines.encode()}])
    with page.expect_navigation():
        page.click("main form button[type=submit]")


def report_nonsense(page) -> None:
    """A report nobody could store: no card is known, nobody went out."""
    page.locator("main .cards-input").first.fill("qq zz")
    page.locator("main form[method=post] button[type=submit]").first.click()
    page.wait_for_selector("main .error, main .errorlist, main .table-issues")


def test_public_page_touch_targets_are_at_least_24_px(checker, world):
    page = checker.pages["anonymous"]
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(checker.base + reverse("public:tournament", args=[world.tournament.pk]))
    sizes = page.evaluate("""() => [...document.querySelectorAll('button.lang, a.touch-link')]
        .map(e => e.getBoundingClientRect())
        .map(r => [r.width, r.height])""")
    assert len(sizes) == 4  # DE, EN, Beamer-Ansicht, Für Veranstalter (the page's foot)
    assert all(width >= 24 and height >= 24 for width, height in sizes), sizes
