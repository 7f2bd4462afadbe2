"""Every read the pages need, with a fixed number of queries whatever the size of the tournament.

Selectors also turn rows into the plain data the engine works on, so the engine never sees a model.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from engine.scoring import EndRule, ScoringFormat, is_finished
from engine.seating import Round as SeatingRound
from engine.seating import SeatingPlayer, SeatingReport, schedule_stats
from engine.standings import MissedRoundPolicy, RoundResult, StandingRow, StandingsSettings, compute_standings

from .models import Registration, Round, Seat, Submission, SubmissionEntry, Table, Tournament


def standings_settings(tournament: Tournament) -> StandingsSettings:
    from engine.standings import DEFAULT_TIEBREAKS

    return StandingsSettings(
        fmt=ScoringFormat(tournament.scoring),
        tiebreaks=tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS),
        missed_policy=MissedRoundPolicy(tournament.missed_rounds),
    )


def registrations(tournament: Tournament) -> QuerySet[Registration]:
    return tournament.registrations.select_related("player", "player__club").order_by("start_number")


def registration_counts(tournament: Tournament) -> dict[str, int]:
    """Players per registration status, and "total" (one query)."""
    counts = {status: 0 for status in Registration.Status.values}
    for status in tournament.registrations.values_list("status", flat=True):
        counts[status] += 1
    counts["total"] = sum(counts.values())
    return counts


def active_registrations(tournament: Tournament) -> list[Registration]:
    """Who is seated in the next round: checked in and not withdrawn."""
    return list(registrations(tournament).filter(status=Registration.Status.CHECKED_IN))


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


def seating_players(regs: list[Registration]) -> list[SeatingPlayer]:
    return [SeatingPlayer(id=reg.pk, club=reg.player.club_name) for reg in regs]


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


def seating_plan_summary(tournament: Tournament) -> SeatingPlanSummary | None:
    """None without a stored plan. Repeats count from round 1: rounds played before planning included."""
    plan = tournament.seating_plan or {}
    planned = sorted(int(number) for number in plan.get("rounds", {}))
    if not planned:
        return None
    rounds = seating_history(tournament, before_round=planned[0])
    rounds += [plan["rounds"][str(number)] for number in planned]
    in_plan = set(plan.get("players", []))
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
        submissions = Submission.objects.prefetch_related(
            Prefetch("entries", queryset=SubmissionEntry.objects.order_by("id"))
        ).order_by("-version")
        prefetch.append(Prefetch("submissions", queryset=submissions))
    return list(round_.tables.order_by("number").prefetch_related(*prefetch))


def table_counts(round_: Round) -> dict[str, int]:
    counts = {status: 0 for status in Table.Status.values}
    for status in round_.tables.values_list("status", flat=True):
        counts[status] += 1
    return counts


def confirmed_results(tournament: Tournament, round_numbers: list[int]) -> list[RoundResult]:
    entries = SubmissionEntry.objects.filter(
        submission__confirmed=True,
        submission__table__round__tournament=tournament,
        submission__table__round__number__in=round_numbers,
    ).values_list("registration_id", "submission__table__round__number", "score", "went_out")
    return [RoundResult(player_id=r, round_number=n, score=s, went_out=w) for r, n, s, w in entries]


@dataclass(frozen=True)
class StandingLine:
    """One line of the standings: the engine's row with the registration it belongs to."""

    row: StandingRow
    registration: Registration

    @property
    def player(self):
        return self.registration.player

    @property
    def round_cells(self) -> list[tuple[int, int | None, int | None]]:
        """(round, score, charged) per counted round; score None: missed, charged set by that policy."""
        return [(number, score, self.row.charged.get(number)) for number, score in self.row.per_round.items()]


def counted_rounds(tournament: Tournament, *, include_open: bool = False) -> list[int]:
    statuses = [Round.Status.CLOSED]
    if include_open:
        statuses += [Round.Status.OPEN, Round.Status.PUBLISHED]
    return list(
        tournament.rounds.filter(status__in=statuses).order_by("number").values_list("number", flat=True)
    )


def standings(
    tournament: Tournament, *, after_round: int | None = None, include_open: bool = False
) -> tuple[list[int], list[StandingLine]]:
    """Standings over the closed rounds (up to after_round): three queries for any size."""
    rounds = counted_rounds(tournament, include_open=include_open)
    if after_round is not None:
        rounds = [number for number in rounds if number <= after_round]
    regs = {
        reg.pk: reg
        for reg in registrations(tournament).filter(seats__round__number__in=rounds).distinct()
    } if rounds else {}
    rows = compute_standings(
        list(regs), confirmed_results(tournament, rounds), rounds, standings_settings(tournament)
    )
    return rounds, [StandingLine(row=row, registration=regs[row.player_id]) for row in rows]


def known_players(tournament: Tournament, user) -> list:
    """Players of the organizer's earlier tournaments not yet registered here, by club then name.

    Offered on the players page so a club's member list is typed once and added with one click.
    """
    from .models import Player

    earlier = Tournament.objects.exclude(pk=tournament.pk)
    if not user.is_superuser:
        earlier = earlier.filter(organizers=user)
    return list(
        Player.objects.filter(registrations__tournament__in=earlier)
        .exclude(registrations__tournament=tournament)
        .select_related("club")
        .distinct()
        .order_by("club__name", "last_name", "first_name")
    )


def tournament_finished(
    tournament: Tournament, rounds: list[int] | None = None, lines: list[StandingLine] | None = None
) -> bool:
    """After the last round, or, with a threshold, as soon as a total reaches it (RULES.md section 3).

    Pass the standings a page has already computed to save their queries.
    """
    if rounds is None or lines is None:
        rounds, lines = standings(tournament)
    return is_finished(
        end_rule=EndRule(tournament.end_rule),
        rounds_played=len(rounds),
        rounds_total=tournament.rounds_total,
        totals={line.row.player_id: line.row.total for line in lines},
        threshold=tournament.threshold,
    )
