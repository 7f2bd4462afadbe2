"""Forms of the round pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.text import person_sort_key
from tournament.fields import NumberField, RecordChoiceField
from tournament.models import Seat

MAX_SEED = 2**63 - 1  # the largest number the database's seed column holds


class SwapForm(forms.Form):
    """Two seats of a drafted round whose players change places."""

    first = RecordChoiceField(queryset=Seat.objects.none(), label=_("Player"))
    second = RecordChoiceField(queryset=Seat.objects.none(), label=_("swaps with"))

    def __init__(self, *args: Any, seats, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The database sorts "Ö" after "Z"; the list sorts as a German reader looks (engine.text).
        ordered = sorted(
            seats, key=lambda seat: (
                person_sort_key(seat.registration.player.last_name, seat.registration.player.first_name),
                seat.pk,
            )
        )
        for name in ("first", "second"):
            field = self.fields[name]
            field.queryset = seats
            field.label_from_instance = lambda seat: (
                f"{seat.registration.player.name} ({_('table')} {seat.table.number})"
            )
            field.choices = [("", field.empty_label)] + [
                (seat.pk, field.label_from_instance(seat)) for seat in ordered
            ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data


class SeatRoundForm(forms.Form):
    """The seed the organizer may type for a draw; blank draws a fresh one."""

    seed = NumberField(label=_("seating seed"), required=False, min_value=0, max_value=MAX_SEED)


class RoundStepForm(forms.Form):
    """What a round's button asks for besides its own step: `start` publishes and opens the round in one
    step; `then` is the step after it (save the table sheets, seat the next round). Anything else is
    refused rather than ignored, so a button never does less than it says."""

    start = forms.BooleanField(required=False)
    then = forms.ChoiceField(
        required=False,
        choices=[("", ""), ("print", _("print the table sheets")), ("seat", _("seat the next round"))],
    )
