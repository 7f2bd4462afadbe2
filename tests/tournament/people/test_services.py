"""The evening's team (#45): roles given and taken by user name, the last organizer kept, the role map
applied by the services themselves (a helper's or viewer's call is refused whatever page it came from)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from tests.conftest import twelve_players
from tests.factories import (
    MembershipFactory,
    OrganizationFactory,
    SeriesFactory,
    TournamentFactory,
    UserFactory,
    colleague_of,
    play_round,
)
from tournament.audit.actions import AuditAction
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.models import AuditEntry, Membership, Role, Round, Tournament
from tournament.people.services import person_add, person_remove, series_team_take
from tournament.permissions import CAPABILITIES, Capability, can, only_helps, role_of
from tournament.rounds.services import round_close, round_seat, round_swap, seating_plan_create
from tournament.tournaments.selectors import managed_tournament_ids, visible_tournaments
from tournament.tournaments.services import standings_reveal, tournament_delete, tournament_update


@pytest.fixture
def helper(tournament):
    return MembershipFactory(tournament=tournament, user__username="door", role=Role.HELPER).user


@pytest.fixture
def viewer(tournament):
    return MembershipFactory(tournament=tournament, user__username="treasurer", role=Role.VIEWER).user


def test_the_role_map_says_what_each_role_may_do():
    assert CAPABILITIES[Role.ORGANIZER] == frozenset(Capability)
    assert CAPABILITIES[Role.HELPER] == {
        Capability.VIEW, Capability.DESK, Capability.RESULTS,
    }
    assert CAPABILITIES[Role.VIEWER] == {Capability.VIEW}


def test_roles_of_organizer_helper_viewer_superuser_and_strangers(tournament, organizer, helper, viewer):
    root = UserFactory(username="root", is_superuser=True)
    stranger = UserFactory(username="stranger")
    assert [role_of(user, tournament) for user in (organizer, helper, viewer, root, stranger)] == [
        Role.ORGANIZER, Role.HELPER, Role.VIEWER, Role.ORGANIZER, None,
    ]
    assert can(helper, tournament, Capability.DESK) and not can(helper, tournament, Capability.SEAT)
    assert can(viewer, tournament, Capability.VIEW) and not can(viewer, tournament, Capability.DESK)


def test_a_series_helper_helps_at_every_evening_of_the_series(organizer):
    series = SeriesFactory(organizers=[organizer])
    first, second = (TournamentFactory(organizers=[organizer], series=series) for _ in range(2))
    elsewhere = TournamentFactory(organizers=[organizer])
    person = MembershipFactory(series=series, user__username="season-helper").user
    assert [role_of(person, t) for t in (first, second, elsewhere)] == [Role.HELPER, Role.HELPER, None]
    # A viewer of one evening who helps the series: the stronger role.
    MembershipFactory(tournament=first, user=person, role=Role.VIEWER)
    assert role_of(person, first) == Role.HELPER


def test_person_add_and_remove_by_user_name_with_audit_entries_naming_who(tournament, organizer):
    colleague_of(organizer, username="Lena")
    person_add(tournament=tournament, user=organizer, username="lena", role=Role.HELPER)
    lena = Membership.objects.get(tournament=tournament).user
    assert lena.username == "Lena" and role_of(lena, tournament) == Role.HELPER
    person_add(tournament=tournament, user=organizer, username="Lena", role=Role.ORGANIZER)
    assert not Membership.objects.filter(tournament=tournament).exists()
    assert set(tournament.organizers.values_list("username", flat=True)) == {"orga", "Lena"}
    person_remove(tournament=tournament, user=organizer, person=lena)
    assert role_of(lena, tournament) is None
    entries = AuditEntry.objects.filter(tournament=tournament).order_by("pk")
    assert [(e.action, e.actor, e.before, e.after) for e in entries] == [
        (AuditAction.PERSON_ADD, "orga", None, {"person": "Lena", "role": "helper"}),
        (AuditAction.PERSON_ADD, "orga", {"person": "Lena", "role": "helper"},
         {"person": "Lena", "role": "organizer"}),
        (AuditAction.PERSON_REMOVE, "orga", {"person": "Lena", "role": "organizer"}, None),
    ]


@pytest.mark.parametrize(("username", "role", "code"), [
    ("nobody", Role.HELPER, "unknown_user"),
    ("orga", Role.ORGANIZER, "same_role"),
    ("orga", Role.HELPER, "last_organizer"),
])
def test_person_add_refusals(tournament, organizer, username, role, code):
    with pytest.raises(ValidationError) as refused:
        person_add(tournament=tournament, user=organizer, username=username, role=role)
    assert refused.value.code == code
    assert list(tournament.organizers.values_list("username", flat=True)) == ["orga"]
    assert not AuditEntry.objects.exists()


def test_the_last_organizer_cannot_be_removed(tournament, organizer):
    with pytest.raises(ValidationError) as refused:
        person_remove(tournament=tournament, user=organizer, person=organizer)
    assert refused.value.code == "last_organizer"
    assert tournament.organizers.get() == organizer


@pytest.mark.parametrize("who", ["helper", "viewer"])
def test_a_helper_or_viewer_cannot_change_the_team(request, tournament, organizer, who):
    user = request.getfixturevalue(who)
    colleague_of(organizer, username="friend")
    with pytest.raises(PermissionDenied):
        person_add(tournament=tournament, user=user, username="friend", role=Role.ORGANIZER)
    with pytest.raises(PermissionDenied):
        person_remove(tournament=tournament, user=user, person=organizer)
    assert list(tournament.organizers.values_list("username", flat=True)) == ["orga"]


@pytest.mark.parametrize("who", ["helper", "viewer"])
def test_services_refuse_seating_settings_delete_to_a_helper_or_viewer(request, tournament, organizer, who):
    user = request.getfixturevalue(who)
    twelve_players(tournament)
    with pytest.raises(PermissionDenied):
        round_seat(tournament=tournament, user=user, seed=1)
    with pytest.raises(PermissionDenied):
        seating_plan_create(tournament=tournament, user=user, seed=1)
    drafted = round_seat(tournament=tournament, user=organizer, seed=1)
    first, second = drafted.seats.order_by("pk")[:2]
    with pytest.raises(PermissionDenied):
        round_swap(round_=drafted, user=user, first=first, second=second)
    with pytest.raises(PermissionDenied):
        tournament_update(tournament=tournament, user=user, changes={"name": "Renamed"})
    with pytest.raises(PermissionDenied):
        standings_reveal(tournament=tournament, user=user)
    with pytest.raises(PermissionDenied):
        tournament_delete(tournament=tournament, user=user)
    assert Tournament.objects.get(pk=tournament.pk).name == tournament.name
    assert list(tournament.rounds.values_list("number", "status")) == [(1, Round.Status.DRAFT)]


def test_a_helper_cannot_close_a_round(tournament, organizer, helper):
    twelve_players(tournament)
    played = play_round(tournament, organizer, seed=2, close=False)
    with pytest.raises(PermissionDenied):
        round_close(round_=played, user=helper)
    played.refresh_from_db()
    assert played.status == Round.Status.OPEN


def test_an_account_that_only_helps_cannot_restore(tournament, organizer, helper):
    data = export_tournament(tournament)
    with pytest.raises(PermissionDenied):
        import_tournament(data, owner=helper)
    assert Tournament.objects.count() == 1
    restored = import_tournament(data, owner=organizer)
    assert restored.organizers.get() == organizer


def test_series_team_take_adds_the_series_organizers(organizer):
    colleague = colleague_of(organizer, username="colleague")
    series = SeriesFactory(organizers=[organizer, colleague])
    tournament = TournamentFactory(organizers=[organizer], series=series)
    MembershipFactory(tournament=tournament, user=colleague, role=Role.VIEWER)
    assert series_team_take(tournament=tournament, user=organizer) == ["colleague"]
    assert set(tournament.organizers.values_list("username", flat=True)) == {"orga", "colleague"}
    assert not Membership.objects.filter(tournament=tournament).exists()  # organizer now, not viewer
    entry = AuditEntry.objects.get(action=AuditAction.SERIES_TEAM_TAKE)
    assert entry.after == {"series": series.name, "people": ["colleague"]}


def test_series_team_take_needs_a_series(tournament, organizer):
    with pytest.raises(ValidationError) as refused:
        series_team_take(tournament=tournament, user=organizer)
    assert refused.value.code == "not_in_series"


def test_a_helper_sees_only_the_tournaments_they_help_with(tournament, organizer, helper):
    public = TournamentFactory(organizers=[organizer], public=True, name="Public cup")
    assert list(visible_tournaments(helper)) == [tournament]
    assert managed_tournament_ids(helper) == {tournament.pk}
    stranger = UserFactory(username="stranger")
    assert list(visible_tournaments(stranger)) == [public]
    assert set(visible_tournaments(organizer)) == {tournament, public}


def test_a_club_admin_who_helps_elsewhere_still_organizes(tournament, helper):
    """Helping at another club's evening does not make a club's admin an account that only helps."""
    assert only_helps(helper)
    club = OrganizationFactory()
    club.admins.add(helper)
    assert not only_helps(helper)
    assert role_of(helper, TournamentFactory(organizers=[], organization=club)) == Role.ORGANIZER
