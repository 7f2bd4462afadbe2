"""Every PDF opens in the browser, ready to print (`inline`), under a name that says which evening and
which document it is; `?download=1` saves it (`attachment`). Every link to a PDF opens a new tab and has
a small link beside it that saves the file."""

from __future__ import annotations

import re
from urllib.parse import unquote

import pytest
from django.urls import reverse

from tests.tournament.urlmap import CONTENT_TYPES, POST_ONLY, audience, named_urls
from tournament.documents import typography

pytestmark = pytest.mark.one_database  # headers and markup; test_smoke lays out every document

PDF_NAMES = {name for name, kind in CONTENT_TYPES.items() if kind == "application/pdf"}
EVENING = "Vereinsabend März"

# What each document is called after the evening's name (German, the world of tests/tournament/urlmap.py:
# round 1 closed, round 2 open, a series called "Jahreswertung"); None: the URL is opened for round 1 and 2.
DOCUMENTS = {
    "print:table_sheets": "Tischzettel Runde {n} (A4)",
    "print:seating": "Sitzplan Runde {n}",
    "print:standings": "Rangliste nach Runde 1",
    "print:certificates": "Urkunden, vorläufig – nach Runde 1",  # noqa: RUF001
    "print:start_cards": "Startkarten",
    "print:cash_report": "Kassenbericht",
    "print:cash_record": "Kassenabrechnung 2026-11-29",  # the evening's date (tests.factories)
    "print:series_standings": "Jahreswertung",
    "print:series_certificates": "Urkunden – Jahreswertung",  # noqa: RUF001
    "print:category_certificates": "Urkunden der Kategorien",
    "print:rankings": "Vereine, Teams, Kategorien",
}
DISPOSITION = re.compile(r"""^(inline|attachment); filename="([^"\\]*)"(?:; filename\*=utf-8''(\S+))?$""")


def disposition(response) -> tuple[str, str, str | None]:
    """(inline or attachment, the ASCII file name, the file name of filename* or None)."""
    match = DISPOSITION.match(response["Content-Disposition"])
    assert match, response["Content-Disposition"]
    kind, ascii_name, encoded = match.groups()
    assert ascii_name.isascii()
    return kind, ascii_name, unquote(encoded) if encoded else None


def test_every_pdf_url_is_named_here():
    assert set(DOCUMENTS) == PDF_NAMES


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_every_pdf_opens_inline_with_the_evening_and_the_document_in_its_name(world, organizer_client):
    world.tournament.name = f"{EVENING}: Leonharder/Pokal"
    world.tournament.save(update_fields=["name"])
    opened = 0
    for name in sorted(PDF_NAMES):
        names = named_urls()[name]
        for number, url in zip((1, 2), world.urls(name, names), strict=False):
            response = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="de")
            assert response.status_code == 200, (name, url)
            assert response["Content-Type"] == "application/pdf"
            expected = f"{EVENING} Leonharder-Pokal – {DOCUMENTS[name].format(n=number)}.pdf"  # noqa: RUF001
            assert disposition(response) == (
                "inline", expected.replace("ä", "ae").replace("–", "-"), expected  # noqa: RUF001
            ), name
            saved = organizer_client.get(url + ("&" if "?" in url else "?") + "download=1",
                                         HTTP_ACCEPT_LANGUAGE="de")
            assert saved.status_code == 200
            assert disposition(saved) == ("attachment", *disposition(response)[1:]), name
            opened += 1
    assert opened == len(PDF_NAMES) + 2  # the round's documents for rounds 1 and 2


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_options_name_the_certificates_and_the_paper(world, organizer_client):
    tournament = world.tournament
    url = reverse("print:certificates", args=[tournament.pk]) + "?top=3&participation=1&download=1"
    response = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert disposition(response)[0] == "attachment"
    assert disposition(response)[2] == (
        f"{tournament.name} – Urkunden, Plätze 1 bis 3, mit Teilnahmeurkunden, "  # noqa: RUF001
        "vorläufig – nach Runde 1.pdf"  # noqa: RUF001
    )
    a5 = organizer_client.get(
        reverse("print:table_sheets", args=[tournament.pk, 2]) + "?format=a5", HTTP_ACCEPT_LANGUAGE="de"
    )
    kind, ascii_name, _encoded = disposition(a5)
    assert kind == "inline" and ascii_name == f"{tournament.name} - Tischzettel Runde 2 (A5).pdf"
    standings = reverse("print:standings", args=[tournament.pk])
    english = organizer_client.get(standings, HTTP_ACCEPT_LANGUAGE="en")
    assert disposition(english)[1] == f"{tournament.name} - Standings after round 1.pdf"


