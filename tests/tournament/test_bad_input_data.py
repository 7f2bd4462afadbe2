"""Data-driven bad input (tests/data/bad_inputs.json, over 200 inputs) against every form and endpoint
text, numbers, notation, tokens and files reach: never a 500; a refusal is a clear error and changes
nothing; what is accepted is stored harmlessly (NFC, no control characters) (#15, done-when 2)."""

from __future__ import annotations

import io
import json
import re
import unicodedata
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from openpyxl import Workbook

from engine.text import forbidden
from tests.factories import tournament_form_data
from tests.tournament.test_bad_input import (
    FORM_ERROR,
    RESULT_ERROR,
    dump,
    organizer_result,
    report,
    result_url,
)
from tournament.models import Player, Tournament

DATA = json.loads((Path(__file__).resolve().parents[1] / "data" / "bad_inputs.json").read_text("utf-8"))


def expand(value):
    """A string, or {"prefix", "repeat"|"numbered", "times"} for long inputs kept short in the file."""
    if isinstance(value, str):
        return value
    body = (
        "".join(value["numbered"].format(i=i) for i in range(value["times"]))
        if "numbered" in value else value["repeat"] * value["times"]
    )
    return value.get("prefix", "") + body + value.get("suffix", "")


def ids(values):
    return [repr(expand(v))[:40] for v in values]


def test_the_data_file_holds_at_least_200_inputs():
    counted = sum(len(v) for k, v in DATA.items() if k != "about")
    assert counted >= 200
    assert {"text_refused", "text_stored", "numbers", "notation", "tokens", "csv", "xlsx"} <= set(DATA)


@pytest.fixture(autouse=True)
def many_wrong_tokens_allowed(settings):
    settings.CAPTAIN_WRONG_TOKENS_ALLOWED = 10_000


def no_500(response, what):
    assert response.status_code < 500, (what, response.status_code)
    return response


def player_data(**changes):
    data = {"first_name": "Nina", "last_name": "Neu", "club": "", "birth_date": "", "birth_year": ""}
    data.update(changes)
    return data


def t(world, path):
    return f"/{world.tournament.pk}/{path}"


def get_searches(client, world, value, *, numbers=False):
    """The GET parameters text and numbers reach: searches, filters, round choices, slides. With
    ``numbers``, only the pages with a parameter that takes a number (round, table, interval, slide)."""
    public = Client()
    for url, params, takes_a_number in (
        (t(world, "desk/"), {"q": value}, False),
        (t(world, "standings/"), {"club": value, "after": value}, True),
        (t(world, "standings/export/"), {"club": value, "after": value}, True),
        (t(world, "audit/"), {"round": value, "table": value, "action": value}, True),
        (f"/p/{world.tournament.pk}/seat-lookup/", {"q": value}, False),
        (f"/p/{world.tournament.pk}/projector/", {"every": value, "slide": value, "show": value}, True),
    ):
        if numbers and not takes_a_number:
            continue  # a search box takes any text: the text inputs go there
        client_ = public if url.startswith("/p/") else client
        assert no_500(client_.get(url, params), url).status_code == 200, (url, value)


@pytest.mark.parametrize("raw", DATA["text_refused"], ids=ids(DATA["text_refused"]))
def test_refused_text_is_a_clear_error_and_changes_nothing(world, organizer_client, raw):
    value = expand(raw)
    before = dump()
    targets = [
        (t(world, "players/add/"), player_data(first_name=value)),
        (t(world, f"players/{world.registration.pk}/"), player_data(last_name=value)),
    ]
    if len(value) != 81:  # 81 characters: too long for a name (80), not for a tournament (150)
        targets += [(t(world, "settings/"), tournament_form(name=value))]
        targets += [("/new/", tournament_form(name=value))]
    for url, data in targets:
        response = no_500(organizer_client.post(url, data), url)
        assert response.status_code == 200 and FORM_ERROR in response.content.decode(), (url, value[:30])
    assert dump() == before
    get_searches(organizer_client, world, value[:2000])


def tournament_form(**changes):
    """The settings form as the world's tournament has them (public page on), with `changes`."""
    return tournament_form_data(**{"public": "on", "time_limit_minutes": "30", **changes})


def harmless(text: str) -> bool:
    return unicodedata.is_normalized("NFC", text) and not any(forbidden(ch) for ch in text)


@pytest.mark.parametrize("raw", DATA["text_stored"], ids=ids(DATA["text_stored"]))
def test_accepted_text_is_stored_cleaned_and_shown_escaped(world, organizer_client, raw):
    value = expand(raw)
    expected = unicodedata.normalize("NFC", value).strip()
    no_500(organizer_client.post(t(world, "players/add/"), player_data(first_name=value, club=value)), "add")
    player = Player.objects.get(last_name="Neu")
    assert player.first_name == expected and harmless(player.first_name)
    assert player.club.name == " ".join(expected.split())
    no_500(organizer_client.post(t(world, "settings/"), tournament_form(venue=value)), "settings")
    world.tournament.refresh_from_db()
    assert world.tournament.venue == expected
    page = organizer_client.get(t(world, "players/")).content.decode()
    assert "<script>alert(1)</script>" not in page
    export = no_500(organizer_client.get(t(world, "standings/export/"), {"format": "xlsx"}), "xlsx")
    assert export.status_code == 200
    get_searches(organizer_client, world, value)


