"""Two clubs on one server, tried from outside over HTTP as each club's admin, helper and viewer: no
account of one club is taken over by the other, no record of one club is read or reused by the other,
and one rule decides each action wherever it is offered."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import (
    MembershipFactory,
    OrganizationFactory,
    PlayerFactory,
    RegistrationFactory,
    SeriesFactory,
    TournamentFactory,
    UserFactory,
    play_round,
)
from tournament.models import Membership, Player, Registration, Role, Signup
from tournament.people.services import invitation_create
from tournament.rounds.services import round_close
from tournament.series.selectors import series_standings

pytestmark = pytest.mark.django_db


def client_of(user, **extra) -> Client:
    client = Client(**extra)
    client.force_login(user)
    return client


@pytest.fixture
def two_clubs():
    """Club A (admin anna, her evening with player Hanna Herz of UNO Süd, born 1980) and club B (admin
    bea, her evening); both evenings today."""
    anna, bea = UserFactory(username="anna"), UserFactory(username="bea")
    a = OrganizationFactory(name="UNO-Freunde A", admins=[anna])
    b = OrganizationFactory(name="Club B", admins=[bea])
    a_earlier = TournamentFactory(organizers=[anna], organization=a, name="A im Oktober")
    a_evening = TournamentFactory(organizers=[anna], organization=a, name="A heute")
    b_evening = TournamentFactory(organizers=[bea], organization=b, name="B heute", entry_fee_cents=500)
    hanna = PlayerFactory(first_name="Hanna", last_name="Herz", club__name="UNO Süd", organization=a,
                          birth_year=1980)
    RegistrationFactory(tournament=a_earlier, player=hanna)
    return {"anna": anna, "bea": bea, "a": a, "b": b, "a_evening": a_evening, "b_evening": b_evening,
            "hanna": hanna}


# --- 1. no account takeover across clubs ----------------------------------------------------------


def test_another_clubs_admin_cannot_be_added_by_name_nor_reset(two_clubs):
    anna, bea, b_evening = two_clubs["anna"], two_clubs["bea"], two_clubs["b_evening"]
    bea_client = client_of(bea)
    response = bea_client.post(
        reverse("organizer:person_add", args=[b_evening.pk]), {"username": "anna", "role": "viewer"}
    )
    assert response.status_code == 400
    assert "in this club" in response.content.decode()
    assert not Membership.objects.filter(user=anna).exists()
    # Even as a member of B's evening (she accepted an invitation), A's admin is nobody B may reset.
    Membership.objects.create(tournament=b_evening, user=anna, role=Role.VIEWER)
    people = bea_client.get(reverse("account_people")).content.decode()
    assert reverse("account_reset_link", args=[anna.pk]) not in people
    assert bea_client.post(reverse("account_reset_link", args=[anna.pk])).status_code == 404
    anna.refresh_from_db()
    assert anna.check_password("secret-pass-123")


def test_a_helper_made_by_ones_own_invitation_can_be_given_a_reset_link(two_clubs):
    bea, b_evening = two_clubs["bea"], two_clubs["b_evening"]
    _invitation, token = invitation_create(tournament=b_evening, user=bea, role=Role.HELPER)
    Client().post(reverse("invitation", args=[token]), {
        "username": "tuer", "first_name": "Tim", "password1": "Kassenbuch-2026!",
        "password2": "Kassenbuch-2026!",
    })
    door = Membership.objects.get(tournament=b_evening).user
    bea_client = client_of(bea)
    people = bea_client.get(reverse("account_people")).content.decode()
    assert reverse("account_reset_link", args=[door.pk]) in people
    response = bea_client.post(reverse("account_reset_link", args=[door.pk]))
    assert response.status_code == 200 and "/account/reset/" in response.content.decode()
    # Once the helper also works for another club, their account is no longer B's alone.
    Membership.objects.create(tournament=two_clubs["a_evening"], user=door, role=Role.VIEWER)
    assert bea_client.post(reverse("account_reset_link", args=[door.pk])).status_code == 404


def test_a_co_admin_of_the_same_club_is_under_its_admins_authority_a_stranger_is_not(two_clubs):
    anna, a = two_clubs["anna"], two_clubs["a"]
    alex = UserFactory(username="alex")
    a.admins.add(alex)
    assert client_of(anna).post(reverse("account_reset_link", args=[alex.pk])).status_code == 200
    stranger = UserFactory(username="stranger")
    TournamentFactory(organizers=[stranger])
    assert client_of(anna).post(reverse("account_reset_link", args=[stranger.pk])).status_code == 404


# --- 2. the desk's "played here before" takes only the players the page offers -----------------


@pytest.mark.parametrize("who", ["admin", "helper"])
def test_the_desk_registers_no_other_clubs_player_by_id(two_clubs, who):
    b_evening, hanna = two_clubs["b_evening"], two_clubs["hanna"]
    user = two_clubs["bea"] if who == "admin" else MembershipFactory(
        tournament=b_evening, user__username="door", role=Role.HELPER
    ).user
    client = client_of(user)
    for player_pk in (hanna.pk, hanna.pk + 1000):
        response = client.post(reverse("organizer:desk_known", args=[b_evening.pk, player_pk]),
                               {"amount": "5", "method": "cash", "paid": "on"})
        assert response.status_code == 404
        assert "Hanna" not in response.content.decode()
    assert not Registration.objects.filter(tournament=b_evening).exists()


def test_the_desk_still_registers_the_own_clubs_known_player(two_clubs):
    a_evening, hanna = two_clubs["a_evening"], two_clubs["hanna"]
    door = MembershipFactory(tournament=a_evening, user__username="door", role=Role.HELPER).user
    response = client_of(door).post(reverse("organizer:desk_known", args=[a_evening.pk, hanna.pk]),
                                    {"method": "cash"})
    assert response.status_code == 302
    assert Registration.objects.get(tournament=a_evening).player == hanna


# --- 3. a typed name never finds another club's record --------------------------------------------


def test_typed_walk_in_and_import_at_club_b_never_point_at_club_as_record(two_clubs):
    b_evening, hanna = two_clubs["b_evening"], two_clubs["hanna"]
    bea_client = client_of(two_clubs["bea"])
    bea_client.post(reverse("organizer:player_add", args=[b_evening.pk]),
                    {"first_name": "Hanna", "last_name": "Herz", "club": "UNO Süd"})
    typed = Registration.objects.get(tournament=b_evening)
    assert typed.player_id != hanna.pk and typed.player.organization == two_clubs["b"]
    page = bea_client.get(reverse("organizer:players", args=[b_evening.pk])).content.decode()
    assert "1980" not in page
    edit = bea_client.get(reverse("organizer:player_edit", args=[b_evening.pk, typed.pk])).content.decode()
    assert "1980" not in edit
    second = TournamentFactory(organizers=[two_clubs["bea"]], organization=two_clubs["b"], name="B morgen")
    bea_client.post(reverse("organizer:desk_walk_in", args=[second.pk]),
                    {"first_name": "Hanna", "last_name": "Herz", "club": "UNO Süd", "method": "cash",
                     "membership": "guest"})
    assert Registration.objects.get(tournament=second).player_id == typed.player_id  # B's own, found again
    assert Player.objects.filter(name_key=hanna.name_key).count() == 2


# --- 4. the club field suggests only the own club's clubs ----------------------------------------


def test_club_suggestions_stay_within_the_club(two_clubs):
    b_evening = two_clubs["b_evening"]
    RegistrationFactory(tournament=b_evening, player__club__name="Kartenfreunde Nord",
                        player__organization=two_clubs["b"])
    page = client_of(two_clubs["bea"]).get(reverse("organizer:players", args=[b_evening.pk])).content.decode()
    suggestions = re.findall(r'<option value="([^"]*)"', page)
    assert "Kartenfreunde Nord" in suggestions and "UNO Süd" not in suggestions


# --- 5. a viewer reads every document ------------------------------------------------------------


@pytest.mark.usefixtures("pdf_layout_skipped")
def test_a_viewer_reads_the_documents_the_table_sheets_without_captain_links(organizer, tournament, players,
                                                                              monkeypatch):
    play_round(tournament, organizer, close=False)
    viewer = MembershipFactory(tournament=tournament, user__username="kasse", role=Role.VIEWER).user
    helper = MembershipFactory(tournament=tournament, user__username="door", role=Role.HELPER).user
    seen = {}
    monkeypatch.setattr("tournament.documents.table_sheets.html_to_pdf",
                        lambda html, **_: seen.setdefault("html", html).encode() and b"%PDF-1.7")
    for name, args in (("print:documents", [tournament.pk]), ("print:standings", [tournament.pk]),
                       ("print:seating", [tournament.pk, 1]), ("print:rankings", [tournament.pk])):
        assert client_of(viewer).get(reverse(name, args=args)).status_code == 200, name
    for user in (organizer, helper, viewer):  # the round page offers its documents to all of them
        page = client_of(user).get(reverse("organizer:round", args=[tournament.pk, 1])).content.decode()
        assert reverse("print:seating", args=[tournament.pk, 1]) in page, user
    token = tournament.rounds.get(number=1).tables.first().token
    sheets = reverse("print:table_sheets", args=[tournament.pk, 1])
    assert client_of(viewer).get(sheets).status_code == 200
    reading = seen.pop("html")
    assert "Enter the result:" not in reading and "data:image/png" not in reading
    assert "Reading copy" in reading
    assert token[:20] not in reading.replace("<br>", "")
    assert client_of(helper).get(sheets).status_code == 200
    working = seen.pop("html")
    assert "Enter the result:" in working and token[:20] in re.sub(r"<br>\s*", "", working)


# --- 6. one rule for one action, wherever it is offered ------------------------------------------


def test_a_helper_neither_readmits_nor_gives_places_at_the_desk(organizer, tournament, players):
    helper = MembershipFactory(tournament=tournament, user__username="door", role=Role.HELPER).user
    withdrawn = players[0]
    withdrawn.status = Registration.Status.WITHDRAWN
    withdrawn.save(update_fields=["status"])
    waiting = Signup.objects.create(tournament=tournament, first_name="Wanda", last_name="Warte", queue=1,
                                    birth_year=1990, status=Signup.Status.WAITING)
    client = client_of(helper)
    desk = client.get(reverse("organizer:desk", args=[tournament.pk])).content.decode()
    assert 'value="readmit"' not in desk and 'value="approve"' not in desk
    response = client.post(reverse("organizer:desk_player", args=[tournament.pk, withdrawn.pk]),
                           {"action": "readmit"})
    assert response.status_code == 403
    response = client.post(reverse("organizer:desk_signup", args=[tournament.pk, waiting.pk]),
                           {"action": "approve"})
    assert response.status_code == 403
    withdrawn.refresh_from_db()
    waiting.refresh_from_db()
    assert withdrawn.status == Registration.Status.WITHDRAWN and waiting.status == Signup.Status.WAITING
    desk_url = reverse("organizer:desk", args=[tournament.pk])
    organizer_desk = client_of(organizer).get(desk_url).content.decode()
    assert 'value="readmit"' in organizer_desk and 'value="approve"' in organizer_desk


# --- 7. invitation links are limited against guessing ---------------------------------------------


def test_invitation_links_count_wrong_guesses_per_address(settings, organizer, tournament):
    settings.INVITATION_FAILURE_LIMIT = 5
    _invitation, token = invitation_create(tournament=tournament, user=organizer, role=Role.HELPER)
    guesser = Client(REMOTE_ADDR="10.9.8.7")
    for attempt in range(5):
        assert guesser.get(reverse("invitation", args=[f"guess-{attempt}"])).status_code == 404
    refused = guesser.get(reverse("invitation", args=[token]))
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert Client(REMOTE_ADDR="10.9.8.8").get(reverse("invitation", args=[token])).status_code == 200


# --- 8. silent final rounds count nowhere public, not through another evening of the season ---------


def test_hidden_rounds_of_one_evening_do_not_reach_another_evenings_public_season(organizer):
    series = SeriesFactory(organizers=[organizer], name="Saison", points="minus")
    silent = TournamentFactory(organizers=[organizer], series=series, public=True, rounds_total=2,
                               standings_hidden_from=2, name="A")
    public = TournamentFactory(organizers=[organizer], series=series, public=True, name="B")
    for _number in range(12):
        RegistrationFactory(tournament=silent, status=Registration.Status.CHECKED_IN)
    play_round(silent, organizer, points=(0, 1, 2, 3))

    def season(**options) -> dict[int, int]:
        return {line.player.pk: line.row.score for line in series_standings(series, **options).lines}

    after_one = season(public_only=True)
    round_close(round_=play_round(silent, organizer, points=(0, 51, 62, 73), close=False), user=organizer)
    assert season(public_only=True) == after_one  # round 2 is silent: publicly the season is as before
    with_hidden = season()
    assert with_hidden != after_one and max(with_hidden.values()) > 50  # the organizer's own figures
    for url in (reverse("public:series", args=[public.pk]),
                reverse("public:projector", args=[public.pk]) + "?show=series"):
        page = Client().get(url).content.decode()
        assert page.count("Saison") >= 1, url
        assert not re.search(r">\s*(5[1-9]|[6-9]\d|1\d\d)\s*<", page), url  # no total with round 2
    card = Client().get(reverse("public:series_player", args=[public.pk, next(iter(after_one))]))
    assert card.status_code == 200
    assert not re.search(r">\s*(5[1-9]|[6-9]\d|1\d\d)\s*<", card.content.decode())
