"""Restoring a tournament from a backup, and writing backup files (automatically after every round).

A restore creates a new tournament in one transaction: all or nothing. Rows refer to each other by
their ids in the file, which are mapped to new ids; clubs already there are reused by name, and so are
player records of the restoring owner's club (`permissions.scopes`: never another club's). The
tournament's series: one of the same name that the restoring user organizes (`managed_series`) is
joined with its rule as it is; otherwise
a new one is created with the file's rule, organized by the restoring user and those of the file's
organizers who have an account here. The log says which (`series_join` or `series_create`, after the
restore's own entry), as if it had been done by hand.
"""

from __future__ import annotations

import base64
import binascii
import datetime as dt
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.files.base import ContentFile
from django.core.files.storage import FileSystemStorage, storages
from django.db import DatabaseError, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from engine.seating import PlanKind, StoredPlan
from engine.text import name_key, person_key
from tournament.models import (
    BackupFile,
    Club,
    Membership,
    Organization,
    Player,
    Registration,
    Round,
    SeatingPlan,
    Series,
    Signup,
    Table,
    Tournament,
    new_signup_token,
    new_table_token,
)
from tournament.permissions import only_helps
from tournament.permissions.scopes import club_accounts, managed_series, own_club, players_owned_by

from ..audit.actions import AuditAction
from ..audit.services import audit
from ..series.services import series_snapshot
from .format import SECTIONS, BackupError, check_format, dumps, is_user_fk, section
from .selectors import backups_beyond, export_tournament
from .validation import check_backup

logger = logging.getLogger(__name__)


def _field_values(
    model: type[models.Model], row: dict[str, Any], ids: dict[type[models.Model], dict[int, int]], users
) -> dict[str, Any]:
    """Model field values from a backup row: ids of other rows mapped to their new ids."""
    values: dict[str, Any] = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or isinstance(field, models.FileField) or field.name not in row:
            continue
        value = row[field.name]
        if is_user_fk(field):
            values[field.name] = users.get(value) if value else None
        elif field.is_relation:
            if value is None:
                values[field.attname] = None
            elif value in ids.get(field.related_model, {}):
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
    found = Club.objects.filter(name_key=name_key(name)).order_by("pk").first()
    return found or Club.objects.create(name=name)


def _player(row: dict[str, Any], club: Club | None, organization: Organization | None, owner) -> Player:
    """The same person (same name, same club, same birth data) among the owner's club's records is
    reused; another club's records are never looked at.

    A record found by name whose birth data differ is never changed (it may be another organizer's,
    players/services.py): the restored tournament gets a record of its own."""
    values = _field_values(Player, row, {Club: {}}, {})
    values.pop("club_id", None)
    organizers = [owner] if owner is not None else []
    existing = players_owned_by(organization=organization, organizers=organizers).filter(
        name_key=person_key(values["first_name"], values["last_name"]), club=club,
        birth_date=values.get("birth_date"), birth_year=values.get("birth_year"),
    ).order_by("pk").first()
    if existing is not None:
        return existing
    player = Player(**values, club=club)
    player.organization = organization  # a new record is the restoring owner's club's
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


def import_tournament(data: dict[str, Any], owner=None) -> Tournament:
    """Create a new tournament from a backup; all or nothing. `owner` becomes its organizer; an account
    that only helps at other evenings may not restore (tournament/permissions.py)."""
    if owner is not None and only_helps(owner):
        raise PermissionDenied("an account that only helps cannot restore")
    check_format(data)
    check_backup(data)
    try:
        with transaction.atomic():
            return _import(data, owner)
    except BackupError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError, ValidationError, DatabaseError) as exc:
        logger.warning("backup restore failed: %r", exc)
        raise BackupError(_("The backup is incomplete or damaged; nothing was restored.")) from exc


def _link(model: type[models.Model], objects: list[models.Model], rows: list[dict[str, Any]],
          ids: dict[type[models.Model], dict[int, int]]) -> None:
    """The many-to-many links of a section's rows (a team's players), as lists of the file's ids."""
    for field in model._meta.many_to_many:
        if is_user_fk(field):
            continue  # no section links users; the tournament's and the series' organizers are set apart
        through = field.remote_field.through
        source, target = f"{field.m2m_field_name()}_id", f"{field.m2m_reverse_field_name()}_id"
        links = []
        for obj, row in zip(objects, rows, strict=True):
            for value in dict.fromkeys(row.get(field.name) or []):
                if value not in ids.get(field.related_model, {}):
                    raise BackupError(
                        _("The backup refers to a missing %(model)s (%(id)s).")
                        % {"model": field.related_model._meta.verbose_name, "id": value}
                    )
                links.append(through(**{source: obj.pk, target: ids[field.related_model][value]}))
        through.objects.bulk_create(links, batch_size=500)


