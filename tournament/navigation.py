"""The organizer's navigation by the evening's phases: Overview, Preparation, Admission, Rounds,
Finish, Log. Each page belongs to one phase by its `section`; the phase's own pages are its second
row. The one definition the desktop bar and the phone's menu are both drawn from."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournament.permissions import Capability


@dataclass(frozen=True)
class Page:
    section: str
    label: str | Promise
    url_name: str
    capability: Capability = Capability.VIEW  # what its GET needs (the view declares the same)


@dataclass(frozen=True)
class Phase:
    key: str
    label: str | Promise
    pages: tuple[Page, ...]


PHASES: tuple[Phase, ...] = (
    Phase("overview", _("Overview"), (Page("overview", _("Overview"), "organizer:tournament"),)),
    Phase("prepare", _("Preparation"), (
        Page("settings", _("Settings"), "organizer:tournament_edit", Capability.SETTINGS),
        Page("players", _("Players"), "organizer:players"),
        Page("signups", _("Sign-ups"), "organizer:signups"),
        Page("teams", _("Teams"), "organizer:teams"),
        Page("series", _("Series"), "organizer:series"),
        Page("prizes", _("Prize money"), "organizer:prizes"),
        Page("people", _("Helpers and roles"), "organizer:people", Capability.PEOPLE),
    )),
    Phase("admission", _("Admission"), (Page("desk", _("Admission"), "organizer:desk", Capability.DESK),)),
    Phase("rounds", _("Rounds"), (
        Page("rounds", _("Rounds"), "organizer:rounds"),
        Page("standings", _("Standings"), "organizer:standings"),
    )),
    Phase("finish", _("Finish"), (
        Page("finish", _("End of the evening"), "organizer:finish"),
        Page("rankings", _("Clubs, teams, categories"), "organizer:rankings"),
        Page("cash_record", _("Cash record"), "organizer:cash_record"),
        Page("print", _("Print"), "print:documents", Capability.VIEW),
    )),
    Phase("log", _("Log"), (
        Page("audit", _("Audit log"), "organizer:audit"),
        Page("backups", _("Backups"), "organizer:backups", Capability.RESTORE),
    )),
)

PHASE_OF_SECTION = {page.section: phase.key for phase in PHASES for page in phase.pages}


@dataclass(frozen=True)
class Link:
    label: str | Promise
    url: str
    active: bool


@dataclass(frozen=True)
class PhaseLinks:
    label: str | Promise
    url: str  # the phase's first page
    active: bool
    pages: list[Link]


def organizer_navigation(
    tournament_pk: int, section: str, allowed: Collection[Capability] = frozenset(Capability)
) -> list[PhaseLinks]:
    """Every phase with its pages' addresses, the ones of `section` marked active; only the pages the
    role's capabilities (`allowed`) open, and no phase left without a page."""
    active_phase = PHASE_OF_SECTION.get(section, "")
    phases = []
    for phase in PHASES:
        pages = [
            Link(page.label, reverse(page.url_name, args=[tournament_pk]), page.section == section)
            for page in phase.pages
            if page.capability in allowed
        ]
        if not pages:
            continue
        phases.append(PhaseLinks(phase.label, pages[0].url, phase.key == active_phase, pages))
    return phases
