"""Form fields for text, numbers, dates and records: every form reads them through the app's one rule
(`engine.text.clean_text`, `engine.numbers.parse_int`), the same the import, the restore and the
engine use.

Every field a person can type into is one of these (tests/tournament/test_form_fields.py walks every
form of the app): free text is a `TextField` (or `EmailField`), a number a `NumberField` with bounds,
a date or a time a `DateField` / `DateTimeField` within `DATE_YEARS`, a choice of a record a
`RecordChoiceField` that refuses an id no column can hold before asking the database.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.formats import get_format
from django.utils.translation import gettext_lazy as _

from engine.numbers import MAX_INT, NumberError, parse_cents, parse_int
from engine.text import TextError, clean_text

TEXT_MESSAGES = {
    "control_character": _("Control characters (such as NUL, escape or tab) are not allowed here."),
}
NUMBER_MESSAGES = {
    "not_a_number": _("Enter a whole number in digits 0-9."),
    "too_large": _("The number is too large (at most %(max)s)."),
}


DATE_MESSAGES = {
    "date_range": _("Enter a date between %(low)s and %(high)s."),
}
# Dates anyone types (an evening, a deadline, a date of birth) lie in these years: a year 1 or 9999
# would overflow the conversion to UTC or to the hall's time zone.
DATE_YEARS = (1900, 2100)

_BIRTH_YEAR = _("Please enter a year of birth between 1900 and this year.")
BIRTH_YEAR_MESSAGES = {"min_value": _BIRTH_YEAR, "max_value": _BIRTH_YEAR}

MONEY_MESSAGES = {
    "not_a_number": _('Enter an amount in euros, e.g. "8,50" or "8.50".'),
    "too_many_decimals": _('At most two decimals (cents) and no thousands separator, e.g. "8,50".'),
    "too_large": _("The amount is too large."),
}


def text_error(exc: TextError) -> ValidationError:
    if exc.code == "too_long":
        return ValidationError(
            _("At most %(max)s characters, please."), code="too_long", params={"max": exc.max_length}
        )
    return ValidationError(TEXT_MESSAGES[exc.code], code=exc.code)


def number_error(exc: NumberError, max_value: int) -> ValidationError:
    return ValidationError(NUMBER_MESSAGES[exc.code], code=exc.code, params={"max": max_value})


def cleaned_text(raw: Any, *, max_length: int | None = None, multiline: bool = False) -> str:
    """`clean_text` with a form's ValidationError."""
    try:
        return clean_text(raw, max_length=max_length, multiline=multiline)
    except TextError as exc:
        raise text_error(exc) from None


def cleaned_number(raw: Any, *, max_value: int = MAX_INT) -> int | None:
    """`parse_int` with a form's ValidationError."""
    try:
        return parse_int(raw, max_value=max_value)
    except NumberError as exc:
        raise number_error(exc, max_value) from None


class TextField(forms.CharField):
    """A CharField whose text is cleaned (NFC, no control characters); `multiline` allows newlines."""

    def __init__(self, *args: Any, multiline: bool = False, **kwargs: Any) -> None:
        self.multiline = multiline
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> str:
        value = super().to_python(value)
        if value in self.empty_values:
            return value
        return cleaned_text(value, multiline=self.multiline)


class EmailField(TextField, forms.EmailField):
    """An e-mail address under the text rule: Django's own check lets control characters through in
    a quoted local part (`"\\x01=…"@example.org`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", 254)
        super().__init__(*args, **kwargs)


class NumberField(forms.IntegerField):
    """An IntegerField that reads numbers as the engine does: ASCII digits only, bounded before int()."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        limit = MAX_INT
        if self.max_value is not None and self.min_value is not None:
            limit = max(abs(self.max_value), abs(self.min_value), limit)
        elif self.max_value is not None:
            limit = max(abs(self.max_value), limit)
        return cleaned_number(value, max_value=limit)

    def validate(self, value: int | None) -> None:
        """The bounds hold even where a form sets them after the field was made (its validators are
        made from the bounds at construction)."""
        super().validate(value)
        if value is None:
            return
        if self.min_value is not None and value < self.min_value:
            raise ValidationError(
                self.error_messages.get("min_value") or MinValueValidator.message,
                code="min_value", params={"limit_value": self.min_value},
            )
        if self.max_value is not None and value > self.max_value:
            raise ValidationError(
                self.error_messages.get("max_value") or MaxValueValidator.message,
                code="max_value", params={"limit_value": self.max_value},
            )


