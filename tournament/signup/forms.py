"""The public sign-up form (with its honeypot) and the organizer's sign-up settings."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.fields import BIRTH_YEAR_MESSAGES, DateTimeField, EmailField, NumberField, TextField
from tournament.models import Tournament
from tournament.players.forms import GenderField, MembershipField

CAPACITY = (1, 2000)
PHONE = re.compile(r"^\+?[0-9 ()/\-]{6,30}$")


class SignupForm(forms.Form):
    first_name = TextField(label=_("First name"), max_length=80)
    last_name = TextField(label=_("Last name"), max_length=80)
    club = TextField(label=_("Club"), max_length=120, required=False)
    birth_year = NumberField(label=_("Year of birth"), min_value=1900, max_value=2100,
                             error_messages=BIRTH_YEAR_MESSAGES)
    email = EmailField(label=_("E-mail (optional)"), required=False)
    phone = TextField(label=_("Phone (optional)"), max_length=40, required=False)
    membership = MembershipField(label=_("Are you a member of the organizing club?"))
    gender = GenderField(label=_("Gender (optional)"))
    # Hidden from people by CSS; a bot filling every field gives itself away.
    website = TextField(label=_("Leave this field empty"), required=False, max_length=200)

    # What the browser may fill in (WCAG 1.3.5); never the honeypot.
    AUTOCOMPLETE = {
        "first_name": "given-name", "last_name": "family-name", "club": "organization",
        "birth_year": "bday-year", "email": "email", "phone": "tel", "website": "off",
    }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, token in self.AUTOCOMPLETE.items():
            self.fields[name].widget.attrs["autocomplete"] = token
        self.fields["phone"].widget.attrs.setdefault("inputmode", "tel")

    def clean_first_name(self):
        value = " ".join(self.cleaned_data["first_name"].split())
        if not value:
            raise forms.ValidationError(_("Please enter your first name."), code="required")
        return value

    def clean_last_name(self):
        value = " ".join(self.cleaned_data["last_name"].split())
        if not value:
            raise forms.ValidationError(_("Please enter your last name."), code="required")
        return value

    def clean_birth_year(self):
        year = self.cleaned_data["birth_year"]
        if not 1900 <= year <= timezone.localdate().year:
            raise forms.ValidationError(
                _("Please enter a year of birth between 1900 and this year."), code="birth_year"
            )
        return year

    def clean_phone(self):
        phone = self.cleaned_data["phone"].strip()
        if phone and not PHONE.match(phone):
            raise forms.ValidationError(
                _("Please enter a phone number with digits only (spaces, +, - and / allowed)."),
                code="phone",
            )
        return phone

    def clean_website(self):
        if self.cleaned_data["website"]:
            raise forms.ValidationError(_("This field must stay empty."), code="honeypot")
        return ""

    def signup_data(self) -> dict:
        data = dict(self.cleaned_data)
        data.pop("website")
        data["member"] = data.pop("membership")
        return data


class SignupWithdrawForm(forms.Form):
    """The second step of withdrawing by the private link: "Really withdraw?" answered with yes."""

    confirm = TextField(required=False, max_length=10, widget=forms.HiddenInput)

    def clean_confirm(self) -> bool:
        if self.cleaned_data["confirm"] != "1":  # exactly the question's answer, nothing that looks like it
            raise forms.ValidationError(_("Please confirm that you want to withdraw."), code="not_confirmed")
        return True

    @property
    def confirmed(self) -> bool:
        return self.is_valid()


class SignupSettingsForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = ["signup_open", "signup_capacity", "signup_deadline"]
        field_classes = {"signup_capacity": NumberField, "signup_deadline": DateTimeField}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["signup_capacity"]
        field.min_value, field.max_value = CAPACITY
        field.widget.attrs.update(min=CAPACITY[0], max=CAPACITY[1])
        places = _("Please enter between 1 and 2000 places.")
        field.error_messages.update(min_value=places, max_value=places)

    def settings(self) -> dict:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class SignupActionForm(forms.Form):
    """approve · refuse · up · down · top (of the waiting list) · waiting (to the waiting list at
    `position`, blank: its end)."""

    ACTIONS = ("approve", "refuse", "up", "down", "top", "waiting")
    action = forms.ChoiceField(choices=[(a, a) for a in ACTIONS])
    position = NumberField(
        label=_("Position on the waiting list"), required=False, min_value=1, max_value=2000,
    )

    def position_wanted(self) -> int | None:
        return 1 if self.cleaned_data["action"] == "top" else self.cleaned_data["position"]
