"""A fee reduced or waived at the desk with a reason is documented, not a shortfall (#51 point 20)."""

import pytest

from tests.factories import RegistrationFactory, TournamentFactory
from tournament.cashdesk.selectors import cash_report
from tournament.cashdesk.services import payment_record

pytestmark = pytest.mark.django_db


def test_a_documented_reduction_is_no_shortfall(organizer):
    tournament = TournamentFactory(organizers=[organizer], entry_fee_cents=800)
    full, reduced, waived, short = (RegistrationFactory(tournament=tournament) for _ in range(4))
    payment_record(registration=full, user=organizer, amount_cents=800, method="cash")
    payment_record(registration=reduced, user=organizer, amount_cents=400, method="cash", reason="Schüler")
    payment_record(registration=waived, user=organizer, amount_cents=0, method="cash", reason="Ehrenmitglied")
    payment_record(registration=short, user=organizer, amount_cents=800, method="cash")
    report = cash_report(tournament)
    assert (report.expected_cents, report.reduced_cents, report.due_cents) == (3200, 1200, 2000)
    assert (report.collected_cents, report.difference_cents) == (2000, 0)


def test_the_cash_report_csv_names_the_reduction(organizer_client, organizer):
    from django.urls import reverse

    tournament = TournamentFactory(organizers=[organizer], entry_fee_cents=800)
    payment_record(registration=RegistrationFactory(tournament=tournament), user=organizer, amount_cents=400,
                   method="cash", reason="Schüler")
    text = organizer_client.get(reverse("organizer:cash_report_csv", args=[tournament.pk])).content.decode()
    lines = [line.strip() for line in text.splitlines()]
    assert any(line.startswith("Reduced or waived with a reason") and "-4" in line for line in lines)
    difference = next(line for line in lines if line.startswith("Difference"))
    assert difference.rstrip(";,").endswith(("0.00", "0,00"))
