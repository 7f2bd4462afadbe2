"""Create, edit, see and delete a tournament."""

import re

import pytest
from django.urls import reverse

from tests.factories import (
    RegistrationFactory,
    TournamentFactory,
    play_round,
    report_points,
    tournament_form_data,
)
from tests.tournament.test_i18n import german_catalogue  # noqa: F401  (fixture)
from tournament.models import AuditEntry, Player, Registration, Submission, Tournament
from tournament.results.services import result_submit
from tournament.rounds.selectors import Step
from tournament.rounds.services import round_close, round_publish, round_seat


def test_create_tournament_with_format_settings(organizer_client, organizer):
    page = organizer_client.get(reverse("organizer:tournament_create"))
    assert page.status_code == 200
    assert page.context["form"]["rounds_total"].value() == 6
    response = organizer_client.post(
        reverse("organizer:tournament_create"),
        tournament_form_data(
            rounds_total="5",
            scoring="winner",
            end_rule="threshold",
            threshold="500",
            time_limit_minutes="20",
            tiebreak_order="worst_round",
            public="on",
            require_second_entry="on",
            fill="larger",
        ),
    )
    tournament = Tournament.objects.get(name="Frühjahrsturnier")
    assert response.status_code == 302
    assert response["Location"] == reverse("organizer:players", args=[tournament.pk])
    assert list(tournament.organizers.all()) == [organizer]
    assert (tournament.rounds_total, tournament.scoring, tournament.end_rule, tournament.threshold) == (
        5,
        "winner",
        "threshold",
        500,
    )
    assert tournament.tiebreaks == ["worst_round"]
    assert tournament.time_limit_minutes == 20 and tournament.public and tournament.require_second_entry
    assert tournament.fill == "larger" and tournament.separate_clubs


