"""Start cards: four A6 cards per A4 page, each player's table and seat in every planned round."""

import io
import math
from urllib.parse import quote

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import RegistrationFactory, UserFactory
from tournament.models import Seat
from tournament.players.services import registration_withdraw
from tournament.rounds.selectors import seating_plan
from tournament.rounds.services import round_publish, round_seat, round_swap, seating_plan_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def planned(tournament, players, organizer):
    """Fourteen players (tables of 4, 4, 3, 3), every round planned."""
    for number in (13, 14):
        RegistrationFactory(tournament=tournament, start_number=number, player__club__name="")
    tournament.plan_all_rounds = True
    tournament.save()
    seating_plan_create(tournament=tournament, user=organizer, seed=21)
    tournament.refresh_from_db()
    return tournament


def card_lines(content: bytes) -> list[list[list[str]]]:
    """Per card (pages in order; top left, top right, bottom left, bottom right): lines of words.

    Words are placed by their position on the page, so the four cards of a page stay apart.
    """
    cards = []
    for page in PdfReader(io.BytesIO(content)).pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        words: dict[int, list[tuple[float, float, str]]] = {0: [], 1: [], 2: [], 3: []}

        def visit(text, cm, tm, _font, _size, words=words, width=width, height=height):
            if not text.strip():
                return
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            quadrant = (0 if y > height / 2 else 2) + (0 if x < width / 2 else 1)
            words[quadrant].append((y, x, text.strip()))

        page.extract_text(visitor_text=visit)
        for quadrant in range(4):
            lines: list[list[tuple[float, str]]] = []
            last_y = None
            for y, x, text in sorted(words[quadrant], key=lambda w: (-w[0], w[1])):
                if last_y is None or last_y - y > 5:
                    lines.append([])
                lines[-1].append((x, text))
                last_y = y
            if lines:
                cards.append([[t for _x, t in sorted(line)] for line in lines])
    return cards


def rows_of(lines: list[list[str]]) -> dict[int, tuple[int, int]]:
    """round -> (table, seat) from the lines that are three numbers."""
    rows = {}
    for line in lines:
        parts = " ".join(line).split()
        if len(parts) == 3 and all(p.isdigit() for p in parts):
            rows[int(parts[0])] = (int(parts[1]), int(parts[2]))
    return rows


def expected_rows(tournament, reg_id: int) -> dict[int, tuple[int, int]]:
    rows = {}
    for number, tables in seating_plan(tournament).numbered_rounds().items():
        for table_no, table in enumerate(tables, start=1):
            if reg_id in table:
                rows[int(number)] = (table_no, table.index(reg_id) + 1)
    return rows


def get_pdf(client, tournament) -> bytes:
    response = client.get(reverse("print:start_cards", args=[tournament.pk]))
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{tournament.name} - Start cards.pdf"; ' + (
        f"filename*=utf-8''{quote(tournament.name)}%20%E2%80%93%20Start%20cards.pdf"
    )
    return response.content


def test_one_card_per_player_with_table_and_seat_in_rounds_one_to_six(organizer_client, planned):
    content = get_pdf(organizer_client, planned)
    registrations = list(planned.registrations.select_related("player__club").order_by("start_number"))
    assert len(PdfReader(io.BytesIO(content)).pages) == math.ceil(len(registrations) / 4) == 4
    cards = card_lines(content)
    assert len(cards) == 14
    for reg, lines in zip(registrations, cards, strict=True):
        text = " ".join(" ".join(line) for line in lines)
        assert reg.player.name in text and str(reg.start_number) in text
        if reg.player.club_name:
            assert reg.player.club_name in text
        rows = rows_of(lines)
        assert sorted(rows) == [1, 2, 3, 4, 5, 6]
        assert rows == expected_rows(planned, reg.pk)
    # Tables of 4, 4, 3, 3 in every round: four tables, seats 1 to 4.
    all_rows = [row for lines in cards for row in rows_of(lines).values()]
    assert {table for table, _seat in all_rows} == {1, 2, 3, 4}
    assert {seat for _table, seat in all_rows} == {1, 2, 3, 4}


