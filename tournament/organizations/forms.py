"""Forms of the club pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from ..fields import NumberField, RecordChoiceField, TextField
from ..models import Organization


class AdminAddForm(forms.Form):
    username = TextField(label=_("user name"), max_length=150)


class AdminRemoveForm(forms.Form):
    admin = NumberField(widget=forms.HiddenInput, min_value=1, max_value=2**31 - 1)


class OrganizationCreateForm(forms.Form):
    name = TextField(label=_("name"), max_length=150)


class OrganizationChoiceForm(forms.Form):
    """On the new tournament's form, for an admin of several clubs: which club it belongs to."""

    organization = RecordChoiceField(
        queryset=Organization.objects.none(), required=False, label=_("club"),
        empty_label=_("no club (only I manage it)"),
    )

    def __init__(self, *args: Any, queryset, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["organization"].queryset = queryset
