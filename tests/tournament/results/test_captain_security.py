"""What a captain link can and cannot do."""

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import (
    PlayerFactory,
    RegistrationFactory,
    RoundFactory,
    SeatFactory,
    TableFactory,
    UserFactory,
)
from tests.tournament.conftest import report_data, seat_ids
from tournament.models import RateLimitWindow, Round, Submission
from tournament.rounds.services import table_regenerate_token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_rate_limit():
    cache.clear()
    yield
    cache.clear()


def url(table):
    return reverse("captain:table", args=[table.token])


def test_token_is_long_and_random(table, other_table):
    assert len(table.token) >= 43  # 256 bits, URL-safe base64
    assert table.token != other_table.token


def test_link_shows_only_its_own_table(client, table, other_table):
    html = client.get(url(table)).content.decode()
    assert "Anna Alt" in html
    for seat in other_table.seats.select_related("registration__player"):
        assert seat.registration.player.name not in html


def test_link_cannot_report_for_another_table(client, table, other_table):
    data = report_data(other_table, key="x")  # the other table's players, sent to this table's link
    response = client.post(url(table), data)
    assert response.status_code == 200
    assert not Submission.objects.exists()
    assert all(row.errors for row in response.context["rows"])  # nothing of this table was entered


def test_fields_of_other_players_are_ignored(client, table, other_table):
    data = report_data(table, key="y")
    data.update(report_data(other_table, key="y"))
    data["outcome"] = str(seat_ids(table)[0])
    assert client.post(url(table), data).status_code == 303
    submission = Submission.objects.get()
    assert submission.table == table
    assert set(submission.entries.values_list("registration_id", flat=True)) == set(seat_ids(table))
    assert not other_table.submissions.exists()


def test_link_of_one_round_does_not_reach_another_round(client, table, tournament):
    round2 = RoundFactory(tournament=tournament, number=2, status=Round.Status.OPEN)
    table2 = TableFactory(round=round2, number=1)
    for position, seat in enumerate(table.seats.all(), start=1):
        SeatFactory(table=table2, round=round2, registration=seat.registration, position=position)
    assert client.post(url(table), report_data(table, key="r1")).status_code == 303
    assert not table2.submissions.exists()
    page = client.get(url(table))
    assert page.context["round"].number == 1
    assert page.context["table"] == table


