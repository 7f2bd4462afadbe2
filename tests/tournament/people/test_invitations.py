"""Invitation links (#45): made on the people page and shown once, only their hash stored; they work
once, expire, lead into their own tournament only; a visitor creates an account on the link's page."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import TournamentFactory, UserFactory
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Invitation, Role
from tournament.people.selectors import token_hash
from tournament.people.services import invitation_accept, invitation_create
from tournament.permissions import role_of

ACCOUNT = {"username": "door-anna", "first_name": "Anna", "last_name": "Tür",
           "password1": "Kassenbuch-2026!", "password2": "Kassenbuch-2026!"}


def logged_in_client(username: str) -> Client:
    client = Client()
    client.force_login(UserFactory(username=username))
    return client


def invite(tournament, organizer, role=Role.HELPER) -> str:
    _invitation, token = invitation_create(tournament=tournament, user=organizer, role=role)
    return token


def test_the_people_page_shows_the_link_once_and_stores_only_its_hash(organizer_client, tournament):
    response = organizer_client.post(reverse("organizer:invitation_create", args=[tournament.pk]),
                                     {"role": "helper"})
    assert response.status_code == 200
    page = response.content.decode()
    token = re.search(r'/invite/([A-Za-z0-9_-]{43})/', page).group(1)
    invitation = Invitation.objects.get(tournament=tournament)
    assert invitation.token_hash == token_hash(token) and token not in invitation.token_hash
    assert invitation.role == "helper" and invitation.used_at is None
    assert dt.timedelta(days=6, hours=23) < invitation.expires_at - timezone.now() <= dt.timedelta(days=7)
    assert "<svg" in page  # the QR code
    again = organizer_client.get(reverse("organizer:people", args=[tournament.pk])).content.decode()
    assert token not in again and 'id="invitation-link"' not in again


def test_a_visitor_creates_an_account_and_joins_once(client, tournament, organizer):
    token = invite(tournament, organizer)
    url = reverse("invitation", args=[token])
    page = client.get(url)
    assert page.status_code == 200 and tournament.name in page.content.decode()
    response = client.post(url, ACCOUNT)
    assert response.status_code == 302
    assert response["Location"] == reverse("organizer:tournament", args=[tournament.pk])
    anna = get_user_model().objects.get(username="door-anna")
    assert anna.first_name == "Anna" and anna.check_password("Kassenbuch-2026!")
    assert role_of(anna, tournament) == Role.HELPER
    assert client.get(reverse("organizer:desk", args=[tournament.pk])).status_code == 200  # logged in
    entry = AuditEntry.objects.get(action=AuditAction.INVITATION_ACCEPT)
    assert (entry.actor, entry.after) == ("door-anna", {"person": "door-anna", "role": "helper"})
    invitation = Invitation.objects.get()
    assert invitation.used_by == anna and invitation.used_at is not None

    # Replay: the same link, by anybody, is refused and changes nothing.
    stranger = logged_in_client("stranger")
    assert stranger.get(url).status_code == 410
    assert stranger.post(url).status_code == 410
    assert role_of(get_user_model().objects.get(username="stranger"), tournament) is None
    client.logout()
    assert client.post(url, {**ACCOUNT, "username": "door-bert"}).status_code == 410
    assert not get_user_model().objects.filter(username="door-bert").exists()


def test_a_logged_in_user_accepts_with_one_button(tournament, organizer):
    token = invite(tournament, organizer, role=Role.VIEWER)
    client = logged_in_client("board")
    page = client.get(reverse("invitation", args=[token])).content.decode()
    assert "Join as board" in page and 'name="password1"' not in page
    assert client.post(reverse("invitation", args=[token])).status_code == 302
    board = get_user_model().objects.get(username="board")
    assert role_of(board, tournament) == Role.VIEWER


def test_an_expired_link_is_refused(client, tournament, organizer):
    token = invite(tournament, organizer)
    Invitation.objects.update(expires_at=timezone.now() - dt.timedelta(seconds=1))
    url = reverse("invitation", args=[token])
    response = client.get(url)
    assert response.status_code == 410 and "expired" in response.content.decode()
    assert client.post(url, ACCOUNT).status_code == 410
    assert not get_user_model().objects.filter(username="door-anna").exists()
    with pytest.raises(ValidationError) as refused:
        invitation_accept(token=token, user=organizer)
    assert refused.value.code == "invitation_expired"


@pytest.mark.parametrize("alter", [
    lambda token: token[:-1] + ("A" if token[-1] != "A" else "B"),
    lambda token: token[:-1],
    lambda token: token + "x",
    lambda token: token.upper(),
])
def test_an_altered_link_is_not_found(client, tournament, organizer, alter):
    token = invite(tournament, organizer)
    url = reverse("invitation", args=[alter(token)])
    assert client.get(url).status_code == 404
    assert client.post(url, ACCOUNT).status_code == 404
    assert not get_user_model().objects.filter(username="door-anna").exists()
    assert Invitation.objects.get().used_at is None


def test_a_link_leads_into_its_own_tournament_only(tournament, organizer):
    """Tournament A's link makes its holder a helper of A; they reach nothing of B, whose own invitation
    cannot be withdrawn or listed through A's pages either."""
    other_organizer = UserFactory(username="other")
    other = TournamentFactory(organizers=[other_organizer], name="B-Cup")
    token = invite(tournament, organizer)
    other_invitation, _token = invitation_create(tournament=other, user=other_organizer, role=Role.ORGANIZER)
    client = logged_in_client("joiner")
    client.post(reverse("invitation", args=[token]))
    joiner = get_user_model().objects.get(username="joiner")
    assert role_of(joiner, tournament) == Role.HELPER and role_of(joiner, other) is None
    assert client.get(reverse("organizer:desk", args=[other.pk])).status_code == 403
    organizer_client = logged_in_client("orga")
    withdraw = reverse("organizer:invitation_withdraw", args=[tournament.pk, other_invitation.pk])
    assert organizer_client.post(withdraw).status_code == 404
    assert Invitation.objects.filter(pk=other_invitation.pk).exists()


def test_the_account_form_applies_django_s_rules(client, tournament, organizer):
    token = invite(tournament, organizer)
    url = reverse("invitation", args=[token])
    UserFactory(username="taken")
    cases = [
        {**ACCOUNT, "password1": "123", "password2": "123"},
        {**ACCOUNT, "password2": "something else"},
        {**ACCOUNT, "username": "Taken"},
        {**ACCOUNT, "username": "no spaces allowed"},
    ]
    for data in cases:
        response = client.post(url, data)
        assert response.status_code == 400, data
    assert not get_user_model().objects.filter(first_name="Anna").exists()
    assert Invitation.objects.get().used_at is None


def test_an_organizer_following_a_helper_link_stays_organizer(tournament, organizer):
    token = invite(tournament, organizer)
    invitation_accept(token=token, user=organizer)
    assert role_of(organizer, tournament) == Role.ORGANIZER
    assert tournament.organizers.get() == organizer


def test_withdrawn_links_stop_working(organizer_client, client, tournament, organizer):
    invitation, token = invitation_create(tournament=tournament, user=organizer, role=Role.HELPER)
    withdraw = reverse("organizer:invitation_withdraw", args=[tournament.pk, invitation.pk])
    response = organizer_client.post(withdraw)
    assert response.status_code == 302
    assert client.get(reverse("invitation", args=[token])).status_code == 404
    assert AuditEntry.objects.filter(action=AuditAction.INVITATION_WITHDRAW, actor="orga").count() == 1
