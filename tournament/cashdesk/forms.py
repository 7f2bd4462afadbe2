"""What is typed at the door: an amount with its method, a walk-in."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.fields import BIRTH_YEAR_MESSAGES, MoneyField, NumberField, TextField, YesField
from tournament.models import Payment
from tournament.players.forms import GenderField, MembershipField


class PaymentForm(forms.Form):
    amount = MoneyField(
        label=_("Amount (€)"), min_value=Decimal("0"), max_value=Decimal("1000"),
        required=False,
    )
    method = forms.ChoiceField(label=_("Payment method"), choices=Payment.Method.choices,
                               initial=Payment.Method.CASH, required=False)
    # Unticked: checked in without paying (yet).
    paid = forms.BooleanField(label=_("paid"), required=False, initial=True)
    reason = TextField(
        label=_("Reason for a reduced fee"), required=False, max_length=200,
        help_text=_("Only when less than the entry fee is paid (e.g. youth, honorary member)."),
    )

    def amount_cents(self) -> int | None:
        """None: not paid (box unticked); a paid tick without an amount is refused in clean()."""
        if not self.cleaned_data.get("paid"):
            return None
        return int(self.cleaned_data["amount"] * 100)

    def clean(self):
        data = super().clean()
        if data.get("paid") and data.get("amount") is None and "amount" not in self.errors:
            self.add_error("amount", forms.ValidationError(_("Enter the amount paid."), code="required"))
        if data.get("paid") and not data.get("method") and "method" not in self.errors:
            self.add_error("method", forms.ValidationError(_("Choose cash or transfer."), code="required"))
        return data

    def payment(self) -> dict:
        return {
            "amount_cents": self.amount_cents(), "method": self.cleaned_data["method"] or Payment.Method.CASH,
            "reason": self.cleaned_data.get("reason") or "",
        }


class WalkInForm(PaymentForm):
    first_name = TextField(label=_("First name"), max_length=80)
    last_name = TextField(label=_("Last name"), max_length=80)
    club = TextField(label=_("Club"), max_length=120, required=False)
    birth_year = NumberField(label=_("Year of birth"), required=False, min_value=1900, max_value=2100,
                             error_messages=BIRTH_YEAR_MESSAGES)
    membership = MembershipField()
    gender = GenderField()

    field_order = [
        "first_name", "last_name", "club", "birth_year", "membership", "gender", "amount", "method", "paid",
        "reason",
    ]

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
            "gender": data["gender"],
        }


class CashForm(forms.Form):
    """The cash record's own figures: the float at the start, the cash counted at the end, the why."""

    float_amount = MoneyField(
        label=_("Opening float (€)"), min_value=Decimal("0"), max_value=Decimal("100000"),
    )
    counted = MoneyField(
        label=_("Cash counted at the end (€)"), min_value=Decimal("0"), max_value=Decimal("100000"),
        required=False, help_text=_("Empty: not counted yet."),
    )
    note = TextField(
        label=_("Explanation of a difference"), required=False, max_length=500,
        widget=forms.TextInput(attrs={"size": 60}),
    )

    @classmethod
    def initial_for(cls, tournament) -> dict:
        counted = tournament.cash_counted_cents
        return {
            "float_amount": Decimal(tournament.cash_float_cents) / 100,
            "counted": None if counted is None else Decimal(counted) / 100, "note": tournament.cash_note,
        }

    def values(self) -> dict:
        data = self.cleaned_data
        return {
            "float_cents": int(data["float_amount"] * 100),
            "counted_cents": None if data["counted"] is None else int(data["counted"] * 100),
            "note": data["note"] or "",
        }


class DeskStepForm(forms.Form):
    """Which step a desk line's button asks for, among the ones its kind of line offers; a button
    without one takes the line's usual step (`default`), and `undo=1` is the former door page's undo
    (of the payment: that page's only undo). An undo names the step it takes back (`undoes`, the step
    the line showed), so a second tap, a second helper or a stale tab takes back nothing more."""

    UNDOABLE = (("payment", "payment"), ("check_in", "check_in"))

    action = forms.ChoiceField(required=False)
    undo = YesField()
    undoes = forms.ChoiceField(required=False, choices=[("", ""), *UNDOABLE])

    def __init__(self, *args: Any, steps: tuple[str, ...], default: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.default = default
        self.fields["action"].choices = [("", ""), *((step, step) for step in steps)]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("undo") and not data.get("action") and not data.get("undoes"):
            data["undoes"] = "payment"
        if (data.get("action") == "undo" or data.get("undo")) and not data.get("undoes"):
            raise forms.ValidationError(_("Which step should be undone?"), code="undo_step")
        return data

    def step(self) -> str:
        data = self.cleaned_data
        return data["action"] or ("undo" if data["undo"] else self.default)

    def undone_step(self) -> str:
        """The step an undo takes back: "payment" or "check_in"."""
        return self.cleaned_data["undoes"]


class DeskLineForm(forms.Form):
    """The search a desk line was listed for (`q`) and, sent by the desk's script, what the search box
    holds at the tap (`typed`): a line left from an earlier search is not acted on."""

    q = TextField(required=False, max_length=200)
    typed = TextField(required=False, max_length=200)

    def stale(self) -> bool:
        """The box holds another search than the one the line was listed for (without the script,
        `typed` is not sent and the line is taken as shown)."""
        if "typed" not in self.data or not self.is_valid():
            return "typed" in self.data
        data = self.cleaned_data
        return " ".join(data["typed"].split()) != " ".join(data["q"].split())


class PrizeHandoverForm(forms.Form):
    """A prize marked as handed over, or (`undo`) the mark taken back."""

    undo = YesField()
