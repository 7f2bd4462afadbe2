"""Reads of rounds, tables and seating, and the plain data the seating engine works on."""

from __future__ import annotations

import zlib
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Count, Max, Min, Prefetch, QuerySet
from django.utils import timezone

from engine.evening_end import RoundTimes, estimate_end, round_time
from engine.seating import PlanKind, SeatingPlayer, SeatingReport, StoredPlan, schedule_stats
from engine.seating import Round as SeatingRound
from tournament.models import (
    Registration,
    Round,
    Seat,
    SeatingPlan,
    Signup,
    Submission,
    SubmissionEntry,
    Table,
    TableConfirmation,
    Tournament,
)

from ..players.selectors import registration_counts
from ..standings.selectors import evening_over, standings, tournament_finished


def seating_history(tournament: Tournament, before_round: int | None = None) -> list[SeatingRound]:
    """Earlier rounds as lists of tables of registration ids in seat order (one query)."""
    seats = Seat.objects.filter(round__tournament=tournament).select_related("table", "round")
    if before_round is not None:
        seats = seats.filter(round__number__lt=before_round)
    by_round: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for seat in seats.order_by("round__number", "table__number", "position"):
        by_round[seat.round.number][seat.table.number].append(seat.registration_id)
    return [
        [tables[number] for number in sorted(tables)] for _round, tables in sorted(by_round.items())
    ]


def seating_players(
    regs: list[Registration], teams: dict[int, int] | None = None, *, clubs: bool = True
) -> list[SeatingPlayer]:
    """The engine's players: with `teams` (registration → team) their teams, which the engine keeps apart
    in every round; `clubs=False` leaves out the clubs (kept apart only in a club-separated round)."""
    teams = teams or {}
    return [
        SeatingPlayer(
            id=reg.pk,
            club=reg.player.club_name if clubs else "",
            team=str(teams[reg.pk]) if reg.pk in teams else "",
        )
        for reg in regs
    ]


@dataclass(frozen=True)
class SeatingPlanSummary:
    """The stored plan of all rounds as the organizer checks it before printing the start cards."""

    rounds: list[int]
    players: int
    report: SeatingReport  # over the rounds seated before the plan and every planned round
    arrived: int  # checked in now but not in the plan
    left: int  # in the plan but no longer checked in

    @property
    def out_of_date(self) -> bool:
        return bool(self.arrived or self.left)


PLAN_FIELDS = ("kind", "players", "sizes", "seed", "from_round", "rounds")  # StoredPlan.to_json's keys


def seating_plan(tournament: Tournament) -> StoredPlan | None:
    """The tournament's stored seating plan (of all rounds, or the one round by round follows): the one
    place it is read. None when there is none."""
    row = SeatingPlan.objects.filter(tournament=tournament).values(*PLAN_FIELDS).first()
    return StoredPlan.from_json(row) if row else None


def planned_rounds(tournament: Tournament) -> StoredPlan | None:
    """The plan of all rounds the organizer made (start cards, the plan summary); None without one."""
    plan = seating_plan(tournament)
    return plan if plan is not None and plan.kind == PlanKind.ALL else None


def seating_plan_summary(tournament: Tournament) -> SeatingPlanSummary | None:
    """None without a stored plan of all rounds. Repeats count from round 1: rounds played before
    planning included."""
    plan = planned_rounds(tournament)
    if plan is None:
        return None
    planned = sorted(plan.numbered_rounds())
    rounds = seating_history(tournament, before_round=plan.from_round)
    rounds += [plan.round(number) for number in planned]
    in_plan = set(plan.players)
    checked_in = set(
        tournament.registrations.filter(status=Registration.Status.CHECKED_IN).values_list("pk", flat=True)
    )
    return SeatingPlanSummary(
        rounds=planned,
        players=len(in_plan),
        report=schedule_stats(rounds, tournament.table_size),
        arrived=len(checked_in - in_plan),
        left=len(in_plan - checked_in),
    )


def round_tables(round_: Round, *, with_results: bool = True) -> list[Table]:
    """The round's tables with seats and players, and (with_results) the submissions, newest first,
    with their entries: two queries for the seating alone, four with the results."""
    seats = Seat.objects.select_related("registration__player__club").order_by("position")
    prefetch = [Prefetch("seats", queryset=seats)]
    if with_results:
        submissions = Submission.objects.select_related("player_check_by__player").prefetch_related(
            Prefetch("entries", queryset=SubmissionEntry.objects.order_by("id"))
        ).order_by("-version")
        prefetch.append(Prefetch("submissions", queryset=submissions))
    return list(round_.tables.order_by("number").prefetch_related(*prefetch))


