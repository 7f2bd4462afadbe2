"""The standings of a tournament: confirmed results as plain data, ranked by `engine.standings`.

Three queries for any size of tournament.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch, Q

from engine.rankings import (
    CATEGORY_FACTS,
    Category,
    GroupRow,
    GroupValue,
    MemberScore,
    PlayerFacts,
    categories_of,
    category_ranking,
    group_ranking,
    undecided,
)
from engine.scoring import EndRule, ScoringFormat, is_finished
from engine.standings import (
    DEFAULT_TIEBREAKS,
    MissedRoundPolicy,
    RoundResult,
    StandingRow,
    StandingsSettings,
    compute_standings,
)
from engine.text import person_sort_key
from tournament.models import Club, Registration, Round, Series, SubmissionEntry, Team, Tournament

from ..players.selectors import registrations


def undecided_notes(undecided: dict[Category, int]) -> list[tuple[Category, int, str]]:
    """(category, players not known, the fact they lack: "gender", "born" or "member") for each
    category with no ranking (docs/rules.md §8), as the evening's and the season's pages say it."""
    return [(category, count, CATEGORY_FACTS[category]) for category, count in undecided.items()]


def standings_hidden(tournament: Tournament) -> bool:
    """Silent final rounds (docs/rules.md §9): the standings are kept from everybody but the organizers
    once round `standings_hidden_from` (or a later one) is published, until the organizer reveals them.
    No query unless the setting is on and not revealed; then one."""
    hidden_from = unrevealed_from(tournament)
    if hidden_from is None:
        return False
    return tournament.rounds.filter(number__gte=hidden_from).exclude(
        status=Round.Status.DRAFT
    ).exists()


def unrevealed_from(tournament: Tournament) -> int | None:
    """The first round of silent final rounds not revealed yet, else None: no public figure counts
    that round or a later one (a closed round there has been published, so it is hidden)."""
    if tournament.standings_hidden_from is None or tournament.standings_revealed:
        return None
    return tournament.standings_hidden_from


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
    lines = [StandingLine(row=row, registration=regs[row.player_id]) for row in rows]
    return rounds, sorted(lines, key=_place_then_name)


def _place_then_name(line: StandingLine) -> tuple:
    """Players sharing a place are listed by name in German order (`engine.text`), not by id."""
    player = line.registration.player
    return line.row.rank, person_sort_key(player.last_name, player.first_name), line.row.player_id


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


def evening_over(
    tournament: Tournament, rounds: list[int] | None = None, lines: list[StandingLine] | None = None,
    *, last_round: Round | None = None,
) -> bool:
    """The one answer to "is the evening over", for the pages, the projector and every document: its
    last round is closed and the standings say no further round is played (`tournament_finished`).
    Pass the standings and the last round a caller has already read to save their queries."""
    last = last_round or tournament.rounds.order_by("-number").only("status").first()
    return (
        last is not None and last.status == Round.Status.CLOSED
        and tournament_finished(tournament, rounds, lines)
    )


@dataclass
class TournamentRankings:
    """Club, team and category rankings of one evening, from its standings."""

    clubs: list[tuple[GroupRow, Club]]
    club_best: int
    club_value: GroupValue
    teams: list[tuple[GroupRow, Team]]
    categories: dict[Category, list[tuple[int, bool, StandingLine]]]
    # Registration id → that player's categories on this evening (the standings' category column).
    player_categories: dict[int, frozenset[Category]] = field(default_factory=dict)
    field_size: int = 0  # players in the standings
    # Categories with known members but also players of whom it is not known whether they belong (no
    # gender given, no birth data, membership not asked): how many such players. Such a category has
    # no ranking and no certificate (docs/rules.md §8); the pages and documents say why instead.
    undecided: dict[Category, int] = field(default_factory=dict)

    @property
    def whole_field(self) -> list[Category]:
        """Categories every player of the standings is in (all members; all newcomers on a series' first
        evening): their ranking is the standings themselves."""
        return [category for category, rows in self.categories.items() if len(rows) == self.field_size]

    @property
    def undecided_notes(self) -> list[tuple[Category, int, str]]:
        return undecided_notes(self.undecided)

    @property
    def listed_categories(self) -> dict[Category, list[tuple[int, bool, StandingLine]]]:
        """The categories worth listing beside the standings: those that leave somebody out."""
        return {category: rows for category, rows in self.categories.items() if len(rows) < self.field_size}


def tournament_rankings(
    tournament: Tournament, lines: list[StandingLine], *, best: int | None = None,
    value: GroupValue | None = None,
) -> TournamentRankings:
    """At most four queries: the series (for K and the age limits), the teams and their players, and
    the earlier evenings of the series (who is new)."""
    from ..series.rules import age_limits

    series = Series.objects.filter(pk=tournament.series_id).first() if tournament.series_id else None
    best = best or (series.club_best if series else 3)
    value = value or GroupValue(series.club_value if series else GroupValue.SUM)
    higher = not ScoringFormat(tournament.scoring).lower_is_better
    complete = [line for line in lines if line.row.complete or line.row.charged]
    clubs = {line.player.club_id: line.player.club for line in lines if line.player.club_id}
    club_rows = group_ranking(
        # A club's best K are its K best placed players (docs/rules.md §8), not its K lowest totals.
        [MemberScore(line.registration.pk, line.player.club_id, line.row.total, place=line.row.rank)
         for line in complete if line.player.club_id],
        best=best, higher_is_better=higher, value=value,
    )
    team_list = list(
        tournament.teams.prefetch_related(Prefetch("members", queryset=Registration.objects.only("pk")))
    )
    by_team = {team.pk: team for team in team_list}
    totals = {line.registration.pk: line.row.total for line in lines}
    team_rows = group_ranking(
        [MemberScore(reg.pk, team.pk, totals[reg.pk]) for team in team_list for reg in team.members.all()
         if reg.pk in totals],
        best=None, higher_is_better=higher, value=GroupValue.SUM,
    )
    earlier = set()
    if series is not None:
        earlier = set(
            Registration.objects.filter(
                tournament__series=series, player__in=[line.player.pk for line in lines]
            ).filter(Q(tournament__date__lt=tournament.date) | Q(tournament__date=tournament.date,
                                                                 tournament__pk__lt=tournament.pk))
            .values_list("player_id", flat=True)
        )
    limits = age_limits(series)
    overall = [(line.registration.pk, line.row.rank) for line in lines]
    by_reg = {line.registration.pk: line for line in lines}
    player_facts = {
        line.registration.pk: PlayerFacts(
            player_id=line.player.pk, gender=line.player.gender, born=line.player.born,
            member=line.player.member, newcomer=series is not None and line.player.pk not in earlier,
        )
        for line in lines
    }
    facts = {pk: categories_of(one, tournament.date, limits) for pk, one in player_facts.items()}
    categories, undecided_counts = {}, {}
    for category in Category:
        placed = category_ranking(overall, [pk for pk, found in facts.items() if category in found])
        unknown = sum(1 for one in player_facts.values() if undecided(one, category))
        if placed and unknown:
            undecided_counts[category] = unknown
        elif placed:
            categories[category] = [(row.rank, row.shared, by_reg[row.player_id]) for row in placed]
    return TournamentRankings(
        clubs=[(row, clubs[row.group_id]) for row in club_rows], club_best=best, club_value=value,
        teams=[(row, by_team[row.group_id]) for row in team_rows], categories=categories,
        player_categories=facts, field_size=len(lines), undecided=undecided_counts,
    )