@pytest.mark.parametrize(
    ("name", "kind", "expected"),
    [
        ("UNO-Turnier 2026", "Rangliste", "UNO-Turnier 2026 – Rangliste.pdf"),  # noqa: RUF001
        ("Cup 2026/27", "Startkarten", "Cup 2026-27 – Startkarten.pdf"),  # noqa: RUF001
        ('Demo: "Abend" <1>? *|', "Kassenbericht", "Demo Abend 1 – Kassenbericht.pdf"),  # noqa: RUF001
        ("Zeilen\num\tbruch", "Tischzettel", "Zeilen um bruch – Tischzettel.pdf"),  # noqa: RUF001
        ("", "Rangliste", "Rangliste.pdf"),
        ("x" * 200, "Rangliste", "x" * typography.FILE_NAME_LENGTH + ".pdf"),
    ],
)
def test_file_names_are_safe_in_every_file_system(tournament, name, kind, expected):
    tournament.name = name
    assert typography.file_name(tournament, kind) == expected


@pytest.mark.parametrize(
    ("name", "header"),
    [
        ("Turnier – Rangliste.pdf",  # noqa: RUF001
         "inline; filename=\"Turnier - Rangliste.pdf\"; "
         "filename*=utf-8''Turnier%20%E2%80%93%20Rangliste.pdf"),
        ("Größte Überraschung.pdf",
         "inline; filename=\"Groesste Ueberraschung.pdf\"; "
         "filename*=utf-8''Gr%C3%B6%C3%9Fte%20%C3%9Cberraschung.pdf"),
        ("Café.pdf", "inline; filename=\"Cafe.pdf\"; filename*=utf-8''Caf%C3%A9.pdf"),
        ("Кубок.pdf",
         "inline; filename=\"document.pdf\"; filename*=utf-8''%D0%9A%D1%83%D0%B1%D0%BE%D0%BA.pdf"),
        ("Plain.pdf", 'inline; filename="Plain.pdf"'),
    ],
)
def test_content_disposition_spells_the_name_in_ascii_and_keeps_it_in_filename_star(name, header):
    assert typography.content_disposition(name) == header
    assert typography.content_disposition(name, download=True) == header.replace("inline", "attachment", 1)


PDF_LINK = re.compile(r'<a\s[^>]*href="(/print/[^"]*\.pdf[^"]*)"[^>]*>')
PDF_FORM = re.compile(r'<form\s[^>]*action="(/print/[^"]*\.pdf)"[^>]*>(.*?)</form>', re.S)


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_every_link_to_a_pdf_opens_a_new_tab_with_a_link_to_save_it(world, organizer_client):
    """Every organizer page: a link to a PDF opens it in a new tab (target=_blank, rel=noopener), and
    right beside it a small link saves the same document (?download=1); a form printing a PDF does too."""
    links = forms = 0
    for name, kwarg_names in named_urls().items():
        if name in POST_ONLY or name in CONTENT_TYPES or audience(name) != "organizer":
            continue
        for url in world.urls(name, kwarg_names):
            response = organizer_client.get(url)
            if response.status_code != 200 or not response["Content-Type"].startswith("text/html"):
                continue
            html = response.content.decode()
            for match in PDF_LINK.finditer(html):
                tag, href = match.group(0), match.group(1)
                if "download=1" in href:
                    continue
                assert 'target="_blank"' in tag and 'rel="noopener"' in tag, (name, tag)
                after = html[match.end() : match.end() + 600]
                saved = re.search(r'<a class="pdf-download" href="([^"]*)" download', after)
                expected = href + ("&amp;" if "?" in href else "?") + "download=1"
                assert saved and saved.group(1) == expected, (name, tag)
                links += 1
            for match in PDF_FORM.finditer(html):
                assert 'target="_blank"' in match.group(0).split(">", 1)[0], name
                assert 'name="download" value="1"' in match.group(2), name
                forms += 1
    assert links >= 12 and forms == 2


def test_the_download_link_carries_the_query(tournament):
    from django.template import Context, Template
    from django.utils import translation

    with translation.override("de"):
        html = Template(
            """{% load documents %}{% pdf_link "Top 3" 'print:certificates' tournament.pk """
            """css="button small" top=3 participation=1 after="" %}"""
        ).render(Context({"tournament": tournament}))
    url = reverse("print:certificates", args=[tournament.pk])
    assert html == (
        f'<span class="pdf-link"><a class="button small" href="{url}?top=3&amp;participation=1" '
        'target="_blank" rel="noopener">Top 3</a>'
        f'<a class="pdf-download" href="{url}?top=3&amp;participation=1&amp;download=1" download '
        'aria-label="Herunterladen: Top 3">Herunterladen</a></span>'
    )
