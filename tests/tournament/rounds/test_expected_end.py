"""The overview and the projector say when the evening is expected to end (docs/rules.md §9), from the
evening's own timestamps; fixed times, the clock held still."""

from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.factories import play_round
from tournament.models import Round, Submission
from tournament.rounds.selectors import expected_end
from tournament.rounds.services import round_close, round_open, round_publish, round_seat

T0 = datetime(2026, 12, 4, 18, 0, tzinfo=UTC)  # 19:00 in Berlin


def at(minutes):
    return T0 + timedelta(minutes=minutes)


def stamp(round_, *, published, reports, closed=None):
    """Give a round fixed times: published, each table's report (minutes after T0), closed."""
    Round.objects.filter(pk=round_.pk).update(published_at=at(published), closed_at=closed and at(closed))
    for table, minute in zip(round_.tables.order_by("number"), reports, strict=False):
        Submission.objects.filter(table=table).update(created_at=at(minute))


@pytest.fixture
def clock(monkeypatch):
    def hold(minutes):
        monkeypatch.setattr(timezone, "now", lambda: at(minutes))
    return hold


@pytest.fixture
def public(tournament):
    tournament.public = True
    tournament.save()
    return tournament


def shown(client, url):
    html = client.get(url).content.decode()
    start = html.find('id="expected-end"')
    return None if start < 0 else html[start:].split(">", 1)[1].split("<", 1)[0]


def test_nothing_before_every_table_of_round_1_reported(organizer_client, public, players, organizer, clock):
    round_ = play_round(public, organizer, seed=1, close=False, skip_tables=frozenset({3}))
    stamp(round_, published=0, reports=[30, 40])
    clock(45)
    assert expected_end(public) is None
    assert shown(organizer_client, reverse("organizer:tournament", args=[public.pk])) is None
    assert shown(organizer_client, reverse("public:projector", args=[public.pk])) is None


def test_after_round_1_and_kept_current(organizer_client, client, public, players, organizer, clock):
    round_1 = play_round(public, organizer, seed=1)
    stamp(round_1, published=0, reports=[30, 35, 40], closed=45)
    clock(45)
    # Play 40, five more rounds of 10 + 40 after the last report (40), closing 5: 295 minutes → 23:55.
    assert expected_end(public) == at(295)
    overview = reverse("organizer:tournament", args=[public.pk])
    projector = reverse("public:projector", args=[public.pk])
    assert shown(organizer_client, overview) == "Expected end around 23:55"
    assert shown(client, projector) == "Expected end around 23:55"

    # Round 2 is published 15 minutes after round 1's last report: the turnarounds take 15 now.
    round_2 = round_seat(tournament=public, user=organizer, seed=2)
    round_publish(round_=round_2, user=organizer)
    round_open(round_=round_2, user=organizer)
    stamp(round_2, published=55, reports=[])
    clock(60)
    # Round 2 ends at 55 + 40 = 95, four more rounds of 15 + 40, closing 5: 320 → 00:20.
    assert shown(organizer_client, overview) == "Expected end around 00:20"
    assert shown(client, projector) == "Expected end around 00:20"


def test_in_german(organizer_client, public, players, organizer, clock, settings):
    settings.LANGUAGE_CODE = "de"
    round_1 = play_round(public, organizer, seed=1)
    stamp(round_1, published=0, reports=[30, 35, 40], closed=45)
    clock(45)
    html = organizer_client.get(
        reverse("organizer:tournament", args=[public.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Voraussichtliches Ende gegen 23:55" in html


def test_gone_once_the_last_round_is_closed(organizer_client, public, players, organizer, clock):
    public.rounds_total = 1
    public.save()
    round_1 = play_round(public, organizer, seed=1, close=False)
    stamp(round_1, published=0, reports=[30, 35, 40])
    clock(41)
    overview = reverse("organizer:tournament", args=[public.pk])
    assert shown(organizer_client, overview) == "Expected end around 19:45"  # 40, then 5 to close
    round_close(round_=round_1, user=organizer)
    assert expected_end(public) is None
    assert shown(organizer_client, reverse("organizer:tournament", args=[public.pk])) is None
    assert shown(organizer_client, reverse("public:projector", args=[public.pk])) is None


def test_two_queries(public, players, organizer, clock, django_assert_num_queries):
    play_round(public, organizer, seed=1)
    clock(45)
    with django_assert_num_queries(2):
        expected_end(public)
    rounds = list(public.rounds.all())
    with django_assert_num_queries(1):
        expected_end(public, rounds=rounds)
