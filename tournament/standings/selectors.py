"""The standings of a tournament: confirmed results as plain data, ranked by `engine.standings`.

Three queries for any size of tournament.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.scoring import EndRule, ScoringFormat, is_finished
from engine.standings import (
    DEFAULT_TIEBREAKS,
    MissedRoundPolicy,
    RoundResult,
    StandingRow,
    StandingsSettings,
    compute_standings,
)
from tournament.models import Registration, Round, SubmissionEntry, Tournament

from ..players.selectors import registrations


def standings_settings(tournament: Tournament) -> StandingsSettings:

    return StandingsSettings(
        fmt=ScoringFormat(tournament.scoring),
        tiebreaks=tuple(tournament.tiebreaks or DEFAULT_TIEBREAKS),
        missed_policy=MissedRoundPolicy(tournament.missed_rounds),
    )


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


def tournament_finished(
    tournament: Tournament, rounds: list[int] | None = None, lines: list[StandingLine] | None = None
) -> bool:
    """After the last round, or, with a threshold, as soon as a total reaches it (docs/rules.md §3).

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
