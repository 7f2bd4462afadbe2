"""axe-core (installed from the npm registry by scripts/npm-packages.sh, injected from the disk) on
every page at 360 px and at desktop width: no critical or serious violation, no sideways scrolling."""

from pathlib import Path

import pytest
from django.urls import reverse

from engine.validation import SeatReport
from tests.factories import RegistrationFactory, TournamentFactory, UserFactory, seated_round
from tournament.models import Round, Submission
from tournament.results.services import result_submit
from tournament.rounds.services import round_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = Path(__file__).resolve().parents[2] / ".npm-test" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = [(360, 740), (1366, 768)]


def axe_problems(page) -> list[str]:
    # Evaluated through the browser's developer protocol: the page's Content-Security-Policy (no inline
    # script) would refuse a <script> tag added to the page.
    page.evaluate(AXE.read_text(encoding="utf-8"))
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
                           ".map(v => ({id: v.id, impact: v.impact, n: v.nodes.length,"
                           " target: v.nodes[0].target.join(' ')}))")
    return [f"{v['impact']} {v['id']} x{v['n']} ({v['target']})" for v in result
            if v["impact"] in ("critical", "serious")]


def sideways(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def too_wide(page) -> list[str]:
    """The outermost elements reaching past the right edge (for the failure message)."""
    return page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
        .filter(e => !(e.parentElement && e.parentElement.getBoundingClientRect().right > innerWidth + 1))
        .slice(0, 4).map(e => e.tagName.toLowerCase() + '.' + [...e.classList].join('.'))""")


@pytest.fixture
def evening(live_server):
    assert AXE.exists(), "run scripts/npm-packages.sh (make test does)"
    organizer = UserFactory(username="axe", password="secret-pass-123")
    tournament = TournamentFactory(organizers=[organizer], public=True, rounds_total=6)
    players = [RegistrationFactory(tournament=tournament, start_number=i + 1) for i in range(8)]
    first = seated_round(tournament, players, status=Round.Status.OPEN)
    for table in first.tables.all():
        result_submit(
            table=table, source=Submission.Source.ORGANIZER, user=organizer,
            seats=[SeatReport(player_id=s.registration_id, points=p, went_out=p == 0)
                   for s, p in zip(table.seats.order_by("position"), [0, 12, 30, 7], strict=True)],
        )
    round_close(round_=first, user=organizer)
    second = seated_round(tournament, players, number=2, status=Round.Status.OPEN)
    table = second.tables.order_by("number").first()
    result_submit(
        table=table, source=Submission.Source.CAPTAIN, user=None, token=table.token,
        seats=[SeatReport(player_id=s.registration_id, cards=c, went_out=c is None)
               for s, c in zip(table.seats.order_by("position"), [None, "R7", "gelb 3", "W"], strict=True)],
    )
    return tournament, second, table


ORGANIZER_PAGES = [
    ("home", lambda t, r, x: reverse("home")),
    ("overview", lambda t, r, x: reverse("organizer:tournament", args=[t.pk])),
    ("settings", lambda t, r, x: reverse("organizer:tournament_edit", args=[t.pk])),
    ("players", lambda t, r, x: reverse("organizer:players", args=[t.pk])),
    ("import", lambda t, r, x: reverse("organizer:players_import", args=[t.pk])),
    ("checkin", lambda t, r, x: reverse("organizer:checkin", args=[t.pk])),
    ("rounds", lambda t, r, x: reverse("organizer:rounds", args=[t.pk])),
    ("round", lambda t, r, x: reverse("organizer:round", args=[t.pk, r.number])),
    ("desk", lambda t, r, x: reverse("organizer:table_result", args=[t.pk, r.number, x.number])),
    ("table", lambda t, r, x: reverse("organizer:table_detail", args=[t.pk, r.number, x.number])),
    ("links", lambda t, r, x: reverse("organizer:round_links", args=[t.pk, r.number])),
    ("standings", lambda t, r, x: reverse("organizer:standings", args=[t.pk])),
    ("print", lambda t, r, x: reverse("print:documents", args=[t.pk])),
    ("audit", lambda t, r, x: reverse("organizer:audit", args=[t.pk])),
]
PUBLIC_PAGES = [
    ("public", lambda t, r, x: reverse("public:tournament", args=[t.pk])),
    ("projector", lambda t, r, x: reverse("public:projector", args=[t.pk])),
    ("captain", lambda t, r, x: reverse("captain:table", args=[x.token])),
    ("login", lambda t, r, x: reverse("login")),
]


def check_pages(browser, base, pages, evening, *, log_in):
    tournament, round_, table = evening
    found = {}
    for width, height in WIDTHS:
        page = browser.new_context(viewport={"width": width, "height": height}, locale="de-DE").new_page()
        if log_in:
            page.goto(f"{base}{reverse('login')}")
            page.fill("input[name=username]", "axe")
            page.fill("input[name=password]", "secret-pass-123")
            page.click("form.stacked button[type=submit]")
        for name, url in pages:
            page.goto(base + url(tournament, round_, table))
            page.wait_for_load_state("networkidle")
            for problem in axe_problems(page):
                found.setdefault(f"{name}@{width}", []).append(problem)
            if width == 360 and sideways(page) > 0:
                found.setdefault(f"{name}@{width}", []).append(
                    f"scrolls sideways by {sideways(page)} px: {too_wide(page)}"
                )
        page.context.close()
    return found


def test_organizer_pages(live_server, browser, evening):
    found = check_pages(browser, live_server.url, ORGANIZER_PAGES, evening, log_in=True)
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())


def test_public_captain_and_login_pages(live_server, browser, evening):
    assert check_pages(browser, live_server.url, PUBLIC_PAGES, evening, log_in=False) == {}


def test_public_page_touch_targets_are_at_least_24_px(live_server, browser, evening):
    tournament, _round, _table = evening
    page = browser.new_context(viewport={"width": 360, "height": 740}, locale="de-DE").new_page()
    page.goto(live_server.url + reverse("public:tournament", args=[tournament.pk]))
    sizes = page.evaluate("""() => [...document.querySelectorAll('button.lang, a.touch-link')]
        .map(e => e.getBoundingClientRect())
        .map(r => [r.width, r.height])""")
    assert len(sizes) == 3  # DE, EN, Beamer-Ansicht
    assert all(width >= 24 and height >= 24 for width, height in sizes), sizes
