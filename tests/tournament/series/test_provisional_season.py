"""Issue #42, 5: an evening that is still running counts in the season, but every season table and
document says that its points are provisional ("vorläufig - Abend 2 läuft"), as the evening's own do."""

import datetime
import io

import pytest
from django.utils import translation
from openpyxl import load_workbook
from pypdf import PdfReader

from tests.factories import ClubFactory, PlayerFactory, SeriesFactory, played_evening
from tournament.models import Tournament
from tournament.series.selectors import series_standings

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 1, 10)
MARK = "provisional – evening 2 is running"  # noqa: RUF001


def pdf_text(response) -> str:
    assert response["Content-Type"] == "application/pdf"
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.content)).pages)


@pytest.fixture
def season(organizer):
    """Evening 1 finished (2 of 2 rounds); evening 2 after round 2 of 6; Emil only played evening 1."""
    series = SeriesFactory(organizers=[organizer], name="Jahreswertung 2026", best_of=2)
    club = ClubFactory(name="Rot")
    people = [PlayerFactory(first_name=name, club=club) for name in ("Anna", "Ben", "Cem", "Dora")]
    emil = PlayerFactory(first_name="Emil", club=club)
    first = played_evening(series=series, players=[*people, emil], date=DAY, organizers=[organizer],
                           scores=dict(zip([*people, emil], [0, 10, 20, 30, 5], strict=True)))
    second = played_evening(series=series, players=people, date=DAY + datetime.timedelta(days=30),
                            organizers=[organizer], scores=dict(zip(people, [5, 0, 30, 20], strict=True)))
    Tournament.objects.filter(pk__in=[first.pk, second.pk]).update(public=True)
    Tournament.objects.filter(pk=second.pk).update(rounds_total=6)
    return series, first, second


def test_the_running_evening_and_its_lines_are_marked(season):
    series, _first, second = season
    data = series_standings(series)
    assert data.running == [second] and data.marker == MARK
    assert {line.player.first_name: line.provisional for line in data.lines} == {
        "Anna": True, "Ben": True, "Cem": True, "Dora": True, "Emil": False,
    }
    with translation.override("de"):
        assert data.marker == "vorläufig – Abend 2 läuft"  # noqa: RUF001
    Tournament.objects.filter(pk=second.pk).update(rounds_total=2)
    final = series_standings(series)
    assert final.running == [] and final.marker == "" and not any(line.provisional for line in final.lines)


def test_the_season_page_table_and_exports_say_provisional(organizer_client, season):
    *_, second = season
    page = organizer_client.get(f"/{second.pk}/series/").content.decode()
    assert f"* {MARK}" in page and "09.02.*" in page and 'class="provisional' in page
    csv = organizer_client.get(f"/{second.pk}/series/export/").content.decode("utf-8-sig").splitlines()
    assert csv[0] == f"* {MARK}"
    header = csv[2].split(";")
    assert header[3:5] == ["10.01.2026", "09.02.2026*"]
    anna = next(line.split(";") for line in csv if ";Anna " in line)
    assert anna[4].endswith("*")
    book = load_workbook(io.BytesIO(organizer_client.get(f"/{second.pk}/series/export/?format=xlsx").content))
    assert book["Season"]["A1"].value == f"Jahreswertung 2026 (* {MARK})"


def test_the_public_page_and_the_projector_say_provisional(client, season):
    *_, second = season
    page = client.get(f"/p/{second.pk}/series/").content.decode()
    assert f"* {MARK}" in page
    projector = client.get(f"/p/{second.pk}/projector/?show=series")
    assert projector.context["slide"].heading == f"Jahreswertung 2026 ({MARK})"


def test_the_season_pdf_and_certificates_say_provisional(organizer_client, season):
    *_, second = season
    standings = pdf_text(organizer_client.get(f"/print/{second.pk}/series-standings.pdf"))
    assert MARK in standings
    certificates = pdf_text(organizer_client.get(f"/print/{second.pk}/series-certificates.pdf"))
    assert certificates.count(MARK) == certificates.count("Certificate") > 0