def test_closed_round_refuses(client, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    response = client.post(url(table), report_data(table, key="late"))
    assert response.status_code == 403
    assert not Submission.objects.exists()
    page = client.get(url(table))
    assert page.status_code == 200 and page.context["read_only"]
    assert 'name="outcome"' not in page.content.decode()


def test_draft_round_link_is_not_valid(client, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.DRAFT)
    assert client.get(url(table)).status_code == 404


def test_regenerated_link_replaces_the_old_one(client, table, organizer):
    old = url(table)
    table_regenerate_token(table=table, user=organizer)
    table.refresh_from_db()
    assert client.get(old).status_code == 404
    assert client.post(old, report_data(table, key="old")).status_code == 404
    assert client.get(url(table)).status_code == 200
    assert not Submission.objects.exists()


def test_wrong_tokens_are_rate_limited_per_address(client, table, settings):
    settings.CAPTAIN_WRONG_TOKENS_ALLOWED = 5
    for attempt in range(5):
        response = client.get(reverse("captain:table", args=[f"guess{attempt}"]), REMOTE_ADDR="10.1.1.1")
        assert response.status_code == 404
    blocked = client.get(reverse("captain:table", args=["guess-more"]), REMOTE_ADDR="10.1.1.1")
    assert blocked.status_code == 429
    assert int(blocked["Retry-After"]) > 0
    # a blocked address learns nothing, not even whether a real link exists
    assert client.get(url(table), REMOTE_ADDR="10.1.1.1").status_code == 429
    assert client.post(url(table), report_data(table), REMOTE_ADDR="10.1.1.1").status_code == 429
    assert not Submission.objects.exists()
    # other phones are not affected, and valid links do not count as failures
    assert client.get(url(table), REMOTE_ADDR="10.1.1.2").status_code == 200
    for _ in range(10):
        assert client.get(url(table), REMOTE_ADDR="10.1.1.3").status_code == 200


def test_forwarded_for_is_trusted_only_when_configured(client, settings):
    settings.CAPTAIN_WRONG_TOKENS_ALLOWED = 2
    for n in range(2):
        client.get(reverse("captain:table", args=[f"g{n}"]), HTTP_X_FORWARDED_FOR=f"10.9.9.{n}")
    # not trusted: both counted for REMOTE_ADDR (127.0.0.1), so it is blocked now
    assert (
        client.get(reverse("captain:table", args=["g"]), HTTP_X_FORWARDED_FOR="10.9.9.9").status_code == 429
    )
    RateLimitWindow.objects.all().delete()
    settings.TRUST_X_FORWARDED_FOR = True
    for n in range(2):
        client.get(reverse("captain:table", args=[f"h{n}"]), HTTP_X_FORWARDED_FOR=f"1.2.3.4, 10.9.9.{n}")
    assert (
        client.get(reverse("captain:table", args=["h"]), HTTP_X_FORWARDED_FOR="10.9.9.7").status_code == 404
    )


def test_csrf_is_enforced(table):
    csrf_client = Client(enforce_csrf_checks=True)
    assert csrf_client.post(url(table), report_data(table, key="c1")).status_code == 403
    assert not Submission.objects.exists()
    page = csrf_client.get(url(table))
    token = page.cookies["csrftoken"].value
    response = csrf_client.post(url(table), {**report_data(table, key="c1"), "csrfmiddlewaretoken": token})
    assert response.status_code == 303
    assert Submission.objects.count() == 1


def test_player_names_with_html_are_escaped(client, open_round):
    evil = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    table = TableFactory(round=open_round, number=9)
    for position, first in enumerate([evil, "B", "C"], start=1):
        reg = RegistrationFactory(tournament=open_round.tournament, player=PlayerFactory(first_name=first))
        SeatFactory(table=table, round=open_round, registration=reg, position=position)
    page = client.get(url(table)).content.decode()
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    ids = seat_ids(table)
    # the engine's message names the player: escaped as well
    response = client.post(
        url(table), {"idempotency_key": "e", "outcome": str(ids[1]), f"cards-{ids[2]}": "R1"}
    )
    html = response.content.decode()
    assert response.context["rows"][0].errors
    assert "<script>alert" not in html and "&lt;script&gt;" in html


def test_captain_page_never_links_to_organizer_pages(client, table, organizer):
    client.post(url(table), report_data(table, key="z"))
    html = client.get(url(table)).content.decode()
    links = [part.split('"', 1)[0] for part in html.split('href="')[1:]]
    links += [part.split('"', 1)[0] for part in html.split('action="')[1:]]
    assert links, "the page has its own form and stylesheet links"
    for link in links:
        assert link.startswith(("/static/", f"/t/{table.token}/", "/i18n/", "#")), link  # "#": the skip link
    # the link gives no access to organizer pages
    for organizer_url in (
        reverse("organizer:round_links", args=[table.round.tournament_id, 1]),
        reverse("organizer:table_detail", args=[table.round.tournament_id, 1, table.number]),
    ):
        response = client.get(organizer_url)
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
        refused = client.post(organizer_url, {"action": "regenerate"})
        assert refused.status_code == 302
    table.refresh_from_db()
    assert client.get(url(table)).status_code == 200  # token unchanged


def test_other_organizers_cannot_open_the_links(client, table):
    client.force_login(UserFactory(username="stranger"))
    response = client.get(reverse("organizer:round_links", args=[table.round.tournament_id, 1]))
    assert response.status_code == 403
    assert table.token not in response.content.decode()
