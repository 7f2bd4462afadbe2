"""A series' documents: the season standings (with the club ranking and the categories) and the
season's certificates (the top places, then the best of every category)."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from tournament.documents.prizes import Prize, prize_title
from tournament.documents.typography import document_date, html_to_pdf, points_text, titled


def series_standings_pdf(data, *, request: HttpRequest | None = None) -> bytes:
    """The season standings, the club ranking and the categories of a series (`SeriesStandings`)."""
    from tournament.series.tables import evening_html, season_rows, signed

    rows = season_rows(data)
    running = data.running_pks
    for row in rows:
        row["cells"] = [
            evening_html(
                row[f"e{evening.pk}"], counts=evening.pk in row["counted"], running=evening.pk in running
            )
            for evening in data.evenings
        ]
        row["bonus_text"] = signed(row["bonus_points"])
        row["deduction_text"] = signed(row["deduction_points"])
    # Beside the evenings: the bonus and deductions where the rule has them, and the gap to the line above.
    columns = len(data.evenings) + data.shows_bonus + data.shows_deduction + 1
    context = {
        "data": data, "rows": rows, "landscape": columns > 7,
        "tournament": data.evenings[-1] if data.evenings else None,
        "title": season_title(data.series.name),  # the kind once: "Jahreswertung 2027"
    }
    return html_to_pdf(render_to_string("print/series_standings.html", context, request=request))


def season_title(series_name: str) -> str:
    """The season standings' title: 'Jahreswertung - Wintercup', but 'Jahreswertung 2027' alone."""
    return titled(_("Season standings"), series_name)


def season_prizes(data, *, top: int = 3) -> list[Prize]:
    """The top places of the season, then the best of every category (shared places all get one)."""
    from tournament.series.rules import season_rule

    minus = season_rule(data.series).points.lower_is_better
    when = ""
    if data.evenings:
        first, last = data.evenings[0].date, data.evenings[-1].date
        when = f"{document_date(first, short=True)} – {document_date(last, short=True)}"  # noqa: RUF001
    title = _("Season ranking")
    prizes = [
        Prize(title, data.series.name, when, line.player.name, line.player.club_name, line.row.rank,
              points_text(line.row.score, minus=minus), data.marker)
        for line in data.lines if line.row.ranked and line.row.rank <= top
    ]
    for category, rows in data.categories.items():
        prizes += [
            Prize(prize_title(category, line.player.gender), data.series.name, when, line.player.name,
                  line.player.club_name, rank, points_text(line.row.score, minus=minus), data.marker)
            for rank, _shared, line in rows if rank == 1
        ]
    return prizes
