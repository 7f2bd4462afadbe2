"""The form that declares a team: a name and 2 to 6 of the tournament's players."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournament.fields import RecordsChoiceField, TextField
from tournament.models import Registration, Team, Tournament


class TeamForm(forms.Form):
    name = TextField(label=_("Team name"), max_length=80)
    members = RecordsChoiceField(
        label=_("Players"), queryset=Registration.objects.none(), widget=forms.CheckboxSelectMultiple
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["members"].queryset = (
            tournament.registrations.exclude(status=Registration.Status.WITHDRAWN)
            .exclude(teams__tournament=tournament)
            .select_related("player")
            .order_by("start_number")
        )
        self.fields["members"].label_from_instance = lambda reg: f"{reg.start_number} {reg.player.name}"

    def clean_members(self):
        members = self.cleaned_data["members"]
        if not Team.MIN_MEMBERS <= len(members) <= Team.MAX_MEMBERS:
            limits = {"min": Team.MIN_MEMBERS, "max": Team.MAX_MEMBERS}
            raise forms.ValidationError(_("A team has %(min)s to %(max)s players.") % limits)
        return members


class TeamsSeparateForm(forms.Form):
    separate_teams = forms.BooleanField(label=_("keep team-mates apart in every round"), required=False)
