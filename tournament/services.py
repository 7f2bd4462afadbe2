"""Every write: keyword-only, typed, inside `transaction.atomic`, with an audit entry.

Views call these and nothing else to change data. Where two people can race (results, seating) the
rows concerned are locked with `select_for_update` first.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine import seating
from engine.cards import get_deck
from engine.notation import format_hand
from engine.scoring import ScoringFormat, round_scores
from engine.validation import Issue, ReportContext, SeatReport, TableReport, Validation, validate_table

from . import backup, clock, selectors, sql
from .audit import audit
from .imports import ImportRow
from .models import (
    Club,
    Player,
    Registration,
    Round,
    Seat,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
)

logger = logging.getLogger(__name__)


# --- Tournaments --------------------------------------------------------------------------------

TOURNAMENT_SETTINGS = (
    "name", "date", "venue", "rounds_total", "table_size", "table_min", "table_max", "fill", "scoring",
    "end_rule", "threshold", "tiebreaks", "missed_rounds", "time_limit_minutes", "deck", "separate_clubs",
    "plan_all_rounds", "require_second_entry", "public",
)


def tournament_snapshot(tournament: Tournament) -> dict[str, Any]:
    data = {name: getattr(tournament, name) for name in TOURNAMENT_SETTINGS}
    data["date"] = data["date"].isoformat() if isinstance(data["date"], date) else data["date"]
    return data


@transaction.atomic
def tournament_create(*, user, **fields: Any) -> Tournament:
    tournament = Tournament(**fields)
    tournament.full_clean()
    tournament.save()
    tournament.organizers.add(user)
    audit(tournament=tournament, user=user, action="tournament_create", after=tournament_snapshot(tournament))
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, user, changes: Mapping[str, Any]) -> Tournament:
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = tournament_snapshot(locked)
    if changes.get("scoring", locked.scoring) != locked.scoring and Submission.objects.filter(
        table__round__tournament=locked
    ).exists():
        # Every stored version carries its round scores, computed with the scoring of its time.
        raise ValidationError(_("The scoring cannot change once results have been entered."))
    seated = locked.rounds.count()
    if changes.get("rounds_total", locked.rounds_total) < seated:
        raise ValidationError(
            _("%(count)s rounds have been seated already; the tournament cannot have fewer.")
            % {"count": seated}
        )
    for name, value in changes.items():
        setattr(tournament, name, value)
    tournament.full_clean()
    tournament.save()
    after = tournament_snapshot(tournament)
    changed = {k: v for k, v in after.items() if before.get(k) != v}
    if changed:
        audit(
            tournament=tournament, user=user, action="tournament_update",
            before={k: before[k] for k in changed}, after=changed,
        )
    return tournament


# --- Players and registrations ------------------------------------------------------------------

def club_get_or_create(name: str) -> Club | None:
    name = " ".join(name.split())
    if not name:
        return None
    club = Club.objects.filter(name__iexact=name).first()
    if club is None:
        club = Club(name=name)
        club.full_clean(validate_unique=False)  # e.g. a name longer than the column
        club.save()
    return club


def player_find_or_create(
    *, first_name: str, last_name: str, club_name: str = "", birth_date: date | None = None,
    birth_year: int | None = None,
) -> Player:
    """A player typed again (same name and club) is the same person: their record is reused."""
    first_name, last_name = " ".join(first_name.split()), " ".join(last_name.split())
    club = club_get_or_create(club_name)
    if birth_date and not birth_year:
        birth_year = birth_date.year
    player = Player.objects.filter(
        first_name__iexact=first_name, last_name__iexact=last_name, club=club
    ).first()
    if player is None:
        player = Player(
            first_name=first_name, last_name=last_name, club=club,
            birth_date=birth_date, birth_year=birth_year,
        )
    else:
        player.birth_date = birth_date or player.birth_date
        player.birth_year = birth_year or player.birth_year
    player.full_clean()
    player.save()
    return player


def registration_snapshot(reg: Registration) -> dict[str, Any]:
    player = reg.player
    return {
        "start_number": reg.start_number, "status": reg.status, "name": player.name,
        "club": player.club_name, "birth_year": player.birth_year,
        "birth_date": player.birth_date.isoformat() if player.birth_date else None,
        "withdrawn_after_round": reg.withdrawn_after_round,
    }


@transaction.atomic
def player_register(
    *, tournament: Tournament, user, first_name: str, last_name: str, club_name: str = "",
    birth_date: date | None = None, birth_year: int | None = None, check_in: bool = False,
) -> Registration:
    # Lock the tournament row so two organizers adding players cannot take the same start number.
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    player = player_find_or_create(
        first_name=first_name, last_name=last_name, club_name=club_name,
        birth_date=birth_date, birth_year=birth_year,
    )
    return _register(tournament=tournament, user=user, player=player, check_in=check_in)


@transaction.atomic
def player_register_known(
    *, tournament: Tournament, user, player: Player, check_in: bool = False
) -> Registration:
    """Register a player kept from an earlier tournament, by their record (not by name)."""
    Tournament.objects.select_for_update().get(pk=tournament.pk)
    return _register(tournament=tournament, user=user, player=player, check_in=check_in)


def _register(*, tournament: Tournament, user, player: Player, check_in: bool) -> Registration:
    if tournament.registrations.filter(player=player).exists():
        raise ValidationError(_("%(name)s is already registered.") % {"name": player.name})
    last = tournament.registrations.aggregate(last=Max("start_number"))["last"] or 0
    reg = Registration.objects.create(
        tournament=tournament, player=player, start_number=last + 1,
        status=Registration.Status.CHECKED_IN if check_in else Registration.Status.REGISTERED,
    )
    audit(tournament=tournament, user=user, action="registration_add", after=registration_snapshot(reg))
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
            )
            added += 1
        except ValidationError as exc:
            problems.append((row.line, " ".join(exc.messages)))
    return added, problems


@transaction.atomic
def registration_update(
    *, registration: Registration, user, first_name: str, last_name: str, club_name: str = "",
    birth_date: date | None = None, birth_year: int | None = None,
) -> Registration:
    before = registration_snapshot(registration)
    player = registration.player
    player.first_name, player.last_name = " ".join(first_name.split()), " ".join(last_name.split())
    player.club = club_get_or_create(club_name)
    player.birth_date = birth_date
    player.birth_year = birth_year or (birth_date.year if birth_date else None)
    player.full_clean()
    player.save()
    after = registration_snapshot(registration)
    if before != after:
        audit(
            tournament=registration.tournament, user=user, action="registration_update",
            before=before, after=after,
        )
    return registration


def _registration_set_status(
    registration: Registration, *, user, allowed_from: Iterable[str], status: str, action: str,
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
        registration, user=user, status=status, action="check_in" if checked_in else "check_in_undo",
        allowed_from=[Registration.Status.REGISTERED, Registration.Status.CHECKED_IN],
    )


@transaction.atomic
def registration_withdraw(*, registration: Registration, user) -> Registration:
    """Withdrawn players keep their results but are never seated again."""
    last_played = (
        registration.tournament.rounds.exclude(status=Round.Status.DRAFT).aggregate(n=Max("number"))["n"] or 0
    )
    reg = _registration_set_status(
        registration, user=user, status=Registration.Status.WITHDRAWN, action="withdraw",
        withdrawn_after=last_played,
        allowed_from=[Registration.Status.REGISTERED, Registration.Status.CHECKED_IN],
    )
    # A drafted round must not keep a seat for them: the organizer re-seats it.
    Seat.objects.filter(registration=reg, round__status=Round.Status.DRAFT).delete()
    return reg


@transaction.atomic
def registration_readmit(*, registration: Registration, user) -> Registration:
    return _registration_set_status(
        registration, user=user, status=Registration.Status.CHECKED_IN, action="readmit",
        allowed_from=[Registration.Status.WITHDRAWN],
    )


# --- Rounds and seating -------------------------------------------------------------------------

def table_sizes(tournament: Tournament, n_players: int) -> list[int]:
    try:
        return seating.table_plan(
            n_players, preferred=tournament.table_size, min_size=tournament.table_min,
            max_size=tournament.table_max, fill=tournament.fill,
        )
    except seating.SeatingError as exc:
        raise ValidationError(
            _("%(count)s checked-in players cannot be seated at tables of %(min)s to %(max)s.")
            % {"count": n_players, "min": tournament.table_min, "max": tournament.table_max}
        ) from exc


def round_snapshot(round_: Round) -> list[list[int]]:
    """The seating as start numbers, table by table, for the audit log."""
    tables: dict[int, list[int]] = {}
    for table_number, start_number in (
        Seat.objects.filter(round=round_).order_by("table__number", "position")
        .values_list("table__number", "registration__start_number")
    ):
        tables.setdefault(table_number, []).append(start_number)
    return [tables[number] for number in sorted(tables)]


def _store_seating(round_: Round, tables: Sequence[Sequence[int]]) -> None:
    round_.tables.all().delete()
    for number, registration_ids in enumerate(tables, start=1):
        table = Table.objects.create(round=round_, number=number)
        Seat.objects.bulk_create(
            Seat(round=round_, table=table, registration_id=reg_id, position=position)
            for position, reg_id in enumerate(registration_ids, start=1)
        )


def _plan_current(plan: dict, players: list[int], sizes: list[int], number: int) -> bool:
    rounds = plan.get("rounds", {})
    return plan.get("players") == players and plan.get("sizes") == sizes and str(number) in rounds


def _plan_rounds(
    tournament: Tournament, *, regs: list[Registration], sizes: list[int], number: int, seed: int, warm: bool
) -> dict:
    """Plan rounds `number`..last; warm: start from the stored plan (players withdrew or arrived)."""
    old = tournament.seating_plan.get("rounds", {}) if warm else {}
    previous = [old[str(n)] for n in range(number, tournament.rounds_total + 1) if str(n) in old]
    rounds = seating.plan_schedule(
        selectors.seating_players(regs), tournament.rounds_total, sizes, seed=seed,
        history=selectors.seating_history(tournament, before_round=number),
        previous_plan=previous or None, preferred=tournament.table_size,
    )
    return {
        "players": sorted(reg.pk for reg in regs), "sizes": sizes, "seed": seed,
        "rounds": {str(number + offset): tables for offset, tables in enumerate(rounds)},
    }


@transaction.atomic
def seating_plan_create(*, tournament: Tournament, user, seed: int | None = None) -> dict:
    """Plan every round not yet seated, so start cards can list each player's tables in advance."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = tournament.rounds.exclude(status=Round.Status.DRAFT).count() + 1
    if number > tournament.rounds_total:
        raise ValidationError(_("All rounds have been played."))
    regs = selectors.active_registrations(tournament)
    sizes = table_sizes(tournament, len(regs))
    seed = seed if seed is not None else secrets.randbits(48)
    tournament.seating_plan = _plan_rounds(
        tournament, regs=regs, sizes=sizes, number=number, seed=seed, warm=bool(tournament.seating_plan)
    )
    tournament.save(update_fields=["seating_plan"])
    audit(tournament=tournament, user=user, action="seating_plan", after=tournament.seating_plan)
    return tournament.seating_plan


