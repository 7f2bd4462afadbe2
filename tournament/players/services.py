"""Writes of players and registrations: register (typed, known or imported), change, check in, withdraw.

Each is keyword-only, inside `transaction.atomic`, with an audit entry; status changes are checked on
the locked row, so a double click or a second organizer is refused rather than applied twice.

Player records are shared: the same person (same name and club) registered in several tournaments is
one record. **Who may change a shared record** (copy-on-write): an organizer changes a record in place
only when every tournament that uses it is one they organize; each of those tournaments then gets an
audit entry. When a tournament of someone else uses it too, the change makes a new record for this
tournament's registration and the others keep theirs untouched. Across clubs the same: a club admin
manages (and so changes in place) what their club's tournaments use; a record owned by another club is
never changed by this one, the change makes a copy owned by this tournament's club. The rule is
`_player_change`, used by every path that changes a player's data (the edit form, a typed, imported,
walked-in or signed-up player whose birth data differs from the record found by name, and the merge,
which also moves and deletes only what the user's own tournaments use).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from engine.text import name_key, person_key
from tournament.models import Club, Player, Registration, Round, Seat, Tournament
from tournament.permissions import Capability, administers, organizes, require
from tournament.permissions.scopes import owner_players
from tournament.players.imports import ImportRow

from ..audit.actions import AuditAction
from ..audit.services import audit


def club_get_or_create(name: str) -> Club | None:
    name = " ".join(name.split())
    if not name:
        return None
    club = Club.objects.filter(name_key=name_key(name)).order_by("pk").first()
    if club is None:
        club = Club(name=name)
        club.full_clean(validate_unique=False)  # e.g. a name longer than the column
        club.save()
    return club


PLAYER_FIELDS = ("first_name", "last_name", "club_id", "birth_date", "birth_year", "gender", "member")


def _tournaments_using(player: Player, *, besides: Tournament | None = None) -> list[Tournament]:
    users = Tournament.objects.filter(registrations__player=player).distinct().order_by("pk")
    if besides is not None:
        users = users.exclude(pk=besides.pk)
    return list(users)


def _may_change(user, tournament: Tournament) -> bool:
    """Whether the user may change this tournament's players: whoever organizes it."""
    return user is not None and organizes(user, tournament)


def _owned_elsewhere(player: Player, tournament: Tournament, user) -> bool:
    """A record of another club (not this tournament's, not one the user administers) stays as it is."""
    if not player.organization_id or player.organization_id == tournament.organization_id:
        return False
    return user is None or not administers(user, player.organization)


def _player_change(
    player: Player, *, tournament: Tournament, user, values: dict[str, Any]
) -> tuple[Player, bool]:
    """Apply `values` to the record, or to a copy of it (see the module's rule). Returns the record to
    use for this tournament, and whether it is a new copy. Audits the change in the other tournaments
    that keep using a record changed in place; the caller audits its own tournament."""
    changed = {name: value for name, value in values.items() if getattr(player, name) != value}
    if not changed or player.pk is None:
        for name, value in changed.items():
            setattr(player, name, value)
        return player, False
    player = Player.objects.select_for_update().get(pk=player.pk)
    others = _tournaments_using(player, besides=tournament)
    if _owned_elsewhere(player, tournament, user) or any(not _may_change(user, other) for other in others):
        copy = Player(**{name: getattr(player, name) for name in PLAYER_FIELDS})
        copy.organization_id = tournament.organization_id
        for name, value in changed.items():
            setattr(copy, name, value)
        copy.full_clean()
        copy.save()
        return copy, True
    before = {reg.pk: registration_snapshot(reg) for reg in _registrations_of(player, others)}
    for name, value in changed.items():
        setattr(player, name, value)
    player.full_clean()
    player.save()
    for reg in _registrations_of(player, others):
        reg.player = player
        audit(
            tournament=reg.tournament, user=user, action=AuditAction.PLAYER_UPDATE_SHARED,
            before=before[reg.pk], after={**registration_snapshot(reg), "changed_in": tournament.name},
        )
    return player, False


