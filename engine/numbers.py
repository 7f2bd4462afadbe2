"""The one rule for whole numbers, for every form and for the engine (docs/rules.md §5 reads points
and card counts this way too).

A number is an optional sign and ASCII digits, with spaces around it: `12`, `+3`, `-2`. Other
digits (superscript two, Arabic-Indic three, full-width twelve) are refused everywhere: Python's
`str.isdigit()` and `int()` disagree about them, and the engine must read exactly what the form
accepted. A number with more digits than `max_value` has is refused before `int()` sees it, so a
giant string costs nothing and no message carries an internal cap.
"""

from __future__ import annotations

import re

# The largest number anything in the app counts (seeds are bigger and pass their own max_value).
MAX_INT = 999_999_999

_INTEGER = re.compile(r"([+-]?)([0-9]+)", re.ASCII)


class NumberError(ValueError):
    """`code` is 'not_a_number' or 'too_large'."""

    def __init__(self, code: str, text: str) -> None:
        super().__init__(code, text)
        self.code = code
        self.text = text


def parse_int(raw: object, *, max_value: int = MAX_INT) -> int | None:
    """The number in `raw` (a str, int or integral float); None when blank. Raises NumberError."""
    if raw is None:
        return None
    if isinstance(raw, bool):
        raise NumberError("not_a_number", str(raw))
    if isinstance(raw, float):
        if not raw.is_integer():
            raise NumberError("not_a_number", str(raw))
        raw = int(raw)
    if isinstance(raw, int):
        if abs(raw) > max_value:
            raise NumberError("too_large", str(raw))
        return raw
    if not isinstance(raw, str):
        raise NumberError("not_a_number", str(raw))
    text = raw.strip()
    if not text:
        return None
    match = _INTEGER.fullmatch(text)
    if not match:
        raise NumberError("not_a_number", text)
    digits = match.group(2).lstrip("0") or "0"
    if len(digits) > len(str(max_value)) or int(digits) > max_value:
        raise NumberError("too_large", text)
    return -int(digits) if match.group(1) == "-" else int(digits)


def parse_natural(raw: object, *, max_value: int = MAX_INT) -> int | None:
    """A number of zero or more, or None for anything else (GET parameters: a bad one is ignored)."""
    try:
        value = parse_int(raw, max_value=max_value)
    except NumberError:
        return None
    return value if value is not None and value >= 0 else None


def shown(text: str, limit: int = 12) -> str:
    """A typed value as a message quotes it: at most `limit` characters."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


_AMOUNT = re.compile(r"([+-]?)([0-9]+)(?:[.,]([0-9]*))?", re.ASCII)


def parse_cents(raw: object, *, max_cents: int = MAX_INT) -> int | None:
    """An amount of euros as whole cents; None when blank. Raises NumberError.

    The decimal separator is a comma or a point whatever the page's language ("8,50" and "8.50" are
    both 850), with at most two decimals; a euro sign before or after is ignored. Thousands
    separators are refused: "1.000" would be one euro to a point reader and a thousand to a comma
    reader, so it is neither. Codes: 'not_a_number', 'too_large', 'too_many_decimals'.
    """
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, str):
        raise NumberError("not_a_number", str(raw))
    text = raw.strip().removeprefix("€").removesuffix("€").strip()
    if not text:
        return None
    match = _AMOUNT.fullmatch(text)
    if not match:
        raise NumberError("not_a_number", text)
    sign, euros, decimals = match.group(1), match.group(2).lstrip("0") or "0", match.group(3) or ""
    if len(decimals) > 2:
        raise NumberError("too_many_decimals", text)
    if len(euros) > len(str(max_cents)):
        raise NumberError("too_large", text)
    cents = int(euros) * 100 + int(decimals.ljust(2, "0"))
    if cents > max_cents:
        raise NumberError("too_large", text)
    return -cents if sign == "-" else cents
