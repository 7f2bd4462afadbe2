"""Reads of a series: its evenings and the season standings, club and category rankings.

The season standings of any number of evenings and players take five queries: the evenings, their
counted rounds, the registrations, the confirmed entries, and the players with their clubs. Each evening is
ranked by `engine.standings` with its own settings (remembered per process on exactly that input:
`_evening_places`); the season by `engine.series`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from engine.rankings import (
    Category,
    GroupRow,
    GroupValue,
    PlayerFacts,
    categories_of,
    category_ranking,
    undecided,
)
from engine.scoring import EndRule, is_finished
from engine.series import (
    EveningResult,
    GapKind,
    SeasonEvening,
    SeasonRow,
    SeasonRule,
    adjustments,
    season_club_ranking,
    season_evenings,
    season_ranking,
)
from engine.standings import RoundResult, StandingsSettings, standing_places
from tournament.models import Club, Player, Registration, Round, Series, SubmissionEntry, Tournament

from ..permissions.scopes import managed_series
from ..standings.selectors import standings_settings, undecided_notes, unrevealed_from
from .rules import age_limits, describe_rule, season_rule


def series_of_user(user) -> QuerySet[Series]:
    """The series a user may add evenings to: those they organize."""
    return managed_series(user)


@dataclass(frozen=True)
class SeasonLine:
    row: SeasonRow
    player: Player
    categories: frozenset[Category]
    provisional: bool = False  # has points of an evening that is still running
    # Why the line stands where it does (issue #42, 9): the bonus and deductions as they change the
    # score, and (`evenings`) the season's evenings with the player's part in each.
    bonus_points: int = 0
    deduction_points: int = 0
    minus: bool = False  # the season adds up minus points (lower is better)
    season: tuple[Tournament, ...] = ()  # the season's evenings in order (one tuple for every line)
    results: tuple[EveningResult, ...] = ()  # the player's own results

    @cached_property
    def evenings(self) -> tuple[tuple[Tournament, SeasonEvening], ...]:
        """Every evening of the season in order with the player's part in it: played or not, place, season
        points, counted or dropped. Built when a page asks (the public season and the season card), not
        for every line of the organizer's page and the exports."""
        pks = [evening.pk for evening in self.season]
        return tuple(zip(self.season, season_evenings(self.row, pks, self.results), strict=True))
    @property
    def gap_figure(self) -> str:
        """The gap to the line above as a table cell shows it: the points behind ("0" when level), or the
        counted evenings fewer; empty for the first line and for a line not ranked."""
        return gap_figure(self.row)

    @property
    def gap_words(self) -> str:
        return gap_words(self.row, minus=self.minus)


def gap_figure(row: SeasonRow) -> str:
    gap = row.gap
    if gap is None:
        return ""
    if gap.kind is GapKind.EVENINGS:
        return ngettext("%(count)s evening fewer", "%(count)s evenings fewer", gap.evenings) % {
            "count": gap.evenings
        }
    return str(gap.points)


def gap_words(row: SeasonRow, *, minus: bool) -> str:
    """The gap to the line above in a sentence (the public season's details and the season card)."""
    gap = row.gap
    if gap is None:
        return ""
    values = {"place": gap.place, "count": gap.points}
    if gap.kind is GapKind.SHARED:
        return _("Level: shares place %(place)s.") % values
    if gap.kind is GapKind.TIEBREAK:
        return _("Level on points with place %(place)s; the tie-break puts that place ahead.") % values
    if gap.kind is GapKind.EVENINGS:
        return ngettext(
            "%(count)s counted evening fewer than place %(place)s.",
            "%(count)s counted evenings fewer than place %(place)s.", gap.evenings,
        ) % {"place": gap.place, "count": gap.evenings}
    if minus:
        return ngettext(
            "%(count)s minus point more than place %(place)s.",
            "%(count)s minus points more than place %(place)s.", gap.points,
        ) % values
    return ngettext(
        "%(count)s point behind place %(place)s.", "%(count)s points behind place %(place)s.", gap.points
    ) % values


