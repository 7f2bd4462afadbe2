"""The standings as a django-tables2 table: the same rows feed the page and the CSV/XLSX export."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import django_tables2 as tables
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from engine.standings import TIEBREAKS
from engine.text import person_sort_key, sort_key
from tournament.models import Tournament

from . import selectors

MISSING = "–"  # noqa: RUF001 - an en dash reads better than a hyphen in an empty score cell


@dataclass
class StandingsData:
    """Everything the standings page and its exports show, computed in a fixed number of queries."""

    rounds: list[int]
    rows: list[dict[str, Any]]
    tiebreaks: list[str]
    clubs: list[str]
    lines: list[selectors.StandingLine] = field(default_factory=list)

    def filtered(self, club: str) -> list[dict[str, Any]]:
        """Lines of one club, keeping their overall places."""
        return [row for row in self.rows if row["club"] == club] if club else self.rows


def standings_data(tournament: Tournament, *, after_round: int | None = None) -> StandingsData:
    rounds, lines = selectors.standings(tournament, after_round=after_round)
    tiebreak_keys = [key for key in selectors.standings_settings(tournament).tiebreaks if key in TIEBREAKS]
    rows = []
    for line in lines:
        row, player = line.row, line.player
        data = {
            "registration_id": line.registration.pk,
            "rank": row.rank,
            "shared": row.shared,
            "start_number": line.registration.start_number,
            "name": player.name,
            "sort_name": player.sort_name,
            # German order (engine.text): the name column's sort, and the order within a shared place.
            "name_order": person_sort_key(player.last_name, player.first_name),
            "club": player.club_name,
            "total": row.total,
            "rounds_won": row.rounds_won,
            "rounds_played": row.rounds_played,
            "complete": row.complete,
            "rounds_missed": row.rounds_missed,
            "charged": dict(row.charged),
            "withdrawn": line.registration.status == line.registration.Status.WITHDRAWN,
        }
        for number in rounds:
            data[f"r{number}"] = row.per_round.get(number)
        for key in tiebreak_keys:
            data[f"tb_{key}"] = row.tiebreak_values.get(key)
        rows.append(data)
    clubs = sorted({row["club"] for row in rows if row["club"]}, key=sort_key)
    return StandingsData(rounds=rounds, rows=rows, tiebreaks=tiebreak_keys, clubs=clubs, lines=lines)


def rank_label(rank: int) -> str:
    """'2.' for every player on second place, shared or not: the German way of writing places."""
    return f"{rank}."


class RankColumn(tables.Column):
    def render(self, value, record):
        return rank_label(value)


class RoundScoreColumn(tables.Column):
    """A round's score; a missed round shows a dash, or the charged score in brackets under that policy."""

    empty_values = ()

    def __init__(self, number: int, **kwargs: Any) -> None:
        self.number = number
        super().__init__(**kwargs)

    def render(self, value, record):
        if value is not None:
            return value
        charged = record.get("charged", {}).get(self.number)
        if charged is not None:
            return format_html(
                '<span class="charged" title="{}">({})</span>',
                _("missed round, charged with the highest score of the round"), charged,
            )
        return format_html('<span class="missed" title="{}">{}</span>', _("missed round"), MISSING)


class NameColumn(tables.Column):
    """The player's name, marked when they missed rounds (late arrival or withdrawal)."""

    def render(self, value, record):
        missed = record.get("rounds_missed", 0)
        if not missed:
            return value
        label = ngettext("missed %(n)s round", "missed %(n)s rounds", missed) % {"n": missed}
        return format_html('{} <span class="badge missed-rounds">{}</span>', value, label)


class StandingsTable(tables.Table):
    """Columns for rounds and tie-breaks depend on the tournament, so they are added per instance."""

    rank = RankColumn(verbose_name=gettext_lazy("Place"), attrs={"td": {"class": "num rank"}})
    start_number = tables.Column(verbose_name=gettext_lazy("No."), attrs={"td": {"class": "num"}})
    name = NameColumn(verbose_name=gettext_lazy("Name"), order_by=("name_order",))
    club = tables.Column(verbose_name=gettext_lazy("Club"), default="")

    class Meta:
        template_name = "django_tables2/table.html"
        attrs = {"class": "list standings"}
        order_by = ("rank", "name_order")
        row_attrs = {"class": lambda record: "incomplete" if not record["complete"] else ""}

    def __init__(self, data: StandingsData, rows: list[dict[str, Any]], **kwargs: Any) -> None:
        number_cell = {"td": {"class": "num"}, "th": {"class": "num"}}
        extra = [
            (
                f"r{number}",
                RoundScoreColumn(number, verbose_name=_("R%(n)s") % {"n": number}, attrs=number_cell),
            )
            for number in data.rounds
        ]
        extra.append(
            (
                "total",
                tables.Column(
                    verbose_name=_("Total"), attrs={"td": {"class": "num total"}, "th": {"class": "num"}}
                ),
            )
        )
        extra.append(("rounds_won", tables.Column(verbose_name=_("Rounds won"), attrs=number_cell)))
        extra += [
            (
                f"tb_{key}",
                tables.Column(verbose_name=_(TIEBREAKS[key].label), default=MISSING, attrs=number_cell),
            )
            for key in data.tiebreaks
            if key != "rounds_won"
        ]
        super().__init__(rows, extra_columns=extra, **kwargs)
