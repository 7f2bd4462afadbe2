"""The import is bounded while it reads, refuses control characters, and summarises long previews
(#15 items 3, 5, 6, 7); the upload itself stops at 2 MB while it arrives, with CSRF still checked."""

import io
import re
import zipfile

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, RequestFactory
from django.urls import reverse
from openpyxl import Workbook

from tests.tournament.uploadstream import CONTENT_TYPE, CountingBody, multipart_head, post_body
from tournament.models import Player, Registration
from tournament.players.forms import ImportForm
from tournament.players.imports import MAX_LINES, MAX_ROWS, parse_csv, parse_xlsx
from tournament.uploads import FORM_OVERHEAD, LimitedUploadHandler


def csv_of(count: int) -> bytes:
    return ("Vorname;Nachname\n" + "".join(f"Vor{i};Nach{i}\n" for i in range(count))).encode()


def xlsx(rows) -> bytes:
    workbook = Workbook()
    for row in rows:
        workbook.active.append(row)
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()


def test_exactly_the_limit_is_imported_one_more_refuses_the_file():
    assert len(parse_csv(csv_of(MAX_ROWS)).rows) == MAX_ROWS
    refused = parse_csv(csv_of(MAX_ROWS + 1))
    assert refused.rows == []
    assert [e.message for e in refused.errors] == [f"More than {MAX_ROWS} players."]
    assert refused.errors[0].line == MAX_ROWS + 2  # the header, then the first line too many


def test_a_long_csv_stops_at_the_first_line_too_many():
    refused = parse_csv(csv_of(100_000))
    assert refused.rows == [] and refused.errors[0].line == MAX_ROWS + 2


def test_a_long_xlsx_stops_at_the_first_line_too_many():
    rows = [(f"V{i}", f"N{i}") for i in range(MAX_ROWS + 500)]
    refused = parse_xlsx(xlsx([("Vorname", "Nachname"), *rows]))
    assert refused.rows == [] and "More than" in refused.errors[0].message


def test_a_sheet_claiming_a_million_rows_is_not_read_to_the_end():
    workbook = Workbook()
    workbook.active.append(("Vorname", "Nachname"))
    workbook.active.append(("Anna", "Alt"))
    workbook.active.cell(row=1_000_000, column=1, value="x")
    buffer = io.BytesIO()
    workbook.save(buffer)
    refused = parse_xlsx(buffer.getvalue())
    assert refused.rows == []
    assert refused.errors[0].message == f"The file has more than {MAX_LINES} lines."


def test_an_xlsx_whose_number_cell_holds_text_is_a_clear_error():
    data = xlsx([("Vorname", "Nachname", "Geburtsjahr"), ("Anna", "Alt", 1970)])
    broken = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(broken, "w") as target:
        for item in source.infolist():
            content = source.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                cell = rb'<c r="C2"( t="n")?><v>1970</v></c>'
                content = re.sub(cell, b'<c r="C2" t="n"><v>abc</v></c>', content)
                assert b"abc" in content
            target.writestr(item, content)
    result = parse_xlsx(broken.getvalue())
    assert result.rows == [] and result.errors[0].message == "This is not an Excel workbook (.xlsx)."


@pytest.mark.parametrize("ch", ["\x00", "\x1b", "\x0b", "\x07", "\x0c"])
def test_control_characters_in_a_cell_refuse_the_line(ch):
    result = parse_csv(f"Vorname;Nachname\nAn{ch}na;Alt\nBen;Berg\n".encode())
    assert [r.name for r in result.rows] == ["Ben Berg"]
    assert [(e.line, e.message) for e in result.errors] == [
        (2, "This line contains control characters (such as NUL or escape).")
    ]


def test_names_from_a_file_are_nfc():
    result = parse_csv("Vorname;Nachname\nJo\u0308rg;Mu\u0308ller\n".encode())
    assert (result.rows[0].first_name, result.rows[0].last_name) == ("Jörg", "Müller")


def test_unicode_digits_are_no_year_of_birth():
    result = parse_csv("Vorname;Nachname;Geburtsjahr\nAnna;Alt;\uff11\uff19\uff17\uff10\n".encode())
    assert result.rows == [] and "is not a year" in result.errors[0].message


def test_a_long_preview_is_summarised(organizer_client, tournament):
    response = organizer_client.post(
        reverse("organizer:players_import", args=[tournament.pk]),
        {"file": SimpleUploadedFile("players.csv", csv_of(500) + b";Ohne\n" * 300)},
    )
    html = response.content.decode()
    assert html.count("<tr><td class=\"num\">") == 100
    assert "… and 400 more players." in html
    assert "300 lines cannot be imported" in html and "… and 200 more lines with a problem." in html
    assert "Import 500 players" in html
    assert not Player.objects.exists()


def test_a_refused_long_file_stores_nothing_and_names_the_limit(organizer_client, tournament):
    response = organizer_client.post(
        reverse("organizer:players_import", args=[tournament.pk]),
        {"file": SimpleUploadedFile("players.csv", csv_of(MAX_ROWS + 1))},
    )
    assert f"More than {MAX_ROWS} players." in response.content.decode()
    assert 'name="rows"' not in response.content.decode()
    assert not Player.objects.exists()


# --- the upload stops at the limit while it arrives ----------------------------------------------

