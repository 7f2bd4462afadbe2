"""The hall's stored pages (tournament/live/pages.py): drawn once per change of the evening, never stale.

Every change that can move the standings is made through its service; the next read of the public
page and of the projector's slides (served from the store) must equal a page drawn afresh, and differ
from the page before where the change moves what they show. Every service call of these evenings is
watched: one that writes what the pages show without an audit entry (the evening's version) fails.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.factories import play_round, points_report
from tournament.backup.selectors import export_tournament
from tournament.backup.services import import_tournament
from tournament.clock.services import clock_pause, clock_start
from tournament.models import PageSnapshot, Registration, Round, Submission, Tournament
from tournament.players.services import player_register, registration_update, registration_withdraw
from tournament.results.services import result_confirm, result_submit
from tournament.rounds.services import (
    round_close,
    round_open,
    round_publish,
    round_reopen,
    round_seat,
    table_regenerate_token,
)
from tournament.series.services import series_create
from tournament.tournaments.services import standings_reveal, tournament_create, tournament_update

HX = {"HX-Request": "true"}
# What the evening's pages show: tables, rounds, players, registrations, results and the settings.
WATCHED = re.compile(
    r'^(INSERT INTO|UPDATE|DELETE FROM) "tournament_(submission|submissionentry|table|round|seat|registration'
    r'|player|club|team|tournament|series)"'
)
AUDITED = re.compile(r'^INSERT INTO "tournament_auditentry"')


@contextmanager
def watched_writes():
    """Every statement of the block; on leaving, a write of what the pages show needs an audit entry."""
    statements: list[str] = []

    def record(execute, sql, params, many, context):
        statements.append(sql.lstrip())
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield statements
    writes = [sql for sql in statements if WATCHED.match(sql)]
    assert not writes or any(AUDITED.match(sql) for sql in statements), (
        f"wrote {writes[0][:80]}… without an audit entry: the stored pages would not notice"
    )


def change(service, **kwargs):
    """Call a service as the app does, checked by `watched_writes`."""
    with watched_writes():
        return service(**kwargs)


def urls(tournament: Tournament) -> list[tuple[str, dict, bool]]:
    """(address, headers, the organizer's) of every page that shows the evening's standings."""
    public = reverse("public:tournament", args=[tournament.pk])
    projector = reverse("public:projector", args=[tournament.pk])
    standings = reverse("organizer:standings", args=[tournament.pk])
    table = Round.objects.get(tournament=tournament, number=2).tables.order_by("number").first()
    return [
        (public, {}, False),
        (projector, {}, False),
        (f"{projector}?show=standings&every=10&slide=0", HX, False),
        (f"{projector}?show=standings&every=10&slide=1", HX, False),
        (f"{projector}?show=chart&every=10&slide=0", HX, False),
        (standings, {}, True),
        (f"{standings}?after=1", {}, True),
        (reverse("organizer:standings_export", args=[tournament.pk]), {}, True),
        (reverse("organizer:round_status", args=[tournament.pk, 2]), HX, True),
        (reverse("captain:table", args=[table.token]), {}, False),
    ]


def body(response) -> str:
    """The page without what differs per answer by design: the CSRF token (masked anew each time) and
    the idempotency key of the captain's form."""
    assert response.status_code == 200
    text = re.sub(r"[A-Za-z0-9]{64}", "TOKEN", response.content.decode())
    return re.sub(r'name="idempotency_key"[^>]*>', "KEY", text)


class Clock:
    """timezone.now() held still, moved only by `shift` (the app asks django.utils.timezone.now)."""

    def __init__(self, monkeypatch) -> None:
        self.now = timezone.now()
        monkeypatch.setattr(timezone, "now", lambda: self.now)

    def shift(self, seconds: int) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch) -> Clock:
    return Clock(monkeypatch)


def read(client, tournament, settings, *, stored: bool = True) -> list[str]:
    settings.STORED_PAGES = stored
    organizer = Client()
    organizer.force_login(tournament.organizers.get())
    return [
        body((organizer if organizers else client).get(url, headers=headers))
        for url, headers, organizers in urls(tournament)
    ]


