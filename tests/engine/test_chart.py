"""The standings chart: one line per player, right end values, highlighted top places, safe labels."""

import itertools
import re
import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from engine.chart import OTHER_COLOUR, _spread_labels, nice_ticks, standings_chart

SVG = "{http://www.w3.org/2000/svg}"


def paths(svg: str) -> list[ET.Element]:
    return list(ET.fromstring(svg).iter(f"{SVG}path"))


def test_one_line_per_player_with_end_values():
    series = {
        "1. Anna": [10, 25, 40], "2. Ben": [30, 35, 60], "3. Cem": [0, 50, 90], "4. Dora": [77, 80, 150],
    }
    svg = standings_chart(series, highlight={"1. Anna", "2. Ben"})
    lines = {p.get("data-player"): p for p in paths(svg)}
    assert set(lines) == set(series)
    assert {name: p.get("data-end") for name, p in lines.items()} == {
        "1. Anna": "40", "2. Ben": "60", "3. Cem": "90", "4. Dora": "150",
    }
    assert lines["2. Ben"].get("data-values") == "30,35,60"
    # Start at 0 before round 1, then one point per round.
    assert lines["1. Anna"].get("d").count("L") == 3


def test_top_places_are_coloured_and_labelled_others_thin_grey():
    series = {"1. Anna": [10, 20], "2. Ben": [15, 30], "3. Cem": [40, 80]}
    svg = standings_chart(series, highlight={"1. Anna", "2. Ben"})
    lines = {p.get("data-player"): p for p in paths(svg)}
    assert lines["3. Cem"].get("stroke") == OTHER_COLOUR
    assert lines["3. Cem"].get("class") == "line other"
    assert lines["1. Anna"].get("stroke") != OTHER_COLOUR
    assert lines["1. Anna"].get("stroke") != lines["2. Ben"].get("stroke")
    assert float(lines["1. Anna"].get("stroke-width")) > float(lines["3. Cem"].get("stroke-width"))
    labels = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text") if t.get("class") == "end-label"]
    assert labels == ["1. Anna (20)", "2. Ben (30)"]
    # Highlighted lines are drawn last, on top of the grey ones.
    assert [p.get("data-player") for p in paths(svg)][-2:] == ["1. Anna", "2. Ben"]


def test_labels_are_escaped():
    evil = '<script>alert("x")</script> & Co'
    svg = standings_chart({evil: [5]}, highlight={evil})
    assert "<script>" not in svg
    root = ET.fromstring(svg)  # still well-formed XML
    assert [p.get("data-player") for p in root.iter(f"{SVG}path")] == [evil]


def test_missed_round_leaves_a_gap():
    svg = standings_chart({"A": [10, None, 30]})
    (line,) = paths(svg)
    assert line.get("d").count("M") == 2
    assert line.get("data-end") == "30"
    assert line.get("data-values") == "10,,30"


def test_y_axis_covers_all_values_and_lower_values_are_lower_on_screen():
    svg = standings_chart({"A": [100], "B": [430]})
    lines = {p.get("data-player"): p.get("d") for p in paths(svg)}
    y_end = {name: float(re.findall(r"[-\d.]+", d)[-1]) for name, d in lines.items()}
    assert y_end["B"] < y_end["A"]  # SVG y grows downwards: the larger total is drawn higher
    tick_texts = [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]
    assert "0" in tick_texts and "500" in tick_texts


def test_empty_chart_is_valid_svg():
    root = ET.fromstring(standings_chart({}))
    assert root.tag == f"{SVG}svg"
    assert paths(standings_chart({})) == []


@given(st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), st.floats(min_value=0.001, max_value=1e6))
def test_nice_ticks_cover_the_range(low, span):
    ticks = nice_ticks(low, low + span)
    assert ticks[0] <= low and ticks[-1] >= low + span - 1e-6
    assert 2 <= len(ticks) <= 12


@given(st.lists(st.floats(min_value=0, max_value=400), min_size=1, max_size=8))
def test_spread_labels_keeps_gap_and_bounds(ys):
    placed = _spread_labels(ys, 16, 0, 400)
    ordered = sorted(placed)
    assert all(0 <= y <= 400 for y in placed)
    if len(ys) * 16 <= 400:
        assert all(b - a >= 16 - 1e-9 for a, b in itertools.pairwise(ordered))


def test_long_end_labels_are_shortened_to_fit_the_canvas():
    import re as _re

    from engine.chart import BOLD_EM, ChartSize, standings_chart

    size = ChartSize()
    name = "1. Maximiliane-Friederike15 von Hohenzollern-Sigmaringen"
    svg = standings_chart({name: [10, 30, 106]}, [name], size=size)
    label = _re.search(r'<text class="end-label" x="([\d.]+)"[^>]*>([^<]+)</text>', svg)
    x, text = float(label.group(1)), label.group(2)
    assert text.endswith("\u2026 (106)")
    assert x + len(text) * size.font_size * BOLD_EM <= size.width
