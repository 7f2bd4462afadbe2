"""The prize-giving's step is the evening's, on the server: one POST from the organizer's page moves
every projector (#51 item 18)."""

from __future__ import annotations

import re

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory, play_round
from tournament.audit.actions import AuditAction
from tournament.live.selectors import reveal
from tournament.models import AuditEntry
from tournament.tournaments.services import reveal_step_set, standings_reveal

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament, players, organizer):
    """Twelve players, two rounds played, the second in silence."""
    tournament.public, tournament.rounds_total, tournament.standings_hidden_from = True, 2, 2
    tournament.save()
    play_round(tournament, organizer, seed=1)
    play_round(tournament, organizer, seed=2)
    return tournament


@pytest.fixture
def revealed(played, organizer):
    standings_reveal(tournament=played, user=organizer)
    played.refresh_from_db()
    return played


def shown_step(client: Client, tournament) -> tuple[str, str]:
    """(the visible section's place or kind, the counter) of a projector's reveal page."""
    html = client.get(reverse("public:projector", args=[tournament.pk]), {"show": "reveal"}).content.decode()
    visible = [s for s in re.findall(r"<section ([^>]*)>", html) if " hidden" not in s]
    assert len(visible) == 1, visible
    place = re.search(r'data-place="(\d+)"', visible[0])
    kind = f"place {place.group(1)}" if place else ("start" if "reveal-start" in visible[0] else "table")
    counter = re.search(r"data-reveal-count>([^<]*)<", html).group(1)
    return kind, counter


def test_one_post_moves_every_projector(revealed, organizer_client):
    first, second = Client(), Client()  # two screens in the hall, nobody logged in
    plan = reveal(revealed)
    assert plan.count >= 4 and plan.current == 0
    assert shown_step(first, revealed) == shown_step(second, revealed) == ("start", f"1 / {plan.count}")

    url = reverse("organizer:reveal_step", args=[revealed.pk])
    response = organizer_client.post(url, {"step": 1, "page": "finish"})
    assert response.status_code == 302 and response["Location"].startswith(
        reverse("organizer:finish", args=[revealed.pk])
    )
    last_prize = f"place {plan.steps[0].place}"
    assert shown_step(first, revealed) == shown_step(second, revealed) == (last_prize, f"2 / {plan.count}")
    # The projector's poll reads the same step.
    state = first.get(reverse("public:projector", args=[revealed.pk]), {"show": "reveal", "state": "1"})
    assert state.json() == {"step": 1, "count": plan.count}

    # A double tap lands on the same step, it does not skip a place; the step is audited once.
    organizer_client.post(url, {"step": 2})
    organizer_client.post(url, {"step": 2})
    assert shown_step(second, revealed)[0] == f"place {plan.steps[1].place}"
    entries = AuditEntry.objects.filter(tournament=revealed, action=AuditAction.REVEAL_STEP)
    assert [(e.before, e.after) for e in entries.order_by("pk")] == [
        ({"reveal_step": 0}, {"reveal_step": 1}), ({"reveal_step": 1}, {"reveal_step": 2}),
    ]


def test_the_organizers_page_offers_the_next_step(revealed, organizer_client):
    page = organizer_client.get(reverse("organizer:standings", args=[revealed.pk])).content.decode()
    assert f"Every projector shows step 1 of {reveal(revealed).count}" in page
    assert 'name="step" value="1"' in page and reverse("organizer:reveal_step", args=[revealed.pk]) in page


def test_the_projectors_clicker_moves_the_step_for_everybody(revealed, organizer_client):
    """An organizer's screen posts as the page's script does (HX-Request) and gets the step back."""
    url = reverse("organizer:reveal_step", args=[revealed.pk])
    answer = organizer_client.post(url, {"step": 3}, headers={"HX-Request": "true"})
    assert answer.json() == {"step": 3}
    assert Client().get(reverse("public:projector", args=[revealed.pk]),
                        {"show": "reveal", "state": "1"}).json()["step"] == 3


def test_nobody_else_moves_it_and_no_step_beyond_the_end(revealed, organizer_client):
    url = reverse("organizer:reveal_step", args=[revealed.pk])
    assert Client().post(url, {"step": 1}).status_code == 302  # to the login
    with pytest.raises(PermissionDenied):
        reveal_step_set(tournament=revealed, user=UserFactory(username="stranger"), step=1)
    count = reveal(revealed).count
    with pytest.raises(ValidationError) as error:
        reveal_step_set(tournament=revealed, user=revealed.organizers.first(), step=count)
    assert error.value.code == "no_such_step"
    assert organizer_client.post(url, {"step": count}, headers={"HX-Request": "true"}).status_code == 400
    revealed.refresh_from_db()
    assert revealed.reveal_step == 0


def test_revealing_starts_the_hall_at_the_opening(played, organizer):
    """A rehearsal's step before the reveal does not skip the hall's opening."""
    tournament = played
    reveal_step_set(tournament=tournament, user=organizer, step=2)
    assert Client().get(reverse("public:projector", args=[tournament.pk]),
                        {"show": "reveal", "state": "1"}).get("Content-Type") != "application/json"
    standings_reveal(tournament=tournament, user=organizer)
    tournament.refresh_from_db()
    assert tournament.reveal_step == 0
