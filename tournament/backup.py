"""A whole tournament as one JSON document, and back.

`export_tournament` writes every row that belongs to a tournament (its players and clubs, registrations,
settings, rounds, tables with their captain links, seats, every submitted version with its entries, the
audit log); `import_tournament` creates a new tournament from it in one transaction. Rows refer to each
other by their ids in the file, which are mapped to new ids on import, so a backup can be restored into
an empty database (giving identical standings, links and history) or beside other tournaments (players
and clubs already there are reused by name). Fields are read from the models, so a field added later is
carried along without touching this module.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import json
import logging
import os
import tempfile
from collections.abc import Iterable
from decimal import Decimal
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from .models import (
    AuditEntry,
    Club,
    Player,
    Registration,
    Round,
    Seat,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
    new_table_token,
)

logger = logging.getLogger(__name__)

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
]


class BackupError(ValueError):
    """The file is not a backup this version can restore; the message says why, for the organizer."""


# --- Export -------------------------------------------------------------------------------------

def _plain(value: Any) -> Any:
    if isinstance(value, dt.datetime | dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, Decimal):
        return str(value)
    return value


def _is_user_fk(field: models.Field) -> bool:
    return field.is_relation and field.related_model is get_user_model()


def _row(obj: models.Model, usernames: dict[int, str]) -> dict[str, Any]:
    """A model instance as plain JSON values; users by name (ids differ between databases)."""
    row: dict[str, Any] = {"id": obj.pk}
    for field in obj._meta.concrete_fields:
        if field.primary_key or isinstance(field, models.FileField):
            continue
        value = getattr(obj, field.attname)
        if _is_user_fk(field):
            row[field.name] = usernames.get(value) if value is not None else None
        else:
            row[field.name] = _plain(value)
    return row


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
    }
    usernames = dict(get_user_model().objects.values_list("pk", get_user_model().USERNAME_FIELD))
    players = Player.objects.filter(registrations__tournament=tournament).distinct().order_by("pk")
    clubs = Club.objects.filter(players__in=players).distinct().order_by("pk")
    tournament_row = _row(tournament, usernames)
    tournament_row["organizers"] = sorted(tournament.organizers.values_list("username", flat=True))
    tournament_row["logo"] = _logo(tournament)
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported_at": timezone.now().isoformat(),
        "tournament": tournament_row,
        "clubs": [_row(club, usernames) for club in clubs],
        "players": [_row(player, usernames) for player in players],
    }
    for key, queryset in querysets.items():
        data[key] = [_row(obj, usernames) for obj in queryset.order_by("pk")]
    return data


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1, sort_keys=False)


# --- Import -------------------------------------------------------------------------------------

def _field_values(
    model: type[models.Model], row: dict[str, Any], ids: dict[type[models.Model], dict[int, int]], users
) -> dict[str, Any]:
    """Model field values from a backup row: ids of other rows mapped to their new ids."""
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or isinstance(field, models.FileField) or field.name not in row:
            continue
        value = row[field.name]
        if _is_user_fk(field):
            values[field.name] = users.get(value) if value else None
        elif field.is_relation:
            if value is None:
                values[field.attname] = None
            elif value in ids[field.related_model]:
                values[field.attname] = ids[field.related_model][value]
            elif field.null:
                values[field.attname] = None  # e.g. an audit entry of a round deleted before the backup
            else:
                raise BackupError(
                    _("The backup refers to a missing %(model)s (%(id)s).")
                    % {"model": field.related_model._meta.verbose_name, "id": value}
                )
        else:
            values[field.name] = field.to_python(value)
    return values


def _keep_timestamps(objects: list[models.Model], rows: list[dict[str, Any]]) -> None:
    """auto_now_add stamps the time of the restore: put the recorded times back."""
    if not objects:
        return
    stamped = [
        f for f in objects[0]._meta.concrete_fields
        if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)
    ]
    stamped = [f for f in stamped if f.name in rows[0]]
    if not stamped:
        return
    for obj, row in zip(objects, rows, strict=True):
        for field in stamped:
            setattr(obj, field.attname, field.to_python(row[field.name]))
    type(objects[0]).objects.bulk_update(objects, [f.name for f in stamped], batch_size=500)


def _club(row: dict[str, Any]) -> Club:
    name = " ".join(str(row["name"]).split())
    return Club.objects.filter(name__iexact=name).first() or Club.objects.create(name=name)


def _player(row: dict[str, Any], club: Club | None) -> Player:
    """The same person (same name, same club) already in the database is reused, never duplicated."""
    existing = Player.objects.filter(
        first_name__iexact=row["first_name"], last_name__iexact=row["last_name"], club=club
    ).first()
    if existing is not None:
        return existing
    values = _field_values(Player, row, {Club: {}}, {})
    values.pop("club_id", None)
    player = Player(**values, club=club)
    player.full_clean()
    player.save()
    _keep_timestamps([player], [row])
    return player


def _restore_logo(tournament: Tournament, logo: Any) -> None:
    if not logo:
        return
    try:
        content = base64.b64decode(logo["data"], validate=True)
        name = Path(str(logo["name"])).name or "logo.png"
    except (KeyError, TypeError, binascii.Error) as exc:
        raise BackupError(_("The club logo in the backup is damaged.")) from exc
    tournament.logo.save(name, ContentFile(content), save=True)


def check_format(data: Any) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(_("This file is not a tournament backup."))
    version = data.get("version")
    if not isinstance(version, int) or version < 1 or version > FORMAT_VERSION:
        raise BackupError(
            _("This backup has format version %(version)s; this program reads up to version %(supported)s.")
            % {"version": version, "supported": FORMAT_VERSION}
        )


def import_tournament(data: dict[str, Any], owner=None) -> Tournament:
    """Create a new tournament from a backup; all or nothing. `owner` becomes its organizer."""
    check_format(data)
    try:
        with transaction.atomic():
            return _import(data, owner)
    except BackupError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, ValidationError, DatabaseError) as exc:
        logger.warning("backup restore failed: %r", exc)
        raise BackupError(_("The backup is incomplete or damaged; nothing was restored.")) from exc


def _import(data: dict[str, Any], owner) -> Tournament:
    user_model = get_user_model()
    usernames = {str(name) for section in ("submissions", "audit") for row in data[section]
                 for name in (row.get("created_by"), row.get("confirmed_by"), row.get("user")) if name}
    users = {u.get_username(): u for u in user_model.objects.filter(**{
        f"{user_model.USERNAME_FIELD}__in": usernames})}
    ids: dict[type[models.Model], dict[int, int]] = {model: {} for model in (Club, Player, Tournament)}

    clubs = {row["id"]: _club(row) for row in data["clubs"]}
    for old_id, club in clubs.items():
        ids[Club][old_id] = club.pk
    for row in data["players"]:
        ids[Player][row["id"]] = _player(row, clubs.get(row.get("club"))).pk

    row = data["tournament"]
    tournament = Tournament(**_field_values(Tournament, row, ids, users))
    if Tournament.objects.filter(name=tournament.name, date=tournament.date).exists():
        suffix = " " + _("(restored)")
        room = Tournament._meta.get_field("name").max_length - len(suffix)
        tournament.name = tournament.name[:room] + suffix
    tournament.full_clean(exclude=["logo"])
    tournament.save()
    _keep_timestamps([tournament], [row])
    ids[Tournament][row["id"]] = tournament.pk
    if owner is not None:
        tournament.organizers.add(owner)
    _restore_logo(tournament, row.get("logo"))

    taken_tokens = set(
        Table.objects.filter(token__in=[t["token"] for t in data["tables"]]).values_list("token", flat=True)
    )
    for key, model in SECTIONS:
        rows = data[key]
        objects = [model(**_field_values(model, r, ids, users)) for r in rows]
        if model is Table:
            for table in objects:
                if not table.token or table.token in taken_tokens:
                    table.token = new_table_token()  # the link is in use elsewhere: this copy gets its own
        model.objects.bulk_create(objects, batch_size=500)
        if any(obj.pk is None for obj in objects):  # databases without RETURNING: fetch the ids back
            raise BackupError(_("This database cannot restore backups."))
        ids[model] = {r["id"]: obj.pk for r, obj in zip(rows, objects, strict=True)}
        _keep_timestamps(objects, rows)

    AuditEntry.objects.create(
        tournament=tournament, user=owner if owner is not None and owner.is_authenticated else None,
        actor=owner.get_username() if owner is not None else "", action="tournament_restore",
        after={"exported_at": data.get("exported_at"), "format_version": data["version"]},
    )
    return tournament


def loads(text: str | bytes) -> dict[str, Any]:
    try:
        return json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        # RecursionError: thousands of nested brackets, which no backup has.
        raise BackupError(_("This file is not a tournament backup.")) from exc


# --- Automatic backups --------------------------------------------------------------------------

def backup_path(tournament: Tournament, round_number: int | None, when: dt.datetime | None = None) -> Path:
    when = timezone.localtime(when or timezone.now())
    round_part = f"-round-{round_number}" if round_number is not None else ""
    return Path(settings.BACKUP_DIR) / f"tournament-{tournament.pk}{round_part}-{when:%Y%m%d-%H%M%S-%f}.json"


def write_backup(tournament: Tournament, round_number: int | None = None) -> Path:
    """Write the tournament's backup file atomically (a crash never leaves half a file)."""
    path = backup_path(tournament, round_number)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = dumps(export_tournament(tournament))
    with tempfile.NamedTemporaryFile(
        "w", encoding="utf-8", dir=path.parent, delete=False, suffix=".tmp"
    ) as f:
        f.write(text)
        tmp = Path(f.name)
    os.replace(tmp, path)
    return path


def backup_after_round_close(round_: Round) -> None:
    """Called once the closing of a round is committed (services.round_close)."""
    path = write_backup(round_.tournament, round_.number)
    logger.info("backup written: %s", path)
