"""One evening's club, team and category rankings."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string

from tournament.documents.typography import html_to_pdf, points_label
from tournament.models import Tournament


def rankings_pdf(tournament: Tournament, rankings, *, request: HttpRequest | None = None) -> bytes:
    """One evening's club, team and category rankings (`TournamentRankings`)."""
    context = {"tournament": tournament, "rankings": rankings, "points_label": points_label(tournament)}
    return html_to_pdf(render_to_string("print/rankings.html", context, request=request))
