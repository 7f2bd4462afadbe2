"""A disputed table stays the organizer's until they resolve it (#51 items 3, 4 and 11).

A captain's correction keeps it among what needs the organizer, a second player's "Stimmt" cannot make
it count, and the organizer's confirmation or entry writes "dispute resolved" in the log. Every refusal
of a player's check says on the phone what happened, in the page's language. The organizer's
correction form starts from the newest version and shows the dispute's reason.
"""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from tests.tournament.conftest import numbers, report, report_data, use_mode
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry, Round, Submission, Table, TableConfirmation
from tournament.results.forms import ResultForm
from tournament.results.selectors import table_seats
from tournament.results.services import RefusalCode, result_confirm, result_player_check, result_submit

pytestmark = pytest.mark.django_db

CORRECTED = ("", "R7", "7 7 +4", "Y0")



def check(client, table, *, version=1, number, agrees=True, reason="", language="en"):
    return client.post(
        reverse("captain:check", args=[table.token]),
        {"version": version, "start_number": number, "agrees": "1" if agrees else "0", "reason": reason},
        HTTP_ACCEPT_LANGUAGE=language,
    )


def actions(table):
    return list(AuditEntry.objects.filter(table=table).order_by("id").values_list("action", flat=True))


@pytest.fixture
def disputed(client, table):
    """Table 1 in "… und das Ergebnis zählt", reported by the captain and disputed by Dora."""
    use_mode(table, TableConfirmation.PLAYER_COUNTS)
    report(client, table)
    disputing = check(client, table, number=numbers(table)[3], agrees=False, reason="Dora hatte R7")
    assert disputing.status_code == 303
    table.refresh_from_db()
    assert table.status == Table.Status.DISPUTED
    return table


def needs_you(client, organizer, table):
    client.force_login(organizer)
    url = reverse("organizer:round_status", args=[table.round.tournament.pk, 1])
    status = client.get(url).content.decode()
    client.logout()
    return status.split('id="needs-you"')[1].split('id="all-tables"')[0]


# --- item 3: the dispute stays the organizer's ----------------------------------------------------------


def test_a_captains_correction_keeps_the_table_disputed_service(disputed):
    table = Table.objects.select_related("round__tournament").get(pk=disputed.pk)
    seats = table_seats(table)
    form = ResultForm(report_data(table, key="v2", hands=CORRECTED), seats=seats)
    assert form.is_valid()
    outcome = result_submit(table=table, **form.report(), seated=seats, source=Submission.Source.CAPTAIN)
    assert outcome.stored and outcome.submission.version == 2
    table.refresh_from_db()
    assert table.status == Table.Status.DISPUTED
    with pytest.raises(ValidationError) as refused:
        result_player_check(table=table, version=2, start_number=numbers(table)[1], agrees=True)
    assert refused.value.code == RefusalCode.DISPUTED
    table.refresh_from_db()
    assert table.status == Table.Status.DISPUTED
    assert not Submission.objects.filter(table=table, confirmed=True).exists()


def test_a_correction_and_a_stimmt_over_http_leave_it_to_the_organizer(client, disputed, organizer):
    table = disputed
    report(client, table, key="v2", hands=CORRECTED)
    table.refresh_from_db()
    assert table.status == Table.Status.DISPUTED
    assert 'id="table-1"' in needs_you(client, organizer, table)
    phone = client.get(reverse("captain:table", args=[table.token])).content.decode()
    assert "Second player: please check" not in phone
    assert "The organizer will come to the table and decide" in phone
    response = check(client, table, version=2, number=numbers(table)[1])
    assert response.status_code == 409
    assert "This result is disputed: the organizer comes to the table" in response.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.DISPUTED
    assert Submission.objects.get(version=2).player_check == ""
    assert not Submission.objects.filter(table=table, confirmed=True).exists()
    assert AuditAction.DISPUTE_RESOLVE not in actions(table)


