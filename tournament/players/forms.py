"""Forms of the players pages: one player typed in, and a list to import."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.fields import NumberField, TextField
from tournament.models import Player

from ..tournaments.forms import DATE_INPUTS


class PlayerForm(forms.Form):
    first_name = TextField(label=_("First name"), max_length=80)
    last_name = TextField(label=_("Last name"), max_length=80)
    club = TextField(label=_("Club"), max_length=120, required=False)
    birth_date = forms.DateField(
        label=_("Date of birth"),
        required=False,
        input_formats=DATE_INPUTS,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    birth_year = NumberField(label=_("Year of birth"), required=False, min_value=1900, max_value=2100)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].widget.attrs["list"] = "known-clubs"
        self.fields["first_name"].widget.attrs["autocomplete"] = "off"
        self.fields["last_name"].widget.attrs["autocomplete"] = "off"

    @classmethod
    def for_player(cls, player: Player, **kwargs: Any) -> PlayerForm:
        return cls(
            initial={
                "first_name": player.first_name,
                "last_name": player.last_name,
                "club": player.club_name,
                "birth_date": player.birth_date,
                "birth_year": player.birth_year,
            },
            **kwargs,
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        born, year = data.get("birth_date"), data.get("birth_year")
        if born and year and born.year != year:
            self.add_error("birth_year", _("The year does not match the date of birth."))
        return data

    def player_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "first_name": data["first_name"],
            "last_name": data["last_name"],
            "club_name": data["club"],
            "birth_date": data["birth_date"],
            "birth_year": data["birth_year"],
        }


class ImportForm(forms.Form):
    MAX_BYTES = 2 * 1024 * 1024

    file = forms.FileField(
        label=_("CSV or Excel file"),
        help_text=_(
            "Columns: Vorname/First name, Nachname/Last name, Verein/Club, Geburtsjahr/Year of birth "
            "or Geburtsdatum/Date of birth. Separated by ; or , in UTF-8 or Windows encoding."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,.xlsx"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        return upload