def _series(row: dict[str, Any] | None, owner, users) -> tuple[Series | None, bool]:
    """The series the restored tournament joins, and whether it is new (see the module docstring)."""
    if not row:
        return None, False
    name = " ".join(str(row["name"]).split())
    if owner is not None:
        series = managed_series(owner).filter(name__iexact=name).order_by("pk").first()
        if series is not None:
            return series, False  # its rule stays: the season's other evenings count by it
    series = Series(**_field_values(Series, row, {}, users))
    series.name = name
    series.full_clean()
    series.save()
    _keep_timestamps([series], [row])
    organizers = [users[str(username)] for username in row.get("organizers") or [] if str(username) in users]
    series.organizers.add(*organizers, *([owner] if owner is not None else []))
    return series, True


def _import(data: dict[str, Any], owner) -> Tournament:
    user_model = get_user_model()
    by_users = ("submissions", "audit", "payments", "prize_handovers", "memberships")
    usernames = {str(name) for part in by_users for row in section(data, part)
                 for name in (row.get("created_by"), row.get("confirmed_by"), row.get("user")) if name}
    series_row = section(data, "series", None)
    usernames |= {str(name) for name in (series_row or {}).get("organizers") or []}
    users = {u.get_username(): u for u in user_model.objects.filter(**{
        f"{user_model.USERNAME_FIELD}__in": usernames})}
    # Who may be given a role by the file (its helpers, its series' organizers): accounts of the
    # restoring owner's club only (`permissions.scopes.club_accounts`), as when adding by name; with no
    # owner (the server's administrator, `manage.py restore_tournament`) every account the file names.
    organization = own_club(owner) if owner is not None else None
    team_users = users
    if owner is not None:
        club = club_accounts(organization.pk if organization else None, owner)
        team_users = {name: user for name, user in users.items() if club.filter(pk=user.pk).exists()}
    ids: dict[type[models.Model], dict[int, int]] = {model: {} for model in (Club, Player, Tournament)}

    clubs = {row["id"]: _club(row) for row in data["clubs"]}
    for old_id, club in clubs.items():
        ids[Club][old_id] = club.pk
    # The file's club (Organization) means nothing here: what is restored is the owner's club's.
    for row in data["players"]:
        ids[Player][row["id"]] = _player(row, clubs.get(row.get("club")), organization, owner).pk

    series, series_created = _series(series_row, owner, team_users)
    row = data["tournament"]
    tournament = Tournament(**_field_values(Tournament, row, ids, users))
    tournament.series = series  # the file's series id means nothing here
    tournament.organization = organization
    if series_created and series.organization_id is None and tournament.organization is not None:
        series.organization = tournament.organization
        series.save(update_fields=["organization"])
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
    taken_signup_tokens = set(
        Signup.objects.filter(token__in=[s["token"] for s in section(data, "signups")])
        .values_list("token", flat=True)
    )
    for key, model in SECTIONS:
        rows = section(data, key)
        if model is Membership:  # only the club's accounts are put into a team, never anybody named
            rows = [r for r in rows if str(r.get("user")) in team_users]
        objects = [model(**_field_values(model, r, ids, users)) for r in rows]
        if model is Table:
            for table in objects:
                if not table.token or table.token in taken_tokens:
                    table.token = new_table_token()  # the link is in use elsewhere: this copy gets its own
        if model is Signup:
            for signup in objects:
                if not signup.token or signup.token in taken_signup_tokens:
                    signup.token = new_signup_token()
        model.objects.bulk_create(objects, batch_size=500)
        if any(obj.pk is None for obj in objects):  # databases without RETURNING: fetch the ids back
            raise BackupError(_("This database cannot restore backups."))
        ids[model] = {r["id"]: obj.pk for r, obj in zip(rows, objects, strict=True)}
        _keep_timestamps(objects, rows)
        _link(model, objects, rows, ids)

    plan = _seating_plan(data, ids[Registration])
    if plan is not None:
        SeatingPlan.objects.create(tournament=tournament, **plan.to_json())
    actor = owner.get_username() if owner is not None else ""
    audit(
        tournament=tournament, user=owner, action=AuditAction.TOURNAMENT_RESTORE, actor=actor,
        after={"exported_at": data.get("exported_at"), "format_version": data["version"]},
    )
    # The series as series_create and series_join write it: a season changed by a restore says so.
    if series_created:
        audit(tournament=tournament, user=owner, action=AuditAction.SERIES_CREATE, actor=actor,
              after=series_snapshot(series))
    elif series is not None:
        audit(tournament=tournament, user=owner, action=AuditAction.SERIES_JOIN, actor=actor,
              before={"series": None}, after={"series": series.name})
    return tournament