def _next_tables(
    tournament: Tournament, *, regs: list[Registration], number: int, seed: int, redraw: bool
) -> list[list[int]]:
    sizes = table_sizes(tournament, len(regs))
    if tournament.plan_all_rounds:
        plan = tournament.seating_plan
        ids = sorted(reg.pk for reg in regs)
        if redraw or not _plan_current(plan, ids, sizes, number):
            # A redraw plans afresh; a changed field of players re-plans from the stored plan.
            plan = _plan_rounds(tournament, regs=regs, sizes=sizes, number=number, seed=seed, warm=not redraw)
            tournament.seating_plan = plan
            tournament.save(update_fields=["seating_plan"])
        return plan["rounds"][str(number)]
    return seating.seat_round(
        selectors.seating_players(regs),
        selectors.seating_history(tournament, before_round=number),
        sizes,
        seed=seed,
        separate_clubs=tournament.separate_clubs if number == 1 else False,
        preferred=tournament.table_size,
        n_rounds=tournament.rounds_total,
    )


@transaction.atomic
def round_seat(*, tournament: Tournament, user, seed: int | None = None) -> Round:
    """Seat the next round (or re-seat the drafted one) with the engine, from a recorded seed."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    round_ = tournament.rounds.order_by("-number").first()
    if round_ is not None and round_.status != Round.Status.DRAFT:
        if round_.status != Round.Status.CLOSED:
            raise ValidationError(
                _("Close round %(n)s before seating the next one.") % {"n": round_.number}
            )
        if selectors.tournament_finished(tournament):
            raise ValidationError(_("The tournament is finished: no further round is played."))
        round_ = None
    number = round_.number if round_ else (tournament.rounds.count() + 1)
    regs = selectors.active_registrations(tournament)
    seed = seed if seed is not None else secrets.randbits(48)
    tables = _next_tables(tournament, regs=regs, number=number, seed=seed, redraw=round_ is not None)
    before = round_snapshot(round_) if round_ else None
    if round_ is None:
        round_ = Round.objects.create(tournament=tournament, number=number, seed=seed)
    else:
        round_.seed = seed
        round_.save(update_fields=["seed"])
    _store_seating(round_, tables)
    audit(
        tournament=tournament, user=user, round_=round_, action="round_seat",
        before=before, after={"seed": seed, "tables": round_snapshot(round_)},
    )
    return round_


@transaction.atomic
def round_swap(*, round_: Round, user, first: Seat, second: Seat) -> None:
    """Swap two players in a drafted seating (each keeps the other's table and seat)."""
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a drafted seating can be changed."))
    locked = Seat.objects.select_for_update().filter(round=round_, pk__in=[first.pk, second.pk])
    seats = {seat.pk: seat for seat in locked}
    if len(seats) != 2 or first.pk == second.pk:
        raise ValidationError(_("Choose two different seats of this round."))
    before = round_snapshot(round_)
    a, b = seats[first.pk], seats[second.pk]
    a.registration_id, b.registration_id = b.registration_id, a.registration_id
    # The (round, registration) constraint forbids the intermediate state: park one seat first.
    Seat.objects.filter(pk=a.pk).delete()
    b.save(update_fields=["registration"])
    a.pk = None
    a.save()
    audit(
        tournament=round_.tournament, user=user, round_=round_, action="round_swap",
        before=before, after=round_snapshot(round_),
    )


def _round_set_status(round_: Round, *, user, allowed_from: Iterable[str], status: str, action: str) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    if round_.status not in allowed_from:
        raise ValidationError(_("This round cannot be changed that way now (%(status)s).")
                              % {"status": round_.get_status_display()})
    before = round_.status
    round_.status = status
    now = timezone.now()
    if status == Round.Status.PUBLISHED and round_.published_at is None:
        round_.published_at = now
    if status == Round.Status.CLOSED:
        round_.closed_at = now
    round_.save()
    audit(tournament=round_.tournament, user=user, round_=round_, action=action, before=before, after=status)
    return round_


@transaction.atomic
def round_publish(*, round_: Round, user) -> Round:
    tournament = round_.tournament
    sizes = list(round_.tables.annotate(n=Count("seats")).values_list("number", "n"))
    if not sizes:
        raise ValidationError(_("This round has no tables to publish."))
    wrong = [str(number) for number, n in sizes if not tournament.table_min <= n <= tournament.table_max]
    if wrong:
        # A withdrawal after the draw takes the player's seat away: draw the round again first.
        raise ValidationError(
            _("Tables %(tables)s do not have %(min)s to %(max)s players: draw the round again.")
            % {"tables": ", ".join(wrong), "min": tournament.table_min, "max": tournament.table_max}
        )
    return _round_set_status(
        round_, user=user, allowed_from=[Round.Status.DRAFT], status=Round.Status.PUBLISHED,
        action="round_publish",
    )


@transaction.atomic
def round_open(*, round_: Round, user) -> Round:
    """Open the round for results: from now on the captains' links accept reports."""
    return _round_set_status(
        round_, user=user, allowed_from=[Round.Status.PUBLISHED], status=Round.Status.OPEN,
        action="round_open",
    )


@transaction.atomic
def round_close(*, round_: Round, user) -> Round:
    # Wait for results being stored right now; results sent after this see the closed round.
    list(Table.objects.select_for_update().filter(round_id=round_.pk).values_list("pk", flat=True))
    pending = round_.tables.exclude(status=Table.Status.CONFIRMED).values_list("number", flat=True)
    if pending:
        raise ValidationError(
            _("Tables still without a confirmed result: %(tables)s.")
            % {"tables": ", ".join(map(str, pending))}
        )
    round_ = _round_set_status(
        round_, user=user, allowed_from=[Round.Status.PUBLISHED, Round.Status.OPEN],
        status=Round.Status.CLOSED, action="round_close",
    )
    # A backup of the whole tournament after every round, once the close is committed; a failing disk
    # is logged but never undoes the close (robust=True).
    def write_backup() -> None:
        backup.backup_after_round_close(round_)

    transaction.on_commit(write_backup, robust=True)
    return round_


@transaction.atomic
def round_reopen(*, round_: Round, user) -> Round:
    """Reopen a closed round to correct a result found wrong later; closing it again is one click."""
    return _round_set_status(
        round_, user=user, allowed_from=[Round.Status.CLOSED], status=Round.Status.OPEN, action="round_reopen"
    )


@transaction.atomic
def round_delete_draft(*, round_: Round, user) -> None:
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.DRAFT:
        raise ValidationError(_("Only a drafted round can be deleted."))
    audit(tournament=round_.tournament, user=user, action="round_delete", before=round_snapshot(round_),
          after={"round": round_.number})
    round_.delete()


@transaction.atomic
def table_regenerate_token(*, table: Table, user) -> Table:
    """A new link for a table; the old one stops working at once."""
    from .models import new_table_token

    table = Table.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=table.pk)
    table.token = new_table_token()
    table.save(update_fields=["token"])
    audit(tournament=table.round.tournament, user=user, round_=table.round, table=table, action="token_new")
    return table