@dataclass
class SeriesStandings:
    series: Series
    evenings: list[Tournament]
    lines: list[SeasonLine]
    clubs: list[tuple[GroupRow, Club]]
    categories: dict[Category, list[tuple[int, bool, SeasonLine]]] = field(default_factory=dict)
    rule_text: list[str] = field(default_factory=list)
    # Categories every ranked player is in (all members): named, not listed again.
    whole_field: list[Category] = field(default_factory=list)
    # Evenings whose points are in but which are not finished (docs/rules.md §3): their points may change.
    running: list[Tournament] = field(default_factory=list)
    rule: SeasonRule = field(default_factory=SeasonRule)
    # The public season (`public_only`): the evenings without a public page, counted but not shown one by
    # one, and how many players, who played only those, are not listed.
    private: list[Tournament] = field(default_factory=list)
    left_out: int = 0
    # Categories with no ranking: this many ranked players lack the fact that decides them (§8).
    undecided: dict[Category, int] = field(default_factory=dict)

    @property
    def undecided_notes(self) -> list[tuple[Category, int, str]]:
        return undecided_notes(self.undecided)

    @property
    def private_pks(self) -> set[int]:
        return {evening.pk for evening in self.private}

    @property
    def shown_evenings(self) -> list[Tournament]:
        return [evening for evening in self.evenings if evening.pk not in self.private_pks]

    @property
    def shows_bonus(self) -> bool:
        return bool(self.rule.attendance_bonus)

    @property
    def shows_deduction(self) -> bool:
        return bool(self.rule.miss_deduction)
    @property
    def running_pks(self) -> set[int]:
        return {evening.pk for evening in self.running}

    @property
    def provisional(self) -> bool:
        return bool(self.running)

    @property
    def marker(self) -> str:
        """ "provisional, evening 3 is running" (numbered in the season's order), or "" when final."""
        if not self.running:
            return ""
        numbers = [index for index, evening in enumerate(self.evenings, start=1) if evening in self.running]
        return ngettext(
            "provisional – evening %(evenings)s is running",  # noqa: RUF001
            "provisional – evenings %(evenings)s are running",  # noqa: RUF001
            len(numbers),
        ) % {"evenings": ", ".join(str(number) for number in numbers)}


@lru_cache(maxsize=64)  # a season of 12 evenings five times over; some 90 kB an evening of 180
def _evening_places(
    evening: int,
    settings: StandingsSettings,
    rounds: tuple[int, ...],
    entries: tuple[tuple[int, int, int, int, bool], ...],
    registrations: tuple[tuple[int, int, int], ...],
) -> tuple[EveningResult, ...]:
    """Every player's place and total on one evening, from its settings, its closed rounds, its
    confirmed entries (evening, registration, round, score, went out) and its registrations (evening,
    registration, player), both sorted.

    A pure function of exactly what it is given, so it is remembered per process: the key is the whole
    input, and any new, corrected or withdrawn result, round, setting or registration is another key
    (never a stale ranking). A season's past evenings are not ranked again on every request.
    """
    players = {reg_id: player_id for _evening, reg_id, player_id in registrations}
    results = [
        RoundResult(reg_id, number, score, went_out) for _evening, reg_id, number, score, went_out in entries
    ]
    places = standing_places(sorted({result.player_id for result in results}), results, rounds, settings)
    return tuple(
        EveningResult(
            player_id=players[reg_id], evening=evening, place=rank, total=total, field_size=len(places)
        )
        for reg_id, rank, total in places
    )


