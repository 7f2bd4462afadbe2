"""The cash report as CSV: expected against collected, by method, and who has not paid (formula-safe,
like every export: tournament.spreadsheets)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _

from tournament.spreadsheets import csv_bytes

from .selectors import CashRecord, CashReport


def cash_report_csv(report: CashReport) -> bytes:
    def money(cents: int) -> Decimal:
        return Decimal(cents).scaleb(-2)  # a number in the spreadsheet, e.g. -11.00

    rows: list[list[Any]] = [
        [_("Entry fee"), money(report.fee_cents)],
        [_("Players"), report.players],
        [_("Expected"), money(report.expected_cents)],
        *([
            [_("Reduced or waived with a reason"), money(-report.reduced_cents)],
            [_("Due"), money(report.due_cents)],
        ] if report.reduced_cents else []),
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


def cash_record_csv(record: CashRecord) -> bytes:
    """The cash record for a German Excel: `;`, amounts with a decimal comma as numbers, UTF-8 with BOM;
    times on the hall's clock."""
    from django.utils import timezone

    from tournament.spreadsheets import DecimalComma

    def money(cents: int | None) -> DecimalComma | None:
        return None if cents is None else DecimalComma(Decimal(cents).scaleb(-2))  # 850 → "8,50"

    tournament = record.tournament
    rows: list[list[Any]] = [
        [_("Cash record"), tournament.name, f"{tournament.date:%d.%m.%Y}"],
        [],
        [_("Opening float"), money(record.float_cents)],
        [],
        [_("Time"), _("No."), _("Name"), _("Amount"), _("Payment method"), _("Taken by"), _("Reason")],
    ]
    for row in record.payments:
        payment = row.payment
        rows.append([
            f"{timezone.localtime(payment.created_at):%d.%m.%Y %H:%M}", row.start_number, row.name,
            money(payment.amount_cents), payment.get_method_display(), row.taken_by, payment.reason,
        ])
    rows += [[], [_("Payment method"), _("Payments"), _("Collected")]]
    rows += [[label, count, money(cents)] for label, count, cents in record.by_method]
    rows.append([_("Total"), sum(count for _l, count, _c in record.by_method), money(record.collected_cents)])
    rows += [[], [_("Place"), _("No."), _("Name"), _("Prize money"), _("Goods prize"), _("Handed over"),
                  _("By")]]
    for prize in record.prizes:
        handed = prize.handover
        rows.append([
            prize.place, prize.start_number, prize.name, money(prize.amount_cents), prize.goods,
            f"{timezone.localtime(handed.created_at):%d.%m.%Y %H:%M}" if handed else _("no"), prize.handed_by,
        ])
    rows += [
        [],
        [_("Opening float"), money(record.float_cents)],
        [_("Cash taken"), money(record.cash_in_cents)],
        [_("Prize money handed over"), money(-record.paid_out_cents)],
        [_("Expected cash"), money(record.expected_cents)],
        [_("Cash counted"), money(record.counted_cents)],
        [_("Difference"), money(record.difference_cents)],
        [_("Explanation"), record.note],
    ]
    return csv_bytes(rows)
