"""The season standings (with a column of each player's categories), the club ranking and every
category as lists of lines for CSV and XLSX (written by `tournament.standings.exports`)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine.rankings import CATEGORY_LABELS

from ..standings.exports import category_names
from .selectors import SeriesStandings
from .tables import MISSING, RUNNING, evening_cell, season_rows


def place(rank: int | None) -> str:
    return f"{rank}." if rank is not None else MISSING


def season_lines(data: SeriesStandings) -> list[list[Any]]:
    running = data.running_pks
    header = [
        _("Place"), _("Name"), _("Club"),
        *(f"{e.date:%d.%m.%Y}{RUNNING if e.pk in running else ''}" for e in data.evenings),
        _("Evenings"), _("Season"), _("Categories"),
    ]
    lines: list[list[Any]] = [header]
    for row in season_rows(data):
        cells = []
        for evening in data.evenings:
            value = row[f"e{evening.pk}"]
            cells.append(None if value is None else evening_cell(
                value, counts=evening.pk in row["counted"], running=evening.pk in running,
            ))
        lines.append([
            place(row["rank"]), row["name"], row["club"], *cells, row["attended"], row["score"],
            category_names(row["categories"]),
        ])
    return lines


def club_lines(data: SeriesStandings) -> list[list[Any]]:
    lines: list[list[Any]] = [[_("Place"), _("Club"), _("Players"), _("Season")]]
    for row, club in data.clubs:
        lines.append([place(row.rank), club.name, len(row.counted), float(round(row.value, 2))])
    return lines


def category_lines(data: SeriesStandings) -> list[tuple[str, list[list[Any]]]]:
    sheets = []
    for category, rows in data.categories.items():
        lines: list[list[Any]] = [[_("Place"), _("Name"), _("Club"), _("Season")]]
        lines += [
            [place(rank), line.player.name, line.player.club_name, line.row.score] for rank, _s, line in rows
        ]
        sheets.append((_(CATEGORY_LABELS[category]), lines))
    return sheets


def title(data: SeriesStandings) -> str:
    """The export's title: the series' name, and while an evening runs, that the season is provisional."""
    return f"{data.series.name} ({RUNNING} {data.marker})" if data.provisional else data.series.name


def all_lines(data: SeriesStandings) -> list[tuple[str, list[list[Any]]]]:
    return [(_("Season"), season_lines(data)), (_("Clubs"), club_lines(data)), *category_lines(data)]


def csv_lines(data: SeriesStandings) -> list[list[Any]]:
    """One CSV: the season, then the clubs and each category under a heading line."""
    lines = season_lines(data)
    for name, part in all_lines(data)[1:]:
        lines += [[], [name], *part]
    if data.provisional:
        lines = [[f"{RUNNING} {data.marker}"], [], *lines]
    return lines
