"""Amounts stored in cents, shown in euros in the current language's number format."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils import formats

register = template.Library()


@register.filter
def euros(cents) -> str:
    if cents in (None, ""):
        return ""
    return f"{formats.number_format(Decimal(int(cents)) / 100, 2, use_l10n=True)} €"
