"""The team's forms: a person by user name with a role, an invitation's role, and the account a
visitor creates on an invitation's page."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.utils.translation import gettext_lazy as _

from tournament.fields import TextField
from tournament.models import Role

ROLE_CHOICES = [
    (Role.HELPER.value, _("helper: admission, cash, results, printing")),
    (Role.VIEWER.value, _("viewer: reads everything, changes nothing")),
    (Role.ORGANIZER.value, _("organizer: everything")),
]


class PersonAddForm(forms.Form):
    username = TextField(label=_("User name"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial=Role.HELPER.value)


class InvitationForm(forms.Form):
    """On the people page beside `PersonAddForm`: ids of its own (`id_invitation_role`), so each label
    names its own select, and a label of its own for a screen reader's list of fields."""

    role = forms.ChoiceField(label=_("Role of the invited person"), choices=ROLE_CHOICES,
                             initial=Role.HELPER.value)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "id_invitation_%s")
        super().__init__(*args, **kwargs)


class AccountForm(forms.Form):
    """A new account on an invitation's page: Django's rules for user names and passwords."""

    username = TextField(label=_("User name"), max_length=150)
    first_name = TextField(label=_("First name"), max_length=150)
    last_name = TextField(label=_("Last name"), max_length=150, required=False)
    password1 = TextField(label=_("Password"), max_length=128, strip=False, widget=forms.PasswordInput)
    password2 = TextField(
        label=_("Password again"), max_length=128, strip=False, widget=forms.PasswordInput
    )

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        model = get_user_model()
        model._meta.get_field("username").run_validators(username)
        if model.objects.filter(username__iexact=username).exists():
            raise forms.ValidationError(_("This user name is taken."), code="username_taken")
        return username

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        first, second = cleaned.get("password1"), cleaned.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        elif first:
            user = get_user_model()(
                username=cleaned.get("username", ""), first_name=cleaned.get("first_name", ""),
                last_name=cleaned.get("last_name", ""),
            )
            try:
                password_validation.validate_password(first, user)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned

    def create_user(self):
        data = self.cleaned_data
        return get_user_model().objects.create_user(
            username=data["username"], password=data["password1"], first_name=data["first_name"],
            last_name=data.get("last_name", ""),
        )