def table_counts(round_: Round) -> dict[str, int]:
    counts = {status: 0 for status in Table.Status.values}
    for status in round_.tables.values_list("status", flat=True):
        counts[status] += 1
    return counts


@dataclass
class TableView:
    """A table as the round page shows it: seats in playing order with the scores of the version shown."""

    table: Table
    seats: list[Seat]
    latest: Submission | None
    confirmed: Submission | None
    entries: dict[int, SubmissionEntry] = field(default_factory=dict)
    # The tournament lets a second player's "Stimmt" make a result count (TableConfirmation.PLAYER_COUNTS).
    check_counts: bool = False

    @property
    def shown(self) -> Submission | None:
        return self.confirmed or self.latest

    @property
    def has_warnings(self) -> bool:
        """The newest version was sent with warnings the sender confirmed and is not confirmed yet."""
        return self.latest is not None and self.latest.warnings_confirmed and not self.latest.confirmed

    @property
    def needs_you(self) -> bool:
        """The organizer is needed here: a dispute, a correction after the confirmation, warnings, no
        report yet, or a report that only the organizer's click confirms. A report that a second player's
        "Stimmt" will confirm (`check_counts`) waits for the table, not for the organizer."""
        status = self.table.status
        if status == Table.Status.CONFIRMED:
            return False
        if status != Table.Status.REPORTED or self.has_warnings:
            return True
        return not (self.check_counts and self.latest is not None and not self.latest.player_check)

    @property
    def awaiting_confirmation(self) -> Submission | None:
        """The newest version when it is not the confirmed one: what the confirm button confirms."""
        if self.latest is not None and not self.latest.confirmed:
            return self.latest
        return None

    def rows(self) -> list[tuple[Seat, SubmissionEntry | None]]:
        return [(seat, self.entries.get(seat.registration_id)) for seat in self.seats]


def table_views(round_: Round) -> list[TableView]:
    """Every table of the round with its seats and the version shown (four queries)."""
    views = []
    check_counts = round_.tournament.table_confirmation == TableConfirmation.PLAYER_COUNTS
    for table in round_tables(round_):
        submissions = list(table.submissions.all())  # newest first
        confirmed = next((s for s in submissions if s.confirmed), None)
        view = TableView(
            table=table,
            seats=list(table.seats.all()),
            latest=submissions[0] if submissions else None,
            confirmed=confirmed,
            check_counts=check_counts,
        )
        if view.shown is not None:
            view.entries = {e.registration_id: e for e in view.shown.entries.all()}
        views.append(view)
    return views


@dataclass(frozen=True)
class RoundLine:
    """A round in the list of rounds: its tables counted by status."""

    round: Round
    counts: dict[str, int]

    @property
    def tables(self) -> int:
        return sum(self.counts.values())


def round_overview(tournament: Tournament) -> list[RoundLine]:
    """Every round of the tournament with its tables counted by status (two queries)."""
    rounds = list(tournament.rounds.order_by("number"))
    per_round: dict[int, dict[str, int]] = {r.pk: dict.fromkeys(Table.Status.values, 0) for r in rounds}
    statuses = Table.objects.filter(round__tournament=tournament).values_list("round_id", "status")
    for round_id, status in statuses:
        per_round[round_id][status] += 1
    return [RoundLine(round=r, counts=per_round[r.pk]) for r in rounds]


def seats_by_name(round_: Round) -> QuerySet[Seat]:
    """The round's seats, for choosing two players to swap (`SwapForm` lists them by German order)."""
    return Seat.objects.filter(round=round_).select_related("registration__player", "table")


def has_later_round(round_: Round) -> bool:
    """A round after this one has been seated (a closed round's next step is then not to seat one)."""
    return Round.objects.filter(tournament_id=round_.tournament_id, number__gt=round_.number).exists()


def next_table_needing_result(round_: Round, after: int) -> Table | None:
    """The next table (by number, wrapping round) whose paper sheet the desk still has to type: nothing
    reported yet, or (with a second entry) only the captain's version. A table a captain reported is
    reviewed and confirmed on its own page, never stored over by the desk's Enter."""
    statuses = [Table.Status.WAITING]
    if round_.tournament.require_second_entry:
        statuses.append(Table.Status.REPORTED)
    pending = list(round_.tables.filter(status__in=statuses).order_by("number"))
    later = [t for t in pending if t.number > after]
    return (later or pending or [None])[0]


def round_fingerprint(round_: Round) -> str:
    """Changes whenever a table of the round reports, is confirmed or gets a new link."""
    figures = round_.tables.aggregate(
        versions=Count("submissions"),
        newest=Max("submissions__id"),
        confirmed=Max("submissions__confirmed_at"),
    )
    tables = round_.tables.order_by("number").values_list("number", "status", "token")
    state = repr((round_.status, sorted(figures.items()), list(tables)))
    return f"{zlib.crc32(state.encode()):08x}"


