"""The views' side of "who may": the mixins that check a page's capability before it runs, and the
check of a link a page shows."""

from __future__ import annotations

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from django.urls import resolve

from tournament.models import Tournament

from .capabilities import Capability, can, capabilities_of
from .roles import only_helps, role_of

SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


def member_tournament_or_403(user, pk: int, capability: Capability | str) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not can(user, tournament, capability):
        raise PermissionDenied
    return tournament


def may_open(user, tournament: Tournament, path: str) -> bool:
    """Whether a GET of this path of the tournament passes its view's capability (for links a page
    shows only to those who may follow them)."""
    view = getattr(resolve(path).func, "view_class", None)
    if view is None or not issubclass(view, TournamentOrganizerMixin):
        return True
    return can(user, tournament, view().required_capability("GET"))


class TournamentOrganizerMixin(LoginRequiredMixin):
    """For views under /<tournament_pk>/…: anonymous users go to login; a user whose role lacks the
    capability the view declares gets 403. `capability` is what reading needs, `write_capability` what
    a POST needs; both default to the organizer's own (settings), so a view opens to helpers or viewers
    only by saying so."""

    tournament: Tournament
    capability: Capability = Capability.SETTINGS
    write_capability: Capability = Capability.SETTINGS

    def required_capability(self, method: str) -> Capability:
        """A read needs `capability`; a write, or a read of a POST-only view, `write_capability`."""
        reads = method in SAFE_METHODS and hasattr(self, "get") and "get" in self.http_method_names
        return self.capability if reads else self.write_capability

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = member_tournament_or_403(
            request.user, kwargs["tournament_pk"], self.required_capability(request.method)
        )
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        context["may"] = {cap.value: True for cap in capabilities_of(self.request.user, self.tournament)}
        context["role"] = role_of(self.request.user, self.tournament)
        return context


class OrganizingAccountMixin(LoginRequiredMixin):
    """Creating or restoring a tournament, founding a club: any account but one that only helps."""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and only_helps(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)