def assert_current(client, tournament, settings) -> list[str]:
    """The stored pages equal pages drawn afresh; returns them."""
    served = read(client, tournament, settings)
    assert served == read(client, tournament, settings, stored=False)
    settings.STORED_PAGES = True
    return served


@pytest.fixture
def evening(organizer, settings, clock):
    """A public evening of 12 players through the services: round 1 closed, round 2 open with every
    table but the last confirmed."""
    settings.STORED_PAGES = True
    tournament = change(tournament_create, user=organizer, name="Stored pages", date=timezone.localdate(),
                        public=True, rounds_total=3)
    for n in range(12):
        change(player_register, tournament=tournament, user=organizer, first_name=f"P{n}",
               last_name=f"Name{n:02d}", club_name=f"Club {n % 3}", check_in=True)
    play_round(tournament, organizer, seed=1)
    round_ = change(round_seat, tournament=tournament, user=organizer, seed=2)
    change(round_publish, round_=round_, user=organizer)
    change(round_open, round_=round_, user=organizer)
    for table in list(round_.tables.order_by("number"))[:-1]:
        change(result_submit, table=table, seats=points_report(table, (0, 5, 12, 30)),
               source=Submission.Source.ORGANIZER, user=organizer, confirm_warnings=True)
    return tournament


def last_table(tournament):
    return Round.objects.get(tournament=tournament, number=2).tables.order_by("-number").first()


def store(organizer, table, points=(0, 7, 9, 40), source=Submission.Source.ORGANIZER):
    return change(result_submit, table=table, seats=points_report(table, points), source=source,
                  user=organizer if source == Submission.Source.ORGANIZER else None, confirm_warnings=True)


def test_a_result_stored_shows_on_the_next_read(evening, organizer, client, settings):
    before = assert_current(client, evening, settings)
    store(organizer, last_table(evening))  # the round's last table: the projector counts round 2
    after = assert_current(client, evening, settings)
    assert after[2] != before[2]


def test_a_result_confirmed_and_corrected_shows_on_the_next_read(evening, organizer, client, settings):
    outcome = store(organizer, last_table(evening), source=Submission.Source.CAPTAIN)
    before = assert_current(client, evening, settings)
    change(result_confirm, submission=outcome.submission, user=organizer)
    confirmed = assert_current(client, evening, settings)
    assert confirmed[2] != before[2]
    store(organizer, last_table(evening), points=(0, 50, 60, 70))  # a correction after the confirmation
    corrected = assert_current(client, evening, settings)
    assert corrected[2] != confirmed[2]


def test_a_round_closed_and_reopened_shows_on_the_next_read(evening, organizer, client, settings):
    store(organizer, last_table(evening))
    before = assert_current(client, evening, settings)
    round_ = Round.objects.get(tournament=evening, number=2)
    change(round_close, round_=round_, user=organizer)
    closed = assert_current(client, evening, settings)
    assert closed[0] != before[0]  # the public page counts closed rounds only
    assert closed[5] != before[5] and closed[7] != before[7]  # the organizer's standings and export
    change(round_reopen, round_=round_, user=organizer)
    assert assert_current(client, evening, settings)[0] != closed[0]


def test_a_withdrawal_and_a_late_arrival_show_on_the_next_read(evening, organizer, client, settings):
    store(organizer, last_table(evening))
    change(round_close, round_=Round.objects.get(tournament=evening, number=2), user=organizer)
    before = assert_current(client, evening, settings)
    leaving = Registration.objects.filter(tournament=evening).order_by("start_number").first()
    change(registration_withdraw, registration=leaving, user=organizer)
    withdrawn = assert_current(client, evening, settings)  # (the rounds played still count)
    change(player_register, tournament=evening, user=organizer, first_name="Late", last_name="Comer",
           check_in=True)
    round_ = change(round_seat, tournament=evening, user=organizer, seed=3)
    change(round_publish, round_=round_, user=organizer)
    seated = assert_current(client, evening, settings)
    assert "Comer" in seated[0] and "Comer" not in withdrawn[0] + before[0]