@pytest.mark.parametrize("raw", DATA["numbers"], ids=ids(DATA["numbers"]))
def test_bad_numbers_are_refused_everywhere_and_change_nothing(world, organizer_client, raw):
    value = expand(raw)
    before = dump()
    for url, data, shows in (
        (t(world, "players/add/"), player_data(birth_year=value), FORM_ERROR),
        (t(world, "settings/"), tournament_form(rounds_total=value), FORM_ERROR),
        (t(world, "settings/"), tournament_form(end_rule="threshold", threshold=value), FORM_ERROR),
        (t(world, "rounds/2/clock/start/"), {"minutes": value}, None),
        (t(world, "rounds/seat/"), {"seed": value}, None),
        (t(world, "players/add/"), {"known_player": value}, None),
        (result_url(world), organizer_result(world, points=value, count=value), RESULT_ERROR),
        (world.waiting_table.get_captain_url(), report(world, cards="", points=value), FORM_ERROR),
    ):
        response = no_500(organizer_client.post(url, data), url)
        if shows and value.strip():
            assert shows in response.content.decode(), (url, value[:30])
    assert dump() == before
    get_searches(organizer_client, world, value, numbers=True)
    certificates = f"/print/{world.tournament.pk}/certificates.pdf"
    pdf = no_500(organizer_client.get(certificates, {"top": value}), "top")
    assert pdf.status_code == 400


@pytest.mark.parametrize("raw", DATA["notation"], ids=ids(DATA["notation"]))
def test_bad_notation_is_refused_next_to_its_row_and_stores_nothing(world, organizer_client, raw):
    value = expand(raw)
    before = dump()
    captain = Client()
    link = world.waiting_table.get_captain_url()
    response = no_500(captain.post(link, report(world, cards=value)), "captain")
    page = response.content.decode()
    # Next to its row, or (a hand that breaks the deck together with the others') in the page's alert.
    assert response.status_code in (200, 422) and ("errorlist" in page or 'class="alert-errors"' in page)
    result = no_500(organizer_client.post(result_url(world), organizer_result(world, cards=value)), "desk")
    assert result.status_code == 422 and RESULT_ERROR in result.content.decode()
    hand = no_500(captain.get(f"/t/{world.waiting_table.token}/hand/", {"cards": value}), "hand")
    assert hand.status_code == 200
    assert dump() == before


@pytest.mark.parametrize("raw", DATA["tokens"], ids=ids(DATA["tokens"]))
def test_wrong_tokens_are_404_and_change_nothing(world, raw):
    value = expand(raw)
    before = dump()
    client = Client()
    for path in (f"/t/{quote(value, safe='')}/", f"/t/{quote(value, safe='')}/hand/"):
        assert no_500(client.get(path), path).status_code == 404
        assert no_500(client.post(path, {"idempotency_key": "k"}), path).status_code in (404, 405)
    assert dump() == before


def xlsx_bytes(spec) -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    for row in spec["rows"]:
        sheet.append(row)
    for i in range(spec.get("numbered_rows", 0)):
        sheet.append([f"V{i}", f"N{i}"])
    if "far_cell" in spec:
        sheet.cell(row=spec["far_cell"], column=1, value="x")
    buffer = io.BytesIO()
    workbook.save(buffer)
    data = buffer.getvalue()
    if spec.get("broken_number"):
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(data)) as source, zipfile.ZipFile(out, "w") as target:
            for item in source.infolist():
                content = source.read(item.filename)
                if item.filename == "xl/worksheets/sheet1.xml":
                    cell = rb'<c r="C2"( t="n")?><v>1970</v></c>'
                    content = re.sub(cell, b'<c r="C2" t="n"><v>x</v></c>', content)
                target.writestr(item, content)
        data = out.getvalue()
    return data


FILES = DATA["csv"] + DATA["xlsx"]


@pytest.mark.parametrize("spec", FILES, ids=[spec["id"] for spec in FILES])
def test_bad_files_get_a_clear_preview_and_store_nothing(world, organizer_client, spec):
    if "content" in spec:
        upload = SimpleUploadedFile("players.csv", expand(spec["content"]).encode("utf-8"))
    else:
        upload = SimpleUploadedFile("players.xlsx", xlsx_bytes(spec))
    before = dump()
    response = no_500(organizer_client.post(t(world, "players/import/"), {"file": upload}), spec["id"])
    assert response.status_code == 200
    assert spec["shows"] in response.content.decode(), spec["id"]
    assert dump() == before
    assert Tournament.objects.count() == len(before["Tournament"])
