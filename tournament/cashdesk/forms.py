"""What is typed at the door: an amount with its method, a walk-in."""

from __future__ import annotations

from decimal import Decimal

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.fields import MoneyField
from tournament.models import Payment
from tournament.players.forms import MembershipField


class PaymentForm(forms.Form):
    amount = MoneyField(
        label=_("Amount (€)"), min_value=Decimal("0"), max_value=Decimal("1000"),
        required=False,
    )
    method = forms.ChoiceField(label=_("Payment method"), choices=Payment.Method.choices,
                               initial=Payment.Method.CASH)
    # Unticked: checked in without paying (yet).
    paid = forms.BooleanField(label=_("paid"), required=False, initial=True)

    def amount_cents(self) -> int | None:
        """None: not paid (box unticked); a paid tick without an amount is refused in clean()."""
        if not self.cleaned_data.get("paid"):
            return None
        return int(self.cleaned_data["amount"] * 100)

    def clean(self):
        data = super().clean()
        if data.get("paid") and data.get("amount") is None and "amount" not in self.errors:
            self.add_error("amount", forms.ValidationError(_("Enter the amount paid."), code="required"))
        return data

    def payment(self) -> dict:
        return {"amount_cents": self.amount_cents(), "method": self.cleaned_data["method"]}


class WalkInForm(PaymentForm):
    first_name = forms.CharField(label=_("First name"), max_length=80)
    last_name = forms.CharField(label=_("Last name"), max_length=80)
    club = forms.CharField(label=_("Club"), max_length=120, required=False)
    birth_year = forms.IntegerField(label=_("Year of birth"), required=False)
    membership = MembershipField()

    field_order = ["first_name", "last_name", "club", "birth_year", "membership", "amount", "method", "paid"]

    def clean_birth_year(self):
        year = self.cleaned_data["birth_year"]
        if year is not None and not 1900 <= year <= timezone.localdate().year:
            raise forms.ValidationError(
                _("Please enter a year of birth between 1900 and this year."), code="birth_year"
            )
        return year

    def person(self) -> dict:
        data = self.cleaned_data
        return {
            "first_name": " ".join(data["first_name"].split()),
            "last_name": " ".join(data["last_name"].split()),
            "club_name": data["club"], "birth_year": data["birth_year"], "member": data["membership"],
        }