# --- Results ------------------------------------------------------------------------------------

@dataclass
class SubmitOutcome:
    """What `result_submit` did: the stored version (or the earlier one a repeated POST matched)."""

    validation: Validation | None = None
    submission: Submission | None = None
    duplicate: bool = False
    needs_confirmation: bool = False
    errors: list = field(default_factory=list)
    # The entries just stored, in seat order (empty for a duplicate): the answer needs no new query.
    entries: list[SubmissionEntry] = field(default_factory=list)

    @property
    def stored(self) -> bool:
        return self.submission is not None


def entries_signature(submission: Submission) -> tuple:
    """What two independent entries must agree on: each player's points and who went out."""
    lines = sorted((e.registration_id, e.hand_points, e.went_out) for e in submission.entries.all())
    return (*lines, submission.stopped_by_time)


def result_submit(
    *,
    table: Table,
    seats: Sequence[SeatReport],
    source: str,
    user=None,
    token: str = "",
    ip_address: str | None = None,
    idempotency_key: str = "",
    stopped_by_time: bool = False,
    confirm_warnings: bool = False,
    seated: Sequence[Seat] | None = None,
    sent: Sequence[Submission] | None = None,
) -> SubmitOutcome:
    """Validate a table's report with the engine and store it as a new version.

    A repeated POST with the same idempotency key returns the version stored the first time.
    An organizer's entry is confirmed at once unless the tournament requires a second entry.

    The engine checks the report before any lock is taken: it needs only the table's seats (fixed
    once a round is published) and the wins of earlier rounds. Fifty captains sending at once then
    queue on the database only for the short write (SQLite lets one writer in at a time). Pass the
    table with its round and tournament (select_related): its status is read again under the lock.
    A caller that has just read the table's seats (`tournament.sql.table_seats`) or its versions
    passes them as `seated` and `sent`, and they are not read again.
    """
    round_, tournament = table.round, table.round.tournament
    captain = source == Submission.Source.CAPTAIN
    open_statuses = {Round.Status.OPEN} if captain else {Round.Status.PUBLISHED, Round.Status.OPEN}
    # The reads on this path are hand-written SQL (tournament.sql): fifty captains send at once.
    if idempotency_key:
        sent = sql.table_submissions(table) if sent is None else sent
        earlier = next((s for s in sent if s.idempotency_key == idempotency_key), None)
        if earlier is not None:
            return SubmitOutcome(submission=earlier, duplicate=True)
    # Whether the round still accepts results is decided under the lock, from fresh rows: the table
    # passed in may carry a round read before it was opened or closed.
    seated = sql.table_seats(table) if seated is None else seated
    seat_regs = [seat.registration_id for seat in seated]
    context = ReportContext(
        deck=get_deck(tournament.deck),
        time_limit=bool(tournament.time_limit_minutes),
        wins_so_far={seat.registration_id: seat.wins_before for seat in seated if seat.wins_before},
        rounds_before=round_.number - 1,
        player_names={seat.registration_id: seat.registration.player.name for seat in seated},
    )
    validation = validate_table(
        TableReport(seated=seat_regs, seats=list(seats), stopped_by_time=stopped_by_time), context
    )
    # (Without a time limit at all the engine already refuses a stopped round.)
    clock_running = tournament.time_limit_minutes and not clock.may_report_stopped_by_time(round_)
    if stopped_by_time and captain and clock_running:
        # The server decides, not the phone's clock: only a run-out round clock stops a round.
        validation.errors.append(Issue(
            code="clock_running", severity="error", params={}, player_id=None,
            message=gettext_noop("The round clock has not run out: the round cannot be reported as stopped."),
        ))
    if not validation.ok:
        return SubmitOutcome(validation=validation, errors=validation.errors)
    if validation.warnings and not confirm_warnings:
        return SubmitOutcome(validation=validation, needs_confirmation=True)
    scores = round_scores(ScoringFormat(tournament.scoring), validation.points, validation.winner)
    entries = [
        SubmissionEntry(
            registration_id=reg_id,
            cards=format_hand(validation.hands[reg_id]) if validation.hands.get(reg_id) else "",
            card_count=validation.card_counts.get(reg_id),
            hand_points=validation.points[reg_id], score=scores[reg_id],
            went_out=validation.winner == reg_id,
        )
        for reg_id in seat_regs
    ]
    start_numbers = {seat.registration_id: seat.registration.start_number for seat in seated}
    return _store_submission(
        table=table, entries=entries, start_numbers=start_numbers, open_statuses=open_statuses,
        source=source, user=user, token=token, ip_address=ip_address, idempotency_key=idempotency_key,
        stopped_by_time=stopped_by_time, validation=validation,
    )


