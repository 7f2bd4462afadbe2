"""The season standings as a django-tables2 table; the same rows feed the page and the exports."""

from __future__ import annotations

from typing import Any

import django_tables2 as tables
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from .selectors import SeriesStandings

MISSING = "–"  # noqa: RUF001 - an en dash reads better than a hyphen in an empty cell


def season_rows(data: SeriesStandings) -> list[dict[str, Any]]:
    rows = []
    for line in data.lines:
        row = line.row
        record = {
            "rank": row.rank, "shared": row.shared, "name": line.player.name,
            "sort_name": line.player.sort_name, "club": line.player.club_name, "score": row.score,
            "attended": row.attended, "bonus": row.bonus,
            "deduction": row.deduction, "wins": row.wins, "ranked": row.ranked, "counted": set(row.counted),
            "categories": line.categories,
        }
        for evening in data.evenings:
            record[f"e{evening.pk}"] = row.points.get(evening.pk)
        rows.append(record)
    return rows


class SeasonRankColumn(tables.Column):
    empty_values = ()

    def render(self, value, record):
        return f"{value}." if value is not None else MISSING


class EveningColumn(tables.Column):
    """An evening's season points; bracketed when they do not count (best N), a dash when missed."""

    empty_values = ()

    def __init__(self, evening_pk: int, **kwargs: Any) -> None:
        self.evening_pk = evening_pk
        super().__init__(**kwargs)

    def render(self, value, record):
        if value is None:
            return MISSING
        return value if self.evening_pk in record["counted"] else f"({value})"


class SeasonTable(tables.Table):
    rank = SeasonRankColumn(verbose_name=gettext_lazy("Place"), attrs={"td": {"class": "num rank"}})
    name = tables.Column(verbose_name=gettext_lazy("Name"), order_by=("sort_name",))
    club = tables.Column(verbose_name=gettext_lazy("Club"), default="")

    class Meta:
        template_name = "django_tables2/table.html"
        # Focusable: on a phone the table scrolls sideways inside its box, by keyboard too.
        attrs = {"class": "list standings season", "tabindex": "0"}
        orderable = False
        row_attrs = {"class": lambda record: "" if record["ranked"] else "incomplete"}

    def __init__(self, data: SeriesStandings, rows: list[dict[str, Any]], **kwargs: Any) -> None:
        number_cell = {"td": {"class": "num"}, "th": {"class": "num"}}
        extra = [
            (f"e{evening.pk}", EveningColumn(
                evening.pk, verbose_name=f"{evening.date:%d.%m.}", attrs=number_cell,
            ))
            for evening in data.evenings
        ]
        extra += [
            ("attended", tables.Column(verbose_name=_("Evenings"), attrs=number_cell)),
            ("score", tables.Column(verbose_name=_("Season"), attrs={"td": {"class": "num total"},
                                                                   "th": {"class": "num"}})),
        ]
        super().__init__(rows, extra_columns=extra, **kwargs)
