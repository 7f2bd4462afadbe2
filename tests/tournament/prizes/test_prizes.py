"""Prize money over real standings: settings form, the list, the final standings PDF and the projector."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tests.factories import play_round, winner_report
from tournament.audit.actions import AuditAction
from tournament.cashdesk.services import payment_record
from tournament.models import AuditEntry
from tournament.prizes.selectors import prize_list
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db

SETTINGS = {
    "entry_fee": "10", "payout_percent": "80", "prize_kind": "percent", "prize_table": "50/30/20",
    "shared_places": "split", "goods_prizes": "UNO deck\nMug\n", "overrides": "",
}


@pytest.fixture
def finished(tournament, organizer, players):
    tournament.rounds_total = 2
    tournament.public = True
    tournament.save()
    for reg in players:
        payment_record(registration=reg, user=organizer, amount_cents=1000, method="cash")
    # Standings with a shared first place, whatever the seating (which
    # test_prize_list_on_final_standings_pdf_and_projector splits): two winners of round 1 who sit at
    # different tables in round 2 go out again; `third` keeps 1 point in both rounds, everybody else more.
    third = players[-1].pk
    keeps = {reg.pk: 20 + index for index, reg in enumerate(players)} | {third: 1}
    first_round: set[int] = set()
    again: list[int] = []

    def round_one(table):
        winner = min(set(table.seats.values_list("registration_id", flat=True)) - {third})
        first_round.add(winner)
        return winner_report(table, winner, keeps.get)

    def round_two(table):
        seated = set(table.seats.values_list("registration_id", flat=True))
        if seated & first_round and len(again) < 2:
            again.append(min(seated & first_round))
            return winner_report(table, again[-1], keeps.get)
        return winner_report(table, min(seated - first_round - {third}), keeps.get)

    play_round(tournament, organizer, seed=3, report=round_one)
    play_round(tournament, organizer, seed=1, report=round_two)
    assert len(again) == 2, "the winners of round 1 sit at one table in round 2"
    return tournament


def test_settings_saved_and_prize_list_follows_the_standings(organizer_client, finished):
    url = reverse("organizer:prizes", args=[finished.pk])
    assert organizer_client.post(url, SETTINGS).status_code == 302
    finished.refresh_from_db()
    assert finished.entry_fee_cents == 1000 and finished.prize_table == [50, 30, 20]
    assert finished.goods_prizes == ["UNO deck", "Mug"]
    assert AuditEntry.objects.filter(action=AuditAction.PRIZES_UPDATE).count() == 1
    _rounds, lines = standings(finished)
    prizes = prize_list(finished, lines)
    assert prizes.paying == 12 and prizes.pot_cents == 9600  # 12 x 10 EUR x 80 %
    assert all(row.amount_cents % 100 == 0 for row in prizes.rows)
    assert prizes.paid_cents + prizes.remainder_cents == 9600
    first = prizes.rows[0]
    assert first.place == 1 and first.goods == "UNO deck"
    page = organizer_client.get(url).content.decode()
    assert "96.00 €" in page and first.name in page


def test_override_replaces_an_amount(organizer_client, finished):
    _rounds, lines = standings(finished)
    winner = lines[0].registration
    organizer_client.post(reverse("organizer:prizes", args=[finished.pk]),
                          {**SETTINGS, "overrides": f"{winner.start_number}=40"})
    finished.refresh_from_db()
    prizes = prize_list(finished, standings(finished)[1])
    assert next(row for row in prizes.rows if row.start_number == winner.start_number).amount_cents == 4000


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("entry_fee", "-1", "greater than or equal to 0"),
        ("entry_fee", "ten", "Enter an amount in euros, e.g."),
        ("entry_fee", "8,505", "At most two decimals (cents)"),
        ("payout_percent", "101", "less than or equal to 100"),
        ("prize_table", "50/30/x", "Enter whole numbers separated by /"),
        ("prize_table", "60/50", "The percentages add up to more than 100."),
        ("prize_kind", "lottery", "Select a valid choice."),
        ("shared_places", "coin", "Select a valid choice."),
        ("overrides", "12 thirty", "start number=euros"),
        ("overrides", "999=30", "There is no player with start number 999."),
        ("goods_prizes", "x" * 121, "up to 120 characters"),
        ("pot_basis", "hopes", "Select a valid choice."),
    ],
)
def test_bad_prize_settings_change_nothing(organizer_client, tournament, players, field, value, message):
    url = reverse("organizer:prizes", args=[tournament.pk])
    response = organizer_client.post(url, {**SETTINGS, field: value})
    assert response.status_code == 400 and message in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.entry_fee_cents == 0 and tournament.prize_table == []
    assert not AuditEntry.objects.filter(action=AuditAction.PRIZES_UPDATE).exists()


def test_prize_list_on_final_standings_pdf_and_projector(organizer_client, finished):
    organizer_client.post(reverse("organizer:prizes", args=[finished.pk]), SETTINGS)
    finished.refresh_from_db()
    # These standings share first place: the two winners split 50 % + 30 % of 96 EUR.
    lines = standings(finished)[1]
    assert [line.row.rank for line in lines[:3]] == [1, 1, 3]
    rows = prize_list(finished, lines).rows
    assert [(row.place, row.amount_cents) for row in rows[:3]] == [(1, 3800), (1, 3800), (3, 1900)]
    pdf = organizer_client.get(reverse("print:standings", args=[finished.pk]))
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "Prize list" in text and "UNO deck" in text and "38.00 €" in text and "19.00 €" in text
    assert "Prize pot 96.00 € from the entry fees collected (120.00 €); remainder 1.00 €." in text
    slide = organizer_client.get(reverse("public:projector", args=[finished.pk]) + "?show=prizes")
    page = slide.content.decode()
    assert 'data-slide="prizes"' in page and "38.00 €" in page and "UNO deck" in page


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize(("typed", "cents"), [("8,50", 850), ("8.50", 850), ("12,5", 1250), ("10", 1000)])
def test_entry_fee_with_comma_or_point_in_either_language(organizer_client, tournament, language, typed,
                                                          cents):
    url = reverse("organizer:prizes", args=[tournament.pk])
    response = organizer_client.post(url, {**SETTINGS, "entry_fee": typed}, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.entry_fee_cents == cents


@pytest.mark.parametrize(("language", "shown"), [("de", 'value="8,50"'), ("en", 'value="8.50"')])
def test_entry_fee_shown_in_the_pages_language_saves_unchanged(organizer_client, tournament, language, shown):
    tournament.entry_fee_cents = 850
    tournament.save()
    url = reverse("organizer:prizes", args=[tournament.pk])
    page = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert shown in page.split('name="entry_fee"', 1)[1][:200]
    typed = shown.removeprefix('value="').removesuffix('"')
    organizer_client.post(url, {**SETTINGS, "entry_fee": typed}, HTTP_ACCEPT_LANGUAGE=language)
    tournament.refresh_from_db()
    assert tournament.entry_fee_cents == 850


def test_the_pot_follows_the_fees_collected_or_the_nominal_fee(organizer_client, finished):
    """Issue #42, 8: two players paid less (5 € and nothing): by default the pot is 80 % of what was
    taken; switched to the nominal fee it is 80 % of 10 € times the paying players; the page shows both."""
    from tournament.models import Payment

    paid = list(Payment.objects.filter(tournament=finished).order_by("pk"))
    Payment.objects.filter(pk=paid[0].pk).update(amount_cents=500, reason="Jugend")
    Payment.objects.filter(pk=paid[1].pk).update(amount_cents=0, reason="Ehrenmitglied")
    url = reverse("organizer:prizes", args=[finished.pk])
    organizer_client.post(url, SETTINGS)
    finished.refresh_from_db()
    assert finished.pot_basis == "collected"
    prizes = prize_list(finished, standings(finished)[1])
    # 10 players paid 10 €, one 5 €, one nothing: 105 € taken, 11 paying.
    assert (prizes.collected_cents, prizes.paying) == (10500, 11)
    assert (prizes.pot_cents, prizes.collected_pot_cents, prizes.nominal_pot_cents) == (8400, 8400, 8800)
    page = organizer_client.get(url).content.decode()
    assert "entry fees actually collected (105.00 €): 84.00 €" in page and "it would be 88.00 €" in page
    organizer_client.post(url, {**SETTINGS, "pot_basis": "nominal"})
    finished.refresh_from_db()
    prizes = prize_list(finished, standings(finished)[1])
    assert finished.pot_basis == "nominal" and prizes.pot_cents == 8800
    page = organizer_client.get(url).content.decode()
    assert "fee times the paying players: 88.00 €" in page and "it would be 84.00 €" in page
    assert AuditEntry.objects.filter(action=AuditAction.PRIZES_UPDATE).count() == 2
