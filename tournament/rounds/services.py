"""Writes of rounds: seat (one round or a plan of all), swap, publish, open, close, reopen, delete a draft.

Seating is computed by `engine.seating` from plain data the selectors build; these functions store
the answer. The tournament's (or the round's) row is locked first, so two organizers cannot seat or
change one round at once.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _

from engine import seating
from engine.seating import PlanKind, StoredPlan
from tournament.models import Registration, Round, Seat, SeatingPlan, Table, Tournament, new_table_token
from tournament.permissions import Capability, require

from ..audit.actions import AuditAction
from ..audit.services import audit
from ..backup import services as backup
from ..players import selectors as player_selectors
from ..standings.selectors import tournament_finished
from ..teams.selectors import team_of_registration
from . import selectors


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


def store_plan(*, tournament: Tournament, plan: StoredPlan | None) -> None:
    """Write the tournament's seating plan (None: it has none), inside the caller's transaction."""
    if plan is None:
        SeatingPlan.objects.filter(tournament=tournament).delete()
    else:
        SeatingPlan.objects.update_or_create(tournament=tournament, defaults=plan.to_json())


def plan_snapshot(plan: StoredPlan) -> dict:
    """The plan of all rounds for the audit log: round number → tables, as the log shows it."""
    return {
        "players": list(plan.players), "sizes": list(plan.sizes), "seed": plan.seed,
        "rounds": {str(number): tables for number, tables in plan.numbered_rounds().items()},
    }


def _plan_rounds(
    tournament: Tournament, *, regs: list[Registration], sizes: list[int], number: int, seed: int,
    previous: StoredPlan | None,
) -> StoredPlan:
    """Plan rounds `number`..last; with the `previous` plan of all rounds, start from it (players withdrew
    or arrived)."""
    old = previous.numbered_rounds() if previous is not None else {}
    earlier = [old[n] for n in range(number, tournament.rounds_total + 1) if n in old]
    teams = team_of_registration(tournament) if tournament.separate_teams else {}
    rounds = seating.plan_schedule(
        selectors.seating_players(regs, teams), tournament.rounds_total, sizes, seed=seed,
        history=selectors.seating_history(tournament, before_round=number),
        previous_plan=earlier or None, preferred=tournament.table_size, effort=settings.SEATING_EFFORT,
    )
    return StoredPlan.build(
        kind=PlanKind.ALL, players=[reg.pk for reg in regs], sizes=sizes, seed=seed, from_round=number,
        rounds=rounds,
    )


@transaction.atomic
def seating_plan_create(*, tournament: Tournament, user, seed: int | None = None) -> StoredPlan:
    """Plan every round not yet seated, so start cards can list each player's tables in advance."""
    require(user, tournament, Capability.SEAT)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number = tournament.rounds.exclude(status=Round.Status.DRAFT).count() + 1
    if number > tournament.rounds_total:
        raise ValidationError(_("All rounds have been played."))
    regs = player_selectors.active_registrations(tournament)
    sizes = table_sizes(tournament, len(regs))
    seed = seed if seed is not None else secrets.randbits(48)
    previous = selectors.planned_rounds(tournament)
    plan = _plan_rounds(tournament, regs=regs, sizes=sizes, number=number, seed=seed, previous=previous)
    store_plan(tournament=tournament, plan=plan)
    audit(tournament=tournament, user=user, action=AuditAction.SEATING_PLAN, after=plan_snapshot(plan))
    return plan


def _next_tables(
    tournament: Tournament, *, regs: list[Registration], number: int, seed: int, redraw: bool
) -> list[list[int]]:
    """The tables of round `number`. Planned all at the start: the stored plan's round (a redraw plans
    afresh; a changed field re-plans from the stored plan). Round by round: from round 2 on, the plan it
    follows is read, or made and stored when there is none for this field (plan_to_follow)."""
    sizes = table_sizes(tournament, len(regs))
    stored = selectors.seating_plan(tournament)
    if tournament.plan_all_rounds:
        plan = stored if stored is not None and stored.kind == PlanKind.ALL else None
        ids = tuple(sorted(reg.pk for reg in regs))
        current = plan is not None and plan.players == ids and plan.sizes == tuple(sizes)
        if redraw or not current or plan.round(number) is None:
            previous = None if redraw else plan
            plan = _plan_rounds(
                tournament, regs=regs, sizes=sizes, number=number, seed=seed, previous=previous
            )
            store_plan(tournament=tournament, plan=plan)
        return plan.round(number)
    teams = team_of_registration(tournament) if tournament.separate_teams else {}
    clubs = tournament.separate_clubs and number == 1
    players = selectors.seating_players(regs, teams, clubs=clubs)
    history = selectors.seating_history(tournament, before_round=number)
    stored_followed = stored if stored is not None and stored.kind == PlanKind.FOLLOWED else None
    tables, followed = seating.seat_following(
        players, history, sizes, seed=seed, n_rounds=tournament.rounds_total, plan=stored_followed,
        separate_clubs=clubs, preferred=tournament.table_size, effort=settings.SEATING_EFFORT,
    )
    if followed != stored_followed:
        store_plan(tournament=tournament, plan=followed)
    return tables