class MoneyField(forms.DecimalField):
    """Euros with cents: "8,50" and "8.50" are both read, in every language (`engine.numbers.parse_cents`);
    shown with two decimals in the page's language. The value is a Decimal; min/max as DecimalField."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "autocomplete": "off"})

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("decimal_places", 2)
        kwargs.pop("localize", None)
        super().__init__(*args, **kwargs)

    def widget_attrs(self, widget: forms.Widget) -> dict[str, Any]:
        return {}  # no step/min/max: the text box takes a comma, which a number box would not

    def to_python(self, value: Any) -> Decimal | None:
        if isinstance(value, Decimal):
            return value
        try:
            cents = parse_cents(value)
        except NumberError as exc:
            raise ValidationError(MONEY_MESSAGES[exc.code], code=exc.code) from None
        return None if cents is None else Decimal(cents) / 100

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, (Decimal, int)) and not isinstance(value, bool):
            return f"{Decimal(value):.2f}".replace(".", get_format("DECIMAL_SEPARATOR"))
        return value


def _check_year(value: dt.date | None, years: tuple[int, int]) -> None:
    low, high = years
    if value is not None and not low <= value.year <= high:
        raise ValidationError(
            DATE_MESSAGES["date_range"], code="date_range", params={"low": low, "high": high}
        )


# What a browser's date inputs send and show: always ISO, whatever the page's language. A value in
# another format (Django's localized "07.12.2026 21:00:00") leaves the input empty, and a form saved
# again unchanged would then delete the stored date.
DATE_INPUT_FORMAT = "%Y-%m-%d"
DATETIME_INPUT_FORMAT = "%Y-%m-%dT%H:%M"


class DateField(forms.DateField):
    """A date within `years` (DATE_YEARS unless given), shown in a `type="date"` input as ISO."""

    widget = forms.DateInput(attrs={"type": "date"}, format=DATE_INPUT_FORMAT)

    def __init__(self, *args: Any, years: tuple[int, int] = DATE_YEARS, **kwargs: Any) -> None:
        self.years = years
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> dt.date | None:
        date = super().to_python(value)
        _check_year(date, self.years)
        return date


class DateTimeField(forms.DateTimeField):
    """A date and time within `years` (DATE_YEARS unless given), shown in a `datetime-local` input as
    ISO: the year 1 in the hall's time zone parses, but turning it into UTC for the database
    overflows (a 500, not a form error)."""

    widget = forms.DateTimeInput(attrs={"type": "datetime-local"}, format=DATETIME_INPUT_FORMAT)

    def __init__(self, *args: Any, years: tuple[int, int] = DATE_YEARS, **kwargs: Any) -> None:
        self.years = years
        super().__init__(*args, **kwargs)

    def to_python(self, value: Any) -> dt.datetime | None:
        moment = super().to_python(value)
        _check_year(moment, self.years)
        return moment


MAX_RECORD_ID = 2**63 - 1  # the largest id a database column holds


def _record_id(value: Any) -> Any:
    """A submitted record id as the database may be asked for it; an id that is no number or larger
    than any column holds is no choice (SQLite raises OverflowError for it, PostgreSQL DataError)."""
    if value in (None, "") or hasattr(value, "_meta"):
        return value
    try:
        return parse_int(str(value), max_value=MAX_RECORD_ID)
    except NumberError:
        return None


class RecordChoiceField(forms.ModelChoiceField):
    """A ModelChoiceField that refuses ids no column holds with its 'invalid_choice' message."""

    def to_python(self, value: Any) -> Any:
        if value not in self.empty_values and _record_id(value) is None:
            raise ValidationError(self.error_messages["invalid_choice"], code="invalid_choice")
        return super().to_python(value)


class RecordsChoiceField(forms.ModelMultipleChoiceField):
    """A ModelMultipleChoiceField that refuses ids no column holds with its 'invalid_choice' message."""

    def _check_values(self, value: Any) -> Any:
        for pk in value:
            if _record_id(pk) is None:
                raise ValidationError(
                    self.error_messages["invalid_choice"], code="invalid_choice", params={"value": pk}
                )
        return super()._check_values(value)


class YesField(forms.TypedChoiceField):
    """A flag a button or a hidden input sends: only a real yes ("1", "on", "true", "yes") is yes, nothing
    or a real no is no, anything else is refused. A BooleanField reads every non-empty value but
    "false" as yes, so " ", "0" or "nein" would act."""

    YES = ("1", "on", "true", "yes")
    NO = ("0", "off", "false", "no")

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        super().__init__(
            choices=[("", ""), *((value, value) for value in (*self.YES, *self.NO))],
            coerce=lambda value: value in self.YES, empty_value=False, **kwargs,
        )

    def to_python(self, value: Any) -> str:
        return super().to_python(value).lower()

    def valid_value(self, value: Any) -> bool:
        return value in ("", *self.YES, *self.NO)
