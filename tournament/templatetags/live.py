"""Tags that drop the live parts into any page: `{% load live %}` then
`{% round_clock round %}` (the countdown) or `{% clock_controls round %}` (the organizer's buttons)."""

from django import template

from tournament.clock.forms import clock_controls_context
from tournament.clock.selectors import clock_state
from tournament.series.tables import signed as signed_text
from tournament.standings.exports import category_names

register = template.Library()


@register.inclusion_tag("tournament/_clock.html", takes_context=True)
def round_clock(context, round_, refresh_url: str = ""):
    return {
        "clock": clock_state(round_),
        "clock_refresh_url": refresh_url,
        "request": context.get("request"),
    }


@register.inclusion_tag("tournament/organizer/_clock_controls.html", takes_context=True)
def clock_controls(context, round_):
    return {
        **clock_controls_context(round_),
        "request": context.get("request"),
        "csrf_token": context.get("csrf_token"),
    }


@register.filter
def category_label(category) -> str:
    """A category's name, translated: 'Damen', 'Jugendliche', …"""
    from django.utils.translation import gettext

    from engine.rankings import CATEGORY_LABELS, Category

    return gettext(CATEGORY_LABELS[Category(category)])


@register.filter
def category_labels(categories) -> str:
    """Several categories' names, translated and joined: 'Neulinge, Mitglieder' (as the exports write
    them)."""
    return category_names(categories)

@register.filter
def head(rows, count):
    """The first `count` rows, all of them without a count: `{% for row in rows|head:lines %}`."""
    return rows[:count] if count else rows


@register.filter
def signed(value: int) -> str:
    """A season's bonus or deduction as it changes the score: '+6', '0', or a minus sign and the number."""
    return signed_text(value)


@register.filter
def evening_dates(evenings) -> str:
    """Evenings by their dates, as the season table heads them: '12.10., 09.11.'."""
    from django.utils.dateformat import format as date_format

    return ", ".join(date_format(evening.date, "d.m.") for evening in evenings)
