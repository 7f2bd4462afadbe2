"""Forms of the players pages: one player typed in, and a list to import."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core import signing
from django.utils.translation import gettext_lazy as _

from engine.text import person_sort_key
from tournament.fields import DateField, NumberField, RecordChoiceField, RecordsChoiceField, TextField
from tournament.models import Player
from tournament.players.imports import ImportRow
from tournament.uploads import LimitedUploadForm

from ..tournaments.forms import DATE_INPUTS

MEMBERSHIP = {"member": True, "guest": False}


class MembershipField(forms.TypedChoiceField):
    """Club member or guest, asked (radio buttons) and never assumed: a default would put everybody in
    the category Members (or Guests), which then says nothing. Cleaned to True, False or None (not
    given, where the field is optional)."""

    def __init__(self, *, required: bool = True, **kwargs: Any) -> None:
        choices = [("member", _("club member")), ("guest", _("guest (not a member)"))]
        if not required:
            choices = [("", _("not given")), *choices]
        kwargs.setdefault("label", _("Membership"))
        super().__init__(
            choices=choices, coerce=MEMBERSHIP.__getitem__, empty_value=None, required=required,
            widget=forms.RadioSelect,
            error_messages={"required": _("Please choose club member or guest.")}, **kwargs,
        )


class GenderField(forms.ChoiceField):
    """The gender, optional wherever a player comes in (typed, at the door, the public sign-up): only
    for the women's and men's rankings, which need it of everybody (docs/rules.md §8)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("label", _("Gender"))
        kwargs.setdefault("help_text", _("Optional: only for the rankings of women and men."))
        super().__init__(choices=[("", _("not given")), *Player.GENDER_CHOICES], required=False, **kwargs)


def membership_value(member: bool | None) -> str:
    """The field's value for a stored membership."""
    return "" if member is None else "member" if member else "guest"


class PlayerForm(forms.Form):
    first_name = TextField(label=_("First name"), max_length=80)
    last_name = TextField(label=_("Last name"), max_length=80)
    club = TextField(label=_("Club"), max_length=120, required=False)
    birth_date = DateField(
        label=_("Date of birth"),
        required=False,
        input_formats=DATE_INPUTS,
    )
    birth_year = NumberField(label=_("Year of birth"), required=False, min_value=1900, max_value=2100)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["club"].widget.attrs["list"] = "known-clubs"
        self.fields["first_name"].widget.attrs["autocomplete"] = "off"
        self.fields["last_name"].widget.attrs["autocomplete"] = "off"

    @classmethod
    def for_player(cls, player: Player, **kwargs: Any) -> PlayerForm:
        return cls(
            initial={
                "first_name": player.first_name,
                "last_name": player.last_name,
                "club": player.club_name,
                "birth_date": player.birth_date,
                "birth_year": player.birth_year,
            },
            **kwargs,
        )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        born, year = data.get("birth_date"), data.get("birth_year")
        if born and year and born.year != year:
            self.add_error("birth_year", _("The year does not match the date of birth."))
        return data

    def player_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "first_name": data["first_name"],
            "last_name": data["last_name"],
            "club_name": data["club"],
            "birth_date": data["birth_date"],
            "birth_year": data["birth_year"],
        }


class PlayerAddForm(PlayerForm):
    """A player typed in on the players page; `check_in` stays ticked for the next one typed at the door."""

    gender = GenderField()
    membership = MembershipField(required=False)
    check_in = forms.BooleanField(label=_("checked in"), required=False)

    def player_fields(self) -> dict[str, Any]:
        fields = super().player_fields()
        fields.update(gender=self.cleaned_data["gender"], member=self.cleaned_data["membership"])
        return fields