def test_a_seated_round_shows_the_seating_made_by_hand(organizer_client, planned, organizer):
    round_ = round_seat(tournament=planned, user=organizer, seed=1)
    a = Seat.objects.get(round=round_, table__number=1, position=1)
    b = Seat.objects.get(round=round_, table__number=2, position=2)
    round_swap(round_=round_, user=organizer, first=a, second=b)
    cards = card_lines(get_pdf(organizer_client, planned))
    numbers = planned.registrations.order_by("start_number").values_list("start_number", flat=True)
    by_number = {number: rows_of(lines) for number, lines in zip(numbers, cards, strict=True)}
    moved = {a.registration.start_number: (2, 2), b.registration.start_number: (1, 1)}
    for start_number, place in moved.items():
        assert by_number[start_number][1] == place


def test_after_a_replan_cards_cover_who_plays_on(organizer_client, planned, organizer, players):
    """Round 1 as seated, rounds 2-6 as re-planned; the late player's card: dashes in round 1."""
    first = round_seat(tournament=planned, user=organizer, seed=1)
    round_publish(round_=first, user=organizer)
    registration_withdraw(registration=players[0], user=organizer)
    late = RegistrationFactory(tournament=planned, start_number=15, player__first_name="Lotte")
    seating_plan_create(tournament=planned, user=organizer, seed=2)
    planned.refresh_from_db()
    content = get_pdf(organizer_client, planned)
    cards = card_lines(content)
    assert len(cards) == 14 and len(PdfReader(io.BytesIO(content)).pages) == 4
    texts = [" ".join(map(" ".join, lines)) for lines in cards]
    assert not any(players[0].player.name in text for text in texts)
    assert late.player.name in texts[-1] and "\u2013 \u2013" in texts[-1]
    late_rows = rows_of(cards[-1])
    assert sorted(late_rows) == [2, 3, 4, 5, 6] and late_rows == expected_rows(planned, late.pk)
    seat = Seat.objects.get(round=first, registration=players[1])
    assert rows_of(cards[0])[1] == (seat.table.number, seat.position)


def test_without_a_plan_the_print_page_offers_no_start_cards(organizer_client, tournament, players):
    url = reverse("print:start_cards", args=[tournament.pk])
    response = organizer_client.get(url)
    documents = reverse("print:documents", args=[tournament.pk])
    assert response.status_code == 302 and response["Location"] == documents
    page = organizer_client.get(documents).content.decode()
    assert url not in page and "Start cards" not in page


def test_print_page_offers_start_cards_and_warns_when_out_of_date(organizer_client, planned, organizer):
    url = reverse("print:start_cards", args=[planned.pk])
    page = organizer_client.get(reverse("print:documents", args=[planned.pk])).content.decode()
    assert url in page and "One card for each of 14 players" in page
    assert "plan all rounds again" not in page
    RegistrationFactory(tournament=planned, start_number=15)
    page = organizer_client.get(reverse("print:documents", args=[planned.pk])).content.decode()
    assert "plan all rounds again on the Rounds page before printing" in page


def test_only_the_tournaments_organizers_may_print_start_cards(client, planned):
    url = reverse("print:start_cards", args=[planned.pk])
    response = client.get(url)
    assert response.status_code == 302 and "login" in response["Location"]
    client.force_login(UserFactory(username="someone-else"))
    assert client.get(url).status_code == 403


def test_start_cards_read_only_local_files(organizer_client, planned, monkeypatch):
    import socket

    from engine import printing as engine_printing

    def refuse(self, address):
        raise AssertionError(f"network while printing: {address}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    fetchers = []
    original = engine_printing.LocalFileFetcher

    class Recording(original):
        def __init__(self, roots):
            super().__init__(roots)
            fetchers.append(self)

    monkeypatch.setattr(engine_printing, "LocalFileFetcher", Recording)
    get_pdf(organizer_client, planned)
    assert [fetcher.refused for fetcher in fetchers] == [[]]
    assert any(url.endswith("/css/print.css") for url in fetchers[0].served)
