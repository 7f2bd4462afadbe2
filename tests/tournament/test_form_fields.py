"""Every field of every form of the app takes input through the one rule (`tournament/fields.py`).

The forms are found by walking the `tournament` package, so a form added anywhere is checked without
anybody listing it: free text is a TextField with a length (control characters, bidi overrides and
formula starts after a control character refused), a number a NumberField with both bounds, a date a
bounded DateField / DateTimeField, a record a RecordChoiceField. Each field is then fed the extremes:
each must be a form error, never an exception (#40).
"""

from __future__ import annotations

import importlib
import pkgutil
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django import forms

import tournament
from tournament import fields as app_fields
from tournament.results.forms import ResultForm

CONTROL_FORMULA = '\x01=HYPERLINK("http://x","klick")'
BIDI = "Anna\u202eakiM"
TEXT_ATTACKS = [CONTROL_FORMULA, BIDI, "An\u2066na", "Ann\x00a", "\x1b[31mrot", "An\u2028na"]
NUMBER_ATTACKS = ["1" * 40, "1e309", "-" + "9" * 30, "١٢", "NaN", "0x10", "Infinity"]
DATE_ATTACKS = ["0001-01-01", "9999-12-31", "1899-12-31", "2101-01-01"]
DATETIME_ATTACKS = ["0001-01-01T00:00", "9999-12-31T23:59", "0001-01-01 00:00:00"]
RECORD_ATTACKS = ["1000000000000000000000000000000", "-99999999999999999999", "1e9", "eins"]


def app_forms() -> list[type[forms.BaseForm]]:
    for module in pkgutil.walk_packages(tournament.__path__, "tournament."):
        if ".migrations" not in module.name and not module.name.endswith(".wsgi"):
            importlib.import_module(module.name)
    found, todo = [], [forms.BaseForm]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("tournament."):
            found.append(cls)
    return sorted(set(found), key=lambda cls: f"{cls.__module__}.{cls.__qualname__}")


def result_form_fields() -> dict[str, forms.Field]:
    """The result form adds its rows per seat: built for two seats (no database needed)."""
    seats = [SimpleNamespace(registration_id=1), SimpleNamespace(registration_id=2)]
    return dict(ResultForm(seats=seats).fields)


def form_fields(form: type[forms.BaseForm]) -> dict[str, forms.Field]:
    """The fields of a form as a page builds it (some set their bounds in __init__); a form that needs
    arguments to be built (a tournament, seats) declares all of its fields on the class."""
    try:
        return dict(form().fields)
    except TypeError:
        return dict(form.base_fields)


def every_field() -> list[tuple[str, str, forms.Field]]:
    cases = []
    for form in app_forms():
        for name, field in form_fields(form).items():
            cases.append((f"{form.__module__}.{form.__qualname__}", name, field))
    cases += [("ResultForm (rows)", name, field) for name, field in result_form_fields().items()]
    return cases


FIELDS = every_field()
IDS = [f"{form.rsplit('.', 1)[-1]}.{name}" for form, name, _field in FIELDS]


def test_the_walk_finds_the_forms_people_type_into():
    names = {form.rsplit(".", 1)[-1] for form, _name, _field in FIELDS}
    assert {"SignupForm", "WalkInForm", "TeamForm", "SeriesForm", "PrizeSettingsForm", "PlayerForm",
            "TournamentForm", "PlayerMergeForm", "SignupSettingsForm", "ResultForm"} <= names


@pytest.mark.parametrize(("form", "name", "field"), FIELDS, ids=IDS)
def test_every_field_is_of_the_app_s_kind_with_bounds(form, name, field):
    where = f"{form}.{name}"
    if isinstance(field, forms.CharField):
        assert isinstance(field, app_fields.TextField), f"{where}: free text must be a TextField"
        assert field.max_length is not None, f"{where}: a text without a length"
    if isinstance(field, forms.DecimalField):  # a DecimalField is an IntegerField to Django
        assert isinstance(field, app_fields.MoneyField), f"{where}: an amount must be a MoneyField"
        assert None not in (field.min_value, field.max_value), f"{where}: an amount without both bounds"
    elif isinstance(field, forms.IntegerField):
        assert isinstance(field, app_fields.NumberField), f"{where}: a number must be a NumberField"
        assert None not in (field.min_value, field.max_value), f"{where}: a number without both bounds"
    if isinstance(field, forms.DateTimeField):
        assert isinstance(field, app_fields.DateTimeField), f"{where}: unbounded date and time"
    elif isinstance(field, forms.DateField):
        assert isinstance(field, app_fields.DateField), f"{where}: unbounded date"
    if isinstance(field, forms.ModelMultipleChoiceField):
        assert isinstance(field, app_fields.RecordsChoiceField), f"{where}: records by unchecked ids"
    elif isinstance(field, forms.ModelChoiceField):
        assert isinstance(field, app_fields.RecordChoiceField), f"{where}: a record by an unchecked id"
    if isinstance(field, (forms.FloatField, forms.DurationField, forms.TimeField, forms.SplitDateTimeField)):
        pytest.fail(f"{where}: a field kind the app has no bounded version of")


def refused(field: forms.Field, value: str) -> bool:
    try:
        field.clean(value)
    except forms.ValidationError:
        return True
    return False


@pytest.mark.parametrize(("form", "name", "field"), FIELDS, ids=IDS)
def test_every_field_answers_the_extremes_with_a_form_error(form, name, field):
    where = f"{form}.{name}"
    if isinstance(field, app_fields.TextField):
        for value in TEXT_ATTACKS:
            assert refused(field, value), (where, value)
        assert refused(field, "x" * (field.max_length + 1)), where
        assert refused(field, "x" * 100_000), where
    elif isinstance(field, app_fields.NumberField):
        for value in [*NUMBER_ATTACKS, "1.5", str(field.max_value + 1), str(field.min_value - 1)]:
            assert refused(field, value), (where, value)
    elif isinstance(field, app_fields.MoneyField):
        for value in [*NUMBER_ATTACKS, str(field.max_value + 1), str(field.min_value - Decimal("0.01"))]:
            assert refused(field, value), (where, value)
    elif isinstance(field, app_fields.DateTimeField):
        for value in DATETIME_ATTACKS:
            assert refused(field, value), (where, value)
    elif isinstance(field, app_fields.DateField):
        for value in DATE_ATTACKS:
            assert refused(field, value), (where, value)
    elif isinstance(field, app_fields.RecordsChoiceField):
        for value in RECORD_ATTACKS:
            assert refused(field, [value]), (where, value)
    elif isinstance(field, app_fields.RecordChoiceField):
        for value in RECORD_ATTACKS:
            assert refused(field, value), (where, value)


def test_a_formula_name_that_is_plain_text_is_kept_as_typed():
    """`=HYPERLINK(…)` without a control character is a (strange) name, stored as typed: the export
    cell makes it text (tests/tournament/test_spreadsheets.py)."""
    assert app_fields.TextField(max_length=80).clean('=HYPERLINK("x")') == '=HYPERLINK("x")'
