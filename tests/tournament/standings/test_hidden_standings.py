"""Silent final rounds (docs/rules.md §9): while the standings are hidden no public URL, projector poll,
export or captain page shows a total or a place; the organizer reveals them (audited) on the projector,
the last prize place first."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournament.urlmap import POST_ONLY, audience, named_urls
from tournament.audit.actions import AuditAction
from tournament.live.selectors import live_standings
from tournament.models import AuditEntry
from tournament.prizes.selectors import prize_list
from tournament.standings.selectors import standings_hidden
from tournament.tournaments.services import standings_reveal, tournament_update
from tournament.views.projector import SHOW_CHOICES

pytestmark = pytest.mark.one_database

# What a place or a total looks like on the public pages, the projector and the series page.
MARKERS = ('data-total="', 'class="rank"', 'class="total"', "Standings after", "Final standings",
           'class="num total"', "standings-chart", "chart-panel")


def hide(world, from_round=2):
    """Hide from round 2 on: the world's round 2 is open, so the standings are hidden now."""
    world.tournament.standings_hidden_from = from_round
    world.tournament.save(update_fields=["standings_hidden_from"])


def public_and_captain_urls(world) -> list[str]:
    urls = []
    for name, names in named_urls().items():
        if audience(name) in ("public", "captain") and name not in POST_ONLY:
            urls += world.urls(name, names)
    projector = reverse("public:projector", args=[world.tournament.pk])
    urls += [f"{projector}?show={show}&slide={n}" for show in [*SHOW_CHOICES, "reveal"] for n in range(4)]
    return urls


def totals_shown(html: str, lines) -> list[str]:
    """Every sign of the standings in a page: the markers, and a player's name closely followed by their
    total (two digits or more: the clubs are "Club 0" to "Club 2", the tables numbered 1 to 3)."""
    found = [marker for marker in MARKERS if marker in html]
    text = re.sub(r"<[^>]+>", " ", html)
    for line in lines:
        if line.row.total < 10:
            continue
        if re.search(rf"{re.escape(line.player.name)}\W[^\n]{{0,60}}\b{line.row.total}\b", text):
            found.append(f"{line.player.name} {line.row.total}")
    return found


def get_all(client, urls, headers=None):
    for url in urls:
        response = client.get(url, headers=headers or {})
        assert response.status_code in (200, 404), (url, response.status_code)
        yield url, response.content.decode()


def test_nothing_of_the_standings_reaches_a_public_or_captain_url(world):
    _rounds, lines = live_standings(world.tournament)
    assert sum(line.row.total >= 10 for line in lines) >= 6
    urls = public_and_captain_urls(world)
    anonymous = Client()
    # Before: the same walk finds the standings (the check can see them).
    seen = [url for url, html in get_all(anonymous, urls) if totals_shown(html, lines)]
    assert any("/projector/" in url for url in seen) and reverse(
        "public:tournament", args=[world.tournament.pk]
    ) in seen
    hide(world)
    assert standings_hidden(world.tournament)
    captain = Client()
    assert captain.get(world.waiting_table.get_captain_url()).status_code == 200
    for client in (anonymous, captain):
        for headers in ({}, {"HX-Request": "true"}):
            for url, html in get_all(client, urls, headers):
                assert totals_shown(html, lines) == [], url


def test_the_projector_and_the_public_page_say_why(world):
    hide(world)
    client = Client()
    projector = client.get(reverse("public:projector", args=[world.tournament.pk]), {"show": "standings"})
    assert "The last rounds are played in silence." in projector.content.decode()
    page = client.get(reverse("public:tournament", args=[world.tournament.pk])).content.decode()
    assert 'id="standings-hidden"' in page
    assert client.get(reverse("public:series", args=[world.tournament.pk])).status_code == 404


def test_not_hidden_before_the_round_is_published(world):
    hide(world, from_round=3)  # round 3 is only planned, not published
    assert not standings_hidden(world.tournament)
    html = Client().get(reverse("public:tournament", args=[world.tournament.pk])).content.decode()
    assert totals_shown(html, live_standings(world.tournament)[1])


def test_a_new_setting_hides_them_again_until_revealed(world):
    hide(world)
    standings_reveal(tournament=world.tournament, user=world.organizer)
    world.tournament.refresh_from_db()
    assert not standings_hidden(world.tournament)
    tournament_update(tournament=world.tournament, user=world.organizer, changes={"standings_hidden_from": 1})
    world.tournament.refresh_from_db()
    assert standings_hidden(world.tournament)
    entry = AuditEntry.objects.filter(action=AuditAction.TOURNAMENT_UPDATE).latest("pk")
    assert entry.before == {"standings_hidden_from": 2} and entry.after == {"standings_hidden_from": 1}


