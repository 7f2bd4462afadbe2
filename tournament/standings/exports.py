"""Standings as CSV (German Excel reads `;` and UTF-8 with BOM) and as XLSX via openpyxl.

Both go through `tournament.spreadsheets`, which makes every cell formula-safe.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine.rankings import CATEGORY_LABELS
from engine.standings import TIEBREAKS
from tournament.spreadsheets import append_row, csv_bytes, new_workbook, workbook_bytes
from tournament.standings.selectors import TournamentRankings
from tournament.standings.tables import StandingsData, rank_label


def category_names(categories) -> str:
    """A player's categories in words, in the engine's order: "Damen, Jugendliche, Mitglieder"."""
    return ", ".join(_(label) for category, label in CATEGORY_LABELS.items() if category in categories)


def standings_header(data: StandingsData, *, categories: bool = False) -> list[str]:
    return [
        _("Place"),
        _("No."),
        _("Name"),
        _("Club"),
        *(_("R%(n)s") % {"n": number} for number in data.rounds),
        _("Total"),
        _("Rounds won"),
        *(_(TIEBREAKS[key].label) for key in data.tiebreaks if key != "rounds_won"),
        *([_("Categories")] if categories else []),
    ]


def standings_lines(
    data: StandingsData, rows: list[dict[str, Any]], rankings: TournamentRankings | None = None
) -> list[list[Any]]:
    """Header plus one list per player; empty cells for rounds a player missed. With the evening's
    rankings, a last column lists each player's categories."""
    lines: list[list[Any]] = [standings_header(data, categories=rankings is not None)]
    for row in rows:
        line = [
            rank_label(row["rank"]),
            row["start_number"],
            row["name"],
            row["club"],
            *(row[f"r{number}"] for number in data.rounds),
            row["total"],
            row["rounds_won"],
            *(row[f"tb_{key}"] for key in data.tiebreaks if key != "rounds_won"),
        ]
        if rankings is not None:
            line.append(category_names(rankings.player_categories.get(row["registration_id"], ())))
        lines.append(line)
    return lines


def standings_csv(
    data: StandingsData, rows: list[dict[str, Any]], rankings: TournamentRankings | None = None
) -> bytes:
    return csv_bytes(standings_lines(data, rows, rankings))


def _sheet_name(name: str) -> str:
    return "".join(ch for ch in str(name) if ch not in "[]:*?/\\")[:31]


def _write_sheet(workbook, name: str, title: str, lines: list[list[Any]], widths: dict[str, int]) -> None:
    """A worksheet: the title on top, the header (bold, frozen) and the lines below it."""
    from openpyxl.styles import Font

    sheet = workbook.create_sheet(_sheet_name(name))
    append_row(sheet, [title])
    sheet["A1"].font = Font(bold=True, size=13)
    for line in lines:
        append_row(sheet, line)
    for cell in sheet[2]:
        cell.font = Font(bold=True)
    sheet.freeze_panes = "A3"
    for column, width in widths.items():
        sheet.column_dimensions[column].width = width


RANKING_WIDTHS = {"B": 28, "C": 24}


def standings_xlsx(
    data: StandingsData, rows: list[dict[str, Any]], *, title: str, rankings: TournamentRankings | None = None
) -> bytes:
    """The standings on the first sheet; with the evening's rankings, a sheet for the club ranking, the
    team ranking (when teams are declared) and each category after it."""
    from openpyxl.utils import get_column_letter

    workbook = new_workbook(_("Standings"))
    workbook.remove(workbook.active)
    lines = standings_lines(data, rows, rankings)
    widths = {"A": 7, "B": 6, "C": 28, "D": 24}
    if rankings is not None:
        widths[get_column_letter(len(lines[0]))] = 30
    _write_sheet(workbook, _("Standings"), title, lines, widths)
    if rankings is not None:
        for name, part in rankings_sheets(rankings, empty_teams=False):
            _write_sheet(workbook, name, title, part, RANKING_WIDTHS)
    return workbook_bytes(workbook)


def lines_csv(lines: list[list[Any]]) -> bytes:
    """Any table (header first) as CSV the way the standings are written (formula-safe)."""
    return csv_bytes(lines)


def sheets_xlsx(sheets: list[tuple[str, list[list[Any]]]], *, title: str) -> bytes:
    """One worksheet per (name, lines with header first), each with the title on top."""
    workbook = new_workbook(title)
    workbook.remove(workbook.active)
    for name, lines in sheets:
        _write_sheet(workbook, name, title, lines, RANKING_WIDTHS)
    return workbook_bytes(workbook)


def rankings_sheets(
    rankings: TournamentRankings, *, empty_teams: bool = True
) -> list[tuple[str, list[list[Any]]]]:
    """One evening's club, team and category rankings as (sheet, lines); the teams' sheet also when no
    team is declared, unless `empty_teams` is false."""

    def groups(rows) -> list[list[Any]]:
        return [
            [f"{row.rank}.", group.name, len(row.counted), float(round(row.value, 2))] for row, group in rows
        ]

    sheets = [
        (_("Clubs"), [[_("Place"), _("Club"), _("Players counted"), _("Total")], *groups(rankings.clubs)]),
    ]
    if rankings.teams or empty_teams:
        sheets.append(
            (_("Teams"), [[_("Place"), _("Team"), _("Players counted"), _("Total")], *groups(rankings.teams)])
        )
    for category, rows in rankings.categories.items():
        lines: list[list[Any]] = [[_("Place"), _("Name"), _("Club"), _("Total")]]
        lines += [
            [f"{rank}.", line.player.name, line.player.club_name, line.row.total] for rank, _s, line in rows
        ]
        sheets.append((_(CATEGORY_LABELS[category]), lines))
    return sheets
