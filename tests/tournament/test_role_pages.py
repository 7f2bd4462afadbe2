"""What a helper's and a viewer's pages offer (#45): every link and form on every page they open leads
only where their role may go, so nobody meets a button that answers 403. A viewer sees no form that
writes; a helper none beyond the door and the desk."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import Resolver404, resolve

from tests.tournament.urlmap import HELPER_ACTIONS, audience, member_may_get, named_urls

pytestmark = pytest.mark.one_database

LINK = re.compile(r'<a\b[^>]*\bhref="([^"]+)"')
FORM = re.compile(r'<form\b([^>]*)>')
ATTRIBUTE = re.compile(r'\b(action|hx-post|method)="([^"]*)"')


def targets(page: str, url: str) -> tuple[set[str], set[str]]:
    """The URL names the page links to (GET) and posts to (its forms and hx-post attributes)."""
    gets, posts = set(), set()
    for href in LINK.findall(page):
        gets.add(unescape(href))
    for attributes in FORM.findall(page):
        found = dict(ATTRIBUTE.findall(attributes))
        if found.get("method", "get").lower() == "post":
            posts.add(unescape(found.get("action") or url))
        elif found.get("action"):
            gets.add(unescape(found["action"]))
    for extra in re.findall(r'\bhx-post="([^"]+)"', page):
        posts.add(unescape(extra))
    return _names(gets), _names(posts)


def _names(urls: set[str]) -> set[str]:
    names = set()
    for url in urls:
        path = urlsplit(url).path
        if not path.startswith("/") or path.startswith("/static/"):
            continue
        try:
            match = resolve(path)
        except Resolver404:
            continue
        names.add(match.view_name)
    return names


@pytest.mark.usefixtures("pdf_layout_skipped")
@pytest.mark.parametrize("role", ["helper", "viewer"])
def test_a_member_s_pages_offer_only_what_the_role_may_do(role, world):
    client = Client()
    client.force_login(world.extra[role])
    opened, wrong = 0, set()
    for name, kwarg_names in named_urls().items():
        if audience(name) != "organizer" or not member_may_get(name, role):
            continue
        for url in world.urls(name, kwarg_names):
            response = client.get(url)
            if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
                continue
            opened += 1
            gets, posts = targets(response.content.decode(), url)
            wrong |= {
                (name, "links to", target) for target in gets
                if audience(target) == "organizer" and not member_may_get(target, role)
            }
            wrong |= {
                (name, "posts to", target) for target in posts
                if audience(target) == "organizer" and not (role == "helper" and target in HELPER_ACTIONS)
            }
    assert not wrong, "\n".join(map(str, sorted(wrong)))
    assert opened >= 15


def test_the_navigation_shows_a_helper_the_door_and_not_the_settings(world):
    client = Client()
    client.force_login(world.extra["helper"])
    page = client.get(f"/{world.tournament.pk}/").content.decode()
    assert f'href="/{world.tournament.pk}/desk/"' in page
    assert f'href="/{world.tournament.pk}/settings/"' not in page
    assert f'href="/{world.tournament.pk}/people/"' not in page
    client.force_login(world.extra["viewer"])
    page = client.get(f"/{world.tournament.pk}/").content.decode()
    assert f'href="/{world.tournament.pk}/desk/"' not in page
    assert f'href="/{world.tournament.pk}/audit/"' in page
