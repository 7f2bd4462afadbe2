"""The standings chart for pages and PDFs: selectors' standings turned into the engine's SVG chart."""

from __future__ import annotations

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from engine.chart import ChartSize, standings_chart

from . import selectors

TOP_PLACES = 3
# The projector's chart is read from the back of the hall: bigger type, bolder lines.
PROJECTOR_SIZE = ChartSize(
    width=960, height=470, font_size=22, margin_left=70, margin_bottom=52, highlight_width=5, other_width=1.6
)

# A phone's public page (360 px wide: about 320 px inside the figure): drawn at that width, so its type
# is read at 12 px instead of the desktop chart's 15 units scaled down to 5 px.
PHONE_SIZE = ChartSize(
    width=320, height=340, font_size=12, margin_top=12, margin_bottom=34, margin_left=36,
    highlight_width=2.5, other_width=1,
)


def chart_series(rounds: list[int], lines: list[selectors.StandingLine]) -> dict[str, list[int | None]]:
    """{"rank. name": [cumulative total after each counted round]}, in standings order.

    A missed round without a charge leaves a gap; a charged one counts like a played round.
    """
    series: dict[str, list[int | None]] = {}
    for line in lines:
        row, running, values = line.row, 0, []
        for number in rounds:
            score = row.per_round.get(number)
            if score is None:
                score = row.charged.get(number)
            if score is None:
                values.append(None)
                continue
            running += score
            values.append(running)
        label = f"{row.rank}. {line.player.name}"
        if label in series:  # two namesakes sharing a place: keep one line each
            label = f"{label} ({line.player.club_name or line.registration.start_number})"
        series[label] = values
    return series


def chart_for_standings(
    rounds: list[int], lines: list[selectors.StandingLine], *, top: int = TOP_PLACES,
    size: ChartSize | None = None,
) -> SafeString:
    """The chart for standings a page has already computed (no further queries)."""
    if not rounds or not lines:
        return mark_safe("")
    series = chart_series(rounds, lines)
    highlight = [label for label, line in zip(series, lines, strict=True) if line.row.rank <= top]
    svg = standings_chart(
        series,
        highlight,
        x_labels=[_("R%(number)s") % {"number": number} for number in rounds],
        start_label=_("Start"),
        title=_("Standings after round %(number)s") % {"number": rounds[-1]},
        size=size or ChartSize(),
    )
    return mark_safe(svg)  # engine.chart escapes every label it writes
