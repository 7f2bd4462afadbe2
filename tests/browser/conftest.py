"""Real-browser tests: Playwright drives Debian's chromium (never a downloaded browser)."""

import pytest
from playwright.sync_api import sync_playwright

from tests.tournament.conftest import english, fast_password_hashing, quick_seating  # noqa: F401  (autouse)

CHROMIUM = "/usr/bin/chromium"
# The hall may have no internet: nothing in the background may try to reach it.
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--no-first-run", "--disable-quic",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(autouse=True)
def allow_sync_orm_beside_playwright(monkeypatch):
    """Playwright's sync API runs an event loop in the test thread; the test's own ORM calls are safe."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser(allow_sync_orm_beside_playwright):
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
