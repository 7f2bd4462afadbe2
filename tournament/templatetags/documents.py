"""`{% load documents %}` then `{% pdf_link _("Standings (PDF)") 'print:standings' tournament.pk after=3 %}`:
a printed document opens in a new tab, where the browser shows it ready to print; a small link beside it
saves the file instead (`?download=1`, answered as an attachment by `views.printing.pdf_response`).

Positional arguments after the URL name are the URL's arguments; `css` is the link's class; every
other keyword becomes a query parameter (empty values are left out)."""

from urllib.parse import urlencode

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from tournament.documents import typography
from tournament.permissions import may_open

register = template.Library()


def _with_query(url: str, query: dict) -> str:
    return f"{url}?{urlencode(query)}" if query else url


@register.simple_tag(takes_context=True)
def pdf_link(context, label, view_name: str, *args, css: str = "button", **query) -> str:
    """Nothing where the page's user may not open the document (a viewer and the table sheets)."""
    url = reverse(view_name, args=args)
    tournament, request = context.get("tournament"), context.get("request")
    if tournament is not None and request is not None and not may_open(request.user, tournament, url):
        return ""
    query = {name: value for name, value in query.items() if value not in (None, "")}
    return format_html(
        '<span class="pdf-link"><a class="{}" href="{}" target="_blank" rel="noopener">{}</a>'
        '<a class="pdf-download" href="{}" download aria-label="{}">{}</a></span>',
        css, _with_query(url, query), label,
        _with_query(url, {**query, "download": 1}),
        _("Download: %(document)s") % {"document": label}, _("Download"),
    )


@register.filter
def document_date(value, style: str = "") -> str:
    """`{{ tournament.date|document_date }}`, or `|document_date:"short"`: a printed document's date the
    way the active language writes it (`documents.typography.document_date`)."""
    return typography.document_date(value, short=style == "short") if value else ""
