"""The cash report as CSV: expected against collected, by method, and who has not paid."""

from __future__ import annotations

import csv
import io

from django.utils.translation import gettext as _

from .selectors import CashReport


def cash_report_csv(report: CashReport) -> str:
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out, delimiter=";")
    money = report.amount
    writer.writerow([_("Entry fee"), money(report.fee_cents)])
    writer.writerow([_("Players"), report.players])
    writer.writerow([_("Expected"), money(report.expected_cents)])
    writer.writerow([])
    writer.writerow([_("Payment method"), _("Payments"), _("Collected")])
    for label, count, cents in report.by_method:
        writer.writerow([label, count, money(cents)])
    payments = sum(count for _label, count, _cents in report.by_method)
    writer.writerow([_("Total"), payments, money(report.collected_cents)])
    writer.writerow([_("Difference"), "", money(report.difference_cents)])
    if report.unpaid:
        writer.writerow([])
        writer.writerow([_("Not paid"), _("Start number")])
        for reg in report.unpaid:
            writer.writerow([reg.player.name, reg.start_number])
    return out.getvalue()
