"""The cash report as CSV: expected against collected, by method, and who has not paid (formula-safe,
like every export: tournament.spreadsheets)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from tournament.spreadsheets import csv_bytes

from .selectors import CashReport


def cash_report_csv(report: CashReport) -> bytes:
    def money(cents: int) -> Decimal:
        return Decimal(cents).scaleb(-2)  # a number in the spreadsheet, e.g. -11.00

    rows: list[list[Any]] = [
        [_("Entry fee"), money(report.fee_cents)],
        [_("Players"), report.players],
        [_("Expected"), money(report.expected_cents)],
        [],
        [_("Payment method"), _("Payments"), _("Collected")],
        *([label, count, money(cents)] for label, count, cents in report.by_method),
        [_("Total"), sum(count for _label, count, _cents in report.by_method), money(report.collected_cents)],
        [_("Difference"), "", money(report.difference_cents)],
    ]
    if report.unpaid:
        rows += [[], [_("Not paid"), _("Start number")]]
        rows += [[reg.player.name, reg.start_number] for reg in report.unpaid]
    return csv_bytes(rows)