def _registrations_of(player: Player, tournaments: list[Tournament]) -> list[Registration]:
    return list(
        Registration.objects.filter(player=player, tournament__in=tournaments)
        .select_related("tournament", "player__club").order_by("tournament_id")
    )


def player_find_or_create(
    *, first_name: str, last_name: str, club_name: str = "", birth_date: date | None = None,
    birth_year: int | None = None, tournament: Tournament, user, member: bool | None = None,
    gender: str = "",
) -> Player:
    """A player typed again (same name and club, as `engine.text.person_key` compares names: "Müller"
    is "MÜLLER" and "Mueller") is the same person: their record is reused, among the records of the
    club that owns the evening only (`permissions.scopes.owner_players`).

    Birth data (and a membership given, `member`; None leaves it as it is; a gender given, `gender`;
    "" leaves it as it is) typed for a found record changes it only by the module's rule
    (`_player_change`)."""
    first_name, last_name = " ".join(first_name.split()), " ".join(last_name.split())
    club = club_get_or_create(club_name)
    if birth_date and not birth_year:
        birth_year = birth_date.year
    same = owner_players(tournament).filter(name_key=person_key(first_name, last_name), club=club)
    player = same.order_by("pk").first()
    if player is None:
        player = Player(
            first_name=first_name, last_name=last_name, club=club,
            birth_date=birth_date, birth_year=birth_year, member=member, gender=gender,
            organization_id=tournament.organization_id,
        )
        player.full_clean()
        player.save()
        return player
    values = {"birth_date": birth_date or player.birth_date, "birth_year": birth_year or player.birth_year}
    if member is not None:
        values["member"] = member
    if gender:
        values["gender"] = gender
    player, _copied = _player_change(player, tournament=tournament, user=user, values=values)
    return player


def registration_snapshot(reg: Registration) -> dict[str, Any]:
    player = reg.player
    return {
        "start_number": reg.start_number, "status": reg.status, "name": player.name,
        "club": player.club_name, "birth_year": player.birth_year,
        "birth_date": player.birth_date.isoformat() if player.birth_date else None,
        "withdrawn_after_round": reg.withdrawn_after_round,
        "gender": player.gender, "member": player.member,
    }


@transaction.atomic
def player_register(
    *, tournament: Tournament, user, first_name: str, last_name: str, club_name: str = "",
    birth_date: date | None = None, birth_year: int | None = None, check_in: bool = False,
    member: bool | None = None, gender: str = "",
) -> Registration:
    # Lock the tournament row so two organizers adding players cannot take the same start number.
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    player = player_find_or_create(
        first_name=first_name, last_name=last_name, club_name=club_name,
        birth_date=birth_date, birth_year=birth_year, tournament=tournament, user=user, member=member,
        gender=gender,
    )
    return _register(tournament=tournament, user=user, player=player, check_in=check_in)


