"""The season standings as a django-tables2 table; the same rows feed the page and the exports."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import django_tables2 as tables
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .selectors import SeriesStandings

MISSING = "–"  # noqa: RUF001 - an en dash reads better than a hyphen in an empty cell
RUNNING = "*"  # after the points of an evening that is still running (the page says so beside the table)


def evening_cell(value: int | None, *, counts: bool, running: bool) -> str | int:
    """One evening's season points as every season table shows them: a dash when missed, bracketed when
    they do not count (best N), a star while the evening runs."""
    if value is None:
        return MISSING
    text = value if counts else f"({value})"
    return f"{text}{RUNNING}" if running else text


def evening_html(value: int | None, *, counts: bool, running: bool) -> str | int | SafeString:
    """An evening's cell on a page or in the PDF: as `evening_cell`, and struck through when it does not
    count (a dropped evening: best N)."""
    text = evening_cell(value, counts=counts, running=running)
    if value is None or counts:
        return text
    return format_html('<s class="dropped">{}</s>', text)


def signed(value: int) -> str:
    """A bonus or a deduction as it changes the season score: "+6", "0", or a minus sign (U+2212) and 5."""
    return f"+{value}" if value > 0 else f"\u2212{-value}" if value < 0 else "0"


def season_rows(data: SeriesStandings) -> list[dict[str, Any]]:
    evenings = [(f"e{evening.pk}", evening.pk) for evening in data.evenings]
    rows = []
    for line in data.lines:
        row = line.row
        record = {
            "rank": row.rank, "shared": row.shared, "name": line.player.name,
            "sort_name": line.player.sort_name, "club": line.player.club_name, "score": row.score,
            "attended": row.attended, "bonus": row.bonus,
            "deduction": row.deduction, "wins": row.wins, "ranked": row.ranked, "counted": set(row.counted),
            "categories": line.categories, "provisional": line.provisional,
            "bonus_points": line.bonus_points, "deduction_points": line.deduction_points,
            "gap": line.gap_figure,
        }
        for key, pk in evenings:
            record[key] = row.points.get(pk)
        rows.append(record)
    return rows


class SeasonColumn(tables.Column):
    """A column of the season table. `text` is what a cell shows: `render` for django-tables2's own
    cells (`row.get_cell`) and `SeasonTable.page_lines` for the page both use it."""

    def text(self, value, record, default):
        return default if value in self.empty_values else value


class SeasonRankColumn(SeasonColumn):
    empty_values = ()

    def text(self, value, record, default):
        return f"{value}." if value is not None else MISSING

    def render(self, value, record):
        return self.text(value, record, None)


class SignedColumn(SeasonColumn):
    """The bonus or the deductions of a line, signed as they change its score."""

    empty_values = ()

    def text(self, value, record, default):
        return signed(value)

    def render(self, value, record):
        return self.text(value, record, None)


class EveningColumn(SeasonColumn):
    """An evening's season points; bracketed and struck through when they do not count (best N), a dash
    when missed."""

    empty_values = ()

    def __init__(self, evening_pk: int, *, running: bool = False, **kwargs: Any) -> None:
        self.evening_pk = evening_pk
        self.running = running
        super().__init__(**kwargs)

    def text(self, value, record, default):
        return evening_html(value, counts=self.evening_pk in record["counted"], running=self.running)

    def render(self, value, record):
        return self.text(value, record, None)


class SeasonTable(tables.Table):
    rank = SeasonRankColumn(verbose_name=gettext_lazy("Place"), attrs={"td": {"class": "num rank"}})
    name = SeasonColumn(verbose_name=gettext_lazy("Name"), order_by=("sort_name",))
    club = SeasonColumn(verbose_name=gettext_lazy("Club"), default="")

    class Meta:
        # django-tables2's table.html with a lean body: see `page_lines`.
        template_name = "tournament/organizer/_season_table.html"
        # Focusable: on a phone the table scrolls sideways inside its box, by keyboard too.
        attrs = {"class": "list standings season", "tabindex": "0"}
        orderable = False
        row_attrs = {"class": lambda record: " ".join(
            name
            for name, on in (("incomplete", not record["ranked"]), ("provisional", record["provisional"]))
            if on
        )}

    def __init__(self, data: SeriesStandings, rows: list[dict[str, Any]], **kwargs: Any) -> None:
        number_cell = {"td": {"class": "num"}, "th": {"class": "num"}}
        running = data.running_pks
        extra = [
            (f"e{evening.pk}", EveningColumn(
                evening.pk, running=evening.pk in running, attrs=number_cell,
                verbose_name=f"{evening.date:%d.%m.}{RUNNING if evening.pk in running else ''}",
            ))
            for evening in data.evenings
        ]
        extra.append(("attended", SeasonColumn(verbose_name=_("Evenings"), attrs=number_cell)))
        # Why each line has its score and place (issue #42, 9): the bonus and deductions where the rule
        # has them, and how far the line is behind the one above it.
        if data.shows_bonus:
            extra.append(("bonus_points", SignedColumn(verbose_name=_("Bonus"), attrs=number_cell)))
        if data.shows_deduction:
            extra.append(("deduction_points", SignedColumn(verbose_name=_("Deduction"), attrs=number_cell)))
        extra += [
            ("score", SeasonColumn(verbose_name=_("Season"), attrs={"td": {"class": "num total"},
                                                                   "th": {"class": "num"}})),
            ("gap", SeasonColumn(verbose_name=_("Behind"), default="", attrs={"td": {"class": "num gap"},
                                                                            "th": {"class": "num"}})),
        ]
        super().__init__(rows, extra_columns=extra, **kwargs)

    def page_lines(self) -> Iterator[tuple[str, SafeString]]:
        """The lines of the current page as (the row's attributes, its cells as HTML).

        The same cells as django-tables2's `row.items` in its template (localized and escaped as a
        template's `{{ cell }}` does), which resolves every cell by introspecting the column's
        `render`, rebuilds the column's attributes for each cell and renders each through a template
        (some 0.2 ms a cell, 17 columns by 50 lines a page). Here each column's attributes are built
        once per page, and each distinct cell once: a page repeats the same few season points and
        dashes hundreds of times, and localizing a number costs more than the rest of its cell.
        """
        columns = [
            (column.attrs["td"].as_html(), column.column, column.name, column.default)
            for column in self.columns
        ]
        cells: dict[tuple[str, type, Any], SafeString] = {}

        def cell(attrs: str, value: Any) -> SafeString:
            key = (attrs, type(value), value)  # the type: 1 and True, or 1 and 1.0, are equal keys
            html = cells.get(key)
            if html is None:
                html = cells[key] = format_html("<td {}>{}</td>", attrs, localize(value))
            return html

        for row in self.paginated_rows:
            record = row.record
            # Every part is a SafeString built by format_html, so the joined line is safe as well.
            yield row.attrs.as_html(), mark_safe("".join(
                cell(attrs, column.text(record[name], record, default))
                for attrs, column, name, default in columns
            ))
