"""The Rounds page with plan-all-rounds: the plan button, the plan's figures, the out-of-date note."""

from collections import Counter
from itertools import combinations

import pytest
from django.urls import reverse

from tests.factories import RegistrationFactory, UserFactory, play_round
from tournament.models import Registration, SeatingPlan
from tournament.players.services import registration_check_in, registration_withdraw
from tournament.rounds.selectors import seating_plan
from tournament.rounds.services import seating_plan_create

PLAN_BUTTON = "Plan all rounds now"
OUT_OF_DATE = "will be re-planned from the existing plan when the next round is seated"


@pytest.fixture
def planned(tournament, players):
    tournament.plan_all_rounds = True
    tournament.save()
    return tournament


def rounds_page(client, tournament):
    response = client.get(reverse("organizer:rounds", args=[tournament.pk]))
    assert response.status_code == 200
    return response


def repeat_meetings(rounds):
    """Meetings beyond the first of every pair, counted by hand (not by the engine)."""
    met = Counter(pair for tables in rounds for table in tables for pair in combinations(sorted(table), 2))
    return sum(times - 1 for times in met.values())


def test_nothing_changes_without_the_plan_option(organizer_client, tournament, players):
    response = rounds_page(organizer_client, tournament)
    html = response.content.decode()
    assert PLAN_BUTTON not in html and "Seating plan for all rounds" not in html
    assert "plan" not in response.context


def test_plan_button_plans_every_round_and_the_page_sums_it_up(organizer_client, planned, players):
    html = rounds_page(organizer_client, planned).content.decode()
    assert PLAN_BUTTON in html and "No plan yet." in html
    assert reverse("organizer:seating_plan", args=[planned.pk]) in html
    response = organizer_client.post(reverse("organizer:seating_plan", args=[planned.pk]))
    assert response["Location"] == reverse("organizer:rounds", args=[planned.pk])
    plan = seating_plan(planned)
    assert sorted(plan.numbered_rounds()) == [1, 2, 3, 4, 5, 6]
    assert list(plan.players) == sorted(reg.pk for reg in players)

    response = rounds_page(organizer_client, planned)
    summary = response.context["plan"]
    expected_repeats = repeat_meetings(plan.numbered_rounds().values())
    assert summary.rounds == [1, 2, 3, 4, 5, 6] and summary.players == 12
    # Twelve players meet 3 others in each of 6 rounds: 18 meetings with 11 people force repeats.
    assert summary.report.repeated_pairs == expected_repeats >= 12 * 7 // 2
    assert summary.report.small_table_spread == 0  # 12 players: tables of four only
    assert not summary.out_of_date
    html = response.content.decode()
    assert "<b>1\u20136</b>rounds planned" in html
    assert "<b>12</b>players" in html
    assert f">{expected_repeats}</b>repeat meetings" in html
    assert "<b>0</b>small-table spread" in html
    assert OUT_OF_DATE not in html
    assert reverse("print:start_cards", args=[planned.pk]) in html
    assert "Rounds 1 to 6 planned for 12 players" in html


def test_summary_counts_repeats_from_round_one_after_rounds_were_played(organizer_client, planned, organizer):
    first = play_round(planned, organizer, seed=3)
    seating_plan_create(tournament=planned, user=organizer, seed=4)
    plan = seating_plan(planned).numbered_rounds()
    assert sorted(plan) == [2, 3, 4, 5, 6]
    played = [[list(t.seats.order_by("position").values_list("registration_id", flat=True))
               for t in first.tables.order_by("number")]]
    summary = rounds_page(organizer_client, planned).context["plan"]
    assert summary.rounds == [2, 3, 4, 5, 6]
    assert summary.report.repeated_pairs == repeat_meetings([*played, *plan.values()])


def test_out_of_date_note_when_the_checked_in_players_change(organizer_client, planned, players, organizer):
    seating_plan_create(tournament=planned, user=organizer, seed=1)
    late = RegistrationFactory(tournament=planned, start_number=13, status=Registration.Status.REGISTERED)
    assert OUT_OF_DATE not in rounds_page(organizer_client, planned).content.decode()

    registration_check_in(registration=late, user=organizer)
    registration_withdraw(registration=players[0], user=organizer)
    response = rounds_page(organizer_client, planned)
    summary = response.context["plan"]
    assert (summary.arrived, summary.left, summary.out_of_date) == (1, 1, True)
    html = response.content.decode()
    assert OUT_OF_DATE in html
    assert "1 player checked in since planning" in html and "1 planned player no longer checked in" in html


def test_no_plan_button_once_every_round_is_played(organizer_client, planned, organizer):
    planned.rounds_total = 1
    planned.save()
    play_round(planned, organizer, seed=2)
    html = rounds_page(organizer_client, planned).content.decode()
    assert PLAN_BUTTON not in html and "Seating plan for all rounds" in html
    response = organizer_client.post(reverse("organizer:seating_plan", args=[planned.pk]), follow=True)
    assert "All rounds have been played." in response.content.decode()


def test_too_few_players_to_plan_is_reported(organizer_client, tournament, organizer):
    tournament.plan_all_rounds = True
    tournament.save()
    RegistrationFactory(tournament=tournament, start_number=1)
    response = organizer_client.post(reverse("organizer:seating_plan", args=[tournament.pk]), follow=True)
    assert seating_plan(tournament) is None
    assert "cannot be seated" in response.content.decode()


def test_only_the_tournaments_organizers_may_plan(client, planned):
    url = reverse("organizer:seating_plan", args=[planned.pk])
    client.force_login(UserFactory(username="someone-else"))
    assert client.post(url).status_code == 403
    assert not SeatingPlan.objects.filter(tournament=planned).exists()
    assert client.get(url).status_code in (403, 405)
