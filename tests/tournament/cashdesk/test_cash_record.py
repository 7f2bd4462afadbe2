"""Issue #42, 7: the cash record the treasurer signs (PDF and CSV): the float, every payment with who
took it and when, reduced and waived fees with their reason, the prizes by place marked when handed
over, expected and counted cash with the difference explained, signature lines."""

import csv
import datetime
import io
import shutil
import subprocess
from decimal import Decimal

import pytest
from django import forms
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from tests.factories import PlayerFactory, RegistrationFactory, TournamentFactory, UserFactory, play_round
from tests.tournament.documents.pdfwords import problems
from tournament.audit.actions import AuditAction
from tournament.cashdesk.selectors import cash_record
from tournament.cashdesk.services import cash_update, payment_record, prize_hand_over
from tournament.models import AuditEntry, Payment, PrizeHandover, Tournament
from tournament.prizes.selectors import prize_list
from tournament.standings.selectors import standings

pytestmark = pytest.mark.django_db

EVENING = datetime.date(2026, 3, 14)


@pytest.fixture
def evening(organizer):
    """20 players, 8 € entry fee: 12 paid cash, 6 by transfer, one paid 4 € (youth), one nothing
    (honorary member); 2 rounds played; 80 % paid out 50/30/20, two goods prizes; float 50 €."""
    helper = UserFactory(username="kasse")
    tournament = TournamentFactory(
        organizers=[organizer, helper], name="Frühjahrsturnier", date=EVENING, rounds_total=2,
        entry_fee_cents=800, payout_percent=80, prize_table=[50, 30, 20], goods_prizes=["UNO-Spiel", "Tasse"],
        cash_float_cents=5000,
    )
    regs = [
        RegistrationFactory(tournament=tournament, start_number=n, status="checked_in",
                            player=PlayerFactory(first_name=f"Person{n:02d}", last_name="Muster"))
        for n in range(1, 21)
    ]
    for index, reg in enumerate(regs):
        if index == 18:
            amount, reason = 400, "Jugend"
        elif index == 19:
            amount, reason = 0, "Ehrenmitglied"
        else:
            amount, reason = 800, ""
        payment_record(registration=reg, user=helper if index % 2 else organizer, amount_cents=amount,
                       method="cash" if index < 12 or index >= 18 else "transfer", reason=reason)
    for number in (1, 2):
        play_round(tournament, organizer, seed=number)
    return tournament


def test_the_record_of_a_whole_evening(evening, organizer):
    record = cash_record(evening)
    assert len(record.payments) == 20
    assert [(label, count, cents) for label, count, cents in record.by_method] == [
        ("cash", 14, 12 * 800 + 400), ("transfer", 6, 6 * 800),
    ]
    reduced = [(r.name.split()[0], r.payment.amount_cents, r.payment.reason, r.waived)
               for r in record.reduced]
    assert reduced == [("Person19", 400, "Jugend", False), ("Person20", 0, "Ehrenmitglied", True)]
    assert {r.taken_by for r in record.payments} == {"orga", "kasse"}
    # Pot: 80 % of the 148 € taken = 118.40 €, 50/30/20 in whole euros (59, 35, 23 without a tie; the
    # results follow the database's ids, so places may be shared and their prizes split): the record's
    # prizes are the prize list's.
    prizes = prize_list(evening, standings(evening)[1]).rows
    assert [(p.place, p.amount_cents, p.goods) for p in record.prizes] == [
        (row.place, row.amount_cents, row.goods) for row in prizes
    ]
    paid_out = sum(p.amount_cents for p in record.prizes)
    assert 11500 <= paid_out <= 11840 and record.prizes[0].goods == "UNO-Spiel"
    assert record.final and record.paid_out_cents == 0
    assert record.expected_cents == 5000 + 10000  # float + cash taken
    for prize in record.prizes:
        prize_hand_over(tournament=evening, user=organizer, registration=evening.registrations.get(
            pk=prize.registration_id))
    record = cash_record(evening)
    assert record.paid_out_cents == paid_out and all(p.handover for p in record.prizes)
    assert record.expected_cents == 5000 + 10000 - paid_out
    cash_update(tournament=evening, user=organizer, float_cents=5000, counted_cents=15000 - paid_out - 50,
                note="Wechselgeld 1 € für Getränke entnommen")
    record = cash_record(evening)
    assert (record.counted_cents, record.difference_cents) == (15000 - paid_out - 50, -50)
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {AuditAction.PRIZE_HANDOVER, AuditAction.CASH_UPDATE} <= actions