@transaction.atomic
def player_register_known(
    *, tournament: Tournament, user, player: Player, check_in: bool = False
) -> Registration:
    """Register a player kept from an earlier tournament, by their record (not by name)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    _check_own_record(tournament, [player])
    return _register(tournament=tournament, user=user, player=player, check_in=check_in)


def _check_own_record(tournament: Tournament, players: list[Player]) -> None:
    """A record is registered by its id only when it is one of the owning club's: another club's
    records are neither registered nor named."""
    ids = {player.pk for player in players}
    if owner_players(tournament).filter(pk__in=ids).count() != len(ids):
        raise ValidationError(_("That player is not one of this club's."), code="not_club_record")


@transaction.atomic
def players_register_known(
    *, tournament: Tournament, user, players: Iterable[Player], check_in: bool = False
) -> tuple[list[Registration], list[str]]:
    """Register several kept players at once (a club's members) under one lock of the tournament, so
    their start numbers follow each other; one already registered is named, the others are added."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    players = list(players)
    _check_own_record(tournament, players)
    added, refused = [], []
    for player in players:
        try:
            added.append(_register(tournament=tournament, user=user, player=player, check_in=check_in))
        except ValidationError as exc:  # raised before anything is written
            refused.extend(exc.messages)
    return added, refused


def _register(*, tournament: Tournament, user, player: Player, check_in: bool) -> Registration:
    if tournament.registrations.filter(player=player).exists():
        raise ValidationError(_("%(name)s is already registered.") % {"name": player.name})
    last = tournament.registrations.aggregate(last=Max("start_number"))["last"] or 0
    reg = Registration.objects.create(
        tournament=tournament, player=player, start_number=last + 1,
        status=Registration.Status.CHECKED_IN if check_in else Registration.Status.REGISTERED,
    )
    audit(
        tournament=tournament, user=user, action=AuditAction.REGISTRATION_ADD,
        after=registration_snapshot(reg),
    )
    return reg


def players_import(
    *, tournament: Tournament, user, rows: Iterable[ImportRow], check_in: bool = False
) -> tuple[int, list[tuple[int, str]]]:
    """Register the rows of an imported list, each in its own transaction.

    A row that cannot be registered (already there, implausible data) is answered with its line and
    the reason; the other rows are kept, so a list with one duplicate need not be fixed and re-sent.
    """
    added, problems = 0, []
    for row in rows:
        try:
            player_register(
                tournament=tournament, user=user, first_name=row.first_name, last_name=row.last_name,
                club_name=row.club, birth_date=row.birth_date, birth_year=row.birth_year, check_in=check_in,
                gender=row.gender,
            )
            added += 1
        except ValidationError as exc:
            problems.append((row.line, " ".join(exc.messages)))
    return added, problems


@transaction.atomic
def registration_update(
    *, registration: Registration, user, first_name: str, last_name: str, club_name: str = "",
    birth_date: date | None = None, birth_year: int | None = None, gender: str | None = None,
    member: bool | None = None,
) -> Registration:
    """Change the player's record (see the rule for shared records above); `gender` and `member` (the
    categories) stay as they are when None."""
    registration = (
        Registration.objects.select_for_update(of=("self",)).select_related("player__club", "tournament")
        .get(pk=registration.pk)
    )
    before = registration_snapshot(registration)
    club = club_get_or_create(club_name)
    values = {
        "first_name": " ".join(first_name.split()), "last_name": " ".join(last_name.split()),
        "club_id": club.pk if club else None, "birth_date": birth_date,
        "birth_year": birth_year or (birth_date.year if birth_date else None),
    }
    if gender is not None:
        values["gender"] = gender
    if member is not None:
        values["member"] = member
    player, copied = _player_change(
        registration.player, tournament=registration.tournament, user=user, values=values
    )
    if copied:
        registration.player = player
        registration.save(update_fields=["player"])
    registration.player = Player.objects.select_related("club").get(pk=player.pk)
    after = registration_snapshot(registration)
    if before != after:
        audit(
            tournament=registration.tournament, user=user, action=AuditAction.REGISTRATION_UPDATE,
            before=before, after=after,
        )
    return registration


def _registration_set_status(
    registration: Registration, *, user, allowed_from: Iterable[str], status: str, action: AuditAction,
    withdrawn_after: int | None = None,
) -> Registration:
    """Change the status, checked on the locked row: a double click or a second organizer is refused."""
    reg = (
        Registration.objects.select_for_update(of=("self",)).select_related("player__club").get(pk=registration.pk)
    )
    if reg.status not in allowed_from:
        raise ValidationError(
            _("%(name)s is %(status)s: that cannot be done now.")
            % {"name": reg.player.name, "status": reg.get_status_display()}
        )
    before = registration_snapshot(reg)
    reg.status, reg.withdrawn_after_round = status, withdrawn_after
    reg.save(update_fields=["status", "withdrawn_after_round"])
    audit(
        tournament=reg.tournament, user=user, action=action, before=before, after=registration_snapshot(reg)
    )
    return reg


@transaction.atomic
def registration_check_in(*, registration: Registration, user, checked_in: bool = True) -> Registration:
    if registration.status == Registration.Status.WITHDRAWN:
        raise ValidationError(_("A withdrawn player must be readmitted first."))
    status = Registration.Status.CHECKED_IN if checked_in else Registration.Status.REGISTERED
    return _registration_set_status(
        registration, user=user, status=status,
        action=AuditAction.CHECK_IN if checked_in else AuditAction.CHECK_IN_UNDO,
        allowed_from=[Registration.Status.REGISTERED, Registration.Status.CHECKED_IN],
    )


@transaction.atomic
def registration_withdraw(*, registration: Registration, user) -> Registration:
    """Withdrawn players keep their results but are never seated again."""
    require(user, registration.tournament, Capability.PLAYERS)
    last_played = (
        registration.tournament.rounds.exclude(status=Round.Status.DRAFT).aggregate(n=Max("number"))["n"] or 0
    )
    reg = _registration_set_status(
        registration, user=user, status=Registration.Status.WITHDRAWN, action=AuditAction.WITHDRAW,
        withdrawn_after=last_played,
        allowed_from=[Registration.Status.REGISTERED, Registration.Status.CHECKED_IN],
    )
    # A drafted round must not keep a seat for them: the organizer re-seats it.
    Seat.objects.filter(registration=reg, round__status=Round.Status.DRAFT).delete()
    return reg


@transaction.atomic
def registration_readmit(*, registration: Registration, user) -> Registration:
    """A withdrawn player plays again: the players capability, wherever it is offered (the players
    page or the desk)."""
    require(user, registration.tournament, Capability.PLAYERS)
    return _registration_set_status(
        registration, user=user, status=Registration.Status.CHECKED_IN, action=AuditAction.READMIT,
        allowed_from=[Registration.Status.WITHDRAWN],
    )


@transaction.atomic
def player_merge(*, tournament: Tournament, user, keep: Player, duplicate: Player) -> Player:
    """Two records of the same person (two spellings) become one for the user's tournaments.

    The module's copy-on-write rule holds here too: a record that a tournament of someone else uses is
    never changed or deleted. Only the duplicate's registrations in tournaments the user organizes
    move; the duplicate is deleted once nothing uses it. Data the kept record lacks is taken from the
    duplicate (`_player_change`): when another organizer's tournament uses the kept record, the user's
    registrations of both move to a copy that holds the data. An audit entry in every tournament
    whose registrations moved, and in the one the merge was made from. Returns the record that the
    user's tournaments now use."""
    if keep.pk == duplicate.pk:
        raise ValidationError(_("Choose two different players."), code="same_player")
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[keep.pk, duplicate.pk])}
    if len(locked) != 2:
        raise ValidationError(_("That player no longer exists."), code="player_gone")
    keep, duplicate = locked[keep.pk], locked[duplicate.pk]
    registrations = list(
        duplicate.registrations.select_related("tournament")
    )
    moving = [reg for reg in registrations if _may_change(user, reg.tournament)]
    if not moving:
        raise ValidationError(
            _("%(name)s is not registered in any of your tournaments.") % {"name": duplicate.name},
            code="not_yours",
        )
    kept_in = set(keep.registrations.values_list("tournament_id", flat=True))
    both = [reg.tournament for reg in moving if reg.tournament_id in kept_in]
    if both:
        raise ValidationError(
            _("Both are registered in %(tournament)s: they cannot be the same person.")
            % {"tournament": both[0].name},
            code="both_registered",
        )
    before = {"keep": keep.name, "duplicate": duplicate.name, "duplicate_id": duplicate.pk}
    missing = {
        name: getattr(duplicate, name) for name in ("club_id", "birth_date", "birth_year", "gender")
        if not getattr(keep, name) and getattr(duplicate, name)
    }
    target, copied = _player_change(keep, tournament=tournament, user=user, values=missing)
    repointed = list(moving)
    if copied:  # the user's registrations of the kept record use the copy as well
        kept = keep.registrations.select_related("tournament")
        repointed += [reg for reg in kept if _may_change(user, reg.tournament)]
    Registration.objects.filter(pk__in=[reg.pk for reg in repointed]).update(player=target)
    after = {"player": target.name, "player_id": target.pk, "registrations_moved": len(moving)}
    affected = {reg.tournament_id: reg.tournament for reg in repointed}
    affected.setdefault(tournament.pk, tournament)
    for affected_tournament in affected.values():
        audit(
            tournament=affected_tournament, user=user, action=AuditAction.PLAYER_MERGE, before=before,
            after=after,
        )
    if len(moving) == len(registrations):
        duplicate.delete()
    return target
