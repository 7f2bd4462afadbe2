"""The account page's forms (name, own password) and the reset link's new password."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth import password_validation
from django.utils.translation import gettext_lazy as _

from tournament.fields import TextField

# Django's hashers take up to 4096 characters; nobody types more than this.
PASSWORD_MAX_LENGTH = 128


class PasswordField(TextField):
    """A password under the text rule (no control characters, a length), kept exactly as typed:
    spaces and the Unicode form are the owner's, as the login compares them unchanged."""

    widget = forms.PasswordInput

    def __init__(self, *args: Any, autocomplete: str = "new-password", **kwargs: Any) -> None:
        kwargs.setdefault("max_length", PASSWORD_MAX_LENGTH)
        kwargs.setdefault("strip", False)
        super().__init__(*args, **kwargs)
        self.widget.attrs["autocomplete"] = autocomplete

    def to_python(self, value: Any) -> str:
        raw = forms.CharField.to_python(self, value)
        super().to_python(value)  # refused by the text rule, else kept as typed
        return raw


class NameForm(forms.Form):
    first_name = TextField(label=_("First name"), max_length=150, required=False)
    last_name = TextField(label=_("Last name"), max_length=150, required=False)


class SetPasswordForm(forms.Form):
    """A new password, twice, checked by the project's validators against its owner's data."""

    new_password1 = PasswordField(label=_("New password"))
    new_password2 = PasswordField(label=_("New password again"))

    def __init__(self, *args: Any, user=None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        rules = password_validation.password_validators_help_texts()
        self.fields["new_password1"].help_text = " ".join(rules)

    def clean_new_password2(self) -> str:
        first, second = self.cleaned_data.get("new_password1"), self.cleaned_data.get("new_password2")
        if first and second and first != second:
            raise forms.ValidationError(_("The two passwords differ."), code="password_mismatch")
        if second:
            password_validation.validate_password(second, self.user)
        return second


class PasswordChangeForm(SetPasswordForm):
    """The owner's own change: the password they have now first."""

    old_password = PasswordField(label=_("Current password"), autocomplete="current-password")

    field_order = ["old_password", "new_password1", "new_password2"]

    def clean_old_password(self) -> str:
        old = self.cleaned_data["old_password"]
        if self.user is not None and not self.user.check_password(old):
            raise forms.ValidationError(
                _("Your current password was entered incorrectly."), code="wrong_password"
            )
        return old
