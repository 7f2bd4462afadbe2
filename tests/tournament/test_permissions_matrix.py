"""Who reaches which URL: every named URL (from the resolver) against every kind of visitor.

Visitors: anonymous, a captain link holder (knows one table token, nothing else), the organizer of
another tournament, the admin of another club (Verein), a staff user who organizes nothing, the
tournament's helper and viewer (#45: what each opens is written out in urlmap), the tournament's
organizer (admin of its club), a superuser.
"""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, points_report
from tests.tournament.urlmap import (
    ACCOUNT_PAGES,
    FORMER_PAGES,
    HELPER_ACTIONS,
    POST_ONLY,
    SPECIAL_GET_STATUS,
    audience,
    member_may_get,
    named_urls,
    other_club_admin,
)
from tournament.models import (
    AuditEntry,
    Invitation,
    Membership,
    Payment,
    Player,
    Registration,
    Round,
    Seat,
    Signup,
    Submission,
    SubmissionEntry,
    Table,
    Tournament,
)
from tournament.results.services import result_submit
from tournament.rounds.services import round_close, round_seat, table_regenerate_token

pytestmark = pytest.mark.one_database  # who may open what; test_smoke opens every page on both

ROLES = [
    "anonymous", "captain", "other_organizer", "other_club_admin", "staff", "helper", "viewer", "organizer",
    "superuser",
]
UNAUTHORISED = ["anonymous", "captain", "other_organizer", "other_club_admin", "staff"]
MEMBERS = ["helper", "viewer"]
MANAGERS = ["organizer", "superuser"]


def client_as(role: str, world) -> Client:
    client = Client()
    if role == "captain":
        assert client.get(world.waiting_table.get_captain_url()).status_code == 200
    elif role == "other_organizer":
        user = UserFactory(username="other-organizer")
        TournamentFactory(organizers=[user])
        client.force_login(user)
    elif role == "other_club_admin":
        client.force_login(other_club_admin())
    elif role == "staff":
        client.force_login(UserFactory(username="staff", is_staff=True))
    elif role in MEMBERS:
        client.force_login(world.extra[role])
    elif role == "organizer":
        client.force_login(world.organizer)
    elif role == "superuser":
        client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    return client


def login_redirect(url: str) -> str:
    query = QueryDict(mutable=True)
    query["next"] = url
    return f"{reverse('login')}?{query.urlencode(safe='/')}"


def expected_get(name: str, role: str) -> int:
    """The status a GET must answer for this visitor (public pages: tournament public)."""
    kind = audience(name)
    if kind in ("organizer", "login"):
        if role in ("anonymous", "captain"):
            return 302
        if kind == "organizer" and role in ("other_organizer", "other_club_admin", "staff"):
            return 403
        if role in MEMBERS and kind == "login" and name not in ACCOUNT_PAGES:
            return 403  # creating or restoring a tournament: not for an account that only helps
        if role in MEMBERS and kind == "organizer" and not member_may_get(name, role):
            return 403
    return 405 if name in POST_ONLY else SPECIAL_GET_STATUS.get(name, 200)


def every_url(world):
    for name, kwarg_names in named_urls().items():
        for url in world.urls(name, kwarg_names):
            yield name, url


def team_snapshot(tournament) -> dict[str, object]:
    return {
        "organizers": sorted(tournament.organizers.values_list("username", flat=True)),
        "members": sorted(Membership.objects.values_list("user__username", "role")),
        "invitations": sorted(Invitation.objects.values_list("pk", "used_at")),
    }


def row_counts() -> dict[str, object]:
    models = (
        Tournament, Player, Registration, Round, Table, Seat, Submission, SubmissionEntry, Signup, Payment
    )
    counts = {model.__name__: model.objects.count() for model in models}
    counts["confirmed"] = Submission.objects.filter(confirmed=True).count()
    counts["closed rounds"] = Round.objects.filter(status=Round.Status.CLOSED).count()
    counts["checked in"] = Registration.objects.filter(status=Registration.Status.CHECKED_IN).count()
    counts["signup statuses"] = sorted(Signup.objects.values_list("status", "queue"))
    return counts


