"""Reading a whole tournament into the backup's plain JSON form (see tournament.backup.format)."""

from __future__ import annotations

import base64
import datetime as dt
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.files import File
from django.core.files.storage import storages
from django.db import models
from django.utils import timezone

from tournament.models import (
    AuditEntry,
    BackupFile,
    Club,
    Membership,
    Payment,
    Player,
    PrizeHandover,
    Registration,
    Round,
    Seat,
    Signup,
    Submission,
    SubmissionEntry,
    Table,
    Team,
    Tournament,
)

from ..rounds.selectors import seating_plan
from .format import FORMAT, FORMAT_VERSION, is_user_fk


def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _row(obj: models.Model, usernames: dict[int, str]) -> dict[str, Any]:
    """A model instance as plain JSON values; users by name (ids differ between databases).

    A many-to-many link is the sorted list of the linked rows' ids in the file (a team's players: its
    registrations), or of the users' names (one query per link and row: for the few rows that have one)."""
    row: dict[str, Any] = {"id": obj.pk}
    for field in obj._meta.concrete_fields:
        if field.primary_key or isinstance(field, models.FileField):
            continue
        value = getattr(obj, field.attname)
        if is_user_fk(field):
            row[field.name] = usernames.get(value) if value is not None else None
        else:
            row[field.name] = _plain(value)
    for field in obj._meta.many_to_many:
        linked = getattr(obj, field.name).order_by().values_list("pk", flat=True)
        if is_user_fk(field):
            row[field.name] = sorted(usernames[pk] for pk in linked if pk in usernames)
        else:
            row[field.name] = sorted(linked)
    return row


def _series(tournament: Tournament, usernames: dict[int, str]) -> dict[str, Any] | None:
    """The series the tournament is an evening of: its name, rule and organizers (None: in none)."""
    return _row(tournament.series, usernames) if tournament.series_id else None


def _logo(tournament: Tournament) -> dict[str, str] | None:
    if not tournament.logo:
        return None
    try:
        with tournament.logo.open("rb") as logo:
            data = logo.read()
    except OSError:
        return None  # the file went missing on disk; the tournament itself is still worth saving
    return {"name": Path(tournament.logo.name).name, "data": base64.b64encode(data).decode("ascii")}


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    """Everything of one tournament as a JSON-serialisable dict (see the module docstring)."""
    querysets: dict[str, Iterable[models.Model]] = {
        "registrations": Registration.objects.filter(tournament=tournament),
        "rounds": Round.objects.filter(tournament=tournament),
        "tables": Table.objects.filter(round__tournament=tournament),
        "seats": Seat.objects.filter(round__tournament=tournament),
        "submissions": Submission.objects.filter(table__round__tournament=tournament),
        "entries": SubmissionEntry.objects.filter(submission__table__round__tournament=tournament),
        "audit": AuditEntry.objects.filter(tournament=tournament),
        "signups": Signup.objects.filter(tournament=tournament),
        "payments": Payment.objects.filter(tournament=tournament),
        "teams": Team.objects.filter(tournament=tournament),
        "prize_handovers": PrizeHandover.objects.filter(tournament=tournament),
        "memberships": Membership.objects.filter(tournament=tournament),
    }
    usernames = dict(get_user_model().objects.values_list("pk", get_user_model().USERNAME_FIELD))
    players = Player.objects.filter(registrations__tournament=tournament).distinct().order_by("pk")
    clubs = Club.objects.filter(players__in=players).distinct().order_by("pk")
    tournament_row = _row(tournament, usernames)  # with its organizers by name
    tournament_row["logo"] = _logo(tournament)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": tournament_row,
        "series": _series(tournament, usernames),
        "clubs": [_row(club, usernames) for club in clubs],
        "players": [_row(player, usernames) for player in players],
    }
    for key, queryset in querysets.items():
        data[key] = [_row(obj, usernames) for obj in queryset.order_by("pk")]
    plan = seating_plan(tournament)  # its players are registrations: ids of the file, like every row
    data["seating_plan"] = plan.to_json() if plan is not None else None
    return data


# --- Backups written after each round (the "backups" storage) ------------------------------------

class BackupUnreadable(Exception):
    """The backup is listed but this app server may not read its file (another user wrote it)."""


def stored_backups(tournament: Tournament) -> list[BackupFile]:
    """The tournament's backups, newest first, from the database: every app server lists the same, and
    the storage is not asked for each file's size on every view."""
    return list(BackupFile.objects.filter(tournament=tournament).order_by("-written_at", "-name"))


def backups_beyond(keep: int) -> list[BackupFile]:
    """The backups of every tournament older than its `keep` newest."""
    old: list[BackupFile] = []
    for tournament_pk in BackupFile.objects.order_by().values_list("tournament_id", flat=True).distinct():
        newest_first = BackupFile.objects.filter(tournament_id=tournament_pk).order_by("-written_at", "-name")
        old.extend(newest_first[keep:])
    return old


def open_stored_backup(tournament: Tournament, name: str) -> File | None:
    """The named backup of this tournament opened from the storage, or None: a name that is not one of
    its listed backups (another tournament's, a path) is never opened. BackupUnreadable when the file
    is there but this server may not read it."""
    if not BackupFile.objects.filter(tournament=tournament, name=name).exists():
        return None
    storage = storages["backups"]
    try:
        return storage.open(name, "rb")
    except FileNotFoundError:
        return None
    except PermissionError as exc:
        raise BackupUnreadable(name) from exc
