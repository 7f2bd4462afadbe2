"""Who may do what with an evening: one map from role to capabilities, and the role a user has.

Roles (`models.Role`): the *organizer* may do everything; the *helper* runs the door and the desk
(check-in, payments, walk-ins, entering and confirming results, printing); the *viewer* (a treasurer, a
club's board member) reads. Organizers are `Tournament.organizers` (a superuser counts as one);
helpers and viewers are `Membership` rows, of the tournament or of its series: a series' helper helps at
every evening of the series (the simpler of the two readings, so nobody is re-added each evening;
the series' team is changed on `/<tournament>/series/people/` by an organizer of the series). A
series' organizers organize its evenings only once the evening takes the series' team
(`people.services.series_team_take`), as before this module knew roles.

A club level (#45 item 4) adds one more source of a role in `role_of`; the capability map stays.
"""

from __future__ import annotations

from enum import StrEnum

from django.contrib.auth.mixins import LoginRequiredMixin
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404
from django.urls import resolve

from tournament.models import Membership, Role, Tournament, is_club_admin


class Capability(StrEnum):
    VIEW = "view"  # every page that only reads
    DESK = "desk"  # check-in, payments, walk-ins, prize handover
    RESULTS = "results"  # enter and confirm results, captain links
    PRINT = "print"  # the documents (table sheets carry captain links)
    SEAT = "seat"  # draw, swap, publish, open, close rounds; the clock
    PLAYERS = "players"  # register, change, withdraw, import, merge players; sign-ups
    SETTINGS = "settings"  # settings, prizes, series, teams, logo
    PEOPLE = "people"  # add and remove organizers, helpers, viewers; invitations
    DELETE = "delete"
    RESTORE = "restore"  # backups: download (everything, every link) and restore


CAPABILITIES: dict[Role, frozenset[Capability]] = {
    Role.ORGANIZER: frozenset(Capability),
    Role.HELPER: frozenset({Capability.VIEW, Capability.DESK, Capability.RESULTS, Capability.PRINT}),
    Role.VIEWER: frozenset({Capability.VIEW}),
}


def role_of(user, tournament: Tournament) -> Role | None:
    """The user's role for this tournament, None for nobody of its team. Cached on the tournament
    instance for the request (a page asks it for every button)."""
    if not user.is_authenticated:
        return None
    cache = tournament.__dict__.setdefault("_roles", {})
    if user.pk not in cache:
        cache[user.pk] = _role_of(user, tournament)
    return cache[user.pk]


def forget_roles(tournament: Tournament) -> None:
    """After the team changed: the instance's cached roles are stale."""
    tournament.__dict__.pop("_roles", None)


def _role_of(user, tournament: Tournament) -> Role | None:
    if tournament.is_organizer(user):  # a superuser, its organizers, the admins of the club owning it
        return Role.ORGANIZER
    roles = set(
        Membership.objects.filter(user=user)
        .filter(_membership_of(tournament))
        .values_list("role", flat=True)
    )
    if Role.HELPER in roles:  # the stronger of a tournament's and its series' role
        return Role.HELPER
    return Role.VIEWER if Role.VIEWER in roles else None


def _membership_of(tournament: Tournament) -> Q:
    where = Q(tournament=tournament)
    if tournament.series_id is not None:
        where |= Q(series_id=tournament.series_id)
    return where


def capabilities_of(user, tournament: Tournament) -> frozenset[Capability]:
    role = role_of(user, tournament)
    return CAPABILITIES[role] if role is not None else frozenset()


def can(user, tournament: Tournament, capability: Capability | str) -> bool:
    return Capability(capability) in capabilities_of(user, tournament)


def require(user, tournament: Tournament, capability: Capability | str) -> None:
    """For services: refuse a write the user's role does not allow (the views check it first)."""
    if not can(user, tournament, capability):
        raise PermissionDenied(f"{capability} needs a role that has it")


def only_helps(user) -> bool:
    """An account that helps or views somewhere but organizes nothing: it neither creates nor restores
    tournaments, and its login ends with the evening."""
    if not user.is_authenticated or user.is_superuser:
        return False
    if (
        user.organized_tournaments.exists() or user.organized_series.exists()
        or user.administered_organizations.exists()
    ):
        return False
    return user.memberships.exists()


def member_tournament_or_403(user, pk: int, capability: Capability | str) -> Tournament:
    tournament = get_object_or_404(Tournament, pk=pk)
    if not can(user, tournament, capability):
        raise PermissionDenied
    return tournament


SAFE_METHODS = ("GET", "HEAD", "OPTIONS")


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
    """Creating or restoring a tournament: any account but one that only helps (`only_helps`)."""

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and only_helps(request.user):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


def club_admin_of(user, owned) -> bool:
    """Whether the user administers the club (Organization) owning this tournament, series or player
    record. A club admin counts as an organizer of everything the club owns: `Tournament.is_organizer`
    and `Series.is_organizer` already say yes for them (role "organizer" for the roles per tournament)."""
    return bool(getattr(user, "is_authenticated", False)) and is_club_admin(user, owned)
