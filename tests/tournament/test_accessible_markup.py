"""Every page's markup names what it points at (#51 item 21): each aria-describedby and label `for` names
an id the page has, and no id is used twice (two `id_role` selects made a label focus the other form)."""

from __future__ import annotations

import re

from django.test import Client

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
