"""Forms of the round pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.models import Seat


class SwapForm(forms.Form):
    """Two seats of a drafted round whose players change places."""

    first = forms.ModelChoiceField(queryset=Seat.objects.none(), label=_("Player"))
    second = forms.ModelChoiceField(queryset=Seat.objects.none(), label=_("swaps with"))

    def __init__(self, *args: Any, seats, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            field = self.fields[name]
            field.queryset = seats
            field.label_from_instance = lambda seat: (
                f"{seat.registration.player.name} ({_('table')} {seat.table.number})"
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("first") and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Choose two different players."))
        return data
