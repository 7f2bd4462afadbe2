"""A whole tournament as one JSON document, and back.

`export_tournament` writes every row that belongs to a tournament (its players and clubs, registrations,
settings, rounds, tables with their captain links, seats, every submitted version with its entries, the
audit log, the public sign-ups with their private links, the payments at the door, the teams with their
players, the stored seating plan as `engine.seating.StoredPlan.to_json` writes it) and the series it is an
evening of (`series`: its name and season ranking rule with its organizers by user name; null when it is in
none); `import_tournament` creates a new tournament from it in one transaction. Rows refer to each other by
their ids in the file, which are mapped to new ids on import, so a backup can be restored into an empty
database (giving identical standings, links and history) or beside other tournaments (players and clubs
already there are reused by name; a series of the same name that the restoring user may add evenings to is
joined, its rule left as it is, otherwise a new series is created with the file's rule). Fields are read
from the models, many-to-many links as lists of the file's ids (users by name), so a field added later is
carried along without touching this module; a section added later is optional (`OPTIONAL_SECTIONS`).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.db import models
from django.utils.translation import gettext as _

from tournament.models import (
    AuditEntry,
    BackupFile,
    Invitation,
    Membership,
    PageSnapshot,
    Payment,
    PrizeHandover,
    Registration,
    Round,
    Seat,
    Signup,
    Submission,
    SubmissionEntry,
    Table,
    Team,
)

FORMAT = "uno-tournament-backup"
FORMAT_VERSION = 1

# The order of creation on import: every model after the ones it refers to.
SECTIONS: list[tuple[str, type[models.Model]]] = [
    ("registrations", Registration),
    ("rounds", Round),
    ("tables", Table),
    ("seats", Seat),
    ("submissions", Submission),
    ("entries", SubmissionEntry),
    ("audit", AuditEntry),
    ("signups", Signup),
    ("payments", Payment),
    ("teams", Team),
    ("prize_handovers", PrizeHandover),
    ("memberships", Membership),
]
# What an evening owns (a path of CASCADE foreign keys to its tournament) that a backup leaves out, and
# why; everything else it owns is a section or (the seating plan) an entry of its own. The backup test
# walks the models, so a model added later is carried or named here.
NOT_CARRIED: dict[type[models.Model], str] = {
    PageSnapshot: "the hall's pages as drawn at one version: drawn again on the first read",
    BackupFile: "the list of an evening's backup files belongs to the server that wrote them; a restored "
                "evening starts its own with its next closed round",
    Invitation: "a one-time link stays with the evening it was made for: its hash is unique, and a "
                "restored copy beside the original would make one link open two evenings",
}
# Sections added after the first files were written: a backup without them restores with none
# ("series" is one entry, not a list of rows: missing or null, the tournament is in no series).
# "seating_plan" is one entry too: null without a plan; older files kept a plan of all rounds in the
# tournament's row ("seating_plan": {"players", "sizes", "seed", "rounds": {"<number>": tables}}).
OPTIONAL_SECTIONS = {
    "signups", "payments", "teams", "series", "seating_plan", "prize_handovers", "memberships",
}


def section(data: dict[str, Any], name: str, missing: Any = ()) -> Any:
    """A section of the file; one added later (`OPTIONAL_SECTIONS`) is `missing` from an older file:
    no rows, or (the series) no entry."""
    return data.get(name, missing) if name in OPTIONAL_SECTIONS else data[name]


class BackupError(ValueError):
    """The file is not a backup this version can restore; the message says why, for the organizer."""


def is_user_fk(field: models.Field) -> bool:
    """Users are written by name: their ids differ between databases (also for many-to-many links)."""
    return field.is_relation and field.related_model is get_user_model()


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False)


def loads(text: str | bytes) -> dict[str, Any]:
    try:
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        # RecursionError: thousands of nested brackets, which no backup has.
        raise BackupError(_("This file is not a tournament backup.")) from exc


def check_format(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(_("This file is not a tournament backup."))
    version = data.get("version")
    if not isinstance(version, int) or version < 1 or version > FORMAT_VERSION:
        raise BackupError(
            _("This backup has format version %(version)s; this program reads up to version %(supported)s.")
            % {"version": version, "supported": FORMAT_VERSION}
        )