def test_the_organizers_confirmation_resolves_it_and_the_log_says_so(client, disputed, organizer):
    table = disputed
    newest = report(client, table, key="v2", hands=CORRECTED)
    result_confirm(submission=newest, user=organizer)
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    assert actions(table)[-2:] == [AuditAction.RESULT_CONFIRM, AuditAction.DISPUTE_RESOLVE]
    client.force_login(organizer)
    log = client.get(reverse("organizer:audit", args=[table.round.tournament.pk]),
                     HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Streitfall geklärt" in log


# --- item 4: every refusal of a check says what happened ------------------------------------------------


REFUSALS = {
    "round_closed": ("The round has been closed in the meantime", "Die Runde wurde inzwischen abgeschlossen"),
    "organizer_confirmed": ("The organizer has already confirmed this result",
                            "Die Turnierleitung hat dieses Ergebnis schon bestätigt"),
    "setting_off": ("This tournament has no confirmation at the table",
                    "Bei diesem Turnier wird nicht am Tisch bestätigt"),
    "lost_race": ("Another player of the table checked this result a moment before you",
                  "Ein anderer Spieler des Tisches hat dieses Ergebnis gerade eben geprüft"),
    "disputed": ("This result is disputed: the organizer comes to the table",
                 "Dieses Ergebnis ist strittig: Die Turnierleitung kommt an den Tisch"),
}


@pytest.mark.parametrize("language", ["en", "de"])
@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_refused_stimmt_says_why_on_the_phone(client, table, organizer, case, language):
    use_mode(table, TableConfirmation.PLAYER)
    submission = report(client, table)
    if case == "round_closed":
        Round.objects.filter(pk=table.round_id).update(status=Round.Status.CLOSED)
    elif case == "organizer_confirmed":
        result_confirm(submission=submission, user=organizer)
    elif case == "setting_off":
        use_mode(table, TableConfirmation.OFF)
    elif case == "lost_race":
        assert check(client, table, number=numbers(table)[2]).status_code == 303
    elif case == "disputed":
        check(client, table, number=numbers(table)[2], agrees=False, reason="falsch")
    response = check(client, table, number=numbers(table)[1], language=language)
    assert response.status_code == 409
    page = response.content.decode()
    english, german = REFUSALS[case]
    assert (english if language == "en" else german) in page
    assert 'class="message warning page-alert check-refused" role="alert"' in page
    stored = Submission.objects.get()
    if case in ("lost_race", "disputed"):
        assert stored.player_check_by.start_number == numbers(table)[2]  # the first one's check stays
    else:
        assert stored.player_check == ""


def test_a_refused_stimmt_sent_with_htmx_is_swapped_in(client, table, organizer):
    use_mode(table, TableConfirmation.PLAYER)
    result_confirm(submission=report(client, table), user=organizer)
    response = client.post(
        reverse("captain:check", args=[table.token]),
        {"version": 1, "start_number": numbers(table)[1], "agrees": "1"}, HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 409  # captain.js swaps 409 answers into the page
    assert "The organizer has already confirmed this result" in response.content.decode()


# --- item 11: the correction form of a disputed or reported table --------------------------------------


def test_correcting_a_disputed_table_starts_from_the_newest_version_with_the_reason(
    client, disputed, organizer
):
    table = disputed
    report(client, table, key="v2", hands=CORRECTED)
    client.force_login(organizer)
    url = reverse("organizer:table_result", args=[table.round.tournament.pk, 1, 1])
    page = client.get(url).content.decode()
    ids = list(table.seats.order_by("position").values_list("registration_id", flat=True))
    assert f'name="cards-{ids[1]}" id="id_cards-{ids[1]}" value="R7"' in page
    assert f'name="cards-{ids[3]}" id="id_cards-{ids[3]}" value="Y0"' in page
    assert "Dora hatte R7" in page and "was disputed at the table by no." in page
    # Saving the prefilled form unchanged resolves the dispute with that result.
    data = report_data(table, key="desk", hands=CORRECTED)
    client.post(reverse("organizer:table_result", args=[table.round.tournament.pk, 1, 1]), data)
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    assert AuditAction.DISPUTE_RESOLVE in actions(table)


def test_correcting_a_reported_table_starts_from_the_captains_report(client, table, organizer):
    report(client, table)
    client.force_login(organizer)
    url = reverse("organizer:table_result", args=[table.round.tournament.pk, 1, 1])
    page = client.get(url).content.decode()
    ids = list(table.seats.order_by("position").values_list("registration_id", flat=True))
    assert f'name="cards-{ids[2]}" id="id_cards-{ids[2]}" value="+4 7 7"' in page


def test_a_disputed_table_offers_no_one_click_confirmation(client, disputed, organizer):
    table = disputed
    client.force_login(organizer)
    url = reverse("organizer:round_status", args=[table.round.tournament.pk, 1])
    status = client.get(url).content.decode()
    card = status.split('id="table-1"')[1].split("</article>")[0]
    assert "Confirm result" not in card and "submission_confirm" not in card
    assert "Resolve the dispute" in card