def test_a_setting_and_hidden_standings_show_on_the_next_read(evening, organizer, client, settings):
    store(organizer, last_table(evening))
    before = assert_current(client, evening, settings)
    change(tournament_update, tournament=evening, user=organizer, changes={"tiebreaks": ["wins"]})
    assert_current(client, evening, settings)
    change(tournament_update, tournament=evening, user=organizer, changes={"standings_hidden_from": 2})
    hidden = assert_current(client, evening, settings)
    assert hidden[2] != before[2] and "Name" not in hidden[2]
    change(standings_reveal, tournament=evening, user=organizer)
    assert assert_current(client, evening, settings)[2] != hidden[2]


def test_a_restored_backup_shows_its_own_standings(evening, organizer, client, settings):
    store(organizer, last_table(evening))
    original = assert_current(client, evening, settings)
    restored = change(import_tournament, data=export_tournament(evening), owner=organizer)
    restored.public = True  # (the backup keeps the setting; said again for clarity)
    pages = assert_current(client, restored, settings)
    # The projector's standings: the same players in the same order with the same totals.
    assert re.findall(r"Name\d\d|>\d+<", pages[2]) == re.findall(r"Name\d\d|>\d+<", original[2])
    assert "Name" in pages[2]


def test_the_season_pages_show_a_change_of_an_evening_on_the_next_read(evening, organizer, client, settings):
    change(series_create, tournament=evening, user=organizer, name="Season")
    season = [reverse("public:series", args=[evening.pk]), reverse("organizer:series", args=[evening.pk])]
    organizers = Client()
    organizers.force_login(organizer)

    def pages(stored: bool = True) -> list[str]:
        settings.STORED_PAGES = stored
        return [body(client.get(season[0])), body(organizers.get(season[1]))]

    before = pages()
    assert before == pages(stored=False)
    store(organizer, last_table(evening))
    change(round_close, round_=Round.objects.get(tournament=evening, number=2), user=organizer)
    after = pages()
    assert after == pages(stored=False)
    assert after[0] != before[0] and after[1] != before[1]


def test_a_player_renamed_a_link_renewed_and_a_clock_paused_show_on_the_next_read(evening, organizer, client,
                                                                                   settings):
    """Changes of what the pages show besides the standings go through the same version."""
    before = assert_current(client, evening, settings)
    player = Registration.objects.filter(tournament=evening).order_by("start_number").first()
    change(registration_update, registration=player, user=organizer, first_name="Renamed",
           last_name="Person", club_name="Club 0")
    renamed = assert_current(client, evening, settings)
    assert "Renamed" in renamed[0] and "Renamed" not in before[0]
    round_ = Round.objects.get(tournament=evening, number=2)
    change(table_regenerate_token, table=round_.tables.order_by("number").first(), user=organizer)
    change(clock_start, round_=round_, user=organizer, minutes=30)
    change(clock_pause, round_=round_, user=organizer)
    paused = assert_current(client, evening, settings)
    assert paused[0] != renamed[0]


def test_a_page_with_a_message_is_drawn_and_never_stored(evening, organizer, client, settings):
    client.force_login(organizer)
    # Revealing standings that are not hidden is refused: the refusal is a message on the standings page.
    client.post(reverse("organizer:standings_reveal", args=[evening.pk]))
    page = client.get(reverse("organizer:standings", args=[evening.pk]))
    assert b"not hidden" in page.content
    assert not PageSnapshot.objects.filter(tournament=evening).exists()
    assert b"not hidden" not in client.get(reverse("organizer:standings", args=[evening.pk])).content


def test_the_guard_notices_a_write_without_an_audit_entry(evening):
    with pytest.raises(AssertionError, match="without an audit entry"), watched_writes():
        Round.objects.filter(tournament=evening, number=2).update(status=Round.Status.CLOSED)


# --- Conditional answers ------------------------------------------------------------------------------

