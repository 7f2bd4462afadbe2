"""The cash documents: the cash report (expected against collected, by method) and the cash record the
treasurer signs."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string

from tournament.cashdesk.selectors import cash_record, cash_report
from tournament.documents.typography import html_to_pdf
from tournament.models import Tournament


def cash_report_pdf(tournament: Tournament, *, request: HttpRequest | None = None) -> bytes:
    context = {"tournament": tournament, "report": cash_report(tournament)}
    html = render_to_string("print/cash_report.html", context, request=request)
    return html_to_pdf(html)


def cash_record_pdf(tournament: Tournament, *, request: HttpRequest | None = None) -> bytes:
    """The cash record the treasurer signs (`cashdesk.selectors.cash_record`)."""
    context = {"tournament": tournament, "record": cash_record(tournament)}
    return html_to_pdf(render_to_string("print/cash_record.html", context, request=request))