@pytest.mark.usefixtures("pdf_layout_skipped")
@pytest.mark.parametrize("role", ROLES)
def test_get_every_url(role, world):
    client = client_as(role, world)
    for name, url in every_url(world):
        response = client.get(url)
        expected = expected_get(name, role)
        assert response.status_code == expected, (role, name, url, response.status_code)
        if expected == 302 and audience(name) in ("organizer", "login"):
            if name in FORMER_PAGES and role in ("organizer", "superuser", "helper"):
                assert response["Location"] == FORMER_PAGES[name](world), (role, name)
            else:
                assert response["Location"] == login_redirect(url), (role, name, response["Location"])


FORM = {"first_name": "Eve", "last_name": "Intruder", "seed": "1", "minutes": "5", "name": "Taken",
        "action": "approve", "amount": "8", "method": "cash", "paid": "on", "signup_open": "on",
        "entry_fee": "8", "payout_percent": "100", "prize_kind": "percent", "prize_table": "100",
        "shared_places": "split", "username": "co-organizer", "role": "organizer",
        "confirm_name": "Turnier"}


@pytest.mark.parametrize("role", UNAUTHORISED + MEMBERS)
def test_post_to_organizer_urls_changes_nothing(role, world):
    """Every organizer URL refuses a POST from somebody who is not an organizer of the tournament; a
    helper's POSTs beyond the door and the desk, and every POST of a viewer, are refused the same way."""
    UserFactory(username="co-organizer")  # a name the people form would add
    Tournament.objects.filter(pk=world.tournament.pk).update(name="Turnier")
    client = client_as(role, world)
    before = row_counts()
    team_before = team_snapshot(world.tournament)
    audit_before = AuditEntry.objects.count()
    for name, url in every_url(world):
        if audience(name) != "organizer" or (role == "helper" and name in HELPER_ACTIONS):
            continue
        response = client.post(url, FORM)
        if role in ("anonymous", "captain"):
            assert response.status_code == 302, (role, name)
            assert response["Location"] == login_redirect(url), (role, name)
        else:
            assert response.status_code == 403, (role, name, response.status_code)
    assert row_counts() == before
    assert team_snapshot(world.tournament) == team_before
    assert AuditEntry.objects.count() == audit_before
    world.tournament.refresh_from_db()
    assert world.tournament.name == "Turnier"


@pytest.mark.parametrize("role", ROLES)
def test_public_pages_hidden_while_not_public(role, world):
    Tournament.objects.filter(pk=world.tournament.pk).update(public=False)
    client = client_as(role, world)
    for name, url in every_url(world):
        if audience(name) != "public":
            continue
        expected = 200 if role in MANAGERS else 404  # organizers see a preview
        assert client.get(url).status_code == expected, (role, name, url)


@pytest.mark.parametrize("role", ROLES)
def test_captain_page_needs_the_current_token(role, world):
    """The token is the only credential: being an organizer does not open a wrong or old link."""
    client = client_as(role, world)
    table = world.waiting_table
    old_token = table.token
    table_regenerate_token(table=table, user=world.organizer)
    table.refresh_from_db()
    assert client.get(reverse("captain:table", args=[table.token])).status_code == 200
    for token in (old_token, table.token[:-1], table.token + "x", "x" * 43):
        response = client.get(reverse("captain:table", args=[token]))
        assert response.status_code == 404, (role, token)
        if table.token not in token:
            assert table.token.encode() not in response.content


def test_captain_link_of_a_drafted_round_is_not_found(world, client):
    outcome = result_submit(
        table=world.waiting_table, seats=points_report(world.waiting_table, (0, 5, 6, 7, 8)),
        source=Submission.Source.ORGANIZER, user=world.organizer, confirm_warnings=True,
    )
    assert outcome.stored
    round_2 = Round.objects.get(tournament=world.tournament, number=2)
    round_close(round_=round_2, user=world.organizer)
    drafted = round_seat(tournament=world.tournament, user=world.organizer, seed=9)
    assert drafted.status == Round.Status.DRAFT
    token = drafted.tables.first().token
    assert client.get(reverse("captain:table", args=[token])).status_code == 404