def test_nothing_new_is_answered_304_without_drawing(evening, organizer, client, settings,
                                                     django_assert_num_queries):
    url = reverse("public:tournament", args=[evening.pk])
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] and "no-cache" in first["Cache-Control"]
    # tournament, published rounds, the evening's version (session: none for a visitor)
    with django_assert_num_queries(3):
        again = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"] and not again.content
    # served from the store: the same three and the stored row
    with django_assert_num_queries(4):
        assert client.get(url).content.count(b"Name") == first.content.count(b"Name")
    store(organizer, last_table(evening))
    change(round_close, round_=Round.objects.get(tournament=evening, number=2), user=organizer)
    changed = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_a_projector_poll_with_nothing_new_is_304(evening, client, settings, django_assert_num_queries):
    url = reverse("public:projector", args=[evening.pk]) + "?show=standings&every=10&slide=0"
    first = client.get(url, headers=HX)
    # tournament, hidden standings (none), shown round, the evening's version
    with django_assert_num_queries(3):
        assert client.get(url, headers={**HX, "If-None-Match": first["ETag"]}).status_code == 304


def test_each_browser_gets_its_own_csrf_token_from_a_stored_page(evening, client, settings):
    url = reverse("public:tournament", args=[evening.pk])
    other = Client()
    tokens = []
    for browser in (client, other):
        html = browser.get(url).content.decode()
        (token,) = set(re.findall(r'"X-CSRFToken": "([A-Za-z0-9]{64})"', html))
        tokens.append(token)
        assert "csrf-token-drawn-per-answer" not in html
    assert tokens[0] != tokens[1]
    assert PageSnapshot.objects.filter(tournament=evening).count() == 1  # one page served both


def test_a_running_clock_is_drawn_fresh_on_a_stored_page(evening, organizer, client, settings, clock):
    round_ = Round.objects.get(tournament=evening, number=2)
    change(clock_start, round_=round_, user=organizer, minutes=30)
    url = reverse("public:tournament", args=[evening.pk])
    first = client.get(url)
    clock.shift(45)
    later = client.get(url, headers={"If-None-Match": first["ETag"]})
    assert later.status_code == 200  # never a 304 that would freeze the countdown
    remaining = [int(re.search(rb'data-remaining="(\d+)"', r.content).group(1)) for r in (first, later)]
    assert remaining[0] - remaining[1] == 45
    assert PageSnapshot.objects.filter(tournament=evening).count() == 1


def test_an_organizer_gets_their_own_stored_page(evening, organizer, client, settings):
    url = reverse("public:tournament", args=[evening.pk])
    assert client.get(url).status_code == 200
    client.force_login(organizer)
    assert client.get(url).status_code == 200
    # Stored apart: whatever a page draws for a logged-in person never reaches a visitor.
    assert PageSnapshot.objects.filter(tournament=evening).count() == 2


def test_the_suite_wide_guard_notices_a_service_that_forgets_its_audit_entry(
    evening, organizer, monkeypatch, services_write_with_audit_entries
):
    """tests/tournament/audit_guard.py, which every test of the app runs under: a service writing a
    registration without its audit entry fails the test."""
    from tests.tournament.audit_guard import services_audited
    from tournament.players import services

    monkeypatch.setattr(services, "audit", lambda **kwargs: None)
    leaving = Registration.objects.filter(tournament=evening).order_by("start_number").first()
    with pytest.raises(AssertionError, match=r"players.registration_withdraw"), services_audited():
        registration_withdraw(registration=leaving, user=organizer)
    assert services_write_with_audit_entries  # the suite's own guard saw it too
    services_write_with_audit_entries.clear()


def test_made_up_parameters_are_answered_but_never_stored(evening, client, settings):
    url = reverse("public:tournament", args=[evening.pk])
    for n in range(3):
        assert client.get(url, {"made-up": n}).status_code == 200
    projector = reverse("public:projector", args=[evening.pk])
    assert client.get(projector, {"show": "standings", "x": "1"}).status_code == 200
    assert not PageSnapshot.objects.filter(tournament=evening).exists()
    client.get(projector, {"show": "standings", "every": "10", "slide": "1"})
    assert PageSnapshot.objects.filter(tournament=evening).count() == 1


def test_an_evening_keeps_a_bounded_number_of_stored_pages(evening, client, settings, monkeypatch):
    from tournament.standings import versioning

    monkeypatch.setattr(versioning, "MAX_PAGES", 4)
    projector = reverse("public:projector", args=[evening.pk])
    for slide in range(7):
        assert client.get(projector, {"slide": slide}, headers=HX).status_code == 200
    assert 2 <= PageSnapshot.objects.filter(tournament=evening).count() <= 4
