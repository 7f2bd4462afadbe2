"""`{% load cards %}` then `{{ entry.cards|cards }}` (or `|cards:tournament.deck`): a stored hand in the
page's language (in German yellow is "Ge", green "Gr", Reverse "Ret", docs/rules.md §6); and
`{% notation_example %}`, the example of every notation hint, written by the same table."""

from django import template
from django.utils.translation import get_language

from engine.cards import get_deck
from engine.notation import localise_hand
from engine.notation import notation_example as example_in

register = template.Library()


@register.filter
def cards(text: str | None, deck: str = "") -> str:
    if not text:
        return text or ""
    return localise_hand(text, get_language(), get_deck(deck) if deck else get_deck("classic"))


@register.simple_tag
def notation_example() -> str:
    """The example hand the hints show ("R7 GRev W" / "R7 GrRet J"): never a second spelling by hand."""
    return example_in(get_language())
