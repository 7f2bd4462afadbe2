"""Real-browser tests: Playwright drives Debian's chromium-headless-shell (never a downloaded browser).

The headless shell is Chromium's engine without the desktop browser around it, the build Playwright
itself uses for headless runs: the same pages, scripts and layout at about a third less CPU per page
than the full chromium."""

from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from tests.tournament.conftest import english, fast_password_hashing, quick_seating  # noqa: F401  (autouse)

HERE = Path(__file__).resolve().parent
CHROMIUM = "/usr/bin/chromium-headless-shell"
# The hall may have no internet: nothing in the background may try to reach it.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="module")
def browser():
    """One chromium per module (a start costs about a second); each test opens its own contexts.

    Playwright's sync API runs an event loop in the test thread while it is open, so Django would take
    the tests' own ORM calls for calls from async code: they are safe, and allowed for the module."""
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(autouse=True)
def contexts_closed_after_each_test(request):
    """The browser outlives a test: a page left open would go on polling the next test's server."""
    yield
    if "browser" in request.fixturenames:
        for context in request.getfixturevalue("browser").contexts:
            context.close()


def go(page, phase: str, subpage: str | None = None) -> None:
    """Through the organizer's navigation by phase: the phase, then one of its pages."""
    page.click(f"nav.phase-nav .phases >> text={phase}")
    if subpage is not None:
        page.click(f"nav.phase-nav .phase-pages >> text={subpage}")