def test_create_rejects_bad_table_sizes_and_missing_threshold(organizer_client):
    response = organizer_client.post(
        reverse("organizer:tournament_create"), tournament_form_data(table_min="5", end_rule="threshold")
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert form.errors["table_min"] == ["Table sizes must satisfy 2 ≤ smallest ≤ preferred ≤ largest ≤ 10."]
    assert "threshold" in form.errors and not form.non_field_errors()
    assert not Tournament.objects.exists()


def test_edit_saves_changes_with_audit(organizer_client, tournament):
    url = reverse("organizer:tournament_edit", args=[tournament.pk])
    page = organizer_client.get(url)
    assert page.context["form"]["tiebreak_order"].value() == "rounds_won,worst_round"
    response = organizer_client.post(
        url,
        tournament_form_data(name=tournament.name, rounds_total="4", tiebreak_order="worst_round,rounds_won"),
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.rounds_total == 4 and tournament.tiebreaks == ["worst_round", "rounds_won"]
    entry = AuditEntry.objects.get(tournament=tournament, action="tournament_update")
    assert entry.after["rounds_total"] == 4


def next_step(client, tournament) -> str:
    page = client.get(reverse("organizer:tournament", args=[tournament.pk]))
    return page.context["evening"].next_step


def test_the_overview_shows_the_next_step_from_the_first_player_to_the_prize_giving(
    organizer_client, organizer
):
    tournament = TournamentFactory(organizers=[organizer], rounds_total=2)
    assert next_step(organizer_client, tournament) == Step.ADD_PLAYERS
    players = [RegistrationFactory(tournament=tournament, start_number=n + 1, status="registered")
               for n in range(8)]
    assert next_step(organizer_client, tournament) == Step.CHECK_IN
    Registration.objects.filter(tournament=tournament).update(status=Registration.Status.CHECKED_IN)
    assert next_step(organizer_client, tournament) == Step.SEAT
    round_ = round_seat(tournament=tournament, user=organizer, seed=1)
    assert next_step(organizer_client, tournament) == Step.PUBLISH
    round_publish(round_=round_, user=organizer)
    assert next_step(organizer_client, tournament) == Step.RESULTS
    for table in round_.tables.all():
        result_submit(table=table, seats=report_points(table), source=Submission.Source.ORGANIZER,
                      user=organizer, confirm_warnings=True)
    assert next_step(organizer_client, tournament) == Step.CLOSE
    round_close(round_=round_, user=organizer)
    page = organizer_client.get(reverse("organizer:tournament", args=[tournament.pk])).content.decode()
    assert "Seat round 2" in page and 'data-step="seat"' in page
    play_round(tournament, organizer, seed=2)
    page = organizer_client.get(reverse("organizer:tournament", args=[tournament.pk])).content.decode()
    assert 'data-step="finish"' in page and reverse("organizer:finish", args=[tournament.pk]) in page
    assert len(players) == 8


def test_every_organizer_page_has_the_six_phases_and_marks_its_own(organizer_client, tournament, players):
    pages = {
        "organizer:tournament": "Overview", "organizer:players": "Preparation", "organizer:desk": "Admission",
        "organizer:rounds": "Rounds", "organizer:finish": "Finish", "organizer:audit": "Log",
        "organizer:prizes": "Preparation", "organizer:standings": "Rounds", "print:documents": "Finish",
    }
    for name, phase in pages.items():
        html = organizer_client.get(reverse(name, args=[tournament.pk])).content.decode()
        labels = re.findall(r'<ol class="phases">(.*?)</ol>', html, re.S)[0]
        assert re.findall(r">([^<]+)</a>", labels) == [
            "Overview", "Preparation", "Admission", "Rounds", "Finish", "Log"
        ]
        assert re.search(rf'class="active" aria-current="true">{phase}<', labels), name
        assert '<details class="phase-menu">' in html  # the phone's one menu


def test_delete_needs_the_name_and_keeps_players(organizer_client, tournament, players):
    url = reverse("organizer:tournament_delete", args=[tournament.pk])
    assert organizer_client.get(url).status_code == 200
    wrong = organizer_client.post(url, {"confirm_name": "wrong"})
    assert wrong.status_code == 400
    assert "Type the tournament&#x27;s name exactly to delete it." in wrong.content.decode()
    assert Tournament.objects.filter(pk=tournament.pk).exists()
    response = organizer_client.post(url, {"confirm_name": tournament.name})
    assert response.status_code == 302 and response["Location"] == reverse("home")
    assert not Tournament.objects.filter(pk=tournament.pk).exists()
    assert Player.objects.count() == 12


def test_plan_all_rounds_is_a_setting(organizer_client, tournament):
    response = organizer_client.post(
        reverse("organizer:tournament_edit", args=[tournament.pk]), tournament_form_data(plan_all_rounds="on")
    )
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.plan_all_rounds is True


def test_scoring_is_fixed_once_results_exist(organizer_client, organizer, tournament, players):
    play_round(tournament, organizer)
    response = organizer_client.post(
        reverse("organizer:tournament_edit", args=[tournament.pk]), tournament_form_data(scoring="winner")
    )
    assert response.status_code == 200
    assert "scoring cannot change" in response.content.decode()
    tournament.refresh_from_db()
    assert tournament.scoring == "minus"


def test_superuser_sees_private_tournaments_on_the_home_page(client, tournament):
    from tests.factories import UserFactory

    admin = UserFactory(username="boss", is_superuser=True, is_staff=True)
    client.force_login(admin)
    assert tournament in client.get(reverse("home")).context["tournaments"]


@pytest.mark.usefixtures("german_catalogue")
def test_settings_have_short_option_texts_and_the_explanation_as_help(organizer_client, tournament):
    """A select's closed box cuts what does not fit (about 30 characters at 360 px)."""
    url = reverse("organizer:tournament_edit", args=[tournament.pk])
    html = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    options = {
        name: re.findall(r"<option [^>]*>([^<]*)</option>", select)
        for name, select in re.findall(r'<select name="(\w+)"[^>]*>(.*?)</select>', html, re.S)
    }
    assert options == {
        "fill": ["kleineren Tischen", "größeren Tischen"],
        "scoring": ["Minuspunkte", "Sieger kassiert"],
        "end_rule": ["feste Rundenzahl", "bis zur Punktgrenze"],
        "missed_rounds": ["hinten eingereiht", "höchstes Ergebnis angerechnet"],
        "table_confirmation": ["aus", "zweiter Spieler bestätigt", "zweiter Spieler, zählt sofort"],
    }
    assert "Hinten eingereiht: hinter allen, die jede Runde gespielt haben." in html
    assert "Minuspunkte: Die niedrigste Summe gewinnt." in html
    # the tie-break orders are long: radio buttons in a fieldset, each text wraps
    legend = '<fieldset class="field radios" aria-describedby="id_tiebreak_order_helptext">\n  <legend>'
    assert legend + "Reihenfolge bei Gleichstand</legend>" in html
    orders = re.findall(r'<input type="radio" name="tiebreak_order" value="([\w,]+)"[^>]*?( checked)?>', html)
    assert orders == [("rounds_won,worst_round", " checked"), ("worst_round,rounds_won", ""),
                      ("rounds_won", ""), ("worst_round", "")]
    assert 'id="id_tiebreak_order_helptext">Wer danach noch gleichauf liegt' in html


def test_the_other_pages_keep_the_full_labels(organizer_client, tournament):
    html = organizer_client.get(reverse("organizer:tournament", args=[tournament.pk])).content.decode()
    assert "minus points (lowest total wins)" in html
    assert "ranked after all players who played every round" in html