def evening_results(
    evenings: list[Tournament], *, public_only: bool = False
) -> tuple[list[EveningResult], dict[int, int], list[Tournament]]:
    """Every player's place and total on each evening, from the confirmed results of its closed rounds
    (three queries for all evenings together), registration id → player id, and the evenings that have
    points but are not finished (their standings are provisional, as their own documents say).

    `public_only`: an evening's silent final rounds not revealed yet count nowhere public, so they are
    left out here as if not played (the evening then stands as running)."""
    by_pk = {evening.pk: evening for evening in evenings}
    # No query here needs an order (the engine's results do not depend on it): without one, none joins
    # the tournaments to sort by their date, and the 4,000 entries of a season are not sorted at all.
    rounds: dict[int, list[int]] = {pk: [] for pk in by_pk}
    for tournament_id, number in Round.objects.filter(
        tournament__in=evenings, status=Round.Status.CLOSED
    ).order_by().values_list("tournament_id", "number"):
        rounds[tournament_id].append(number)
    # Registration → player as plain ids; each player's record is read once (not once per evening).
    registrations: dict[int, list[tuple[int, int, int]]] = {pk: [] for pk in by_pk}
    for row in Registration.objects.filter(tournament__in=evenings).order_by().values_list(
        "tournament_id", "pk", "player_id"
    ):
        registrations[row[0]].append(row)
    entries: dict[int, list[tuple[int, int, int, int, bool]]] = {pk: [] for pk in by_pk}
    for row in SubmissionEntry.objects.filter(
        submission__confirmed=True,
        submission__table__round__tournament__in=evenings,
        submission__table__round__status=Round.Status.CLOSED,
    ).order_by().values_list(
        "submission__table__round__tournament_id", "registration_id", "submission__table__round__number",
        "score", "went_out",
    ):
        entries[row[0]].append(row)
    if public_only:
        for pk, evening in by_pk.items():
            hidden_from = unrevealed_from(evening)
            if hidden_from is not None:
                rounds[pk] = [number for number in rounds[pk] if number < hidden_from]
                entries[pk] = [row for row in entries[pk] if row[2] < hidden_from]
    results = []
    running = []
    for pk, evening in by_pk.items():
        places = _evening_places(
            pk, standings_settings(evening), tuple(sorted(rounds[pk])), tuple(sorted(entries[pk])),
            tuple(sorted(registrations[pk])),
        )
        results += places
        finished = is_finished(
            end_rule=EndRule(evening.end_rule), rounds_played=len(rounds[pk]),
            rounds_total=evening.rounds_total, threshold=evening.threshold,
            totals={result.player_id: result.total for result in places},
        )
        if places and not finished:
            running.append(evening)
    regs = {reg_id: player_id for rows in registrations.values() for _evening, reg_id, player_id in rows}
    return results, regs, running


def series_of(tournament: Tournament) -> Series | None:
    """The series the tournament is an evening of, if any (one query, none without a series)."""
    return Series.objects.filter(pk=tournament.series_id).first() if tournament.series_id else None


def series_standings_of(
    tournament: Tournament, *, public_only: bool = False, preview: bool = False
) -> SeriesStandings | None:
    """The standings of the tournament's series; None when it is not an evening of one.

    `preview` (with `public_only`): the public season as it will be once this evening's public page is
    on, for its organizers' preview while it is off (nobody else reaches a page that is off)."""
    series = series_of(tournament)
    if series is None:
        return None
    return series_standings(series, public_only=public_only, also=tournament.pk if preview else None)


def series_evenings(
    series: Series, *, public_only: bool = False, also: int | None = None
) -> list[Tournament]:
    evenings = series.tournaments.order_by("date", "pk")
    return list(evenings.filter(Q(public=True) | Q(pk=also or 0)) if public_only else evenings)