def _seating_plan(data: dict[str, Any], registrations: dict[int, int]) -> StoredPlan | None:
    """The file's seating plan with its players' new ids (a player the file does not hold: damaged).
    An older file kept a plan of all rounds in the tournament's row."""
    raw = section(data, "seating_plan", None)
    old = data["tournament"].get("seating_plan") or {}
    if raw is None and old.get("rounds"):
        numbered = {int(number): tables for number, tables in old["rounds"].items()}
        first = min(numbered)
        raw = {
            "kind": PlanKind.ALL, "players": old["players"], "sizes": old["sizes"], "seed": old["seed"],
            "from_round": first, "rounds": [numbered[n] for n in range(first, max(numbered) + 1)],
        }
    if raw is None:
        return None
    plan = StoredPlan.from_json(raw)
    return StoredPlan.build(
        kind=plan.kind, players=[registrations[p] for p in plan.players], sizes=plan.sizes, seed=plan.seed,
        from_round=plan.from_round,
        rounds=[[[registrations[p] for p in table] for table in rnd] for rnd in plan.rounds],
    )


# --- Automatic backups --------------------------------------------------------------------------

def backup_name(tournament: Tournament, round_number: int | None, when: dt.datetime | None = None) -> str:
    """The file name in the backups storage (migration 0017 reads names of this form back)."""
    when = timezone.localtime(when or timezone.now())
    round_part = f"-round-{round_number}" if round_number is not None else ""
    return f"tournament-{tournament.pk}{round_part}-{when:%Y%m%d-%H%M%S-%f}.json"


def write_backup(tournament: Tournament, round_number: int | None = None) -> str:
    """Write the tournament's backup into the backups storage (settings.STORAGES["backups"]), where
    every app server lists and serves it, and its row (`BackupFile`) into the list; returns its name.

    In a folder the file is written next to its place and renamed into it, so a crash never leaves half
    a file and a listing never shows one; other storages (an object store) store a file whole anyway.
    The file gets the storage's permissions (FILE_UPLOAD_PERMISSIONS, as a logo: readable by the group)
    and a new folder its folder permissions, so app servers of one group read each other's backups."""
    when = timezone.now()
    name = backup_name(tournament, round_number, when)
    content = dumps(export_tournament(tournament)).encode("utf-8")
    storage = storages["backups"]
    if not isinstance(storage, FileSystemStorage):
        name = storage.save(name, ContentFile(content, name=name))
    else:
        path = Path(storage.path(name))
        _make_folder(path.parent, storage.directory_permissions_mode)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as f:
            f.write(content)
            tmp = Path(f.name)
        if storage.file_permissions_mode is not None:
            os.chmod(tmp, storage.file_permissions_mode)
        os.replace(tmp, path)
    BackupFile.objects.create(
        tournament=tournament, name=name, round_number=round_number, written_at=when, size=len(content)
    )
    return name


def _make_folder(folder: Path, mode: int | None) -> None:
    """The backups folder with the configured mode (FILE_UPLOAD_DIRECTORY_PERMISSIONS), not the umask's."""
    if folder.is_dir():
        return
    if mode is None:
        folder.mkdir(parents=True, exist_ok=True)
        return
    folder.mkdir(parents=True, exist_ok=True)
    os.chmod(folder, mode)  # mkdir's mode passes through the umask and drops the setgid bit


def prune_backups(*, keep: int) -> list[str]:
    """Delete all but the `keep` newest backups of each tournament from the backups storage and the
    list; returns the names deleted. Every closed round writes one, and nothing else ever deletes them,
    so a server that runs for years would fill its disk (the weekly timer of deploy/systemd calls this)."""
    if keep < 1:
        raise ValidationError(_("At least one backup per tournament is kept."), code="keep_too_small")
    storage = storages["backups"]
    deleted = []
    for old in backups_beyond(keep):
        storage.delete(old.name)  # a file already gone is no error
        with transaction.atomic():
            BackupFile.objects.filter(pk=old.pk).delete()
        deleted.append(old.name)
        logger.info("backup deleted: %s", old.name)
    return deleted


def write_after_round_close(round_: Round) -> None:
    """Called once the closing of a round is committed (rounds.services.round_close)."""
    name = write_backup(round_.tournament, round_.number)
    logger.info("backup written: %s", name)
