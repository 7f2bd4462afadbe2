"""Standings as CSV (German Excel reads `;` and UTF-8 with BOM) and as XLSX via openpyxl.

Both go through `tournament.spreadsheets`, which makes every cell formula-safe.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from engine.standings import TIEBREAKS
from tournament.spreadsheets import append_row, csv_bytes, new_workbook, workbook_bytes
from tournament.standings.tables import StandingsData, rank_label


def standings_header(data: StandingsData) -> list[str]:
    return [
        _("Place"),
        _("No."),
        _("Name"),
        _("Club"),
        *(_("R%(n)s") % {"n": number} for number in data.rounds),
        _("Total"),
        _("Rounds won"),
        *(_(TIEBREAKS[key].label) for key in data.tiebreaks if key != "rounds_won"),
    ]


def standings_lines(data: StandingsData, rows: list[dict[str, Any]]) -> list[list[Any]]:
    """Header plus one list per player; empty cells for rounds a player missed."""
    lines: list[list[Any]] = [standings_header(data)]
    for row in rows:
        lines.append(
            [
                rank_label(row["rank"]),
                row["start_number"],
                row["name"],
                row["club"],
                *(row[f"r{number}"] for number in data.rounds),
                row["total"],
                row["rounds_won"],
                *(row[f"tb_{key}"] for key in data.tiebreaks if key != "rounds_won"),
            ]
        )
    return lines


def standings_csv(data: StandingsData, rows: list[dict[str, Any]]) -> bytes:
    return csv_bytes(standings_lines(data, rows))


def standings_xlsx(data: StandingsData, rows: list[dict[str, Any]], *, title: str) -> bytes:
    from openpyxl.styles import Font

    workbook = new_workbook(_("Standings"))
    sheet = workbook.active
    append_row(sheet, [title])
    sheet["A1"].font = Font(bold=True, size=13)
    lines = standings_lines(data, rows)
    append_row(sheet, lines[0])
    for cell in sheet[2]:
        cell.font = Font(bold=True)
    for line in lines[1:]:
        append_row(sheet, line)
    sheet.freeze_panes = "A3"
    widths = {"A": 7, "B": 6, "C": 28, "D": 24}
    for column, width in widths.items():
        sheet.column_dimensions[column].width = width
    return workbook_bytes(workbook)


def lines_csv(lines: list[list[Any]]) -> bytes:
    """Any table (header first) as CSV the way the standings are written (formula-safe)."""
    return csv_bytes(lines)


def sheets_xlsx(sheets: list[tuple[str, list[list[Any]]]], *, title: str) -> bytes:
    """One worksheet per (name, lines with header first), each with the title on top."""
    from openpyxl.styles import Font

    workbook = new_workbook(title)
    workbook.remove(workbook.active)
    for name, lines in sheets:
        sheet = workbook.create_sheet("".join(ch for ch in str(name) if ch not in "[]:*?/\\")[:31])
        append_row(sheet, [title])
        sheet["A1"].font = Font(bold=True, size=13)
        for line in lines:
            append_row(sheet, line)
        for cell in sheet[2]:
            cell.font = Font(bold=True)
        sheet.freeze_panes = "A3"
        sheet.column_dimensions["B"].width = 28
        sheet.column_dimensions["C"].width = 24
    return workbook_bytes(workbook)


def rankings_sheets(rankings) -> list[tuple[str, list[list[Any]]]]:
    """One evening's club, team and category rankings (`TournamentRankings`) as (sheet, lines)."""
    from engine.rankings import CATEGORY_LABELS

    def groups(rows) -> list[list[Any]]:
        return [
            [f"{row.rank}.", group.name, len(row.counted), float(round(row.value, 2))] for row, group in rows
        ]

    sheets = [
        (_("Clubs"), [[_("Place"), _("Club"), _("Players counted"), _("Total")], *groups(rankings.clubs)]),
        (_("Teams"), [[_("Place"), _("Team"), _("Players counted"), _("Total")], *groups(rankings.teams)]),
    ]
    for category, rows in rankings.categories.items():
        lines: list[list[Any]] = [[_("Place"), _("Name"), _("Club"), _("Total")]]
        lines += [
            [f"{rank}.", line.player.name, line.player.club_name, line.row.total] for rank, _s, line in rows
        ]
        sheets.append((_(CATEGORY_LABELS[category]), lines))
    return sheets
