"""Security headers on every answer, and pages that satisfy the Content-Security-Policy: no inline
script, no style="" attribute, no inline event handler, no <style> element (#15, headers)."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.tournament.urlmap import POST_ONLY, SECRET_ADDRESSES, audience, named_urls

pytestmark = pytest.mark.one_database  # headers and markup; test_smoke opens every page on both

INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*type=\"application/json\")[^>]*>", re.I)
STYLE_ATTRIBUTE = re.compile(r"<[^>]+\sstyle=", re.I)
STYLE_ELEMENT = re.compile(r"<style[\s>]", re.I)
EVENT_HANDLER = re.compile(r"<[^>]+\s(on[a-z]+|hx-on[:\w-]*)=", re.I)


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_every_page_sends_the_headers_and_breaks_no_rule_of_the_policy(world, organizer_client):
    checked = 0
    for name, kwarg_names in named_urls().items():
        if name in POST_ONLY:
            continue
        client = organizer_client if audience(name) in ("organizer", "login") else Client()
        for url in world.urls(name, kwarg_names):
            response = client.get(url)
            csp = response["Content-Security-Policy"]
            assert "script-src 'self'" in csp and "style-src 'self'" in csp, name
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
            # A captain link is the table's secret, a reset link the account's: no Referer at all.
            secret = audience(name) == "captain" or name in SECRET_ADDRESSES
            expected = "no-referrer" if secret else "same-origin"
            assert response["Referrer-Policy"] == expected, name
            assert response["X-Content-Type-Options"] == "nosniff", name
            assert "camera=()" in response["Permissions-Policy"], name
            if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
                continue
            html = response.content.decode()
            for rule in (INLINE_SCRIPT, STYLE_ATTRIBUTE, STYLE_ELEMENT, EVENT_HANDLER):
                found = rule.search(html)
                assert found is None, (name, url, html[max(0, found.start() - 80) : found.end() + 80])
            if "<html" in html:
                assert '<meta name="htmx-config" content=\'{"includeIndicatorStyles": false}\'>' in html, name
                checked += 1
    assert checked >= 25


def test_refusals_and_errors_carry_the_headers_too(client, db):
    for response in (client.get("/no-such-page/"), client.get("/t/not-a-token/")):
        assert response.status_code == 404
        assert "default-src 'self'" in response["Content-Security-Policy"]


def test_a_directive_can_be_overridden_in_settings(settings, client, db):
    settings.CONTENT_SECURITY_POLICY = {"img-src": "'self'"}
    from tournament.security_headers import csp_header

    assert "img-src 'self';" in csp_header() + ";"
    assert "data:" not in csp_header()