@transaction.atomic
def round_seat(*, tournament: Tournament, user, seed: int | None = None) -> Round:
    """Seat the next round (or re-seat the drafted one) with the engine, from a recorded seed."""
    require(user, tournament, Capability.SEAT)
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    round_ = tournament.rounds.order_by("-number").first()
    if round_ is not None and round_.status != Round.Status.DRAFT:
        if round_.status != Round.Status.CLOSED:
            raise ValidationError(
                _("Close round %(n)s before seating the next one.") % {"n": round_.number}
            )
        if tournament_finished(tournament):
            raise ValidationError(_("The tournament is finished: no further round is played."))
        round_ = None
    number = round_.number if round_ else (tournament.rounds.count() + 1)
    regs = player_selectors.active_registrations(tournament)
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
        tournament=tournament, user=user, round_=round_, action=AuditAction.ROUND_SEAT,
        before=before, after={"seed": seed, "tables": round_snapshot(round_)},
    )
    return round_


@transaction.atomic
def round_swap(*, round_: Round, user, first: Seat, second: Seat) -> None:
    """Swap two players in a drafted seating (each keeps the other's table and seat)."""
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require(user, round_.tournament, Capability.SEAT)
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
        tournament=round_.tournament, user=user, round_=round_, action=AuditAction.ROUND_SWAP,
        before=before, after=round_snapshot(round_),
    )


def _round_set_status(
    round_: Round, *, user, allowed_from: Iterable[str], status: str, action: AuditAction
) -> Round:
    round_ = Round.objects.select_for_update().select_related("tournament").get(pk=round_.pk)
    require(user, round_.tournament, Capability.SEAT)
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
        action=AuditAction.ROUND_PUBLISH,
    )


@transaction.atomic
def round_open(*, round_: Round, user) -> Round:
    """Open the round for results: from now on the captains' links accept reports."""
    return _round_set_status(
        round_, user=user, allowed_from=[Round.Status.PUBLISHED], status=Round.Status.OPEN,
        action=AuditAction.ROUND_OPEN,
    )


@transaction.atomic
def round_start(*, round_: Round, user) -> Round:
    """Publish a drafted round and open it for results in one step: the hall's turnaround, where the
    sheets are printed as the tables sit down and the first captain may report at once."""
    round_publish(round_=round_, user=user)
    return round_open(round_=round_, user=user)


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
        status=Round.Status.CLOSED, action=AuditAction.ROUND_CLOSE,
    )
    # A backup of the whole tournament after every round, once the close is committed; a failing disk
    # is logged but never undoes the close (robust=True).
    def write_backup() -> None:
        backup.write_after_round_close(round_)

    transaction.on_commit(write_backup, robust=True)
    return round_


@transaction.atomic
def round_reopen(*, round_: Round, user) -> Round:
    """Reopen a closed round to correct a result found wrong later; closing it again is one click."""
    return _round_set_status(
        round_, user=user, allowed_from=[Round.Status.CLOSED], status=Round.Status.OPEN,
        action=AuditAction.ROUND_REOPEN,
    )


@transaction.atomic
def table_regenerate_token(*, table: Table, user) -> Table:
    """A new link for a table; the old one stops working at once."""
    table = Table.objects.select_for_update(of=("self",)).select_related("round__tournament").get(pk=table.pk)
    table.token = new_table_token()
    table.save(update_fields=["token"])
    audit(
        tournament=table.round.tournament, user=user, round_=table.round, table=table,
        action=AuditAction.TOKEN_NEW,
    )
    return table
