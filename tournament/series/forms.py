"""The series' settings form (name and ranking rule) and the form that adds a tournament to a series.

The rule is checked by the engine (`engine.series.rule_problems`), each problem on its field.
"""

from __future__ import annotations

import re
from itertools import permutations
from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from engine.numbers import NumberError, parse_int
from engine.rankings import AgeLimits
from engine.series import POINTS_TABLE_MAX, POINTS_TABLE_PLACES, SEASON_TIEBREAKS, rule_problems
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


# 25-20-16-13 or 25 20 16 13: digits only, a hyphen (or a space) between them, so no minus sign.
HYPHENATED = re.compile(r"[0-9]+(?:(?:[ \t]*-[ \t]*|[ \t]+)[0-9]+)*", re.ASCII)


def points_table_values(text: str) -> list[int]:
    """The points table as typed: "25-20-16-13" (hyphens or spaces between plain numbers) or
    "25, 20, 16, 13" (commas or semicolons; only here can a value carry a sign, "25, 20, -5"). Each value
    is bounded before it becomes a number; anything else is refused with a message saying how."""
    text = text.strip()
    if not text:
        return []
    if "," in text or ";" in text:
        parts = [part.strip() for part in re.split(r"[,;]", text)]
        if parts[-1] == "":
            parts.pop()  # "25, 20, 16," : a trailing comma is harmless
    elif HYPHENATED.fullmatch(text):
        parts = re.split(r"[ \t]*-[ \t]*|[ \t]+", text)
    else:
        parts = []
    if not parts or "" in parts:
        raise forms.ValidationError(
            _("Give the points as whole numbers separated by hyphens or commas, e.g. 25-20-16-13 or "
              "25, 20, 16, 13 (a minus sign only between commas)."),
            code="points_table_syntax",
        )
    if len(parts) > POINTS_TABLE_PLACES:
        raise forms.ValidationError(
            _("The points table has at most %(places)s places.") % {"places": POINTS_TABLE_PLACES},
            code="points_table_range",
        )
    values = []
    for part in parts:
        try:
            value = parse_int(part, max_value=POINTS_TABLE_MAX)
        except NumberError as exc:
            if exc.code == "too_large":
                raise forms.ValidationError(
                    _("A place is worth at most %(max)s points.") % {"max": POINTS_TABLE_MAX},
                    code="points_table_range",
                ) from None
            raise forms.ValidationError(
                _("Give the points as whole numbers separated by hyphens or commas, e.g. 25-20-16-13 or "
                  "25, 20, 16, 13: “%(value)s” is not one.") % {"value": part[:12]},
                code="points_table_syntax",
            ) from None
        values.append(value)
    return values


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
        help_text=gettext_lazy(
            "Points for 1st, 2nd, … place, separated by hyphens or commas, e.g. 25-20-16-13 or "
            "25, 20, 16, 13."
        ),
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
        return points_table_values(self.cleaned_data.get("points_table_text", ""))

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
        field.empty_label = _("no series")
        field.help_text = _("The tournament counts for the season ranking of this series.")
