"""The one number rule (engine.numbers): ASCII digits only, bounded before int() (#15 items 3, 9, 10)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.numbers import MAX_INT, NumberError, parse_cents, parse_int, parse_natural
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


@pytest.mark.parametrize(
    ("text", "cents"),
    [("8,50", 850), ("8.50", 850), ("8,5", 850), ("8", 800), ("8,", 800), (" 8,50 € ", 850), ("€8.50", 850),
     ("0,05", 5), ("-1,00", -100), ("", None), ("  ", None)],
)
def test_amounts_with_comma_or_point(text, cents):
    assert parse_cents(text) == cents


@pytest.mark.parametrize(
    ("text", "code"),
    [("8,505", "too_many_decimals"), ("1.000", "too_many_decimals"), ("1.000,00", "not_a_number"),
     ("8 50", "not_a_number"), ("acht", "not_a_number"), ("\u0668,\u0665\u0660", "not_a_number"),
     ("1e3", "not_a_number"),
     ("9" * 40, "too_large")],
)
def test_ambiguous_or_odd_amounts_are_refused(text, code):
    with pytest.raises(NumberError) as error:
        parse_cents(text)
    assert error.value.code == code


@given(st.integers(min_value=0, max_value=10**8))
def test_every_amount_reads_back_with_either_separator(cents):
    euros, rest = divmod(cents, 100)
    assert parse_cents(f"{euros},{rest:02d}") == parse_cents(f"{euros}.{rest:02d}") == cents
