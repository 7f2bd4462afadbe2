"""The printed documents, opened with pypdf: pages, names, tables and numbers; no network; access."""

import datetime
import io
import re
import socket
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from PIL import Image
from pypdf import PdfReader

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
)
from tests.tournament.documents.pdfwords import words
from tournament.documents import certificates, standings, table_sheets, typography
from tournament.models import AuditEntry, Round, Submission, SubmissionEntry, Table

pytestmark = pytest.mark.django_db


def pdf_pages(content: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(content)).pages]


def flat(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def seat_round(tournament, registrations, *, number=1, table_size=4, status=Round.Status.PUBLISHED):
    """Tables of `table_size` in the order given; returns the round."""
    round_ = RoundFactory(tournament=tournament, number=number, status=status)
    for table_no, start in enumerate(range(0, len(registrations), table_size), start=1):
        table = TableFactory(round=round_, number=table_no)
        for position, reg in enumerate(registrations[start : start + table_size], start=1):
            SeatFactory(table=table, round=round_, registration=reg, position=position)
    return round_


def close_with_scores(round_, scores: dict[int, int]):
    """Confirm every table of the round with the given score per registration id (0 = went out)."""
    for table in round_.tables.all():
        submission = Submission.objects.create(
            table=table, version=1, source=Submission.Source.ORGANIZER, confirmed=True
        )
        for seat in table.seats.all():
            score = scores[seat.registration_id]
            SubmissionEntry.objects.create(
                submission=submission, registration=seat.registration, hand_points=score, score=score,
                went_out=score == 0,
            )
        table.status = Table.Status.CONFIRMED
        table.save()
    round_.status = Round.Status.CLOSED
    round_.save()


@pytest.fixture
def seated(tournament, players):
    return seat_round(tournament, players)


@pytest.fixture
def closed(tournament, players):
    """Round 1 closed: at each table of four the first seat went out, the others scored 10, 20, 30."""
    round_ = seat_round(tournament, players)
    scores = {}
    for table in round_.tables.all():
        for seat in table.seats.all():
            scores[seat.registration_id] = (seat.position - 1) * 10 + table.number
    for reg_id in [seat.registration_id for seat in round_.seats.filter(position=1)]:
        scores[reg_id] = 0
    close_with_scores(round_, scores)
    return round_


def get_pdf(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    assert response["Content-Type"] == "application/pdf"
    return response


# --- table sheets ------------------------------------------------------------------------------


def test_table_sheets_one_a4_page_per_table_with_seats_in_order(organizer_client, tournament, seated):
    response = get_pdf(organizer_client, reverse("print:table_sheets", args=[tournament.pk, 1]))
    pages = pdf_pages(response.content)
    tables = list(seated.tables.order_by("number"))
    assert len(pages) == len(tables) == 3
    for page, table in zip(pages, tables, strict=True):
        text = flat(page)
        assert f"Table {table.number}" in text or f"Tisch {table.number}" in text
        assert tournament.name in text
        names = [seat.registration.player.name for seat in table.seats.order_by("position")]
        positions = [text.index(name) for name in names]
        assert positions == sorted(positions), "seats in playing order"
        for seat in table.seats.all():
            assert f"{seat.registration.start_number} {seat.registration.player.name}" in text
            assert seat.registration.player.club_name in text
        assert "/t/" + table.token in text.replace(" ", "")
    disposition = response["Content-Disposition"]
    assert disposition.startswith("inline;")  # shown in the browser, ready to print
    assert f'filename="{tournament.name} - Table sheets round 1 (A4).pdf"' in disposition


def test_a5_puts_two_tables_on_each_page(organizer_client, tournament, seated):
    url = reverse("print:table_sheets", args=[tournament.pk, 1]) + "?format=a5"
    response = get_pdf(organizer_client, url)
    reader = PdfReader(io.BytesIO(response.content))
    assert len(reader.pages) == 2  # three tables: two on the first A4 page, one on the second
    width, height = (float(v) for v in reader.pages[0].mediabox.upper_right)
    assert width > height  # A4 landscape, two A5 sheets side by side
    first = flat(reader.pages[0].extract_text())
    assert ("Table 1" in first or "Tisch 1" in first) and ("Table 2" in first or "Tisch 2" in first)


def test_unknown_paper_format_is_refused(organizer_client, tournament, seated):
    response = organizer_client.get(reverse("print:table_sheets", args=[tournament.pk, 1]) + "?format=a3")
    assert response.status_code == 400


def role_holders(pdf: bytes, tmp_path) -> dict[str, str]:
    """Whose row each role tag is printed in: the name printed nearest above the tag."""
    found = words(pdf, tmp_path)[1]
    names = [w for w in found if re.fullmatch(r"P\d", w.text)]
    return {
        tag.text: max((n for n in names if n.y0 < tag.y0), key=lambda n: n.y0).text
        for tag in found if tag.text in ("deals", "starts")
    }


def test_oldest_deals_and_youngest_starts_where_birth_data_decides(tournament, settings, tmp_path):
    settings.LANGUAGE_CODE = "en"
    births = [datetime.date(1970, 5, 1), datetime.date(1950, 1, 1), datetime.date(2005, 3, 3), None]
    regs = [
        RegistrationFactory(
            tournament=tournament, start_number=i + 1,
            player=PlayerFactory(first_name=f"P{i}", last_name="Test", birth_date=born, birth_year=None),
        )
        for i, born in enumerate(births)
    ]
    round_ = seat_round(tournament, regs[:3])  # one table, all birth dates known
    pdf = table_sheets.table_sheets_pdf(round_)
    assert role_holders(pdf, tmp_path) == {"deals": "P1", "starts": "P2"}
    assert "the table decides" not in flat(pdf_pages(pdf)[0])

    round_2 = seat_round(tournament, [regs[0], regs[1], regs[3]], number=2)  # one birth unknown
    pdf = table_sheets.table_sheets_pdf(round_2)
    assert role_holders(pdf, tmp_path) == {}
    assert "the table decides" in flat(pdf_pages(pdf)[0])


def test_table_sheet_reminds_of_the_rules(tournament, seated, settings):
    settings.LANGUAGE_CODE = "en"
    text = flat(pdf_pages(table_sheets.table_sheets_pdf(seated))[0])
    assert "not stacked" in text
    assert "UNO!" in text and "2 penalty cards" in text
    assert "number card" in text
    assert "0 to 9: face value" in text and "Wild, +4: 50" in text
    assert "Signature" in text


# --- seating list ------------------------------------------------------------------------------


def test_seating_list_is_alphabetical_with_table_and_seat(organizer_client, tournament, seated):
    response = get_pdf(organizer_client, reverse("print:seating", args=[tournament.pk, 1]))
    text = flat(" ".join(pdf_pages(response.content))).replace("- ", "-")  # a name wrapped at its hyphen
    seats = list(seated.seats.select_related("registration__player", "table"))
    by_name = sorted(seats, key=lambda s: s.registration.player.sort_name.casefold())
    positions = [text.index(seat.registration.player.sort_name) for seat in by_name]
    assert positions == sorted(positions)
    for seat in seats:
        pattern = re.escape(seat.registration.player.sort_name) + rf" .*?{seat.table.number} {seat.position}"
        assert re.search(pattern, text)
    assert "Seating list round 1.pdf" in response["Content-Disposition"]


# --- standings ---------------------------------------------------------------------------------


def test_standings_rank_names_totals_and_shared_places(organizer_client, tournament, closed):
    response = get_pdf(organizer_client, reverse("print:standings", args=[tournament.pk]) + "?after=1")
    text = flat(" ".join(pdf_pages(response.content)))
    winners = [seat.registration.player.name for seat in closed.seats.filter(position=1)]
    for name in winners:
        assert re.search(rf"1\. {re.escape(name)}", text), name  # three players share first place
    assert "4. " in text  # the next place after three shared firsts
    worst = closed.seats.get(table__number=3, position=4).registration.player.name
    assert re.search(rf"12\. {re.escape(worst)} \S+ \d+ 33 33", text)
    assert "after round 1" in text or "nach Runde 1" in text


@pytest.mark.one_database  # the layout of the pages
def test_standings_header_repeats_and_pages_are_numbered(tournament, settings):
    settings.LANGUAGE_CODE = "en"
    regs = [RegistrationFactory(tournament=tournament, start_number=i + 1) for i in range(60)]
    round_ = seat_round(tournament, regs)
    close_with_scores(round_, {reg.pk: i for i, reg in enumerate(regs)})
    document, pdf = standings.standings_pdf(tournament)
    pages = pdf_pages(pdf)
    assert len(pages) >= 2
    *table_pages, chart_page = pages  # the chart has the last page to itself
    # The standings, then the club ranking (60 clubs of one player) and the categories: every page's
    # table repeats its header.
    rankings_from = next(index for index, page in enumerate(table_pages) if "Club ranking" in page)
    assert rankings_from >= 1
    for number, page in enumerate(table_pages, start=1):
        assert "Place" in page and ("Name" in page or "Club" in page)
        assert f"Page {number} of {len(pages)}" in flat(page)
    assert all("Name" in page for page in table_pages[:rankings_from])
    assert "added up round by round" in chart_page
    assert f"Page {len(pages)} of {len(pages)}" in flat(chart_page)
    assert document.final is False
    assert len(document.lines) == 60


def test_final_standings_after_the_last_round(tournament, players, settings):
    settings.LANGUAGE_CODE = "en"
    tournament.rounds_total = 1
    tournament.save()
    round_ = seat_round(tournament, players)
    close_with_scores(round_, {reg.pk: i for i, reg in enumerate(players)})
    document, pdf = standings.standings_pdf(tournament)
    assert document.final
    assert re.search(r"Standings \W final", flat(pdf_pages(pdf)[0]))


# --- certificates ------------------------------------------------------------------------------


def test_certificates_one_page_per_player(organizer_client, tournament, closed, players):
    response = get_pdf(organizer_client, reverse("print:certificates", args=[tournament.pk]))
    pages = pdf_pages(response.content)
    assert len(pages) == len(players) == 12
    first = flat(pages[0])
    assert tournament.name in first and tournament.venue in first
    assert "1st place" in first


def test_certificates_for_the_top_places(organizer_client, tournament, closed):
    response = get_pdf(organizer_client, reverse("print:certificates", args=[tournament.pk]) + "?top=3")
    pages = pdf_pages(response.content)
    assert len(pages) == 3  # three shared first places
    names = {seat.registration.player.name for seat in closed.seats.filter(position=1)}
    assert {name for name in names if any(name in flat(page) for page in pages)} == names


def test_certificates_for_a_selection(organizer_client, tournament, closed, players):
    chosen = [players[5], players[7]]
    url = reverse("print:certificates", args=[tournament.pk]) + f"?ids={chosen[0].pk}&ids={chosen[1].pk}"
    pages = pdf_pages(get_pdf(organizer_client, url).content)
    assert len(pages) == 2
    assert {reg.player.name for reg in chosen} == {
        reg.player.name for reg in chosen for page in pages if reg.player.name in flat(page)
    }
    url = reverse("print:certificates", args=[tournament.pk]) + f"?ids={chosen[0].pk},{players[0].pk}"
    assert len(pdf_pages(get_pdf(organizer_client, url).content)) == 2


def test_certificates_show_place_points_and_name(tournament, closed, settings):
    settings.LANGUAGE_CODE = "en"
    document = certificates.certificates(tournament)
    pages = pdf_pages(certificates.certificates_pdf(document))
    for cert, page in zip(document.certificates, pages, strict=True):
        text = flat(page)
        assert cert.line.player.name in text
        assert f"took {typography.ordinal(cert.rank)} place at" in text
        assert f"with {cert.line.row.total} minus points" in text


def test_bad_certificate_parameters(organizer_client, tournament, closed):
    url = reverse("print:certificates", args=[tournament.pk])
    assert organizer_client.get(url + "?top=0").status_code == 400
    assert organizer_client.get(url + "?ids=x").status_code == 400


def test_no_certificates_before_a_round_is_closed(organizer_client, tournament, seated):
    response = organizer_client.get(reverse("print:certificates", args=[tournament.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("print:documents", args=[tournament.pk])


def png_bytes(size=(40, 20)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


def test_logo_upload_appears_on_the_certificates(organizer_client, tournament, closed, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    url = reverse("print:logo", args=[tournament.pk])
    response = organizer_client.post(url, {"logo": SimpleUploadedFile("club.png", png_bytes(), "image/png")})
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.logo.name.startswith("logos/club")
    assert AuditEntry.objects.filter(tournament=tournament, action="tournament_logo").exists()

    pdf = get_pdf(organizer_client, reverse("print:certificates", args=[tournament.pk]) + "?top=1").content
    page = PdfReader(io.BytesIO(pdf)).pages[0]
    assert len(page.images) == 1

    organizer_client.post(url, {"remove": "1"})
    tournament.refresh_from_db()
    assert not tournament.logo


def test_logo_upload_refuses_what_is_not_an_image(organizer_client, tournament, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    url = reverse("print:logo", args=[tournament.pk])
    response = organizer_client.post(url, {"logo": SimpleUploadedFile("x.png", b"not an image", "image/png")})
    assert response.status_code == 400
    tournament.refresh_from_db()
    assert not tournament.logo


# --- nothing fetched over the network ----------------------------------------------------------


@pytest.mark.one_database  # what the renderer opens
def test_no_network_connection_while_rendering_any_document(
    organizer_client, tournament, closed, settings, tmp_path, monkeypatch
):
    settings.MEDIA_ROOT = tmp_path
    settings.PUBLIC_BASE_URL = "http://192.0.2.10:8000"
    organizer_client.post(
        reverse("print:logo", args=[tournament.pk]),
        {"logo": SimpleUploadedFile("club.png", png_bytes(), "image/png")},
    )
    attempts = []

    def refuse(self, address):
        attempts.append(address)
        raise OSError("no network while printing")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    served, refused = [], []
    original = typography.LocalFileFetcher

    class Recording(original):
        def __init__(self, roots):
            super().__init__(roots)
            self.served, self.refused = served, refused

    monkeypatch.setattr("engine.printing.LocalFileFetcher", Recording)
    for url in (
        reverse("print:table_sheets", args=[tournament.pk, 1]),
        reverse("print:table_sheets", args=[tournament.pk, 1]) + "?format=a5",
        reverse("print:seating", args=[tournament.pk, 1]),
        reverse("print:standings", args=[tournament.pk]),
        reverse("print:certificates", args=[tournament.pk]),
    ):
        get_pdf(organizer_client, url)
    assert attempts == []
    assert refused == []
    assert served and all(url.startswith("file:///") for url in served)
    assert any(url.endswith("/css/print.css") for url in served)
    # The logo is read through its storage (shared by every app server), not from this disk's media folder.
    assert not any("/logos/" in url for url in served)


# --- access --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,args",
    [
        ("print:documents", []),
        ("print:table_sheets", [1]),
        ("print:seating", [1]),
        ("print:standings", []),
        ("print:certificates", []),
    ],
)
def test_only_the_tournaments_organizers_may_print(client, tournament, seated, name, args):
    url = reverse(name, args=[tournament.pk, *args])
    response = client.get(url)
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(UserFactory(username="someone-else"))
    assert client.get(url).status_code == 403


def test_logo_upload_needs_an_organizer(client, tournament):
    client.force_login(UserFactory(username="someone-else"))
    response = client.post(reverse("print:logo", args=[tournament.pk]), {"remove": "1"})
    assert response.status_code == 403


def test_unknown_round_is_404(organizer_client, tournament):
    assert organizer_client.get(reverse("print:seating", args=[tournament.pk, 9])).status_code == 404


# --- the documents page ---------------------------------------------------------------------------


def test_documents_page_lists_every_document(
    organizer_client, tournament, closed, players, django_assert_max_num_queries
):
    seat_round(tournament, players, number=2)
    with django_assert_max_num_queries(12):
        response = organizer_client.get(reverse("print:documents", args=[tournament.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    for number in (1, 2):
        assert reverse("print:table_sheets", args=[tournament.pk, number]) + "?format=a5" in html
        assert reverse("print:seating", args=[tournament.pk, number]) in html
    assert reverse("print:standings", args=[tournament.pk]) + "?after=1" in html
    assert html.count('name="ids"') == len(players)
    assert 'name="top"' in html
    assert 'enctype="multipart/form-data"' in html


def test_print_buttons_partial(tournament, seated):
    context = {"tournament": tournament, "round": seated}
    html = render_to_string("tournament/organizer/_print_buttons.html", context)
    assert reverse("print:table_sheets", args=[tournament.pk, 1]) in html
    assert reverse("print:seating", args=[tournament.pk, 1]) in html


def test_file_names_carry_tournament_and_document(tournament):
    tournament.name = "Leonharder UNO-Turnier 2026"
    name = typography.file_name(tournament, "Tischzettel Runde 3 (A4)")
    assert name == "Leonharder UNO-Turnier 2026 – Tischzettel Runde 3 (A4).pdf"  # noqa: RUF001
    other = TournamentFactory(name="")
    assert typography.file_name(other, "Rangliste") == "Rangliste.pdf"


@pytest.mark.parametrize(
    ("value", "minus", "language", "expected"),
    [
        (1, True, "de", "mit 1 Minuspunkt"),
        (0, True, "de", "mit 0 Minuspunkten"),
        (12, True, "en", "with 12 minus points"),
        (1, False, "en", "with 1 point"),
    ],
)
def test_points_line_follows_the_number(value, minus, language, expected):
    with translation.override(language):
        assert typography.points_text(value, minus=minus) == expected


def test_the_print_page_lists_every_document_the_app_makes(world, organizer_client):
    """#41 item 5: every PDF address of `urls_print` (and the exports and the backup) is on the page."""
    from tests.tournament.urlmap import named_urls

    page = organizer_client.get(reverse("print:documents", args=[world.tournament.pk])).content.decode()
    documents = [name for name in named_urls() if name.startswith("print:") and name not in (
        "print:documents", "print:logo"
    )]
    assert len(documents) >= 11
    for name in documents:
        kwargs = world.kwargs_for(named_urls()[name], number=1)
        assert reverse(name, kwargs=kwargs) in page, name
    for name in ("organizer:standings_export", "organizer:signups_export", "organizer:backup",
                 "organizer:cash_report_csv", "organizer:cash_record_csv"):
        assert reverse(name, args=[world.tournament.pk]) in page, name


def test_the_certificates_read_the_logo_through_its_storage(organizer_client, tournament, closed, settings):
    """Logos live in STORAGES["default"], wherever a club points it (shared by several app servers): an
    in-memory storage has no path on this disk, and the certificate still prints the logo."""
    settings.STORAGES = {
        **settings.STORAGES, "default": {"BACKEND": "django.core.files.storage.InMemoryStorage"},
    }
    url = reverse("print:logo", args=[tournament.pk])
    organizer_client.post(url, {"logo": SimpleUploadedFile("club.png", png_bytes(), "image/png")})
    tournament.refresh_from_db()
    assert not Path(tournament.logo.path).exists()  # nothing on this disk
    pdf = get_pdf(organizer_client, reverse("print:certificates", args=[tournament.pk]) + "?top=1").content
    assert len(PdfReader(io.BytesIO(pdf)).pages[0].images) == 1
