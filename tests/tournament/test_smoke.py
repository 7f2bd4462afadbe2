"""Open every page of the app once, as the user it is meant for: nothing may crash or miss a variable.

The URL list comes from the resolver (tests/tournament/urlmap.py); a new URL is opened here
automatically, and a POST-only one must be listed in `POST_ONLY` or this test fails.
"""

from __future__ import annotations

import inspect
import re

import pytest
from django.template import engines
from django.test import Client

from tests.factories import LONG_NAMES, UserFactory
from tests.tournament.documents.pdfwords import problems, words
from tests.tournament.urlmap import (
    CONTENT_TYPES,
    FRAGMENTS,
    POST_ONLY,
    SPECIAL_GET_STATUS,
    World,
    audience,
    build_long_names_world,
    named_urls,
    refreshed,
)


class MissingVariables(str):
    """Django's `string_if_invalid`: records every template variable that does not resolve.

    A variable with a `default` filter may be missing on purpose (`{{ x.table.number|default:"" }}`);
    Django skips the filter when `string_if_invalid` is set, so those are recognised and left out.
    """

    def __new__(cls):
        instance = super().__new__(cls, "%s")
        instance.seen = []
        return instance

    def __mod__(self, variable):
        expression = inspect.currentframe().f_back.f_locals.get("self")
        filters = [func.__name__ for func, _args in getattr(expression, "filters", [])]
        if not {"default", "default_if_none"} & set(filters):
            self.seen.append(str(variable))
        return ""


@pytest.fixture
def missing_variables():
    engine = engines["django"].engine
    recorder = MissingVariables()
    previous, engine.string_if_invalid = engine.string_if_invalid, recorder
    yield recorder.seen
    engine.string_if_invalid = previous


def test_missing_variable_recorder_catches_typos(missing_variables):
    template = engines["django"].from_string('{{ tournament.nmae }} {{ absent|default:"-" }}')
    assert template.render({"tournament": object()}).strip() == ""
    assert missing_variables == ["tournament.nmae"]


def test_every_url_name_has_an_audience():
    """A new URL module or top-level page must say who it is for (urlmap.audience)."""
    for name in named_urls():
        assert audience(name) in {"organizer", "login", "captain", "public", "open"}, name


def test_post_only_list_names_real_urls():
    assert set(named_urls()) >= POST_ONLY, POST_ONLY - set(named_urls())
    assert set(named_urls()) >= FRAGMENTS, FRAGMENTS - set(named_urls())


def client_for(name: str, world, organizer_client) -> Client:
    return organizer_client if audience(name) in ("organizer", "login") else Client()


def test_every_page_opens(world, organizer_client, missing_variables):
    opened: dict[str, list[int]] = {}
    for name, kwarg_names in named_urls().items():
        client = client_for(name, world, organizer_client)
        for url in world.urls(name, kwarg_names):
            missing_variables.clear()
            response = client.get(url)
            expected = 405 if name in POST_ONLY else SPECIAL_GET_STATUS.get(name, 200)
            assert response.status_code == expected, (name, url, response.status_code)
            opened.setdefault(name, []).append(response.status_code)
            if name in CONTENT_TYPES:
                content_type = response["Content-Type"]
                assert content_type.startswith(CONTENT_TYPES[name]), (name, content_type)
                if CONTENT_TYPES[name] == "application/pdf":
                    assert response.content.startswith(b"%PDF-"), name
            elif response.status_code == 200:
                assert response["Content-Type"].startswith("text/html"), (name, response["Content-Type"])
                assert not missing_variables, (name, url, sorted(set(missing_variables)))
                # A whole page, or a piece of one only where the map says so (the browser's
                # accessibility test opens every whole page and leaves the pieces out).
                assert (b"<html" not in response.content) == (name in FRAGMENTS), (name, url)
    assert set(opened) == set(named_urls())


def test_htmx_partials_open(world, organizer_client, missing_variables):
    """The pages that serve an htmx partial of themselves render it too."""
    t = world.tournament.pk
    partial_pages = [
        (organizer_client, f"/{t}/rounds/2/status/", {}),
        (organizer_client, f"/{t}/desk/?q=a", {"HX-Target": "desk"}),
        (organizer_client, f"/{t}/standings/", {"HX-Target": "standings-table"}),
        (organizer_client, f"/{t}/audit/", {}),
        (organizer_client, f"/{t}/rounds/2/links/", {}),
        (organizer_client, f"/{t}/rounds/2/tables/{world.open_table.number}/", {}),
        (Client(), f"/p/{t}/projector/?slide=1", {}),
        (Client(), f"/p/{t}/seat-lookup/?q=Sp", {}),
        (Client(), world.waiting_table.get_captain_url(), {}),
    ]
    for client, url, headers in partial_pages:
        missing_variables.clear()
        response = client.get(url, headers={"HX-Request": "true", **headers})
        assert response.status_code == 200, url
        assert b"<html" not in response.content, url
        assert not missing_variables, (url, sorted(set(missing_variables)))


def cut_names(found) -> set[str]:
    """Printed words that are a longer name piece cut short: names may break at spaces and hyphens only."""
    pieces = {piece for first, last in LONG_NAMES for piece in re.split(r"[ -]", f"{first} {last}")}
    pieces = {piece for piece in pieces if len(piece) > 5 and piece.isalpha()}
    cut = {piece[:k] for piece in pieces for k in range(4, len(piece))} - pieces
    return {w.text for w in found} & cut


@pytest.fixture(scope="module")
def module_long_names_world(module_db) -> World:
    return build_long_names_world(organizer=UserFactory(username="orga"))


@pytest.mark.one_database  # the geometry of rendered pages
@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("names", ["generated", "long"])
def test_every_pdf_keeps_its_words_on_the_page(
    module_long_names_world, world, organizer_client, tmp_path, names, language
):
    """Every document the URL map reaches, in both languages, read back word by word: nothing leaves the
    printable area and no two words overlap, with the factories' names and with the longest ones."""
    if names == "long":
        world = refreshed(module_long_names_world)
    checked = []
    for name, kwarg_names in named_urls().items():
        if CONTENT_TYPES.get(name) != "application/pdf":
            continue
        for url in world.urls(name, kwarg_names):
            response = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code == 200, (name, url)
            assert problems(response.content, tmp_path) == [], (name, url)
            if names == "long" and name in ("print:standings", "print:series_standings"):
                assert cut_names(words(response.content, tmp_path)[1]) == set(), name
            checked.append(name)
    assert set(checked) == {name for name, kind in CONTENT_TYPES.items() if kind == "application/pdf"}