def _check_accepts(table: Table, round_status: str, open_statuses: set[str], *, captain: bool) -> None:
    if round_status not in open_statuses:
        raise ValidationError(_("This round does not accept results."))
    if captain and table.status == Table.Status.CONFIRMED:
        # Checked again under the table lock: a captain's late report never races past a confirmation.
        raise ValidationError(_("This result has been confirmed; only the organizer can correct it now."))


@transaction.atomic
def _store_submission(
    *, table: Table, entries: list[SubmissionEntry], start_numbers: dict[int, int], open_statuses: set[str],
    source: str, user, token: str, ip_address: str | None, idempotency_key: str, stopped_by_time: bool,
    validation,
) -> SubmitOutcome:
    """The write: lock the table, check again what may have changed, store the next version."""
    # Only this table's row is locked: fifty captains at once must not queue on the round's and the
    # tournament's rows. The round's status is read again after the lock, so a round closed meanwhile
    # is seen (round_close locks the tables first).
    round_, tournament = table.round, table.round.tournament
    table.status, round_.status = sql.lock_table(table)
    versions = sql.table_version_keys(table)
    if idempotency_key and idempotency_key in versions:
        # The same report, sent twice at once: the other request stored it.
        earlier = table.submissions.get(idempotency_key=idempotency_key)
        return SubmitOutcome(submission=earlier, duplicate=True)
    _check_accepts(table, round_.status, open_statuses, captain=source == Submission.Source.CAPTAIN)
    version = max(versions.values(), default=0) + 1
    submission = Submission(
        table=table, version=version, source=source,
        created_by=user if user is not None and user.is_authenticated else None,
        token=token, ip_address=ip_address, idempotency_key=idempotency_key,
        stopped_by_time=stopped_by_time, warnings_confirmed=bool(validation.warnings),
    )
    sql.insert([submission])
    for entry in entries:
        entry.submission = submission
    sql.insert(entries)
    snapshot = {
        "version": submission.version, "source": submission.source,
        "stopped_by_time": submission.stopped_by_time, "confirmed": submission.confirmed,
        "entries": [
            {"start_number": start_numbers[e.registration_id], "cards": e.cards, "card_count": e.card_count,
             "hand_points": e.hand_points, "score": e.score, "went_out": e.went_out}
            for e in sorted(entries, key=lambda e: start_numbers[e.registration_id])
        ],
    }
    audit(
        tournament=tournament, user=user,
        actor="" if user else _("captain, table %(n)s") % {"n": table.number},
        round_=round_, table=table, action="result_submit", after=snapshot,
    )
    if source == Submission.Source.ORGANIZER and not tournament.require_second_entry:
        _confirm(submission, table=table, user=user)
        table.status = Table.Status.CONFIRMED
    elif tournament.require_second_entry:
        table.status = _second_entry_status(table, user=user)
    elif table.status != Table.Status.CONFIRMED:
        table.status = Table.Status.REPORTED  # a new, unconfirmed version; a confirmed one stays
    sql.update_table_status(table)
    return SubmitOutcome(validation=validation, submission=submission, entries=entries)


