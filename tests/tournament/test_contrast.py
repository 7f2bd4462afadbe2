"""Text colours against their backgrounds, computed from the stylesheets: at least 4.5:1 (WCAG AA for
normal text). The UNO green under white text (card keys, chips, the "starts" tag) was 3.75:1."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from engine.chart import HIGHLIGHT_COLOURS

pytestmark = pytest.mark.one_database  # the stylesheets

CSS = Path(settings.BASE_DIR) / "static" / "css"
RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
VARIABLE = re.compile(r"--([\w-]+):\s*(#[0-9a-fA-F]{6})")
HEX = re.compile(r"^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$")


def luminance(colour: str) -> float:
    digits = colour.lstrip("#")
    if len(digits) == 3:
        digits = "".join(d * 2 for d in digits)
    channels = [int(digits[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def variables(name: str) -> dict[str, str]:
    """The colours of a stylesheet's :root (print.css has its own; the others use app.css's)."""
    text = (CSS / name).read_text(encoding="utf-8")
    if ":root" not in text:
        text = (CSS / "app.css").read_text(encoding="utf-8")
    return dict(VARIABLE.findall(text.split(":root", 1)[1].split("}", 1)[0]))


def resolve(value: str, names: dict[str, str]) -> str | None:
    value = value.strip().removesuffix("!important").strip()
    match = re.fullmatch(r"var\(--([\w-]+)\)", value)
    if match:
        value = names.get(match.group(1), "")
    if value in ("white", "#fff"):
        return "#ffffff"
    return value if HEX.match(value) else None


def declarations(body: str) -> dict[str, str]:
    found = {}
    for part in re.sub(r"/\*.*?\*/", "", body, flags=re.S).split(";"):
        if ":" in part:
            key, value = part.split(":", 1)
            found[key.strip()] = value.strip()
    return found


def text_on_background(name: str) -> list[tuple[str, str, str]]:
    """(selector, text colour, background) of every rule that sets both, with plain colours."""
    names = variables(name)
    text = re.sub(r"/\*.*?\*/", "", (CSS / name).read_text(encoding="utf-8"), flags=re.S)
    pairs = []
    for selector, body in RULE.findall(text):
        found = declarations(body)
        colour = resolve(found.get("color", ""), names)
        background = resolve(found.get("background-color", found.get("background", "")), names)
        if colour and background:
            pairs.append((" ".join(selector.split()), colour, background))
    return pairs


def test_the_green_under_white_text_is_at_least_4_5_to_1():
    for name in ("app.css", "print.css"):
        green = variables(name)["green"]
        assert contrast(green, "#ffffff") >= 4.5, (name, green)
    # the old green, for the record: below the limit
    assert round(contrast("#379711", "#ffffff"), 2) == 3.75


def test_the_card_keys_and_chips_use_the_green_with_white_text():
    pairs = {selector: (text, background) for selector, text, background in text_on_background("captain.css")}
    green = variables("app.css")["green"]
    assert pairs[".pick.colour.c-G"] == ("#ffffff", green)
    assert pairs[".c-G"] == ("#ffffff", green)


@pytest.mark.parametrize("name", ["app.css", "captain.css", "organizer.css", "projector.css"])
def test_every_text_colour_on_its_background_is_at_least_4_5_to_1(name):
    low = [(selector, colour, background, round(contrast(colour, background), 2))
           for selector, colour, background in text_on_background(name)
           if contrast(colour, background) < 4.5]
    assert low == []


def test_white_tags_on_the_printed_table_sheet():
    names = variables("print.css")
    sheet = (CSS / "print.css").read_text(encoding="utf-8")
    tags = {
        selector.strip(): resolve(declarations(body).get("background", ""), names)
        for selector, body in RULE.findall(sheet)
        if selector.strip().startswith(".tag.")
    }
    assert declarations(dict((s.strip(), b) for s, b in RULE.findall(sheet))[".tag"])["color"] == "#fff"
    assert set(tags) == {".tag.deals", ".tag.starts"}
    assert all(contrast(background, "#ffffff") >= 4.5 for background in tags.values()), tags


def test_the_standings_chart_uses_the_same_green():
    assert variables("app.css")["green"] in HIGHLIGHT_COLOURS
    assert "#379711" not in HIGHLIGHT_COLOURS
