"""Forms of the organizer's pages. They check shape and settings; results are checked by the engine."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from engine.standings import DEFAULT_TIEBREAKS, TIEBREAKS
from engine.validation import SeatReport

from .clock import MAX_CLOCK_MINUTES
from .models import Player, Seat, Table, Tournament

DATE_INPUTS = ["%d.%m.%Y", "%Y-%m-%d", "%d.%m.%y"]

# The server's limits for the tournament's numbers. SQLite does not enforce the columns' integer
# ranges, so without these a typo like 60000 rounds would be stored as it is.
TOURNAMENT_LIMITS: dict[str, tuple[int, int]] = {
    "rounds_total": (1, 50),
    "table_size": (2, 10),
    "table_min": (2, 10),
    "table_max": (2, 10),
    "threshold": (1, 100_000),
    "time_limit_minutes": (1, MAX_CLOCK_MINUTES),
}


def tiebreak_choices() -> list[tuple[str, str]]:
    """Every ordered selection of the engine's tie-breaks, e.g. 'Rounds won, then Worst round'."""
    keys = list(TIEBREAKS)
    choices: list[tuple[str, str]] = []
    for length in range(len(keys), 0, -1):
        for order in permutations(keys, length):
            label = _(", then ").join(str(_(TIEBREAKS[key].label)) for key in order)
            choices.append((",".join(order), label))
    return choices


class TournamentForm(forms.ModelForm):
    """Name, date and every format setting; the checks mirror the database constraints."""

    tiebreak_order = forms.ChoiceField(
        label=_("Tie-break order"),
        choices=tiebreak_choices,
        help_text=_("Players still equal after these share the place."),
    )

    class Meta:
        model = Tournament
        fields = [
            "name",
            "date",
            "venue",
            "rounds_total",
            "table_size",
            "table_min",
            "table_max",
            "fill",
            "scoring",
            "end_rule",
            "threshold",
            "missed_rounds",
            "time_limit_minutes",
            "require_second_entry",
            "public",
            "separate_clubs",
            "plan_all_rounds",
        ]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].input_formats = DATE_INPUTS
        for name, (low, high) in TOURNAMENT_LIMITS.items():
            field = self.fields[name]
            field.min_value, field.max_value = low, high
            field.validators += [MinValueValidator(low), MaxValueValidator(high)]
            field.widget.attrs.update(min=low, max=high)
        instance = kwargs.get("instance")
        order = (instance.tiebreaks if instance is not None else None) or list(DEFAULT_TIEBREAKS)
        self.initial.setdefault("tiebreak_order", ",".join(order))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        size, low, high = data.get("table_size"), data.get("table_min"), data.get("table_max")
        if None not in (size, low, high) and not 2 <= low <= size <= high <= 10:
            # A field error also keeps the model's check constraint from repeating the message.
            self.add_error(
                "table_min", _("Table sizes must satisfy 2 ≤ smallest ≤ preferred ≤ largest ≤ 10.")
            )
        if data.get("end_rule") == Tournament.EndRule.THRESHOLD and not data.get("threshold"):
            self.add_error("threshold", _("Set the total at which the tournament ends."))
        order = data.get("tiebreak_order") or ""
        data["tiebreaks"] = [key for key in order.split(",") if key]
        return data

    def settings(self) -> dict[str, Any]:
        """The cleaned values as keyword arguments for the tournament services."""
        values = {name: self.cleaned_data[name] for name in self.Meta.fields}
        values["tiebreaks"] = self.cleaned_data["tiebreaks"]
        return values


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=_("First name"), max_length=80)
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    birth_date = forms.DateField(
        label=_("Date of birth"),
        required=False,
        input_formats=DATE_INPUTS,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )
    birth_year = forms.IntegerField(label=_("Year of birth"), required=False, min_value=1900, max_value=2100)

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


class TableResultForm(forms.Form):
    """One row per seat: the cards (notation) or the points with an optional card count, and who went out.

    Fields stay raw text: the engine reads and checks them, so the form only carries what was typed.
    """

    went_out = forms.TypedChoiceField(coerce=int, required=False, widget=forms.RadioSelect)
    stopped_by_time = forms.BooleanField(
        label=_("Stopped by the time limit (nobody went out)"), required=False
    )
    confirm_warnings = forms.BooleanField(
        label=_("I checked the warnings: the result is right."), required=False
    )

    def __init__(self, *args: Any, table: Table, seats: list[Seat], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.table = table
        self.seats = seats
        self.fields["went_out"].choices = [(seat.registration_id, "") for seat in seats]
        for seat in seats:
            reg = seat.registration_id
            self.fields[f"cards_{reg}"] = forms.CharField(
                required=False,
                max_length=400,
                label=_("Cards"),
                widget=forms.TextInput(
                    attrs={"autocomplete": "off", "spellcheck": "false", "placeholder": _("e.g. R7 Rev W")}
                ),
            )
            self.fields[f"points_{reg}"] = forms.CharField(
                required=False,
                max_length=12,
                label=_("Points"),
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 5}),
            )
            self.fields[f"count_{reg}"] = forms.CharField(
                required=False,
                max_length=6,
                label=_("Card count"),
                widget=forms.TextInput(attrs={"inputmode": "numeric", "autocomplete": "off", "size": 3}),
            )

    def rows(self) -> list[dict[str, Any]]:
        """Per seat: the seat and its three bound fields, for the template's one-row-per-player layout."""
        went_out = self["went_out"].value()
        return [
            {
                "seat": seat,
                "reg_id": seat.registration_id,
                "cards": self[f"cards_{seat.registration_id}"],
                "points": self[f"points_{seat.registration_id}"],
                "count": self[f"count_{seat.registration_id}"],
                "went_out": str(went_out) == str(seat.registration_id),
            }
            for seat in self.seats
        ]

    def seat_reports(self) -> list[SeatReport]:
        data = self.cleaned_data
        return [
            SeatReport(
                player_id=seat.registration_id,
                cards=data.get(f"cards_{seat.registration_id}") or None,
                points=data.get(f"points_{seat.registration_id}") or None,
                card_count=data.get(f"count_{seat.registration_id}") or None,
                went_out=data.get("went_out") == seat.registration_id,
            )
            for seat in self.seats
        ]

    @staticmethod
    def initial_from(submission) -> dict[str, Any]:
        """Prefill a correction with the version shown: cards when known, else points and count."""
        if submission is None:
            return {}
        initial: dict[str, Any] = {"stopped_by_time": submission.stopped_by_time}
        for entry in submission.entries.all():
            reg = entry.registration_id
            if entry.went_out:
                initial["went_out"] = reg
            elif entry.cards:
                initial[f"cards_{reg}"] = entry.cards
            else:
                initial[f"points_{reg}"] = entry.hand_points
                if entry.card_count is not None:
                    initial[f"count_{reg}"] = entry.card_count
        return initial