LIMIT = ImportForm.MAX_BYTES
TOO_LARGE = "The file is larger than 2 MB."


def import_url(tournament) -> str:
    return reverse("organizer:players_import", args=[tournament.pk])


def nothing_stored(tournament) -> bool:
    return not Player.objects.exists() and not Registration.objects.filter(tournament=tournament).exists()


def refused(response) -> bool:
    html = response.content.decode()
    return response.status_code == 413 and TOO_LARGE in html and 'name="rows"' not in html


def test_a_huge_content_length_is_refused_before_the_body_is_read(organizer_client, tournament):
    body = CountingBody(multipart_head("players.csv"))  # endless
    response = post_body(organizer_client, import_url(tournament), body, length=10 * 1024**3)
    assert refused(response)
    assert body.read_bytes == 0
    assert nothing_stored(tournament)


def test_a_file_one_byte_over_the_limit_stops_where_it_passes_the_limit(organizer_client, tournament):
    content = b"Vorname;Nachname\n" + b"x" * (LIMIT + 1 - 17)
    body = CountingBody(multipart_head("players.csv"), content)
    assert len(body) <= LIMIT + FORM_OVERHEAD  # not refused by its Content-Length: by the handler
    response = post_body(organizer_client, import_url(tournament), body)
    assert refused(response)
    handler = response.wsgi_request.upload_handlers[0]
    assert isinstance(handler, LimitedUploadHandler) and handler.exceeded
    assert LIMIT < handler.received <= LIMIT + handler.chunk_size
    assert not response.wsgi_request.FILES  # the file never reached the handlers that keep it
    assert nothing_stored(tournament)


def test_the_handler_stops_reading_the_body_at_the_limit(monkeypatch):
    """Also when the declared length lets the body through (here: a room for the form of 10 MB)."""
    monkeypatch.setattr("tournament.uploads.FORM_OVERHEAD", 10 * 1024 * 1024)
    body = CountingBody(multipart_head("players.csv"))  # endless: only the handler can stop it
    request = RequestFactory().generic(
        "POST", "/", **{"wsgi.input": body, "CONTENT_LENGTH": str(10 * 1024**3), "CONTENT_TYPE": CONTENT_TYPE}
    )
    handler = LimitedUploadHandler(request, max_bytes=LIMIT)
    request.upload_handlers.insert(0, handler)
    assert not request.FILES
    assert handler.exceeded and handler.received <= LIMIT + handler.chunk_size
    assert body.read_bytes <= LIMIT + 3 * handler.chunk_size


def test_a_file_of_exactly_the_limit_is_read(organizer_client, tournament):
    rows = csv_of(10)
    content = rows + b"\n" * (LIMIT - len(rows))
    response = organizer_client.post(
        import_url(tournament), {"file": SimpleUploadedFile("players.csv", content)}
    )
    html = response.content.decode()
    assert response.status_code == 200 and TOO_LARGE not in html
    assert "Preview of players.csv" in html
    assert response.wsgi_request.upload_handlers[0].received == LIMIT


@pytest.fixture
def csrf_client(organizer, tournament):
    client = Client(enforce_csrf_checks=True)
    client.force_login(organizer)
    assert client.get(import_url(tournament)).status_code == 200  # sets the CSRF cookie
    return client


def csrf_token(client) -> str:
    return client.cookies[settings.CSRF_COOKIE_NAME].value


def test_csrf_is_still_checked_on_the_upload(csrf_client, tournament):
    url = import_url(tournament)
    without = csrf_client.post(url, {"file": SimpleUploadedFile("players.csv", csv_of(3))})
    assert without.status_code == 403
    with_token = csrf_client.post(
        url, {"csrfmiddlewaretoken": csrf_token(csrf_client), "file": SimpleUploadedFile("p.csv", csv_of(3))}
    )
    assert with_token.status_code == 200 and "Import 3 players" in with_token.content.decode()
    assert nothing_stored(tournament)  # a preview only


def test_csrf_is_still_checked_on_the_import_of_the_preview(csrf_client, tournament):
    url = import_url(tournament)
    preview = csrf_client.post(
        url, {"csrfmiddlewaretoken": csrf_token(csrf_client), "file": SimpleUploadedFile("p.csv", csv_of(3))}
    )
    rows = re.search(r'name="rows" value="([^"]+)"', preview.content.decode()).group(1)
    assert csrf_client.post(url, {"rows": rows}).status_code == 403
    assert nothing_stored(tournament)
    done = csrf_client.post(url, {"rows": rows, "csrfmiddlewaretoken": csrf_token(csrf_client)})
    assert done.status_code == 302 and Player.objects.count() == 3


def test_an_oversized_file_without_the_token_is_refused_by_csrf(csrf_client, tournament):
    body = CountingBody(multipart_head("players.csv"), b"x" * (LIMIT + 1))
    assert post_body(csrf_client, import_url(tournament), body).status_code == 403
    assert nothing_stored(tournament)


def test_an_oversized_file_with_the_token_names_the_limit(csrf_client, tournament):
    body = CountingBody(multipart_head("players.csv", csrf_token(csrf_client)), b"x" * (LIMIT + 1))
    response = post_body(csrf_client, import_url(tournament), body)
    assert refused(response)
    assert nothing_stored(tournament)