class KnownPlayersForm(forms.Form):
    """Players kept from the organizer's earlier evenings, added by their records (never by name): the
    ones chosen (`known_player`) or every one of a club (`known_club`). Only players offered to this
    organizer can be chosen: `known` is what the page offered."""

    known_player = RecordsChoiceField(queryset=Player.objects.none(), required=False)
    known_club = TextField(max_length=120, required=False)

    def __init__(self, *args: Any, known: list[Player], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.known = known
        self.fields["known_player"].queryset = Player.objects.filter(pk__in=[p.pk for p in known])

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = list(data.get("known_player") or [])
        club = data.get("known_club")
        if club:
            chosen += [p for p in self.known if p.club_name == club and p not in chosen]
        if not chosen and not self.errors:
            raise forms.ValidationError(_("Choose a player or a club offered here."), code="nobody_chosen")
        data["players"] = sorted(chosen, key=lambda p: (p.club_name, p.last_name, p.first_name))
        return data


class PlayerEditForm(PlayerForm):
    """The player's record with the optional categories: gender (never required) and guest."""

    gender = GenderField()
    membership = MembershipField(required=False)

    @classmethod
    def for_player(cls, player: Player, **kwargs: Any) -> PlayerEditForm:
        form = super().for_player(player, **kwargs)
        form.initial.update(gender=player.gender, membership=membership_value(player.member))
        return form

    def player_fields(self) -> dict[str, Any]:
        fields = super().player_fields()
        fields.update(gender=self.cleaned_data["gender"], member=self.cleaned_data["membership"])
        return fields


class ImportForm(LimitedUploadForm):
    MAX_BYTES = 2 * 1024 * 1024
    max_bytes = MAX_BYTES
    too_large_message = _("The file is larger than 2 MB.")

    file = forms.FileField(
        label=_("CSV or Excel file"),
        help_text=_(
            "Columns: Vorname/First name, Nachname/Last name, Verein/Club, Geburtsjahr/Year of birth "
            "or Geburtsdatum/Date of birth, optionally Geschlecht/Gender (w, m, d). Separated by ; or , "
            "in UTF-8 or Windows encoding."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,.xlsx"}),
    )


class SignedRowsField(forms.Field):
    """The rows of an import preview, sent back signed: what is imported is exactly what was shown."""

    widget = forms.HiddenInput
    salt = "tournament.players_import"

    def sign(self, rows: list[ImportRow]) -> str:
        return signing.dumps([row.to_json() for row in rows], salt=self.salt, compress=True)

    def to_python(self, value: Any) -> list[ImportRow]:
        try:
            return [ImportRow.from_json(d) for d in signing.loads(value or "", salt=self.salt)]
        except (signing.BadSignature, TypeError, KeyError, ValueError):
            raise forms.ValidationError(
                _("The preview was changed or is broken; upload the file again."), code="bad_signature"
            ) from None


class ImportConfirmForm(forms.Form):
    """The second step of an import: the previewed rows, and whether they are checked in at once."""

    rows = SignedRowsField()
    check_in = forms.BooleanField(required=False)


def merge_label(player: Player) -> str:
    details = ", ".join(str(part) for part in (player.club_name, player.birth_year) if part)
    return f"{player.sort_name} ({details})" if details else player.sort_name


class PlayerMergeForm(forms.Form):
    """Two records of the same person: the one to keep and the duplicate that disappears."""

    keep = RecordChoiceField(label=_("Keep"), queryset=Player.objects.none())
    duplicate = RecordChoiceField(label=_("Merge into it and remove"), queryset=Player.objects.none())

    def __init__(self, *args: Any, players, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Listed in German order (engine.text), not by the database's collation.
        ordered = sorted(players, key=lambda p: (person_sort_key(p.last_name, p.first_name), p.pk))
        for name in ("keep", "duplicate"):
            field = self.fields[name]
            field.queryset = players
            field.label_from_instance = merge_label
            field.choices = [("", field.empty_label)] + [(p.pk, merge_label(p)) for p in ordered]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("keep") and data.get("keep") == data.get("duplicate"):
            raise forms.ValidationError(_("Choose two different players."))
        return data
