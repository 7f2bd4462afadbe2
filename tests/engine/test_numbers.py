"""The one number rule (engine.numbers): ASCII digits only, bounded before int() (#15 items 3, 9, 10)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.numbers import MAX_INT, NumberError, parse_int, parse_natural
from engine.validation import SeatReport, TableReport, validate_table

NOT_NUMBERS = ["²", "٣", "\uff11\uff12", "1²", "½", "\U0001d7d7", "1_000", "1e3", "0x10", "1.5", "--1"]


@pytest.mark.parametrize("text", NOT_NUMBERS)
def test_other_digits_and_notations_are_not_numbers(text):
    with pytest.raises(NumberError) as exc:
        parse_int(text)
    assert exc.value.code == "not_a_number"
    assert parse_natural(text) is None


@pytest.mark.parametrize(("text", "value"), [("12", 12), (" +3 ", 3), ("-2", -2), ("007", 7), ("", None)])
def test_ascii_numbers(text, value):
    assert parse_int(text) == value


def test_twenty_digits_are_too_large_without_int():
    with pytest.raises(NumberError) as exc:
        parse_int("9" * 20)
    assert exc.value.code == "too_large"
    with pytest.raises(NumberError):
        parse_int("1" + "0" * 100_000)  # no int() of a giant string
    assert parse_int(str(2**63 - 1), max_value=2**63 - 1) == 2**63 - 1
    with pytest.raises(NumberError):
        parse_int("9" * 19, max_value=2**63 - 1)
    assert parse_int("0" * 30 + "5") == 5


@given(st.integers(min_value=-MAX_INT, max_value=MAX_INT))
def test_every_number_in_range_reads_back(number):
    assert parse_int(str(number)) == number
    assert parse_int(number) == number


@given(st.text(max_size=15))
def test_any_text_is_a_number_in_range_or_refused(text):
    try:
        value = parse_int(text)
    except NumberError as exc:
        assert exc.code in ("not_a_number", "too_large")
    else:
        assert value is None or abs(value) <= MAX_INT
        assert value is None or text.strip().lstrip("+-").isascii()


def report(points="", count=""):
    return TableReport(
        seated=[1, 2], seats=[SeatReport(1, went_out=True), SeatReport(2, points=points, card_count=count)]
    )


def test_huge_points_say_so_without_an_internal_cap():
    issues = validate_table(report(points="999999999999")).errors
    assert [i.code for i in issues] == ["points_too_high"]
    assert "1000000000" not in issues[0].text()
    assert "999999999999 points" in issues[0].text()
    assert "99999999999…" in validate_table(report(points="9" * 40)).errors[0].text()


def test_huge_card_count_is_refused_with_its_own_message():
    issues = validate_table(report(points="10", count="1000000006")).errors
    assert "count_too_high" in [i.code for i in issues]
    assert not any("1000000006 cards together" in i.text() for i in issues)


def test_unicode_digits_are_refused_by_the_engine_as_by_the_forms():
    issues = validate_table(report(points="\uff11\uff12")).errors
    assert [i.code for i in issues] == ["points_invalid"]
