"""Static files after collectstatic: pages link them under hashed names, and WhiteNoise sends those
with a year's max-age (phones do not ask again every minute); without collectstatic pages still work."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.test import Client, override_settings

pytestmark = [pytest.mark.one_database, pytest.mark.django_db]

YEAR_OR_MORE = re.compile(r"max-age=(\d+)")


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root):
        call_command("collectstatic", "--no-input", verbosity=0)
    return root


def test_pages_link_hashed_names_served_for_a_year(collected):
    with override_settings(STATIC_ROOT=collected):
        client = Client()
        page = client.get("/accounts/login/").content.decode()
        css = re.search(r'href="(/static/css/app\.[0-9a-f]{12}\.css)"', page)
        htmx = re.search(r'src="(/static/js/htmx-2\.0\.10\.min\.[0-9a-f]{12}\.js)"', page)
        assert css is not None and htmx is not None, page[:800]
        answer = client.get(css[1])
        assert answer.status_code == 200
        cache = answer["Cache-Control"]
        assert int(YEAR_OR_MORE.search(cache)[1]) >= 365 * 24 * 3600
        assert "immutable" in cache
        assert (collected / css[1].removeprefix("/static/")).with_suffix(".css.br").exists()


def test_without_collectstatic_pages_use_the_plain_names(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path):
        page = Client().get("/accounts/login/").content.decode()
    assert 'href="/static/css/app.css"' in page