class Step:
    """What the evening needs next (`Evening.next_step`), in the order of the evening."""

    ADD_PLAYERS = "add_players"  # nobody registered or signed up yet
    CHECK_IN = "check_in"  # fewer than two players checked in
    SEAT = "seat"  # seat the next round (round 1 or after a closed round)
    PUBLISH = "publish"  # a drafted seating to check and publish
    RESULTS = "results"  # a round takes results, some tables are not confirmed
    CLOSE = "close"  # every table confirmed: close the round (and draw the next)
    FINISH = "finish"  # the evening is over: standings, prizes, certificates


@dataclass
class Evening:
    """The state of an evening, asked the same way by every page, view and service that needs it."""

    tournament: Tournament
    rounds: list[Round]
    checked_in: int
    registered: int
    signed_up: int  # sign-ups with a place, not yet registered
    finished: bool  # the standings say no further round is played (rounds or threshold reached)
    over: bool  # finished and its last round closed (`standings.selectors.evening_over`)
    unconfirmed: int = 0  # tables of the current round without a counting result
    # The standings the answers above were read from (closed rounds), for a page that shows them too.
    played: list[int] = field(default_factory=list)
    lines: list = field(default_factory=list)

    @property
    def current(self) -> Round | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def closed_rounds(self) -> int:
        return sum(1 for r in self.rounds if r.status == Round.Status.CLOSED)

    @property
    def can_seat_next(self) -> bool:
        """A further round may be seated now: none yet, or the last is closed and the evening goes on.
        (A drafted round is drawn again, not a further one.)"""
        current = self.current
        return current is None or (current.status == Round.Status.CLOSED and not self.finished)

    @property
    def next_step(self) -> str:
        current = self.current
        if current is None:
            if not self.registered and not self.signed_up:
                return Step.ADD_PLAYERS
            return Step.CHECK_IN if self.checked_in < 2 else Step.SEAT
        if current.status == Round.Status.DRAFT:
            return Step.PUBLISH
        if current.accepts_desk_results:
            return Step.RESULTS if self.unconfirmed else Step.CLOSE
        return Step.FINISH if self.finished else Step.SEAT

    @property
    def next_round_number(self) -> int:
        current = self.current
        if current is None:
            return 1
        return current.number + 1 if current.status == Round.Status.CLOSED else current.number


def evening(tournament: Tournament) -> Evening:
    """The evening's state: its rounds, players and whether it is finished (the standings' queries)."""
    rounds = list(tournament.rounds.order_by("number"))
    counts = registration_counts(tournament)
    current = rounds[-1] if rounds else None
    played, lines = standings(tournament)
    finished = bool(rounds) and tournament_finished(tournament, played, lines)
    unconfirmed = 0
    if current is not None and current.accepts_desk_results:
        unconfirmed = current.tables.exclude(status=Table.Status.CONFIRMED).count()
    return Evening(
        tournament=tournament, rounds=rounds, checked_in=counts[Registration.Status.CHECKED_IN],
        registered=counts["total"],
        signed_up=tournament.signups.filter(
            status=Signup.Status.CONFIRMED, registration__isnull=True
        ).count(),
        finished=finished,
        over=bool(rounds) and evening_over(tournament, played, lines, last_round=current),
        played=played, lines=lines,
        unconfirmed=unconfirmed,
    )


def expected_end(tournament: Tournament, *, rounds: list[Round] | None = None, now=None):
    """When the evening is expected to end (`engine.evening_end`, docs/rules.md §9), rounded to five
    minutes; None before every table of round 1 has reported and once the last round is closed.
    Two queries (one with `rounds` given): the rounds, and each table's first report."""
    if rounds is None:
        rounds = list(tournament.rounds.order_by("number"))
    if not rounds:
        return None
    reports: dict[int, list] = defaultdict(list)
    tables: dict[int, int] = defaultdict(int)
    for round_id, first in Table.objects.filter(round__tournament=tournament).annotate(
        first=Min("submissions__created_at")
    ).values_list("round_id", "first"):
        tables[round_id] += 1
        if first is not None:
            reports[round_id].append(first)
    times = [
        RoundTimes(
            number=r.number, tables=tables[r.pk], published_at=r.published_at,
            reports=tuple(reports[r.pk]), closed_at=r.closed_at, clock_started_at=r.clock_started_at,
            clock_seconds=r.clock_seconds, clock_paused=r.clock_paused_remaining is not None,
        )
        for r in rounds
    ]
    end = estimate_end(
        times, planned_rounds=max(tournament.rounds_total, rounds[-1].number), now=now or timezone.now(),
        time_limit_minutes=tournament.time_limit_minutes,
    )
    return None if end is None else round_time(end)