def _confirm(submission: Submission, *, table: Table, user) -> None:
    previous = table.submissions.filter(confirmed=True).exclude(pk=submission.pk).first()
    if previous is not None:
        previous.confirmed = False
        previous.save(update_fields=["confirmed"])
    submission.confirmed, submission.confirmed_at = True, timezone.now()
    submission.confirmed_by = user if user is not None and user.is_authenticated else None
    submission.save(update_fields=["confirmed", "confirmed_at", "confirmed_by"])
    audit(
        tournament=table.round.tournament, user=user, round_=table.round, table=table,
        action="result_confirm",
        before={"version": previous.version} if previous else None, after={"version": submission.version},
    )


def _second_entry_status(table: Table, *, user) -> str:
    """With a second, independent entry required: confirm when the newest captain's and organizer's
    versions agree, show the table as disputed when they differ (read once, under the table lock)."""
    newest = {}
    for submission in table.submissions.prefetch_related("entries").order_by("version"):
        newest[submission.source] = submission
    both = [newest[source] for source in Submission.Source.values if source in newest]
    if len(both) == 2 and entries_signature(both[0]) == entries_signature(both[1]):
        latest = max(both, key=lambda s: s.version)
        if not latest.confirmed:
            _confirm(latest, table=table, user=user)
        return Table.Status.CONFIRMED
    if table.submissions.filter(confirmed=True).exists():  # an earlier agreement stays confirmed
        return Table.Status.CONFIRMED
    return Table.Status.DISPUTED if len(both) == 2 else Table.Status.REPORTED


