"""The prize settings as the organizer types them: euros, a table like "50/30/20", goods one per line."""

from __future__ import annotations

import re
from decimal import Decimal

from django import forms
from django.utils.translation import gettext_lazy as _

from engine.prizes import PotBasis, TableKind
from tournament.fields import MoneyField, NumberField, TextField
from tournament.models import Tournament

MAX_PLACES, MAX_GOODS = 50, 200


def _numbers(text: str) -> list[str]:
    return [part for part in re.split(r"[\s/;,]+", text.strip()) if part]


class PrizeSettingsForm(forms.Form):
    entry_fee = MoneyField(
        label=_("Entry fee (€)"), min_value=Decimal("0"), max_value=Decimal("1000"),
    )
    payout_percent = NumberField(label=_("Paid out (percent of the entry fees)"), min_value=0,
                                        max_value=100)
    pot_basis = forms.ChoiceField(
        label=_("Prize pot from"), choices=Tournament.POT_BASIS_CHOICES, required=False,
        widget=forms.RadioSelect, help_text=_("Empty: the entry fees actually collected."),
    )
    prize_kind = forms.ChoiceField(label=_("Prize table"), choices=Tournament.PRIZE_KIND_CHOICES)
    prize_table = TextField(
        label=_("Prizes by place"), required=False, max_length=400,
        help_text=_('Percentages or whole euros from first place down, e.g. "50/30/20".'),
    )
    shared_places = forms.ChoiceField(label=_("Shared places"), choices=Tournament.SHARED_PLACES_CHOICES)
    goods_prizes = TextField(
        label=_("Goods prizes"), required=False, multiline=True, max_length=10000,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("One per line; players pick in order of place."),
    )
    overrides = TextField(
        label=_("Manual amounts"), required=False, max_length=2000,
        help_text=_('Start number and whole euros, e.g. "12=30; 7=0".'),
    )

    def __init__(self, *args, start_numbers: set[int], **kwargs):
        super().__init__(*args, **kwargs)
        self.start_numbers = start_numbers

    @classmethod
    def initial_for(cls, tournament: Tournament) -> dict:
        return {
            "entry_fee": Decimal(tournament.entry_fee_cents) / 100,
            "payout_percent": tournament.payout_percent, "pot_basis": tournament.pot_basis,
            "prize_kind": tournament.prize_kind,
            "prize_table": "/".join(str(value) for value in tournament.prize_table),
            "shared_places": tournament.shared_places,
            "goods_prizes": "\n".join(tournament.goods_prizes),
            "overrides": "; ".join(f"{n}={c // 100}" for n, c in tournament.prize_overrides.items()),
        }

    def clean_prize_table(self):
        parts = _numbers(self.cleaned_data["prize_table"])
        if not all(part.isdigit() for part in parts):
            raise forms.ValidationError(
                _("Enter whole numbers separated by / (e.g. 50/30/20)."), code="table"
            )
        if len(parts) > MAX_PLACES:
            raise forms.ValidationError(_("At most %(n)s places.") % {"n": MAX_PLACES}, code="table")
        return [int(part) for part in parts]

    def clean_goods_prizes(self):
        goods = [" ".join(line.split()) for line in self.cleaned_data["goods_prizes"].splitlines()]
        goods = [line for line in goods if line]
        if len(goods) > MAX_GOODS or any(len(line) > 120 for line in goods):
            raise forms.ValidationError(
                _("At most %(n)s goods prizes of up to 120 characters each.") % {"n": MAX_GOODS}, code="goods"
            )
        return goods

    def clean_overrides(self):
        result = {}
        for part in [p for p in re.split(r"[;\n]+", self.cleaned_data["overrides"]) if p.strip()]:
            match = re.fullmatch(r"\s*(\d+)\s*[=:]\s*(\d+)\s*", part)
            if not match:
                raise forms.ValidationError(
                    _('Write each manual amount as start number=euros, e.g. "12=30".'), code="override"
                )
            number, euros = int(match[1]), int(match[2])
            if number not in self.start_numbers:
                raise forms.ValidationError(
                    _("There is no player with start number %(number)s.") % {"number": number},
                    code="override",
                )
            result[str(number)] = euros * 100
        return result

    def clean(self):
        data = super().clean()
        table = data.get("prize_table")
        if table and data.get("prize_kind") == TableKind.PERCENT and sum(table) > 100:
            self.add_error("prize_table", forms.ValidationError(
                _("The percentages add up to more than 100."), code="table"
            ))
        return data

    def settings(self) -> dict:
        data = self.cleaned_data
        return {
            "entry_fee_cents": int(data["entry_fee"] * 100), "payout_percent": data["payout_percent"],
            "prize_kind": data["prize_kind"], "prize_table": data["prize_table"],
            "shared_places": data["shared_places"], "goods_prizes": data["goods_prizes"],
            "prize_overrides": data["overrides"], "pot_basis": data["pot_basis"] or PotBasis.COLLECTED,
        }
