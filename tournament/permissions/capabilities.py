"""What each role may do: one map from role to capabilities, for a tournament, a series or a club alike."""

from __future__ import annotations

from enum import StrEnum

from django.core.exceptions import PermissionDenied

from tournament.models import Role

from .roles import Team, role_of


class Capability(StrEnum):
    VIEW = "view"  # every page and every document that only reads
    DESK = "desk"  # check-in, payments, walk-ins, prize handover
    RESULTS = "results"  # enter and confirm results, captain links (also on the table sheets)
    SEAT = "seat"  # draw, swap, publish, open, close rounds; the clock
    PLAYERS = "players"  # register, change, withdraw, readmit, import, merge players; sign-ups' places
    SETTINGS = "settings"  # settings, prizes, series, teams, logo
    PEOPLE = "people"  # add and remove organizers, helpers, viewers (a club's admins); invitations
    DELETE = "delete"
    RESTORE = "restore"  # backups: download (everything, every link) and restore


CAPABILITIES: dict[Role, frozenset[Capability]] = {
    Role.ORGANIZER: frozenset(Capability),
    Role.HELPER: frozenset({Capability.VIEW, Capability.DESK, Capability.RESULTS}),
    Role.VIEWER: frozenset({Capability.VIEW}),
}


def capabilities_of(user, team: Team) -> frozenset[Capability]:
    role = role_of(user, team)
    return CAPABILITIES[role] if role is not None else frozenset()


def can(user, team: Team, capability: Capability | str) -> bool:
    """Whether the user may do this with the tournament, series or club."""
    return Capability(capability) in capabilities_of(user, team)


def require(user, team: Team, capability: Capability | str) -> None:
    """For services: refuse a write the user's role does not allow (the views check it first)."""
    if not can(user, team, capability):
        raise PermissionDenied(f"{capability} needs a role that has it")
