"""Form fields for text and numbers: every form reads them through the app's one rule
(`engine.text.clean_text`, `engine.numbers.parse_int`), the same the import, the restore and the
engine use."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
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
