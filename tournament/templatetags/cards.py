"""`{% load cards %}` then `{{ entry.cards|cards }}` (or `|cards:tournament.deck`): a stored hand in the
page's language (in German yellow is "Ge" and green "Gr", docs/rules.md §6)."""

from django import template
from django.utils.translation import get_language

from engine.cards import get_deck
from engine.notation import localise_hand

register = template.Library()


@register.filter
def cards(text: str | None, deck: str = "") -> str:
    if not text:
        return text or ""
    return localise_hand(text, get_language(), get_deck(deck) if deck else get_deck("classic"))
