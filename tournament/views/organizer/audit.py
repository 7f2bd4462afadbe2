"""The organizer's audit log: who changed what and when, per round and per table, as a diff."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.paginator import Paginator
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from engine.notation import localise_hand
from engine.numbers import parse_natural
from tournament.audit.actions import AuditAction
from tournament.audit.selectors import audit_entries, round_numbers
from tournament.models import AuditEntry
from tournament.permissions import TournamentOrganizerMixin

# Keys of the recorded snapshots, in words.
FIELD_LABELS = {
    "start_number": _("start number"), "status": _("status"), "name": _("name"), "club": _("club"),
    "birth_year": _("year of birth"), "birth_date": _("date of birth"),
    "withdrawn_after_round": _("withdrawn after round"), "seed": _("seating seed"), "tables": _("tables"),
    "version": _("version"), "source": _("source"), "stopped_by_time": _("stopped by the time limit"),
    "confirmed": _("confirmed"), "cards": _("cards"), "card_count": _("cards in hand"),
    "hand_points": _("hand value"), "score": _("round score"), "went_out": _("went out"),
    "round": _("round"), "date": _("date"), "venue": _("venue"), "rounds_total": _("number of rounds"),
    "table_size": _("preferred table size"), "table_min": _("smallest table"),
    "table_max": _("largest table"), "fill": _("fill with"), "scoring": _("scoring"), "end_rule": _("end"),
    "threshold": _("threshold"), "tiebreaks": _("tie-break order"), "missed_rounds": _("missed rounds"),
    "time_limit_minutes": _("time limit per round (minutes)"), "deck": _("deck"),
    "separate_clubs": _("keep clubs apart in round 1"), "plan_all_rounds": _("plan all rounds at the start"),
    "require_second_entry": _("require a second entry"), "public": _("public page switched on"),
}

PAGE_SIZE = 100
NESTING = " \u203a "  # a small arrow between a key and the key inside it
YES, NO = "\u2713", "\u2013"  # check mark, en dash


@dataclass(frozen=True)
class Change:
    """One line of an entry's diff: a (possibly nested) key with its value before and after."""

    key: str
    before: str
    after: str

    @property
    def added(self) -> bool:
        return self.before == "" and self.after != ""

    @property
    def removed(self) -> bool:
        return self.after == "" and self.before != ""


def _label(key: str) -> str:
    return str(FIELD_LABELS.get(key, key.replace("_", " ")))


def _text(value: Any) -> str:
    """A recorded value as short text: seating as tables of start numbers, booleans as ✓."""
    if value is None:
        return ""
    if value is True:
        return YES
    if value is False:
        return NO
    if isinstance(value, list):
        if value and all(isinstance(item, list) for item in value):
            return " | ".join(", ".join(_text(v) for v in item) for item in value)
        return ", ".join(_text(item) for item in value)
    if isinstance(value, dict):
        return ", ".join(f"{_label(k)}: {_text(v)}" for k, v in value.items())
    return str(value)


def _flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    """Nested snapshots as flat keys; per-player lines are keyed by start number ("no. 7", then "score")."""
    if isinstance(value, dict):
        flat: dict[str, Any] = {}
        for key, item in value.items():
            if key == "cards" and isinstance(item, str):
                item = localise_hand(item, get_language())
            flat.update(_flatten(item, f"{prefix}{NESTING}{_label(key)}" if prefix else _label(key)))
        return flat
    if isinstance(value, list) and value and all(isinstance(i, dict) and "start_number" in i for i in value):
        flat = {}
        for item in value:
            rest = {k: v for k, v in item.items() if k != "start_number"}
            line = f"{prefix}{NESTING}" if prefix else ""
            flat.update(_flatten(rest, f"{line}{_('no.')} {item['start_number']}"))
        return flat
    return {prefix: value}


def entry_changes(before: Any, after: Any) -> list[Change]:
    """The keys that differ between before and after; a created or deleted thing shows all of them."""
    if not isinstance(before, dict | list) and not isinstance(after, dict | list):
        return [] if before == after else [Change("", _text(before), _text(after))]
    old, new = _flatten(before) if before is not None else {}, _flatten(after) if after is not None else {}
    keys = list(new) + [key for key in old if key not in new]
    return [
        Change(key, _text(old.get(key)), _text(new.get(key)))
        for key in keys
        if old.get(key) != new.get(key) or before is None or after is None
    ]


@dataclass(frozen=True)
class AuditLine:
    entry: AuditEntry
    label: str
    changes: list[Change]


def _int_or_none(value: str | None) -> int | None:
    number = parse_natural(value)
    return number if number is not None and 0 < number < 10_000 else None


class AuditLogView(TournamentOrganizerMixin, TemplateView):
    """Every recorded change of one tournament, newest first, filtered by round, table and action."""

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
        rounds = round_numbers(self.tournament)
        context.update(
            page=page,
            lines=[
                AuditLine(entry, str(entry.get_action_display()),
                          entry_changes(entry.before, entry.after))
                for entry in page.object_list
            ],
            rounds=rounds,
            actions=sorted(((code, str(label)) for code, label in AuditAction.choices), key=lambda a: a[1]),
            selected_round=round_number,
            selected_table=table_number,
            selected_action=action if action in AuditAction.values else "",
            filter_query=self.request.GET.copy(),
        )
        context["filter_query"].pop("page", None)
        return context
