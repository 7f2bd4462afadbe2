"""The organizer's clock controls: the minutes to start with, and what the controls template shows."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..fields import NumberField
from ..models import Round
from .selectors import MAX_CLOCK_MINUTES, clock_state


class ClockStartForm(forms.Form):
    minutes = NumberField(
        label=_("Minutes"), required=False, min_value=1, max_value=MAX_CLOCK_MINUTES,
        widget=forms.NumberInput(attrs={"class": "clock-minutes", "inputmode": "numeric"}),
    )


def clock_controls_context(round_: Round, *, form: ClockStartForm | None = None, error: str = "") -> dict:
    """What _clock_controls.html needs; the round page can build it with this function too."""
    return {
        "round": round_,
        "tournament": round_.tournament,
        "clock": clock_state(round_),
        "clock_form": form or ClockStartForm(initial={"minutes": round_.tournament.time_limit_minutes}),
        "clock_error": error,
    }
