"""The series' settings form (name and ranking rule) and the form that adds a tournament to a series.

The rule is checked by the engine (`engine.series.rule_problems`), each problem on its field.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.rankings import AgeLimits
from engine.series import SEASON_TIEBREAKS, rule_problems
from tournament.fields import NumberField, RecordChoiceField, TextField
from tournament.models import Series

from .rules import season_rule

LIMITS: dict[str, tuple[int, int]] = {
    "best_of": (1, 100),
    "min_evenings": (0, 100),
    "attendance_bonus": (0, 1000),
    "free_misses": (0, 100),
    "miss_deduction": (0, 1000),
    "club_best": (1, 20),
    "junior_under": (1, 30),
    "senior_from": (40, 100),
}


def season_tiebreak_choices() -> list[tuple[str, str]]:
    keys = list(SEASON_TIEBREAKS)
    choices = [("", gettext_lazy("none: equal points share the place"))]
    for length in range(len(keys), 0, -1):
        for order in permutations(keys, length):
            label = _(", then ").join(_(SEASON_TIEBREAKS[key]) for key in order)
            choices.append((",".join(order), label))
    return choices


class SeriesForm(forms.ModelForm):
    points_table_text = TextField(
        label=gettext_lazy("Points table"), required=False, max_length=400,
        help_text=gettext_lazy("Points for 1st, 2nd, … place, separated by hyphens, e.g. 25-20-16-13."),
    )
    tiebreak_order = forms.ChoiceField(label=gettext_lazy("Tie-breaks"), choices=season_tiebreak_choices,
                                       required=False)

    class Meta:
        model = Series
        fields = [
            "name", "points", "best_of", "min_evenings", "attendance_bonus", "free_misses", "miss_deduction",
            "members_only", "club_best", "club_value", "junior_under", "senior_from",
        ]
        field_classes = {"name": TextField, **{name: NumberField for name in LIMITS}}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (low, high) in LIMITS.items():
            field = self.fields[name]
            field.min_value, field.max_value = low, high
            field.validators += [MinValueValidator(low), MaxValueValidator(high)]
            field.widget.attrs.update(min=low, max=high)
        instance = self.instance
        self.fields["best_of"].help_text = _("Empty: every evening counts.")
        self.initial.setdefault("points_table_text", "-".join(str(v) for v in instance.points_table or []))
        self.initial.setdefault("tiebreak_order", ",".join(instance.tiebreaks or []))

    def clean_points_table_text(self) -> list[int]:
        text = self.cleaned_data.get("points_table_text", "")
        parts = [part for part in text.replace(",", "-").replace(" ", "-").split("-") if part]
        if not all(part.isdigit() for part in parts) or len(parts) > 100:
            raise forms.ValidationError(_("Give the points as whole numbers separated by hyphens."))
        return [int(part) for part in parts]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        order = data.get("tiebreak_order") or ""
        data["tiebreaks"] = [key for key in order.split(",") if key]
        if self.errors:
            return data
        probe = Series(**{name: data.get(name) for name in self.Meta.fields})
        probe.points_table, probe.tiebreaks = data.get("points_table_text", []), data["tiebreaks"]
        fields = {"table": "points_table_text", "tiebreaks": "tiebreak_order"}
        for problem in rule_problems(season_rule(probe)):
            self.add_error(fields.get(problem.field, problem.field), _(problem.message) % problem.params)
        limits = AgeLimits(junior_under=probe.junior_under, senior_from=probe.senior_from)
        if limits.problems():
            self.add_error("senior_from", _("The age limits are implausible."))
        return data

    def settings(self) -> dict[str, Any]:
        values = {name: self.cleaned_data[name] for name in self.Meta.fields}
        values["points_table"] = self.cleaned_data["points_table_text"]
        values["tiebreaks"] = self.cleaned_data["tiebreaks"]
        return values


class SeriesJoinForm(forms.Form):
    series = RecordChoiceField(label=gettext_lazy("Series"), queryset=Series.objects.none())

    def __init__(self, *args: Any, queryset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["series"].queryset = queryset


class SeriesChoiceForm(SeriesJoinForm):
    """On the new tournament's form: the series it joins (optional)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["series"]
        field.required = False
        field.empty_label = _("none")
        field.help_text = _("The tournament counts for the season ranking of this series.")
