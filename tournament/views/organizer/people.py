"""The evening's team (`/<tournament>/people/`): organizers, helpers and viewers; adding one by user
name, removing one, one-time invitation links (shown once, with a QR code), and taking over the series'
organizers. Only an organizer opens it (`people`).

The series' team (`/<tournament>/series/people/`), opened from one of its evenings: its organizers,
helpers and viewers (of every evening) added and removed the same way, only by an organizer of the
series."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _

from tournament.models import Invitation, Role, Series
from tournament.people.forms import InvitationForm, PersonAddForm
from tournament.people.selectors import open_invitations, series_team, team
from tournament.people.services import (
    invitation_create,
    invitation_withdraw,
    person_add,
    person_remove,
    series_team_take,
)
from tournament.permissions import Capability, organizes
from tournament.permissions.scopes import team_members
from tournament.qr import absolute_url, qr_svg, unreachable_address

from .base import OrganizerAction, OrganizerPage, error_text


class PeopleView(OrganizerPage):
    capability = Capability.PEOPLE
    write_capability = Capability.PEOPLE

    template_name = "tournament/organizer/people.html"
    section = "people"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.setdefault("add_form", PersonAddForm())
        context.setdefault("invitation_form", InvitationForm())
        series = self.tournament.series
        context.update(
            people=team(self.tournament),
            invitations=open_invitations(self.tournament),
            organizer_count=self.tournament.organizers.count(),
            roles=Role,
            series_organizer=series is not None and organizes(self.request.user, series),
        )
        return context


class SeriesTeamMixin:
    """The series' team: the evening's `people` capability, and an organizer of its series."""

    capability = Capability.PEOPLE
    write_capability = Capability.PEOPLE

    def team_series(self) -> Series:
        series = self.tournament.series
        if series is None:
            raise Http404("not part of a series")
        if not organizes(self.request.user, series):
            raise PermissionDenied
        return series


class SeriesPeopleView(SeriesTeamMixin, OrganizerPage):
    template_name = "tournament/organizer/series_people.html"
    section = "series"

    def get_context_data(self, **kwargs):
        series = self.team_series()
        context = super().get_context_data(**kwargs)
        context.setdefault("add_form", PersonAddForm())
        context.update(
            series=series, people=series_team(series), organizer_count=series.organizers.count(), roles=Role,
        )
        return context


class PeopleAction(OrganizerAction):
    capability = Capability.PEOPLE
    write_capability = Capability.PEOPLE
    page = PeopleView

    def team(self) -> dict:
        """Whose team the services change: the evening's own (this) or its series'."""
        return {}

    def back(self):
        return redirect("organizer:people", self.tournament.pk)


class SeriesPeopleAction(SeriesTeamMixin, PeopleAction):
    page = SeriesPeopleView

    def team(self) -> dict:
        self.team_series()
        return {"of_series": True}

    def back(self):
        return redirect("organizer:series_people", self.tournament.pk)


class PersonAddView(PeopleAction):
    def post(self, request, tournament_pk: int):
        team = self.team()
        form = PersonAddForm(request.POST)
        if form.is_valid():
            try:
                person_add(tournament=self.tournament, user=request.user, **team, **form.cleaned_data)
            except ValidationError as error:
                form.add_error("username", error_text(error))
            else:
                messages.success(request, _("%(name)s was added.") % {"name": form.cleaned_data["username"]})
                return self.back()
        page = self.page(request=request, kwargs=self.kwargs, args=())
        page.tournament = self.tournament
        response = page.render_to_response(page.get_context_data(add_form=form))
        response.status_code = 400
        return response


class PersonRemoveView(PeopleAction):
    def post(self, request, tournament_pk: int, user_pk: int):
        team = self.team()
        whose = self.tournament.series if team.get("of_series") else self.tournament
        person = get_object_or_404(team_members(whose), pk=user_pk)
        try:
            person_remove(tournament=self.tournament, user=request.user, person=person, **team)
        except ValidationError as error:
            self.fail(error)
        else:
            messages.success(request, _("%(name)s was removed.") % {"name": person.get_username()})
        return self.back()


class SeriesPersonAddView(SeriesPeopleAction, PersonAddView):
    pass


class SeriesPersonRemoveView(SeriesPeopleAction, PersonRemoveView):
    pass


class InvitationCreateView(PeopleAction):
    """Answers the people page with the new link: shown this once, never stored."""

    def post(self, request, tournament_pk: int):
        form = InvitationForm(request.POST)
        page = PeopleView(request=request, kwargs=self.kwargs, args=())
        page.tournament = self.tournament
        if not form.is_valid():
            response = page.render_to_response(page.get_context_data(invitation_form=form))
            response.status_code = 400
            return response
        invitation, token = invitation_create(
            tournament=self.tournament, user=request.user, role=form.cleaned_data["role"]
        )
        url = absolute_url(reverse("invitation", args=[token]), request)
        return page.render_to_response(page.get_context_data(
            new_link=url, new_qr=qr_svg(url, scale=4), new_invitation=invitation,
            address_unreachable=unreachable_address(request),
        ))


class InvitationWithdrawView(PeopleAction):
    def post(self, request, tournament_pk: int, invitation_pk: int):
        invitation = get_object_or_404(Invitation, tournament=self.tournament, pk=invitation_pk)
        try:
            invitation_withdraw(invitation=invitation, user=request.user)
        except ValidationError as error:
            self.fail(error)
        else:
            messages.success(request, _("The invitation link no longer works."))
        return self.back()


class SeriesTeamTakeView(PeopleAction):
    def post(self, request, tournament_pk: int):
        try:
            added = series_team_take(tournament=self.tournament, user=request.user)
        except ValidationError as error:
            self.fail(error)
        else:
            if added:
                messages.success(request, _("Organizers added: %(names)s.") % {"names": ", ".join(added)})
            else:
                messages.success(request, _("The series' organizers organize this evening already."))
        return self.back()