def test_the_organizer_keeps_the_standings_and_their_exports(world, organizer_client):
    hide(world)
    _rounds, lines = live_standings(world.tournament)
    page = organizer_client.get(reverse("organizer:standings", args=[world.tournament.pk])).content.decode()
    assert 'id="silent-rounds"' in page and "Reveal the standings" in page
    finish = organizer_client.get(reverse("organizer:finish", args=[world.tournament.pk])).content.decode()
    assert reverse("organizer:standings_reveal", args=[world.tournament.pk]) in finish
    csv = organizer_client.get(reverse("organizer:standings_export", args=[world.tournament.pk]))
    assert lines[0].player.last_name in csv.content.decode()


def test_reveal_is_audited_and_shows_everything_again(world, organizer_client):
    hide(world)
    url = reverse("organizer:standings_reveal", args=[world.tournament.pk])
    assert Client().post(url).status_code == 302  # to the login: nobody else reveals
    # The organizer may rehearse the prize-giving before revealing; the hall sees the silent slide.
    projector = reverse("public:projector", args=[world.tournament.pk])
    assert 'data-place="1"' in organizer_client.get(projector, {"show": "reveal"}).content.decode()
    assert 'data-place="' not in Client().get(projector, {"show": "reveal"}).content.decode()
    assert not AuditEntry.objects.filter(action=AuditAction.STANDINGS_REVEAL).exists()
    response = organizer_client.post(url)
    assert response["Location"] == f"{projector}?show=reveal"
    entry = AuditEntry.objects.get(tournament=world.tournament, action=AuditAction.STANDINGS_REVEAL)
    assert entry.user == world.organizer and entry.after == {"standings_revealed": True}
    world.tournament.refresh_from_db()
    assert not standings_hidden(world.tournament)
    page = Client().get(reverse("public:tournament", args=[world.tournament.pk])).content.decode()
    _rounds, lines = live_standings(world.tournament)
    assert totals_shown(page, lines)


def test_the_prize_giving_goes_from_the_last_prize_place_to_the_winner(world, organizer_client):
    tournament = world.tournament
    tournament.entry_fee_cents, tournament.payout_percent = 1000, 100
    tournament.prize_table = [50, 30, 20]
    tournament.goods_prizes = ["Hamper", "Wine", "Chocolate", "Cards"]
    tournament.save()
    hide(world)
    organizer_client.post(reverse("organizer:standings_reveal", args=[tournament.pk]))
    projector = reverse("public:projector", args=[tournament.pk])
    html = Client().get(projector, {"show": "reveal"}).content.decode()
    _rounds, lines = live_standings(tournament)
    places = [int(p) for p in re.findall(r'data-place="(\d+)"', html)]
    last = max(row.place for row in prize_list(tournament, lines).rows)
    ranks = sorted({line.row.rank for line in lines if line.row.rank <= last}, reverse=True)
    assert places == ranks and places[-1] == 1 and len(places) >= 2
    winner = next(line for line in lines if line.row.rank == 1)
    step = html.split('data-place="1"', 1)[1].split("</section>", 1)[0]
    assert winner.player.name in step and f"{winner.row.total} point" in step and "Hamper" in step
    assert winner.player.club_name in step
    # Then the full table: every player once.
    table = html.split('class="reveal-step reveal-table"', 1)[1]
    assert all(line.player.name in table for line in lines)
    assert '<script src="/static/js/reveal.js" defer></script>' in html and "<script>" not in html


def test_the_hall_projector_goes_to_the_prize_giving_once_revealed(world, organizer_client):
    hide(world)
    projector = reverse("public:projector", args=[world.tournament.pk])
    client = Client()
    poll = client.get(projector, {"show": "all"}, headers={"HX-Request": "true"})
    next_poll = re.search(r'hx-get="([^"]+)"', poll.content.decode()).group(1).replace("&amp;", "&")
    assert "hidden=1" in next_poll
    assert client.get(next_poll, headers={"HX-Request": "true"}).status_code == 200  # still hidden
    organizer_client.post(reverse("organizer:standings_reveal", args=[world.tournament.pk]))
    answer = client.get(next_poll, headers={"HX-Request": "true"})
    assert answer["HX-Redirect"] == f"{projector}?show=reveal"
    # A projector opened after the reveal rotates as usual, the standings with it.
    fresh = client.get(projector, {"show": "standings"}, headers={"HX-Request": "true"})
    assert "HX-Redirect" not in fresh and "hidden=1" not in fresh.content.decode()
    assert 'data-total="' in fresh.content.decode()
