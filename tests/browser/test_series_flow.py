"""A series of two evenings in a real browser: the organizer creates the series on the first evening,
adds the second, and reads the season, club and category rankings and their PDFs, and the evening's
own below its standings and in the standings PDF.

The evenings are played through the services (seat, publish, open, enter, confirm, close: the same
path as the desk; typing results in the browser is covered by test_tournament_flow.py).
"""

import datetime
import io

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from tests.browser.conftest import go
from tests.factories import (
    ClubFactory,
    PlayerFactory,
    RegistrationFactory,
    TournamentFactory,
    UserFactory,
    play_round,
)
from tournament.models import Registration

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def page(live_server, browser):
    page = browser.new_context(locale="en-GB", viewport={"width": 1366, "height": 900}).new_page()
    page.set_default_timeout(30000)
    return page


def two_evenings(user):
    """Eight players with their year of birth; Cem's gender is not given (so neither the evening nor
    the season ranks women or men: docs/rules.md §8)."""
    red, blue = ClubFactory(name="Rot"), ClubFactory(name="Blau")
    people = [
        PlayerFactory(first_name=name, last_name="Spieler", club=club, gender=gender, birth_year=year)
        for name, club, gender, year in [
            ("Anna", red, "f", 2011), ("Ben", red, "m", 1990), ("Cem", red, "", 1950),
            ("Dora", red, "f", 1980), ("Emil", blue, "m", 1985), ("Fee", blue, "f", 1992),
            ("Gus", blue, "m", 1940), ("Hedi", blue, "f", 1970),
        ]
    ]
    evenings = []
    for index in range(2):
        evening = TournamentFactory(
            organizers=[user], name=f"Abend {index + 1}", rounds_total=2,
            date=datetime.date(2026, 1, 10) + datetime.timedelta(days=28 * index),
        )
        for number, player in enumerate(people, start=1):
            RegistrationFactory(tournament=evening, player=player, start_number=number,
                                status=Registration.Status.CHECKED_IN)
        for seed in (1, 2):
            play_round(evening, user, seed=seed + index)
        evenings.append(evening)
    return evenings


def pdf_text(page, url: str) -> str:
    response = page.request.get(url)
    assert response.ok and response.headers["content-type"] == "application/pdf"
    return " ".join(p.extract_text() for p in PdfReader(io.BytesIO(response.body())).pages)


def test_series_of_two_evenings(live_server, page):
    user = UserFactory(username="orga", password="secret-pass-123")
    first, second = two_evenings(user)
    base = live_server.url
    page.goto(f"{base}/{first.pk}/series/")
    page.fill("input[name=username]", "orga")
    page.fill("input[name=password]", "secret-pass-123")
    page.click("form.stacked button[type=submit]")

    # Create the series on the first evening: best 1 of 2, clubs by their best 2 players.
    expect(page.locator("h2").first).to_contain_text("New series")
    page.fill("#id_name", "Jahreswertung 2026")
    page.fill("#id_best_of", "1")
    page.fill("#id_club_best", "2")
    page.click("button:has-text('Create series')")
    expect(page).to_have_title("Jahreswertung 2026 · Abend 1")
    expect(page.locator(".messages, .message").first).to_contain_text("Series created")

    # The second evening joins it.
    page.goto(f"{base}/{second.pk}/series/")
    page.select_option("#id_series", label="Jahreswertung 2026")
    page.click("button:has-text('Add')")
    expect(page.locator("#series-rule")).to_contain_text("The best evening of 2 counts.")
    expect(page.locator("#series-rule")).to_contain_text("as many points as there were players")

    # Season standings: eight players, each with two evenings, one counted (the other in brackets).
    rows = page.locator("#season-table tbody tr")
    expect(rows).to_have_count(8)
    expect(rows.first.locator("td.rank")).to_have_text("1.")
    expect(rows.first.locator("td").nth(3)).not_to_have_text("\u2013")
    assert page.locator("#season-table tbody td:has-text('(')").count() >= 1
    expect(page.locator("table.clubs tbody tr")).to_have_count(2)
    # Cem's gender is not given: the season ranks no women or men either, and says why.
    expect(page.locator("#category-women")).to_have_count(0)
    expect(page.locator("#undecided-women")).to_contain_text("1 player has no gender given")
    expect(page.locator("#category-junior tbody tr")).to_have_count(1)
    expect(page.locator("#category-junior")).to_contain_text("Anna")
    expect(page.locator("#category-senior tbody tr")).to_have_count(2)

    # The PDFs.
    standings = pdf_text(page, f"{base}/print/{second.pk}/series-standings.pdf")
    assert "Season standings" in standings and "Club ranking" in standings and "Juniors" in standings
    assert "Anna Spieler" in standings and "Rot" in standings and "Blau" in standings
    certificates = pdf_text(page, f"{base}/print/{second.pk}/series-certificates.pdf")
    assert "Season ranking" in certificates and "Best junior" in certificates
    assert "Best woman" not in certificates and "Best man" not in certificates  # Cem's gender unknown
    assert "Women: no ranking and no certificate" in standings

    # The evening's own club and category rankings, and their certificates.
    go(page, "Finish", "Clubs, teams, categories")
    expect(page.locator("#club-ranking tbody tr")).to_have_count(2)
    page.fill("#id_best", "4")
    page.click("button:has-text('Show')")
    expect(page.locator("#club-ranking")).to_contain_text("4")
    evening = pdf_text(page, f"{base}/print/{second.pk}/category-certificates.pdf")
    assert "Best senior" in evening and "Best junior" in evening

    # The evening's standings: the same rankings below the table (links above it jump to them), and
    # after the table in the standings PDF.
    go(page, "Rounds", "Standings")
    expect(page.locator("#standings-table tbody tr")).to_have_count(8)
    expect(page.locator("#club-ranking tbody tr")).to_have_count(2)
    # Cem's gender is not given: the evening ranks no women or men, and says why (#51 point 2).
    expect(page.locator("#category-women")).to_have_count(0)
    expect(page.locator("#undecided-women")).to_contain_text("1 player has no gender given")
    expect(page.locator("#category-junior")).to_contain_text("Anna Spieler")
    page.click(".jump-links >> text=Seniors")
    expect(page).to_have_url(f"{base}/{second.pk}/standings/#category-senior")
    expect(page.locator("#category-senior tbody tr")).to_have_count(2)
    printed = pdf_text(page, f"{base}/print/{second.pk}/standings.pdf")
    assert "Club ranking" in printed and "Women" in printed and "Juniors" in printed
    assert printed.index("Club ranking") < printed.index("Juniors") < printed.rindex("Anna Spieler")
