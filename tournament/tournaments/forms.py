"""The tournament's settings form: name, date and every format setting."""

from __future__ import annotations

from decimal import Decimal
from itertools import permutations
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext_lazy as _

from engine.scoring import EndRule, ScoringFormat
from engine.standings import DEFAULT_TIEBREAKS, TIEBREAKS, MissedRoundPolicy
from tournament.fields import DateField, MoneyField, NumberField, TextField
from tournament.models import TableConfirmation, Tournament, engine_choices

from ..clock.selectors import MAX_CLOCK_MINUTES

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
    "standings_hidden_from": (1, 50),
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


# The settings page shows a choice in a select, whose closed box cuts off what does not fit (at 360 px
# about 30 characters): short option texts there, the explanation as the field's help text. The
# model's own labels, which other pages show, stay as they are.
SHORT_CHOICES: dict[str, list[tuple[str, str]]] = {
    "scoring": engine_choices(ScoringFormat, {
        ScoringFormat.MINUS_POINTS: _("minus points"),
        ScoringFormat.WINNER_COLLECTS: _("winner collects"),
    }),
    "end_rule": engine_choices(EndRule, {
        EndRule.ROUNDS: _("fixed number of rounds"),
        EndRule.THRESHOLD: _("until the threshold"),
    }),
    "missed_rounds": engine_choices(MissedRoundPolicy, {
        MissedRoundPolicy.RANK_AFTER: _("ranked after"),
        MissedRoundPolicy.CHARGE_HIGHEST: _("charged the highest score"),
    }),
    "table_confirmation": [
        (TableConfirmation.OFF, _("off")),
        (TableConfirmation.PLAYER, _("second player confirms")),
        (TableConfirmation.PLAYER_COUNTS, _("second player, counts at once")),
    ],
}
HELP_TEXTS = {
    "scoring": _("Minus points: the lowest total wins. Winner collects: the highest total wins."),
    "end_rule": _("Until the threshold: the tournament ends as soon as a total reaches the threshold "
                  "(at the latest after the number of rounds)."),
    "missed_rounds": _("Ranked after: behind everyone who played every round. Highest score: each missed "
                       "round counts the highest score of that round (under winner collects: 0)."),
    "table_confirmation": Tournament._meta.get_field("table_confirmation").help_text,
}


class TournamentForm(forms.ModelForm):
    """Name, date and every format setting; the checks mirror the database constraints."""

    # Radio buttons: each order is a long text ("Rounds won, then Worst round") that a select would cut.
    tiebreak_order = forms.ChoiceField(
        label=_("Tie-break order"),
        choices=tiebreak_choices,
        widget=forms.RadioSelect,
        help_text=_("Players still equal after these share the place."),
    )
    # Set where the evening is prepared (also on the prizes page): the desk takes it as each amount.
    entry_fee = MoneyField(
        label=_("Entry fee (€)"), min_value=Decimal("0"), max_value=Decimal("1000"), required=False,
        help_text=_("Empty: no entry fee."),
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
            "table_confirmation",
            "public",
            "separate_clubs",
            "plan_all_rounds",
            "standings_hidden_from",
        ]
        field_classes = {
            "name": TextField,
            "venue": TextField,
            "date": DateField,
            **{name: NumberField for name in TOURNAMENT_LIMITS},
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["date"].input_formats = DATE_INPUTS
        for name, (low, high) in TOURNAMENT_LIMITS.items():
            field = self.fields[name]
            field.min_value, field.max_value = low, high
            field.validators += [MinValueValidator(low), MaxValueValidator(high)]
            field.widget.attrs.update(min=low, max=high)
        for name, choices in SHORT_CHOICES.items():
            self.fields[name].choices = choices
            self.fields[name].help_text = HELP_TEXTS[name]
        # A form posted without it (an older page, a script) keeps the tournament's setting.
        self.fields["table_confirmation"].required = False
        instance = kwargs.get("instance")
        order = (instance.tiebreaks if instance is not None else None) or list(DEFAULT_TIEBREAKS)
        self.initial.setdefault("tiebreak_order", ",".join(order))
        if instance is not None:
            self.initial.setdefault("entry_fee", Decimal(instance.entry_fee_cents) / 100)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        size, low, high = data.get("table_size"), data.get("table_min"), data.get("table_max")
        if None not in (size, low, high) and not 2 <= low <= size <= high <= 10:
            # A field error also keeps the model's check constraint from repeating the message.
            self.add_error(
                "table_min", _("Table sizes must satisfy 2 ≤ smallest ≤ preferred ≤ largest ≤ 10.")
            )
        if data.get("end_rule") == EndRule.THRESHOLD and not data.get("threshold"):
            self.add_error("threshold", _("Set the total at which the tournament ends."))
        if not data.get("table_confirmation"):
            data["table_confirmation"] = (
                self.instance.table_confirmation if self.instance.pk else TableConfirmation.OFF
            )
        order = data.get("tiebreak_order") or ""
        data["tiebreaks"] = [key for key in order.split(",") if key]
        return data

    def settings(self) -> dict[str, Any]:
        """The cleaned values as keyword arguments for the tournament services."""
        values = {name: self.cleaned_data[name] for name in self.Meta.fields}
        values["tiebreaks"] = self.cleaned_data["tiebreaks"]
        # A form posted without the field (an older page, a script) keeps the evening's fee.
        if "entry_fee" in self.data:
            fee = self.cleaned_data.get("entry_fee")
            values["entry_fee_cents"] = 0 if fee is None else int(fee * 100)
        return values


class TournamentDeleteForm(forms.Form):
    """Deleting is for good, so the organizer types the tournament's name: a slip of the mouse cannot."""

    confirm_name = TextField(max_length=200)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        label = _("Type the name “%(name)s” to confirm")
        self.fields["confirm_name"].label = label % {"name": tournament.name}
        self.fields["confirm_name"].widget.attrs["autocomplete"] = "off"

    def clean_confirm_name(self) -> str:
        typed = self.cleaned_data["confirm_name"].strip()
        if typed != self.tournament.name:
            raise forms.ValidationError(
                _("Type the tournament's name exactly to delete it."), code="name_differs"
            )
        return typed


LOGO_MAX_BYTES = 5 * 1024 * 1024


class LogoForm(forms.ModelForm):
    """The club logo printed on the certificates: an image of at most 5 MB, or `remove` to print none."""

    remove = forms.BooleanField(required=False)

    class Meta:
        model = Tournament
        fields = ["logo"]
        widgets = {"logo": forms.FileInput(attrs={"accept": "image/png,image/jpeg,image/svg+xml"})}

    def clean_logo(self):
        logo = self.cleaned_data.get("logo")
        if logo and logo.size > LOGO_MAX_BYTES:
            raise forms.ValidationError(_("The logo may be at most 5 MB."), code="too_large")
        return logo

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("remove"):
            data["logo"] = None
        elif not data.get("logo") and "logo" not in self.errors:
            self.add_error("logo", forms.ValidationError(_("Choose an image file."), code="required"))
        return data


# More steps than any prize-giving has (the opening, a place each, the table's pages).
MAX_REVEAL_STEP = 999


class RevealStepForm(forms.Form):
    """The prize-giving's step the organizer moves to: the step itself, not "next", so a double tap or
    two clickers at once land on the same step instead of skipping a place."""

    step = NumberField(label=_("Prize-giving step"), min_value=0, max_value=MAX_REVEAL_STEP)
    # The organizer's page the button was on, to return to it.
    page = forms.ChoiceField(required=False, choices=[("standings", "standings"), ("finish", "finish")])