def everything_handed_over(tournament, organizer):
    """Every prize handed over, the till counted 50 cents short."""
    for prize in cash_record(tournament).prizes:
        prize_hand_over(tournament=tournament, user=organizer,
                        registration=tournament.registrations.get(pk=prize.registration_id))
    cash_update(tournament=tournament, user=organizer, float_cents=5000,
                counted_cents=cash_record(tournament).expected_cents - 50,
                note="1 € Wechselgeld für Getränke entnommen")
    return cash_record(tournament)


def german_euros(cents: int) -> str:
    return f"{cents // 100},{cents % 100:02d} €"


def test_the_pdf_is_signed_on_one_page_and_every_word_is_inside(
    organizer_client, evening, organizer, tmp_path,
):
    record = everything_handed_over(evening, organizer)
    url = reverse("print:cash_record", args=[evening.pk])
    response = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == (
        'inline; filename="Fruehjahrsturnier - Kassenabrechnung 2026-03-14.pdf"; '
        "filename*=utf-8''Fr%C3%BChjahrsturnier%20%E2%80%93%20Kassenabrechnung%202026-03-14.pdf"
    )
    pdf = response.content
    assert problems(pdf, tmp_path) == []
    assert len(PdfReader(io.BytesIO(pdf)).pages) == 1  # 20 payments, 3 prizes and the signatures
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for expected in ("Kassenabrechnung", "Wechselgeld zu Beginn", "50,00 €", "Jugend", "Ehrenmitglied",
                     "erlassen", "ermäßigt", "UNO-Spiel", "Tasse", "-0,50 €",
                     german_euros(record.prizes[0].amount_cents), german_euros(record.counted_cents),
                     "1 € Wechselgeld für Getränke entnommen", "Kassenwart", "kasse"):
        assert expected in text, expected
    if shutil.which("pdftoppm"):
        (tmp_path / "cash.pdf").write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "60", "-png", str(tmp_path / "cash.pdf"), "/tmp/cash-record"],
                       check=True)


def test_the_csv_opens_in_a_german_excel_and_round_trips(organizer_client, evening, organizer):
    handed_over = everything_handed_over(evening, organizer)
    Payment.objects.filter(tournament=evening).update(
        created_at=datetime.datetime(2026, 3, 14, 18, 5, tzinfo=datetime.UTC)
    )
    response = organizer_client.get(reverse("organizer:cash_record_csv", args=[evening.pk]),
                                    HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"] == (
        'attachment; filename="Fruehjahrsturnier - Kassenabrechnung 2026-03-14.csv"; '
        "filename*=utf-8''Fr%C3%BChjahrsturnier%20%E2%80%93%20Kassenabrechnung%202026-03-14.csv"
    )
    assert response.content.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig")), delimiter=";"))
    german = forms.DecimalField(localize=True, decimal_places=2)

    def amount(text):
        with translation.override("de"):
            return german.clean(text)

    record = cash_record(evening)
    payments = [row for row in rows if len(row) == 7 and ":" in row[0]]
    assert len(payments) == 20
    assert payments[0][0] == "14.03.2026 19:05"  # 18:05 UTC on the hall's clock
    assert sorted(amount(row[3]) for row in payments) == sorted(
        Decimal(p.payment.amount_cents) / 100 for p in record.payments
    )
    assert {row[6] for row in payments} == {"", "Jugend", "Ehrenmitglied"}
    figures = {row[0]: row[1] for row in rows if len(row) == 2}
    assert amount(figures["Wechselgeld zu Beginn"]) == Decimal("50.00")
    assert amount(figures["Erwartetes Bargeld"]) == Decimal(handed_over.expected_cents) / 100
    assert amount(figures["Gezähltes Bargeld"]) == Decimal(handed_over.expected_cents - 50) / 100
    assert amount(figures["Differenz"]) == Decimal("-0.50")
    assert figures["Differenz"] == "-0,50"  # a number, not text behind an apostrophe
    prizes = [row for row in rows if len(row) == 7 and row[0].isdigit()]
    assert [(row[0], amount(row[3]), row[4]) for row in prizes] == [
        (str(p.place), Decimal(p.amount_cents) / 100, p.goods) for p in record.prizes
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"float_amount": "-5"}, "greater than or equal to 0"),
        ({"float_amount": "fünfzig"}, "Enter an amount in euros"),
        ({"float_amount": ""}, "This field is required."),
        ({"counted": "1.000,00"}, "Enter an amount in euros"),
        ({"counted": "100000,01"}, "less than or equal to 100000"),
        ({"note": "x" * 501}, "at most 500 characters"),
        ({"note": "Kasse\x1b[2J"}, "Control characters"),
        ({"counted": "10"}, "please explain the difference"),
    ],
)
def test_bad_cash_figures_get_a_clear_error_and_change_nothing(organizer_client, evening, data, message):
    before = Tournament.objects.filter(pk=evening.pk).values(
        "cash_float_cents", "cash_counted_cents", "cash_note").get()
    audits = AuditEntry.objects.count()
    response = organizer_client.post(reverse("organizer:cash_record", args=[evening.pk]),
                                     {"float_amount": "50", "counted": "", "note": "", **data})
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert Tournament.objects.filter(pk=evening.pk).values(
        "cash_float_cents", "cash_counted_cents", "cash_note").get() == before
    assert AuditEntry.objects.count() == audits


