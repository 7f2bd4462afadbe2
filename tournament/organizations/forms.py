"""Forms of the club pages."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class AdminAddForm(forms.Form):
    username = forms.CharField(label=_("user name"), max_length=150)


class AdminRemoveForm(forms.Form):
    admin = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