def test_captain_page_links_to_no_organizer_page(world):
    """What a captain's phone shows carries no URL of an organizer or print page."""
    client = client_as("captain", world)
    page = client.get(world.waiting_table.get_captain_url()).content.decode()
    t = world.tournament.pk
    for prefix in (f'"/{t}/', f'"/print/{t}/', '"/admin/', f'"/{t}/backup.json'):
        assert prefix not in page, prefix


# --- Through one's own tournament's URLs (#15): ids of another tournament's rows stay out of reach ---

FOREIGN_KWARGS = ("registration_pk", "submission_pk")


def own_tournament_urls(world, own: Tournament):
    """Every organizer URL that names a row by id, built with the visitor's own tournament and our ids."""
    for name, kwarg_names in named_urls().items():
        if "tournament_pk" not in kwarg_names or not set(FOREIGN_KWARGS) & set(kwarg_names):
            continue
        for number in (1, 2) if "number" in kwarg_names else (2,):
            kwargs = {**world.kwargs_for(kwarg_names, number=number), "tournament_pk": own.pk}
            yield name, reverse(name, kwargs=kwargs)


def test_an_organizer_reaches_no_other_tournaments_row_through_their_own_urls(world):
    other = UserFactory(username="other-organizer")
    own = TournamentFactory(organizers=[other], name="Own cup")
    client = Client()
    client.force_login(other)
    before, audit_before = row_counts(), AuditEntry.objects.count()
    player_before = Player.objects.filter(pk=world.registration.player_id).values().get()
    urls = list(own_tournament_urls(world, own))
    assert {name for name, _url in urls} >= {
        "organizer:player_edit", "organizer:player_withdraw", "organizer:player_readmit",
        "organizer:checkin_toggle", "organizer:submission_confirm",
    }
    form = {"first_name": "Eve", "last_name": "Intruder", "club": "", "birth_year": "1990"}
    for name, url in urls:
        if name not in POST_ONLY:
            assert client.get(url).status_code == 404, (name, url)
        assert client.post(url, form).status_code == 404, (name, url)
    assert row_counts() == before
    assert AuditEntry.objects.count() == audit_before
    assert Player.objects.filter(pk=world.registration.player_id).values().get() == player_before


@pytest.mark.parametrize("role", ["other_organizer", "staff"])
def test_a_shared_player_record_is_never_changed_from_another_tournament(role, world):
    """Registering our player by name and club in one's own tournament, then editing them there,
    makes a record of one's own: ours, and our audit log, stay as they were."""
    user = UserFactory(username=f"{role}-user", is_staff=role == "staff")
    own = TournamentFactory(organizers=[user], name=f"{role} cup")
    client = Client()
    client.force_login(user)
    ours = world.registration.player
    before = Player.objects.filter(pk=ours.pk).values().get()
    our_log = AuditEntry.objects.filter(tournament=world.tournament)
    audit_before = list(our_log.values_list("pk", flat=True))
    typed = {"first_name": ours.first_name, "last_name": ours.last_name, "club": ours.club_name,
             "birth_date": "", "birth_year": "2001"}
    client.post(reverse("organizer:player_add", args=[own.pk]), typed)
    theirs = Registration.objects.get(tournament=own)
    edit = reverse("organizer:player_edit", args=[own.pk, theirs.pk])
    client.post(edit, {**typed, "first_name": "Renamed"})
    assert Player.objects.filter(pk=ours.pk).values().get() == before
    theirs.refresh_from_db()
    assert theirs.player_id != ours.pk and theirs.player.first_name == "Renamed"
    assert list(our_log.values_list("pk", flat=True)) == audit_before
