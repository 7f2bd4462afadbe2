"""Standings chart: cumulative totals per player over the rounds, as a self-contained SVG string.

Pure Python and drawn on the server, so the same picture appears on the projector, on the web pages
and in the PDFs (WeasyPrint renders inline SVG) without any script or web font. The top places stand
out in colour with a label at the end of their line; everybody else is a thin grey line, so a hall of
60 players stays readable. Every line carries its player and end value as data attributes.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from html import escape

# Strong, distinct colours for the highlighted lines (UNO red, blue, green first; yellow is darkened
# so it reads on white paper and on a washed-out projector).
HIGHLIGHT_COLOURS = (
    "#d72600", "#0956bf", "#2b7a0b", "#b08d00", "#7b3fa0", "#e07000", "#00808a", "#c2185b",
)
OTHER_COLOUR = "#aab2ba"
AXIS_COLOUR = "#5d6874"
GRID_COLOUR = "#e3e7eb"


@dataclass(frozen=True)
class ChartSize:
    """Canvas and type sizes in SVG user units (the SVG scales to its container)."""

    width: int = 960
    height: int = 480
    font_size: int = 15
    margin_top: int = 16
    margin_bottom: int = 44
    margin_left: int = 58
    highlight_width: float = 3.5
    other_width: float = 1.25


BOLD_EM = 0.7  # the widest average advance of a bold sans-serif letter, in em


def _shorten(label: str, text: str, fits: int) -> str:
    if len(text) <= fits:
        return text
    value = text[len(label):]  # " (106)"
    return label[: max(1, fits - len(value) - 1)].rstrip() + "\u2026" + value


def nice_ticks(low: float, high: float, max_ticks: int = 6) -> list[float]:
    """Round-number axis ticks (steps of 1, 2 or 5 times a power of ten) covering low..high."""
    if high <= low:
        high = low + 1
    raw_step = (high - low) / max(1, max_ticks - 1)
    magnitude = 10 ** math.floor(math.log10(raw_step))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw_step)
    first = math.floor(low / step) * step
    if first > low:  # low / step can underflow to -0.0 for tiny negative values
        first -= step
    ticks = []
    value = first
    while value < high + step * 0.001:
        ticks.append(value)
        value += step
    if ticks[-1] < high:
        ticks.append(ticks[-1] + step)
    return ticks


def _number(value: float) -> str:
    """Compact coordinates: two decimals at most, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _spread_labels(positions: list[float], min_gap: float, top: float, bottom: float) -> list[float]:
    """Move label y-positions apart (keeping their order) so no two overlap, within top..bottom."""
    if not positions:
        return []
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    placed = [positions[i] for i in order]
    placed[0] = max(placed[0], top)
    for k in range(1, len(placed)):
        placed[k] = max(placed[k], placed[k - 1] + min_gap)
    if placed[-1] > bottom:
        placed[-1] = bottom
        for k in range(len(placed) - 2, -1, -1):
            placed[k] = min(placed[k], placed[k + 1] - min_gap)
    placed = [max(top, y) for y in placed]
    result = [0.0] * len(positions)
    for k, i in enumerate(order):
        result[i] = placed[k]
    return result


