"""The audit log shows what a person reads, in the page's language: choice values by their labels,
players by start number and name, seatings as tables. Asserted on the rendered page, German and English."""

import html
import re

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, RegistrationFactory, RoundFactory, TableFactory
from tests.tournament.conftest import report_data
from tournament.audit.actions import AuditAction
from tournament.audit.display import NESTING, NO, YES, entry_changes
from tournament.audit.vocabulary import VOCABULARIES
from tournament.models import AuditEntry, Round, Submission
from tournament.results.forms import ResultForm
from tournament.results.services import result_confirm, result_submit
from tournament.rounds.services import round_close

pytestmark = pytest.mark.django_db


def page_text(client, tournament, language, **params):
    """The log's visible text, tags removed and spaces collapsed ("before → after" reads as one)."""
    response = client.get(
        reverse("organizer:audit", args=[tournament.pk]), params, HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    log = response.content.decode().split('<section id="audit-log">', 1)[1]
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", log)).split())


@pytest.fixture
def played(table, organizer):
    """Table 1 of round 1 reported by its captain (Dora went out), confirmed, the round closed: all by
    the services, so the log holds what they really record."""
    seats = list(table.seats.order_by("position"))
    form = ResultForm(report_data(table, winner=3, hands=("gelb 3, grün 7", "R7", "7 7 +4", "")), seats=seats)
    assert form.is_valid(), form.errors
    outcome = result_submit(table=table, user=None, source=Submission.Source.CAPTAIN, token=table.token,
                            **form.report())
    result_confirm(submission=outcome.submission, user=organizer)
    round_close(round_=Round.objects.get(pk=table.round_id), user=organizer)
    return {seat.position: seat.registration for seat in seats}


@pytest.mark.parametrize("language, words", [
    ("de", {"closed": "Ergebniseingabe offen → abgeschlossen", "source": "Quelle → Tischkapitän",
            "anna": "Nr. {anna} Anna Alt → Karten: Ge3 Gr7",
            "dora": "Nr. {dora} Dora Dorn → Karten auf der Hand: 0, Handwert: 0", "went_out": "raus: ✓",
            "who": "Tischkapitän, Tisch 1 Ergebnis gemeldet"}),
    ("en", {"closed": "results open → closed", "source": "source → table captain",
            "anna": "no. {anna} Anna Alt → cards: Y3 G7",
            "dora": "no. {dora} Dora Dorn → cards in hand: 0, hand value: 0", "went_out": "went out: ✓",
            "who": "captain, table 1 result submitted"}),
])
def test_a_played_round_reads_in_words(organizer_client, table, played, language, words):
    """The captain's name too: recorded in the phone's language, shown in the page's."""
    text = page_text(organizer_client, table.round.tournament, language)
    numbers = {"anna": played[1].start_number, "dora": played[4].start_number}
    for expected in words.values():
        assert expected.format(**numbers) in text
    assert not re.search(r"(?<!results )open → closed|→ captain\b", text)  # the stored codes
    assert ("no. " if language == "de" else "Nr. ") not in text


@pytest.fixture
def settings_changed(tournament, organizer):
    AuditEntry.objects.create(
        tournament=tournament, user=organizer, actor="orga", action=AuditAction.TOURNAMENT_UPDATE,
        before={"fill": "smaller", "scoring": "minus", "end_rule": "rounds", "tiebreaks": [],
                "public": False, "date": "2026-11-29"},
        after={"fill": "larger", "scoring": "winner", "end_rule": "threshold",
               "tiebreaks": ["worst_round", "rounds_won"], "public": True, "date": "2026-12-06"},
    )
    AuditEntry.objects.create(
        tournament=tournament, user=organizer, actor="orga", action=AuditAction.TOURNAMENT_CREATE,
        after={"name": "Herbstturnier", "deck": "classic", "missed_rounds": "after"},
    )


@pytest.mark.parametrize("language, expected", [
    ("de", ["auffüllen mit kleineren Tischen → größeren Tischen",
            "Wertung Minuspunkte (wenigste gewinnen) → Sieger kassiert (meiste gewinnen)",
            "Turnierende feste Rundenzahl → bis ein Gesamtstand die Grenze erreicht",
            "Reihenfolge bei Gleichstand → Schlechteste Runde, dann Gewonnene Runden",
            f"öffentliche Seite eingeschaltet {NO} → {YES}", "Datum 29.11.2026 → 06.12.2026",
            "Kartenspiel → UNO klassisch (108 Karten)",
            "verpasste Runden → hinter allen, die jede Runde gespielt haben"]),
    ("en", ["fill with tables one smaller → tables one larger",
            "scoring minus points (lowest total wins) → winner collects (highest total wins)",
            "end fixed number of rounds → until a total reaches the threshold",
            "tie-break order → Worst round, then Rounds won", "deck → UNO classic (108 cards)",
            "missed rounds → ranked after all players who played every round"]),
])
def test_settings_show_the_choices_labels(organizer_client, tournament, settings_changed, language, expected):
    text = page_text(organizer_client, tournament, language)
    for words in expected:
        assert words in text
    for code in ("smaller → larger", "minus → winner", "rounds → threshold", "worst_round", "→ classic",
                 "→ after"):
        assert code not in text


@pytest.fixture
def seated(tournament, organizer):
    """Four registered players and the seatings the services record: drawn, swapped, planned (ids)."""
    regs = {
        number: RegistrationFactory(
            tournament=tournament, start_number=number, player=PlayerFactory(first_name=first, last_name=last)
        )
        for number, first, last in [(3, "Anna", "Müller"), (7, "Ben", "Berg"), (12, "Cem", "Cakir"),
                                    (15, "Dora", "Dorn")]
    }
    round_ = RoundFactory(tournament=tournament, number=1)
    AuditEntry.objects.create(
        tournament=tournament, round=round_, actor="orga", action=AuditAction.ROUND_SEAT,
        after={"seed": 42, "tables": [[3, 7], [12, 15]]},
    )
    AuditEntry.objects.create(
        tournament=tournament, round=round_, actor="orga", action=AuditAction.ROUND_SWAP,
        before=[[3, 7], [12, 15]], after=[[3, 7], [15, 12]],
    )
    AuditEntry.objects.create(
        tournament=tournament, actor="orga", action=AuditAction.SEATING_PLAN,
        after={"players": sorted(reg.pk for reg in regs.values()), "sizes": [2, 2], "seed": 5,
               "rounds": {"2": [[regs[15].pk, regs[3].pk], [regs[7].pk, regs[12].pk]]}},
    )
    AuditEntry.objects.create(
        tournament=tournament, actor="orga", action=AuditAction.CHECK_IN,
        before={"start_number": 7, "name": "Ben Berg", "status": "registered"},
        after={"start_number": 7, "name": "Ben Berg", "status": "checked_in"},
    )
    return regs


@pytest.mark.parametrize("language, expected", [
    ("de", ["Startwert der Auslosung → 42", "Tische → Tisch 1: 3, 7 | Tisch 2: 12, 15",
            f"Tische{NESTING}Tisch 2 12, 15 → 15, 12", "Runde 2 → Tisch 1: 15, 3 | Tisch 2: 7, 12",
            "Tischgrößen → 2, 2", "Spieler → 3, 7, 12, 15",
            "Nr. 7 Ben Berg Status angemeldet → eingecheckt"]),
    ("en", ["seating seed → 42", "tables → Table 1: 3, 7 | Table 2: 12, 15",
            f"tables{NESTING}Table 2 12, 15 → 15, 12", "Round 2 → Table 1: 15, 3 | Table 2: 7, 12",
            "no. 7 Ben Berg status registered → checked in"]),
])
def test_seatings_read_as_tables_of_start_numbers(organizer_client, tournament, seated, language, expected):
    text = page_text(organizer_client, tournament, language)
    for words in expected:
        assert words in text
    # The swap left table 1 alone: only the changed table is listed.
    assert f"{NESTING}{'Tisch' if language == 'de' else 'Table'} 1 " not in text


@pytest.mark.parametrize("language, expected", [
    ("de", ["Status keine Uhr → läuft", "Restzeit → 20:00", "Betrag → 5,00 €",
            "Zahlungsart → Überweisung"]),
    ("en", ["status no clock → running", "time left → 20:00", "amount → 5.00 €",
            "payment method → transfer"]),
])
def test_clock_and_payment_values_in_words(organizer_client, tournament, language, expected):
    round_ = RoundFactory(tournament=tournament, number=1)
    AuditEntry.objects.create(
        tournament=tournament, round=round_, actor="orga", action=AuditAction.CLOCK_START,
        before={"status": "none", "remaining": None, "seconds": None},
        after={"status": "running", "remaining": 1200, "seconds": 1200},
    )
    AuditEntry.objects.create(tournament=tournament, actor="orga", action=AuditAction.PAYMENT,
                              after={"name": "Anna Müller", "amount_cents": 500, "method": "transfer"})
    text = page_text(organizer_client, tournament, language)
    for words in expected:
        assert words in text
    assert "Anna Müller" in text


def test_every_action_has_a_vocabulary():
    """A new action must say which model's fields its snapshots hold, or its values stay codes."""
    assert set(AuditAction.values) == set(VOCABULARIES)


def test_names_are_read_once_for_the_page(organizer_client, tournament, django_assert_num_queries):
    """Per-player lines name their players from one query, however many lines and players there are."""
    round_ = RoundFactory(tournament=tournament, number=1)
    url = reverse("organizer:audit", args=[tournament.pk])

    def add_results(first_table: int, count: int) -> None:
        for number in range(first_table, first_table + count):
            table = TableFactory(round=round_, number=number)
            regs = [RegistrationFactory(tournament=tournament) for _ in range(4)]
            AuditEntry.objects.create(
                tournament=tournament, round=round_, table=table, actor="x", action=AuditAction.RESULT_SUBMIT,
                after={"version": 1, "source": "captain", "entries": [
                    {"start_number": reg.start_number, "hand_points": 5, "score": 5, "went_out": False}
                    for reg in regs
                ]},
            )

    add_results(1, 2)
    organizer_client.get(url)  # session and user loaded once; the counted runs are the steady state
    with django_assert_num_queries(8):
        organizer_client.get(url)
    add_results(3, 20)
    with django_assert_num_queries(8):
        response = organizer_client.get(url)
    text = response.content.decode()
    last = tournament.registrations.order_by("-start_number").select_related("player").first()
    assert f"no. {last.start_number} {last.player.name}" in text


@pytest.mark.parametrize("action", AuditAction.values)
def test_odd_snapshots_of_a_restored_backup_are_shown_not_errors(action):
    """A backup's log may hold shapes no service writes today: shown as they are, never a 500."""
    odd = {"tiebreaks": [[1], "rounds_won"], "status": ["x"], "rounds": {"x": [[1]], "2": "?"},
           "entries": [{"start_number": [1], "cards": 5}], "prize_overrides": {"a": 1, "3": "x"},
           "date": "not a date", "seconds": -5, "tables": [[1, 2]], "nested": {"a": {"b": None}}}
    for before, after in ((None, odd), (odd, {}), ("x", [1, "y"]), (odd, odd | {"tables": [[2, 1]]})):
        changes = entry_changes(action, before, after)
        assert all(isinstance(c.before, str) and isinstance(c.after, str) for c in changes)