def test_the_float_and_count_are_saved_from_the_page(organizer_client, evening):
    url = reverse("organizer:cash_record", args=[evening.pk])
    response = organizer_client.post(url, {"float_amount": "60,00", "counted": "160", "note": ""})
    assert response.status_code == 302
    evening.refresh_from_db()
    assert (evening.cash_float_cents, evening.cash_counted_cents) == (6000, 16000)
    page = organizer_client.get(url).content.decode()
    assert 'id="cash-expected">160.00 €' in page and 'id="cash-difference">0.00 €' in page
    assert reverse("print:cash_record", args=[evening.pk]) in organizer_client.get(
        reverse("print:documents", args=[evening.pk])).content.decode()


def test_payout_marks_refused_with_a_clear_message(organizer_client, evening):
    record = cash_record(evening)
    first = record.prizes[0].registration_id
    url = reverse("organizer:prize_handover", args=[evening.pk, first])
    organizer_client.post(url)
    again = organizer_client.post(url, follow=True).content.decode()
    assert "is already marked as handed over" in again
    winners = {p.registration_id for p in record.prizes}
    no_prize = next(r.pk for r in evening.registrations.all() if r.pk not in winners)
    response = organizer_client.post(
        reverse("organizer:prize_handover", args=[evening.pk, no_prize]), follow=True
    )
    assert "has no prize." in response.content.decode()
    other = TournamentFactory()
    foreign = RegistrationFactory(tournament=other)
    foreign_url = reverse("organizer:prize_handover", args=[evening.pk, foreign.pk])
    assert organizer_client.post(foreign_url).status_code == 404
    organizer_client.post(url, {"undo": "1"})
    undone = organizer_client.post(url, {"undo": "1"}, follow=True).content.decode()
    assert "is not marked as handed over" in undone
    assert PrizeHandover.objects.count() == 0
    Tournament.objects.filter(pk=evening.pk).update(rounds_total=3)  # round 3 still to come
    running = organizer_client.post(url, follow=True).content.decode()
    assert "once the tournament is finished" in running and PrizeHandover.objects.count() == 0


@pytest.mark.parametrize(("reason", "message"), [("x" * 201, "at most 200 characters"),
                                                ("Jugend\x00", "Control characters")])
def test_a_bad_reason_at_the_door_changes_nothing(organizer_client, organizer, reason, message):
    tournament = TournamentFactory(organizers=[organizer], entry_fee_cents=800)
    reg = RegistrationFactory(tournament=tournament, status="checked_in")
    response = organizer_client.post(
        reverse("organizer:door_pay", args=[tournament.pk, reg.pk]),
        {"amount": "4", "method": "cash", "paid": "on", "reason": reason}, follow=True,
    )
    assert message in response.content.decode()
    assert not Payment.objects.exists()
