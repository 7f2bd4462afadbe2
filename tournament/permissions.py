"""Who may change what: a tournament is changed only by its own organizers (or a superuser)."""

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from tournament.models import Tournament, is_club_admin


def organized_tournament_or_403(user, pk: int) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not tournament.is_organizer(user):
        raise PermissionDenied
    return tournament


class TournamentOrganizerMixin(LoginRequiredMixin):
    """For views under /<tournament_pk>/…: anonymous users go to login, other organizers get 403."""

    tournament: Tournament

    def dispatch(self, request, *args, **kwargs):
        if not request.user.is_authenticated:
            return self.handle_no_permission()
        self.tournament = organized_tournament_or_403(request.user, kwargs["tournament_pk"])
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["tournament"] = self.tournament
        return context


def club_admin_of(user, owned) -> bool:
    """Whether the user administers the club (Organization) owning this tournament, series or player
    record. A club admin counts as an organizer of everything the club owns: `Tournament.is_organizer`
    and `Series.is_organizer` already say yes for them (role "organizer" for the roles per tournament)."""
    return bool(getattr(user, "is_authenticated", False)) and is_club_admin(user, owned)
