"""The end of the evening (Abschluss): final standings, prize list, every certificate, the cash report,
the season and the backup, each one click from this page; before the last round it says what is still
provisional."""

from __future__ import annotations

from django.urls import reverse

from tournament.cashdesk.selectors import cash_report
from tournament.documents.selectors import documents_ready
from tournament.live.selectors import reveal
from tournament.permissions import Capability
from tournament.prizes.selectors import has_prizes, prize_list
from tournament.rounds.selectors import evening
from tournament.standings.selectors import standings_hidden

from .base import OrganizerPage

TOP_LINES = 10


class FinishView(OrganizerPage):
    capability = Capability.VIEW

    template_name = "tournament/organizer/finish.html"
    section = "finish"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        tournament = self.tournament
        state = evening(tournament)
        rounds, lines = state.played, state.lines
        context.update(
            evening=state,
            rounds=rounds,
            lines=lines[:TOP_LINES],
            more_lines=max(0, len(lines) - TOP_LINES),
            players=len(lines),
            prizes=prize_list(tournament, lines) if lines and has_prizes(tournament) else None,
            ready=documents_ready(tournament, lines),
            report=cash_report(tournament),
            series=tournament.series,
            standings_hidden=standings_hidden(tournament),
            reveal_url=reverse("public:projector", args=[tournament.pk]) + "?show=reveal",
            reveal=reveal(tournament) if tournament.standings_revealed else None,
            reveal_page="finish",
        )
        return context
