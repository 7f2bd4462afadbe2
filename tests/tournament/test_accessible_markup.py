"""Every page's markup names what it points at (#51 item 21): each aria-describedby and label `for` names
an id the page has, and no id is used twice (two `id_role` selects made a label focus the other form)."""

from __future__ import annotations

import re

from django.conf import settings
from django.test import Client

from tests.factories import TournamentFactory
from tests.tournament.urlmap import (
    CONTENT_TYPES,
    FRAGMENTS,
    POST_ONLY,
    SPECIAL_GET_STATUS,
    audience,
    named_urls,
)


def problems(html: str) -> list[str]:
    ids = re.findall(r'\sid="([^"]+)"', html)
    found = [f"id {name} twice" for name in sorted({i for i in ids if ids.count(i) > 1})]
    known = set(ids)
    for described in re.findall(r'aria-describedby="([^"]+)"', html):
        found += [f"aria-describedby {name} missing" for name in described.split() if name not in known]
    found += [f"label for {name} missing" for name in re.findall(r'<label[^>]*\sfor="([^"]+)"', html)
              if name not in known]
    return found


def test_the_checker_sees_a_dangling_reference():
    html = '<input id="id_a" aria-describedby="id_a_helptext"><select id="id_role"></select><i id="id_role">'
    assert problems(html) == ["id id_role twice", "aria-describedby id_a_helptext missing"]


def test_every_page_names_what_it_points_at(world, organizer_client):
    found: dict[str, list[str]] = {}
    for name, kwarg_names in named_urls().items():
        if name in POST_ONLY or name in FRAGMENTS or name in CONTENT_TYPES:
            continue
        client = organizer_client if audience(name) in ("organizer", "login") else Client()
        for url in world.urls(name, kwarg_names):
            response = client.get(url)
            if response.status_code != SPECIAL_GET_STATUS.get(name, 200) or response.status_code != 200:
                continue
            page_problems = problems(response.content.decode())
            if page_problems:
                found[url] = page_problems
    assert found == {}


def test_every_page_starts_with_a_skip_link_to_its_content(world, organizer_client):
    pages = [(organizer_client, f"/{world.tournament.pk}/desk/"), (Client(), "/accounts/login/"),
             (Client(), f"/p/{world.tournament.pk}/"), (Client(), world.waiting_table.get_captain_url())]
    for client, url in pages:
        html = client.get(url).content.decode()
        body = html.split("<body", 1)[1].split(">", 1)[1]
        assert re.match(r'\s*<a class="skip-link" href="#main">', body), url
        assert '<main id="main"' in html, url


def test_the_public_sign_up_tells_the_browser_what_each_field_is(db):
    tournament = TournamentFactory(signup_open=True, public=True)
    html = Client().get(f"/p/{tournament.pk}/signup/").content.decode()
    tokens = dict(re.findall(r'<input[^>]*name="([a-z_]+)"[^>]*autocomplete="([a-z-]+)"', html))
    assert tokens == {
        "first_name": "given-name", "last_name": "family-name", "club": "organization",
        "birth_year": "bday-year", "email": "email", "phone": "tel", "website": "off",
    }


def luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_the_focus_ring_stands_out_on_white_and_on_the_page():
    """WCAG 1.4.11: 3:1 against what it is drawn on (the former #9cc0f5 had 1.86:1 on white)."""
    css = (settings.BASE_DIR / "static" / "css" / "app.css").read_text()
    ring = re.search(r"--focus:\s*(#[0-9a-fA-F]{6})", css).group(1)
    page = re.search(r"--bg:\s*(#[0-9a-fA-F]{6})", css).group(1)
    assert "#9cc0f5" not in css
    assert min(contrast(ring, "#ffffff"), contrast(ring, page)) >= 3
    rules = re.findall(r"([^{}]*:focus[^{}]*)\{([^}]*)\}", css)
    outline = r"outline:[^;]*(#[0-9a-fA-F]{3,6})"
    colours = {colour for _selector, body in rules for colour in re.findall(outline, body)}
    assert colours <= {"#fff", "#ffffff"}  # every other ring is var(--focus)


def test_a_player_who_went_out_keeps_readable_controls():
    """The captain page marked "ist raus" by fading the cards and points to 2.75:1 and 2.15:1."""
    css = (settings.BASE_DIR / "static" / "css" / "captain.css").read_text()
    rules = re.findall(r"([^{}]*\.is-out[^{}]*)\{([^}]*)\}", css)
    assert rules and not any("opacity" in body or "filter" in body for _selector, body in rules)
