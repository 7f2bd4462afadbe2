"""Anonymous users go to login; an organizer of one tournament cannot see or change another's."""

import pytest
from django.urls import reverse

from tests.factories import TournamentFactory, UserFactory, play_round
from tournament.models import Registration, Round, Tournament

PAGES = [
    "tournament",
    "tournament_edit",
    "tournament_delete",
    "players",
    "players_import",
    "desk",
    "finish",
    "rounds",
    "standings",
    "standings_export",
]
ACTIONS = ["player_add", "round_seat"]


@pytest.fixture
def played(tournament, players, organizer):
    round_ = play_round(tournament, organizer, seed=5)
    return round_


def round_urls(tournament, round_):
    args = [tournament.pk, round_.number]
    table = round_.tables.first()
    submission = table.submissions.first()
    reg = tournament.registrations.first()
    return [
        reverse("organizer:round", args=args),
        reverse("organizer:round_status", args=args),
        reverse("organizer:table_result", args=[*args, table.number]),
        reverse("organizer:player_edit", args=[tournament.pk, reg.pk]),
    ], [
        reverse(f"organizer:{name}", args=args)
        for name in ("round_swap", "round_publish", "round_open", "round_close", "round_reopen")
    ] + [
        reverse("organizer:submission_confirm", args=[tournament.pk, submission.pk]),
        reverse("organizer:player_withdraw", args=[tournament.pk, reg.pk]),
        reverse("organizer:player_readmit", args=[tournament.pk, reg.pk]),
        reverse("organizer:checkin_toggle", args=[tournament.pk, reg.pk]),
    ]


def all_urls(tournament, round_):
    gets, posts = round_urls(tournament, round_)
    gets += [reverse(f"organizer:{name}", args=[tournament.pk]) for name in PAGES]
    posts += [reverse(f"organizer:{name}", args=[tournament.pk]) for name in ACTIONS]
    return gets, posts


def test_anonymous_users_are_sent_to_login(client, tournament, played):
    gets, posts = all_urls(tournament, played)
    gets.append(reverse("organizer:tournament_create"))
    for url in gets:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("login")), url
    for url in posts:
        response = client.post(url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), url


def test_other_organizer_gets_403_and_changes_nothing(client, tournament, played):
    other = UserFactory(username="other-orga")
    TournamentFactory(organizers=[other])
    client.force_login(other)
    gets, posts = all_urls(tournament, played)
    for url in gets:
        assert client.get(url).status_code == 403, url
    for url in posts:
        assert client.post(url, {"first_name": "X", "last_name": "Y"}).status_code == 403, url
    played.refresh_from_db()
    assert played.status == Round.Status.CLOSED
    assert tournament.registrations.count() == 12
    assert not tournament.registrations.filter(status=Registration.Status.WITHDRAWN).exists()
    assert (
        client.post(
            reverse("organizer:tournament_delete", args=[tournament.pk]), {"confirm_name": tournament.name}
        ).status_code
        == 403
    )
    assert Tournament.objects.filter(pk=tournament.pk).exists()


def test_own_organizer_and_superuser_may_see_the_pages(client, organizer_client, tournament, played):
    gets, _posts = all_urls(tournament, played)
    for url in gets:
        assert organizer_client.get(url).status_code == 200, url
    admin = UserFactory(username="boss", is_superuser=True, is_staff=True)
    client.force_login(admin)
    assert client.get(reverse("organizer:standings", args=[tournament.pk])).status_code == 200