def series_standings(
    series: Series, *, public_only: bool = False, also: int | None = None
) -> SeriesStandings:
    """The season, club and category rankings of a series: five queries for any size (the evenings,
    their closed rounds, the registrations, the confirmed entries, the players with their clubs).

    `public_only`: the public season page. Its places and points are the season's, the same as on the
    organizer's page and the PDF (one rule, one set of figures), but of the evenings whose public page is
    off (`private`) nothing is shown one by one, and a player who played only those is not listed
    (`left_out`); the page says both. `also`: this evening counts as public (its organizers' preview)."""
    evenings = series_evenings(series)
    shown = {evening.pk for evening in evenings if evening.public or evening.pk == also}
    rule = season_rule(series)
    results, _regs, running = (
        evening_results(evenings, public_only=public_only) if evenings else ([], {}, [])
    )
    players = {
        player.pk: player
        for player in Player.objects.filter(pk__in={r.player_id for r in results}).select_related("club")
    } if results else {}
    members = {pid for pid, player in players.items() if player.member is True}
    rows = season_ranking(results, [evening.pk for evening in evenings], rule, members=members)
    first_evening: dict[int, int] = {}
    order = {evening.pk: index for index, evening in enumerate(evenings)}
    for result in results:
        known = first_evening.get(result.player_id)
        if known is None or order[result.evening] < order[known]:
            first_evening[result.player_id] = result.evening
    limits = age_limits(series)
    # Ages on the season's first evening; newcomers: joined the season after its first evening with
    # results (an evening nobody has played yet makes nobody new).
    day = evenings[0].date if evenings else None
    first_held = min(first_evening.values(), key=order.__getitem__, default=None)
    lines = []
    running_pks = {evening.pk for evening in running}
    by_player: dict[int, list[EveningResult]] = {}
    for result in results:
        by_player.setdefault(result.player_id, []).append(result)
    season = tuple(evenings)
    minus = rule.points.lower_is_better
    facts_of: dict[int, PlayerFacts] = {}
    for row in rows:
        player = players[row.player_id]
        facts = facts_of[player.pk] = PlayerFacts(
            player_id=player.pk, gender=player.gender, born=player.born, member=player.member,
            newcomer=first_evening.get(player.pk) != first_held,
        )
        bonus, deduction = adjustments(row, rule)
        lines.append(SeasonLine(
            row=row, player=player, categories=categories_of(facts, day, limits),
            provisional=not running_pks.isdisjoint(row.points),
            bonus_points=bonus, deduction_points=deduction, minus=minus, season=season,
            results=tuple(by_player[row.player_id]),
        ))
    private = [evening for evening in evenings if evening.pk not in shown] if public_only else []
    season_lines = lines
    if private:
        listed = [line for line in lines if any(result.evening in shown for result in line.results)]
        left_out, lines = len(lines) - len(listed), listed
    else:
        left_out = 0
    standings = SeriesStandings(
        series=series, evenings=evenings, lines=lines, clubs=[],
        rule_text=describe_rule(rule, evenings=len(evenings)), running=running, rule=rule,
        private=private, left_out=left_out,
    )
    # The category rankings over the whole season (its figures), listing only who is listed.
    ranked = [line for line in season_lines if line.row.ranked]
    listed_pks = {line.player.pk for line in lines}
    clubs = {player.club_id: player.club for player in players.values() if player.club_id}
    standings.clubs = [
        (group, clubs[group.group_id])
        for group in season_club_ranking(
            rows, {pid: player.club_id for pid, player in players.items() if player.club_id}, rule,
            best=series.club_best, value=GroupValue(series.club_value),
        )
    ]
    ranked_by_player = {line.player.pk: line for line in ranked}
    overall = [(line.player.pk, line.row.rank) for line in ranked]
    for category in Category:
        chosen = [line.player.pk for line in ranked if category in line.categories]
        placed = category_ranking(overall, chosen)
        unknown = sum(1 for line in ranked if undecided(facts_of[line.player.pk], category))
        if placed and unknown:  # its best may be one of those not known: no ranking, no certificate
            standings.undecided[category] = unknown
        elif placed and len(placed) == len(ranked):
            standings.whole_field.append(category)  # its ranking would repeat the season's: named only
        elif placed:
            listed = [
                (row.rank, row.shared, ranked_by_player[row.player_id]) for row in placed
                if row.player_id in listed_pks
            ]
            if listed:  # a category of left-out players only is not shown empty
                standings.categories[category] = listed
    return standings
