"""A series' team in the app (#45 item 1): from an evening's series page an organizer of the series adds
and removes its organizers, helpers and viewers; a series helper helps at every evening of the series
and at no other; the last organizer of the series stays; nobody else changes the team."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.factories import MembershipFactory, SeriesFactory, TournamentFactory, UserFactory, colleague_of
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Membership, Role, Tournament
from tournament.people.selectors import series_team
from tournament.people.services import person_add, person_remove
from tournament.permissions import role_of


@pytest.fixture
def season(organizer):
    """A series of two evenings organized by the organizer, and an evening outside it."""
    series = SeriesFactory(organizers=[organizer], name="Jahreswertung")
    first, second = (TournamentFactory(organizers=[organizer], series=series) for _ in range(2))
    return series, first, second, TournamentFactory(organizers=[organizer])


def test_a_series_helper_added_and_removed_helps_at_every_evening_and_nowhere_else(organizer, season):
    series, first, second, elsewhere = season
    door = colleague_of(organizer, username="Tuer")
    person_add(tournament=first, user=organizer, username="tuer", role=Role.HELPER, of_series=True)
    assert Membership.objects.get(user=door).series == series
    assert not Membership.objects.filter(user=door, tournament__isnull=False).exists()
    assert [role_of(door, t) for t in (first, second, elsewhere)] == [Role.HELPER, Role.HELPER, None]
    person_remove(tournament=first, user=organizer, person=door, of_series=True)
    evenings = Tournament.objects.filter(pk__in=[first.pk, second.pk, elsewhere.pk])  # no cached roles
    assert [role_of(door, t) for t in evenings] == [None, None, None]
    entries = AuditEntry.objects.filter(tournament=first).order_by("pk")
    said = {"person": "Tuer", "role": "helper", "series": "Jahreswertung"}
    assert [(e.action, e.actor, e.before, e.after) for e in entries] == [
        (AuditAction.PERSON_ADD, "orga", None, said), (AuditAction.PERSON_REMOVE, "orga", said, None),
    ]
    assert not AuditEntry.objects.filter(tournament__in=[second, elsewhere]).exists()


def test_a_series_organizer_is_one_of_series_organizers_and_a_new_role_replaces_the_old(organizer, season):
    series, first, *_ = season
    lena = colleague_of(organizer, username="lena")
    person_add(tournament=first, user=organizer, username="lena", role=Role.VIEWER, of_series=True)
    person_add(tournament=first, user=organizer, username="lena", role=Role.ORGANIZER, of_series=True)
    assert set(series.organizers.values_list("username", flat=True)) == {"orga", "lena"}
    assert not Membership.objects.filter(user=lena).exists()
    assert not first.organizers.filter(pk=lena.pk).exists()  # the evening takes the series' team itself
    person_add(tournament=first, user=organizer, username="lena", role=Role.HELPER, of_series=True)
    assert [(p.user.username, p.role) for p in series_team(series)] == [
        ("orga", Role.ORGANIZER), ("lena", Role.HELPER),
    ]


def test_the_last_organizer_of_the_series_stays(organizer, season):
    series, first, *_ = season
    with pytest.raises(ValidationError) as refused:
        person_remove(tournament=first, user=organizer, person=organizer, of_series=True)
    assert refused.value.code == "last_organizer"
    with pytest.raises(ValidationError) as demoted:
        person_add(tournament=first, user=organizer, username="orga", role=Role.HELPER, of_series=True)
    assert demoted.value.code == "last_organizer"
    assert list(series.organizers.all()) == [organizer]


def test_an_organizer_of_the_evening_only_does_not_change_the_series_team(season):
    _, first, *_ = season
    evening_only = UserFactory(username="abend")
    first.organizers.add(evening_only)
    colleague_of(evening_only, username="kasse")
    with pytest.raises(ValidationError) as refused:
        person_add(
            tournament=first, user=evening_only, username="kasse", role=Role.HELPER, of_series=True
        )
    assert refused.value.code == "not_series_organizer"
    assert not Membership.objects.exists()
    # The evening's own team stays theirs to change.
    person_add(tournament=first, user=evening_only, username="kasse", role=Role.HELPER)
    assert Membership.objects.get().tournament == first


def test_not_in_a_series_is_refused(organizer, season):
    *_, elsewhere = season
    colleague_of(organizer, username="kasse")
    with pytest.raises(ValidationError) as refused:
        person_add(tournament=elsewhere, user=organizer, username="kasse", role=Role.HELPER, of_series=True)
    assert refused.value.code == "not_in_series"


def test_the_page_adds_and_removes_and_keeps_the_last_organizer(organizer_client, organizer, season):
    series, first, second, _ = season
    for page in ("organizer:series", "organizer:people"):  # both lead to the series' team
        html = organizer_client.get(reverse(page, args=[first.pk])).content.decode()
        assert reverse("organizer:series_people", args=[first.pk]) in html
    kasse = colleague_of(organizer, username="kasse")
    response = organizer_client.post(
        reverse("organizer:series_person_add", args=[first.pk]), {"username": "Kasse", "role": "viewer"}
    )
    assert response.status_code == 302
    assert response.url == reverse("organizer:series_people", args=[first.pk])
    assert role_of(kasse, second) == Role.VIEWER
    page = organizer_client.get(response.url).content.decode()
    assert "<td>kasse</td>" in page
    assert reverse("organizer:series_person_remove", args=[first.pk, kasse.pk]) in page
    assert reverse("organizer:series_person_remove", args=[first.pk, organizer.pk]) not in page
    response = organizer_client.post(
        reverse("organizer:series_person_remove", args=[first.pk, organizer.pk]), follow=True
    )
    assert "The series keeps at least one organizer." in response.content.decode()
    organizer_client.post(reverse("organizer:series_person_remove", args=[first.pk, kasse.pk]))
    assert not Membership.objects.exists() and list(series.organizers.all()) == [organizer]


def test_an_unknown_user_name_is_said_on_the_series_form(organizer_client, season):
    _, first, *_ = season
    response = organizer_client.post(
        reverse("organizer:series_person_add", args=[first.pk]), {"username": "nobody", "role": "helper"}
    )
    assert response.status_code == 400
    assert "There is no account with the user name “nobody” in this club." in response.content.decode()


def test_who_is_not_an_organizer_of_the_series_gets_403(client, organizer, season):
    series, first, *_ = season
    evening_only = colleague_of(organizer, username="abend")
    first.organizers.add(evening_only)
    series_helper = MembershipFactory(series=series, user__username="saisonhelfer").user
    colleague_of(organizer, username="kasse")
    urls = [
        reverse("organizer:series_people", args=[first.pk]),
        reverse("organizer:series_person_add", args=[first.pk]),
        reverse("organizer:series_person_remove", args=[first.pk, organizer.pk]),
    ]
    for user in (evening_only, series_helper):
        client.force_login(user)
        assert client.get(urls[0]).status_code == 403
        assert client.post(urls[1], {"username": "kasse", "role": "helper"}).status_code == 403
        assert client.post(urls[2]).status_code == 403
    page = client.get(reverse("organizer:series", args=[first.pk])).content.decode()  # the helper reads it
    assert urls[0] not in page
    client.force_login(evening_only)
    assert urls[0] not in client.get(reverse("organizer:people", args=[first.pk])).content.decode()
    assert list(series.organizers.all()) == [organizer]
    assert list(Membership.objects.values_list("user__username", flat=True)) == ["saisonhelfer"]


def test_an_evening_outside_a_series_has_no_series_team_page(organizer_client, season):
    *_, elsewhere = season
    assert organizer_client.get(reverse("organizer:series_people", args=[elsewhere.pk])).status_code == 404


def test_the_series_team_page_in_german(organizer_client, season):
    _, first, *_ = season
    organizer_client.cookies["django_language"] = "de"
    page = organizer_client.get(
        reverse("organizer:series_people", args=[first.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Team der Turnierserie Jahreswertung" in page
    assert "Zurück zur Turnierserie" in page
    assert "Beobachter sehen jeden ein" in page and "Hinzufügen" in page
