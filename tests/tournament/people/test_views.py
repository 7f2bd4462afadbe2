"""The people page (#45): the organizer adds and removes people by user name; the last organizer has no
remove button and cannot be removed by a crafted POST either."""

from __future__ import annotations

from django.urls import reverse

from tests.factories import MembershipFactory, colleague_of
from tournament.models import Membership, Role
from tournament.permissions import role_of


def test_the_page_lists_the_team_by_role(organizer_client, tournament):
    MembershipFactory(tournament=tournament, user__username="door", role=Role.HELPER)
    MembershipFactory(tournament=tournament, user__username="treasurer", role=Role.VIEWER)
    page = organizer_client.get(reverse("organizer:people", args=[tournament.pk])).content.decode()
    rows = [page.index(name) for name in ("<td>orga</td>", "<td>door</td>", "<td>treasurer</td>")]
    assert rows == sorted(rows)
    remove_orga = reverse("organizer:person_remove", args=[tournament.pk, tournament.organizers.get().pk])
    assert remove_orga not in page  # the last organizer stays


def test_adding_by_user_name_and_removing(organizer_client, tournament, organizer):
    kasse = colleague_of(organizer, username="kasse")
    response = organizer_client.post(
        reverse("organizer:person_add", args=[tournament.pk]), {"username": "Kasse", "role": "viewer"}
    )
    assert response.status_code == 302
    assert role_of(kasse, tournament) == Role.VIEWER
    response = organizer_client.post(reverse("organizer:person_remove", args=[tournament.pk, kasse.pk]))
    assert response.status_code == 302
    assert not Membership.objects.exists()


def test_an_unknown_user_name_is_said_on_the_form(organizer_client, tournament):
    response = organizer_client.post(
        reverse("organizer:person_add", args=[tournament.pk]), {"username": "nobody", "role": "helper"}
    )
    assert response.status_code == 400
    assert "There is no account with the user name “nobody” in this club." in response.content.decode()


def test_removing_the_last_organizer_is_refused(organizer_client, tournament, organizer):
    response = organizer_client.post(
        reverse("organizer:person_remove", args=[tournament.pk, organizer.pk]), follow=True
    )
    assert "The tournament keeps at least one organizer." in response.content.decode()
    assert tournament.organizers.get() == organizer


def test_a_helper_creating_tournaments_or_restoring_is_refused(client, tournament):
    helper = MembershipFactory(tournament=tournament, user__username="door").user
    client.force_login(helper)
    assert client.get(reverse("organizer:tournament_create")).status_code == 403
    assert client.get(reverse("restore")).status_code == 403
    assert 'href="/new/"' not in client.get(reverse("home")).content.decode()
