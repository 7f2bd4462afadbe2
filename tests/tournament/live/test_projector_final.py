"""After the last round the projector says "Final standings", not "after round N"."""

from django.urls import reverse

from tests.factories import play_round
from tournament.rounds.services import round_close


def test_projector_says_final_standings_after_the_last_round(client, tournament, players, organizer):
    tournament.public = True
    tournament.rounds_total = 1
    tournament.save()
    url = reverse("public:projector", args=[tournament.pk])
    play_round(tournament, organizer, seed=1, close=False)
    assert b"Final standings" not in client.get(url, {"show": "standings"}).content
    round_close(round_=tournament.rounds.get(number=1), user=organizer)
    html = client.get(url, {"show": "standings"}).content.decode()
    assert "Final standings" in html and "Standings after round 1" not in html


def test_projector_says_after_round_n_while_rounds_remain(client, tournament, players, organizer):
    tournament.public = True
    tournament.save()
    play_round(tournament, organizer, seed=1)
    url = reverse("public:projector", args=[tournament.pk])
    html = client.get(url, {"show": "standings"}).content.decode()
    assert "Standings after round 1" in html and "Final standings" not in html
