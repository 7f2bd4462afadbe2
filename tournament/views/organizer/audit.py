"""The organizer's audit log: who changed what and when, per round and per table, as a diff."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.views.generic import TemplateView

from engine.numbers import parse_natural
from tournament.audit.actions import AuditAction
from tournament.audit.display import Display, Players
from tournament.audit.selectors import audit_entries, audit_registrations, round_numbers
from tournament.permissions import Capability, TournamentOrganizerMixin

PAGE_SIZE = 100


def _int_or_none(value: str | None) -> int | None:
    number = parse_natural(value)
    return number if number is not None and 0 < number < 10_000 else None


class AuditLogView(TournamentOrganizerMixin, TemplateView):
    """Every recorded change of one tournament, newest first, filtered by round, table and action."""

    capability = Capability.VIEW

    template_name = "tournament/organizer/audit.html"
    extra_context = {"section": "audit"}

    def get_template_names(self):
        if self.request.htmx:
            return [f"{self.template_name}#log"]
        return [self.template_name]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        round_number = _int_or_none(self.request.GET.get("round"))
        table_number = _int_or_none(self.request.GET.get("table"))
        action = self.request.GET.get("action", "")
        entries = audit_entries(
            self.tournament, round_number=round_number, table_number=table_number, action=action
        )
        page = Paginator(entries, PAGE_SIZE).get_page(self.request.GET.get("page"))
        display = Display(Players.of(audit_registrations(self.tournament)))
        context.update(
            page=page,
            lines=[display.line(entry) for entry in page.object_list],
            rounds=round_numbers(self.tournament),
            actions=sorted(((code, str(label)) for code, label in AuditAction.choices), key=lambda a: a[1]),
            selected_round=round_number,
            selected_table=table_number,
            selected_action=action if action in AuditAction.values else "",
            filter_query=self.request.GET.copy(),
        )
        context["filter_query"].pop("page", None)
        return context