@transaction.atomic
def result_confirm(*, submission: Submission, user) -> Submission:
    """The organizer's one click: this version is the table's result."""
    table = Table.objects.select_for_update().select_related("round__tournament").get(pk=submission.table_id)
    submission = Submission.objects.get(pk=submission.pk)
    tournament = table.round.tournament
    if table.round.status == Round.Status.CLOSED:
        raise ValidationError(_("The round is closed."))
    if tournament.require_second_entry:
        other = table.submissions.exclude(source=submission.source).order_by("-version").first()
        if other is None or entries_signature(other) != entries_signature(submission):
            raise ValidationError(_("This tournament requires a second, matching entry before confirmation."))
    _confirm(submission, table=table, user=user)
    table.status = Table.Status.CONFIRMED
    table.save(update_fields=["status"])
    return submission


@transaction.atomic
def tournament_delete(*, tournament: Tournament, user) -> None:
    """Delete a tournament with its rounds, results and audit log; players and clubs stay for the next one.

    The audit log goes with the tournament, so the deletion itself is written to the server log.
    """
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    logger.info(
        "tournament %s (%s) deleted by %s", tournament.pk, tournament.name,
        user.get_username() if user is not None and user.is_authenticated else "-",
    )
    tournament.delete()


# --- Printing -----------------------------------------------------------------------------------


@transaction.atomic
def tournament_set_logo(*, tournament: Tournament, user, logo: UploadedFile | None) -> Tournament:
    """Store (or, with None, remove) the club logo printed on the certificates.

    The replaced file is deleted only once the change is committed, so a rollback keeps it.
    """
    old_name = tournament.logo.name or ""
    storage = tournament.logo.storage
    if logo is not None:
        tournament.logo.save(logo.name, logo, save=False)
    else:
        tournament.logo = ""
    tournament.save(update_fields=["logo"])
    new_name = tournament.logo.name or ""
    if old_name and old_name != new_name:
        transaction.on_commit(lambda: storage.delete(old_name))
    audit(tournament=tournament, action="tournament_logo", user=user, before=old_name, after=new_name)
    return tournament