def standings_chart(
    series: Mapping[str, Sequence[float | None]],
    highlight: Collection[str] = (),
    *,
    x_labels: Sequence[str] | None = None,
    title: str = "",
    start_label: str = "0",
    size: ChartSize = ChartSize(),
) -> str:
    """SVG line chart of cumulative totals.

    `series` maps a player label to the cumulative value after round 1, 2, …; a None value leaves a gap
    (the player did not count in that round). Every line starts at 0 before round 1. Labels in
    `highlight` are drawn in colour, in the order of `series`, with their label and end value at the
    right; the others thin and grey underneath. Labels are escaped, so any name is safe.
    """
    rounds = max((len(values) for values in series.values()), default=0)
    x_labels = list(x_labels) if x_labels is not None else [str(n) for n in range(1, rounds + 1)]
    x_labels += [str(n) for n in range(len(x_labels) + 1, rounds + 1)]
    values = [v for vs in series.values() for v in vs if v is not None]
    low, high = min([0.0, *values]), max([0.0, *values])
    ticks = nice_ticks(low, high)
    y_min, y_max = ticks[0], ticks[-1]

    highlighted = [label for label in series if label in set(highlight)]
    font = size.font_size
    end_texts = {label: f"{label} ({_number(_last(series[label]) or 0)})" for label in highlighted}
    longest = max((len(text) for text in end_texts.values()), default=0)
    margin_right = max(24, min(int(size.width * 0.38), math.ceil(longest * font * BOLD_EM) + 18))
    # A label longer than the margin is shortened with an ellipsis (its value always stays): nothing
    # is drawn past the canvas, which the PDF and the projector would cut off.
    fits = max(8, int((margin_right - 18) / (font * BOLD_EM) + 1e-9))
    end_texts = {label: _shorten(label, text, fits) for label, text in end_texts.items()}
    left, top = size.margin_left, size.margin_top
    right, bottom = size.width - margin_right, size.height - size.margin_bottom
    plot_w, plot_h = right - left, bottom - top

    def x_at(index: int) -> float:
        return left + plot_w * index / max(1, rounds)

    def y_at(value: float) -> float:
        return bottom - plot_h * (value - y_min) / (y_max - y_min)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="standings-chart" viewBox="0 0 {size.width} '
        f'{size.height}" width="100%" role="img" font-family="system-ui, \'DejaVu Sans\', sans-serif" '
        f'font-size="{font}" data-rounds="{rounds}">'
    ]
    if title:
        parts.append(f"<title>{escape(title)}</title>")
    # Grid and axes.
    parts.append('<g class="grid">')
    for tick in ticks:
        y = _number(y_at(tick))
        parts.append(
            f'<line x1="{left}" y1="{y}" x2="{right}" y2="{y}" stroke="{GRID_COLOUR}" stroke-width="1"/>'
            f'<text x="{left - 8}" y="{y}" text-anchor="end" dominant-baseline="middle" '
            f'fill="{AXIS_COLOUR}">{_number(tick)}</text>'
        )
    for index, text in enumerate([start_label, *x_labels]):
        x = _number(x_at(index))
        parts.append(
            f'<line x1="{x}" y1="{top}" x2="{x}" y2="{bottom}" stroke="{GRID_COLOUR}" stroke-width="1"/>'
            f'<text x="{x}" y="{bottom + font + 8}" text-anchor="middle" fill="{AXIS_COLOUR}">'
            f"{escape(text)}</text>"
        )
    parts.append(
        f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="{AXIS_COLOUR}" '
        'stroke-width="1.5"/></g>'
    )

    def line(label: str, colour: str, width: float, css_class: str) -> str:
        points = [(0, 0.0), *((i + 1, v) for i, v in enumerate(series[label]))]
        commands, pen_down = [], False
        for index, value in points:
            if value is None:
                pen_down = False
                continue
            commands.append(f"{'L' if pen_down else 'M'}{_number(x_at(index))} {_number(y_at(value))}")
            pen_down = True
        data_values = ",".join("" if v is None else _number(v) for v in series[label])
        end = _last(series[label])
        return (
            f'<path class="{css_class}" d="{" ".join(commands)}" fill="none" stroke="{colour}" '
            f'stroke-width="{_number(width)}" stroke-linejoin="round" stroke-linecap="round" '
            f'data-player="{escape(label)}" data-end="{"" if end is None else _number(end)}" '
            f'data-values="{data_values}"><title>{escape(label)}</title></path>'
        )

    parts.append('<g class="others">')
    others = [label for label in series if label not in highlighted]
    parts.extend(line(label, OTHER_COLOUR, size.other_width, "line other") for label in others)
    parts.append('</g><g class="top">')
    colours = {label: HIGHLIGHT_COLOURS[i % len(HIGHLIGHT_COLOURS)] for i, label in enumerate(highlighted)}
    parts.extend(line(label, colours[label], size.highlight_width, "line top") for label in highlighted)
    # End labels, pushed apart so close totals stay readable.
    ends = [(label, _last_point(series[label])) for label in highlighted]
    ends = [(label, point) for label, point in ends if point is not None]
    label_ys = _spread_labels([y_at(value) for _, (_, value) in ends], font * 1.15, top + font / 2, bottom)
    for (label, (index, value)), label_y in zip(ends, label_ys, strict=True):
        x, y = x_at(index), y_at(value)
        parts.append(
            f'<circle cx="{_number(x)}" cy="{_number(y)}" r="{_number(size.highlight_width + 1.5)}" '
            f'fill="{colours[label]}"/>'
            f'<text class="end-label" x="{_number(right + 10)}" y="{_number(label_y)}" '
            f'dominant-baseline="middle" fill="{colours[label]}" font-weight="700">'
            f"{escape(end_texts[label])}</text>"
        )
    parts.append("</g></svg>")
    return "".join(parts)


def _last(values: Sequence[float | None]) -> float | None:
    point = _last_point(values)
    return None if point is None else point[1]


def _last_point(values: Sequence[float | None]) -> tuple[int, float] | None:
    """(x index, value) of the last known value; index 0 is the start before round 1."""
    for index in range(len(values) - 1, -1, -1):
        if values[index] is not None:
            return index + 1, values[index]
    return None
