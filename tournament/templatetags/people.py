"""People shown by their name where they gave one (`accounts.selectors.display_name`)."""

from __future__ import annotations

from django import template

from tournament.accounts.selectors import display_name

register = template.Library()


@register.filter
def person(user) -> str:
    return display_name(user)
