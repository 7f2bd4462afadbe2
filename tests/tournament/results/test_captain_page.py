"""The captain's page: showing the table, submitting, keeping what was typed, read-only after confirmation."""

import datetime
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from engine.notation import hand_value, parse_hand
from engine.roles import table_roles
from tests.factories import PlayerFactory, RegistrationFactory, SeatFactory, TableFactory
from tests.tournament.conftest import report_data, seat_ids
from tests.tournament.test_i18n import german_catalogue  # noqa: F401  (fixture)
from tournament.models import Round, Submission, Table
from tournament.results.forms import ResultForm
from tournament.results.services import result_confirm, result_submit

pytestmark = pytest.mark.django_db


def url(table):
    return reverse("captain:table", args=[table.token])


def test_page_shows_players_in_playing_order_with_dealer_and_starter(client, table):
    response = client.get(url(table))
    assert response.status_code == 200
    html = response.content.decode()
    names = ["Anna Alt", "Ben Berg", "Cem Cakir", "Dora Dorn"]
    positions = [html.index(name) for name in names]
    assert positions == sorted(positions)
    rows = response.context["rows"]
    assert [(r.player.first_name, r.deals, r.starts) for r in rows] == [
        ("Anna", True, False),
        ("Ben", False, False),
        ("Cem", False, False),
        ("Dora", False, True),
    ]
    assert 'name="csrfmiddlewaretoken"' in html
    assert response["Referrer-Policy"] == "no-referrer"
    assert "no-store" in response["Cache-Control"]


def dealer_and_starter(born):
    roles = table_roles(born)
    return roles.dealer, roles.starter


def test_dealer_and_starter_left_to_the_table_when_unknown_or_equal():
    assert dealer_and_starter({1: (1950, 0, 0), 2: (1960, 0, 0), 3: (1970, 5, 1)}) == (1, 3)
    assert dealer_and_starter({1: None, 2: (1960, 0, 0)}) == (None, None)
    assert dealer_and_starter({1: (1960, 0, 0), 2: (1960, 4, 2), 3: (1990, 0, 0)}) == (None, 3)
    assert dealer_and_starter({1: (1960, 4, 2), 2: (1960, 4, 3)}) == (1, 2)
    assert dealer_and_starter({1: (1960, 4, 2), 2: (1960, 4, 2)}) == (None, None)


def test_valid_report_is_stored_with_link_and_address(client, table):
    response = client.post(url(table), report_data(table), REMOTE_ADDR="10.0.0.7")
    assert response.status_code == 303
    assert response["Location"] == url(table) + "?sent=1"
    submission = Submission.objects.get(table=table)
    assert (submission.version, submission.source, submission.token, submission.ip_address) == (
        1,
        "captain",
        table.token,
        "10.0.0.7",
    )
    points = {e.registration_id: e.hand_points for e in submission.entries.all()}
    ids = seat_ids(table)
    assert [points[i] for i in ids] == [0, 77, 64, 0]
    table.refresh_from_db()
    assert table.status == Table.Status.REPORTED
    page = client.get(response["Location"])
    assert "waiting for the organizer" in page.content.decode()
    assert page.context["reported"] == submission
    assert page.context["confirmed"] is None


def test_repeated_post_with_same_key_is_stored_once(client, table):
    data = report_data(table, key="same-key")
    first = client.post(url(table), data)
    second = client.post(url(table), data)
    assert first.status_code == second.status_code == 303
    assert Submission.objects.filter(table=table).count() == 1


def test_invalid_report_shows_error_next_to_player_and_keeps_everything(client, table):
    data = report_data(table, hands=("", "R7 Rev W", "7 7 Kuh", "Y0"))
    response = client.post(url(table), data)
    assert response.status_code == 200
    assert not Submission.objects.exists()
    rows = response.context["rows"]
    assert rows[2].errors == ["Cem Cakir: the card Kuh is unknown."]
    assert [r.errors for r in rows if r is not rows[2]] == [[], [], []]
    html = response.content.decode()
    assert 'value="7 7 Kuh"' in html and 'value="R7 Rev W"' in html
    assert f'value="{data["idempotency_key"]}"' in html
    assert f'value="{seat_ids(table)[0]}" checked' in html


def test_error_messages_follow_the_captains_language(client, table):
    data = report_data(table, hands=("", "R7", "", "Y0"))
    response = client.post(url(table), data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["rows"][2].errors == ["Cem Cakir: enter the cards or the points left in hand."]
    assert response.context["LANGUAGE_CODE"] == "en"


def test_points_only_report(client, table):
    ids = seat_ids(table)
    data = {
        "idempotency_key": "p1",
        "outcome": str(ids[1]),
        f"points-{ids[0]}": "30",
        f"count-{ids[0]}": "3",
        f"points-{ids[2]}": "12",
        f"cards-{ids[3]}": "R5 G7",
    }
    assert client.post(url(table), data).status_code == 303
    entries = {e.registration_id: e for e in Submission.objects.get().entries.all()}
    assert (entries[ids[0]].hand_points, entries[ids[0]].card_count) == (30, 3)
    assert entries[ids[1]].went_out and entries[ids[3]].cards == "R5 G7"


def test_warning_needs_explicit_confirmation(client, table):
    big = "W W W W +4 +4 +4 +4 " + " ".join(["9"] * 8) + " " + " ".join(["8"] * 8) + " " + " ".join(["7"] * 6)
    data = report_data(table, hands=("", big, "R1", "Y0"), key="w1")
    response = client.post(url(table), data)
    assert response.status_code == 200
    assert response.context["needs_confirmation"]
    assert response.context["rows"][1].warnings
    assert 'name="confirm_warnings"' in response.content.decode()
    assert not Submission.objects.exists()
    data["confirm_warnings"] = "1"
    assert client.post(url(table), data).status_code == 303
    assert Submission.objects.get().warnings_confirmed


def test_htmx_post_returns_the_page_partial(client, table):
    response = client.post(url(table), report_data(table), HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="captain-page"')
    assert "<html" not in html
    assert "waiting for the organizer" in html


def test_published_round_keeps_the_report_until_results_open(client, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.PUBLISHED)
    data = report_data(table, key="early")
    response = client.post(url(table), data)
    assert response.status_code == 409
    assert not Submission.objects.exists()
    assert 'value="R7 Rev W"' in response.content.decode()


def test_confirmed_result_is_read_only_for_the_captain(client, table, organizer):
    client.post(url(table), report_data(table, key="a"))
    result_confirm(submission=Submission.objects.get(), user=organizer)
    page = client.get(url(table))
    html = page.content.decode()
    assert page.context["read_only"] and page.context["confirmed"]
    assert "Confirmed result" in html or "Bestätigt" in html
    assert '<form method="post" action="/t/' not in html
    refused = client.post(url(table), report_data(table, key="b", hands=("", "R1", "R2", "R3")))
    assert refused.status_code == 403
    assert Submission.objects.count() == 1


def test_correction_starts_from_the_last_report(client, table):
    client.post(url(table), report_data(table, key="a"))
    page = client.get(url(table))
    form = page.context["form"]
    ids = seat_ids(table)
    assert form.outcome_value == str(ids[0])
    assert [row.cards.value() for row in page.context["rows"][1:]] == ["R7 W Rev", "+4 7 7", "Y0"]
    assert form.key != "a"
    data = report_data(table, key=form.key, hands=("", "R7 Rev", "7 7 +4", "Y0"))
    assert client.post(url(table), data).status_code == 303
    assert list(Submission.objects.order_by("version").values_list("version", flat=True)) == [1, 2]


def test_captain_does_not_see_the_organizers_independent_entry(client, table, organizer):
    table.round.tournament.require_second_entry = True
    table.round.tournament.save()
    ids = seat_ids(table)
    from engine.validation import SeatReport

    result_submit(
        table=table,
        source=Submission.Source.ORGANIZER,
        user=organizer,
        seats=[
            SeatReport(ids[0], went_out=True),
            *(SeatReport(i, points="5", card_count="1") for i in ids[1:]),
        ],
    )
    page = client.get(url(table))
    assert page.context["shown"] is None
    assert "Anna" in page.content.decode() and 'value="5"' not in page.content.decode()


def test_form_from_points_submission(table, organizer):
    from engine.validation import SeatReport

    ids = seat_ids(table)
    outcome = result_submit(
        table=table,
        source=Submission.Source.CAPTAIN,
        seats=[
            SeatReport(ids[0], went_out=True),
            SeatReport(ids[1], points="30", card_count="2"),
            SeatReport(ids[2], cards="r7"),
            SeatReport(ids[3], points="4"),
        ],
    )
    seats = list(table.seats.order_by("position"))
    form = ResultForm.for_correction(seats=seats, submission=outcome.submission)
    rows = {row.registration_id: row for row in form.rows()[0]}
    assert (rows[ids[1]].points.value(), rows[ids[1]].count.value()) == ("30", "2")
    assert rows[ids[2]].cards.value() == "R7"
    assert (rows[ids[3]].points.value(), rows[ids[3]].count.value() or "") == ("4", "")
    assert rows[ids[0]].went_out


def test_time_limit_option_only_where_the_tournament_uses_one(client, table):
    assert 'value="time"' not in client.get(url(table)).content.decode()
    table.round.tournament.time_limit_minutes = 30
    table.round.tournament.save()
    data = report_data(table, hands=("R1", "R7 Rev W", "7 7 +4", "Y0"), outcome="time")
    # While the round clock has not run out, the server refuses "stopped by the time limit".
    assert 'value="time"' not in client.get(url(table)).content.decode()
    refused = client.post(url(table), data)
    assert refused.status_code == 200 and "round clock has not run out" in refused.content.decode()
    assert not Submission.objects.exists()
    table.round.clock_started_at = timezone.now() - datetime.timedelta(minutes=31)
    table.round.clock_seconds = 30 * 60
    table.round.save()
    assert 'value="time"' in client.get(url(table)).content.decode()
    assert client.post(url(table), data).status_code == 303
    assert Submission.objects.get().stopped_by_time


def test_poll_reloads_only_when_something_changed(client, table, organizer):
    page = client.get(url(table))
    fingerprint = page.context["fingerprint"]
    unchanged = client.get(url(table), {"since": fingerprint}, HTTP_HX_REQUEST="true")
    assert unchanged.status_code == 204 and "HX-Refresh" not in unchanged
    client.post(url(table), report_data(table))
    changed = client.get(url(table), {"since": fingerprint}, HTTP_HX_REQUEST="true")
    assert changed.status_code == 204 and changed["HX-Refresh"] == "true"


def test_table_of_two_with_same_birth_year_leaves_roles_open(client, open_round):
    table2 = TableFactory(round=open_round, number=5)
    for position in (1, 2):
        reg = RegistrationFactory(
            tournament=open_round.tournament,
            player=PlayerFactory(
                birth_year=1980, birth_date=None if position == 1 else datetime.date(1980, 2, 2)
            ),
        )
        SeatFactory(table=table2, round=open_round, registration=reg, position=position)
    rows = client.get(url(table2)).context["rows"]
    assert [(r.deals, r.starts) for r in rows] == [(False, False), (False, False)]


def test_service_refuses_a_captain_report_after_confirmation(table, organizer):
    from django.core.exceptions import ValidationError

    from engine.validation import SeatReport

    ids = seat_ids(table)
    seats = [
        SeatReport(ids[0], went_out=True),
        *(SeatReport(i, cards=f"G{n}") for n, i in enumerate(ids[1:], start=1)),
    ]
    first = result_submit(table=table, seats=seats, source=Submission.Source.CAPTAIN)
    result_confirm(submission=first.submission, user=organizer)
    with pytest.raises(ValidationError):
        result_submit(
            table=table, seats=seats, source=Submission.Source.CAPTAIN, idempotency_key="n"
        )
    organizer_fix = result_submit(
        table=table, seats=seats, source=Submission.Source.ORGANIZER, user=organizer
    )
    assert organizer_fix.submission.version == 2 and organizer_fix.submission.confirmed


# The running total: the phone asks the server, which reads the hand with engine.notation.
HAND_EXAMPLES = [
    ("wild 4", 50, 1),  # one Wild Draw Four
    ("W, 4", 54, 2),  # a Wild and a four
    ("rot 7, grün zieh 2, Joker", 77, 3),
    ("2x7 R+2", 34, 3),
    ("108x 1", 108, 108),  # the largest count the notation reads (a whole deck)
    ("0012 x 1", 12, 12),  # four digits, as the server reads them (the phone once stopped at three)
]


@pytest.mark.parametrize(("typed", "points", "cards"), HAND_EXAMPLES)
def test_running_total_is_the_engines_reading(client, table, typed, points, cards):
    response = client.get(reverse("captain:hand", args=[table.token]), {"cards": typed})
    assert response.status_code == 200 and response["Referrer-Policy"] == "no-referrer"
    html = response.content.decode()
    assert f"{points} points · {cards} card" in html
    assert hand_value(parse_hand(typed)) == points and len(parse_hand(typed)) == cards
    assert html.count('class="chip ') == cards


def test_running_total_names_what_it_cannot_read_and_chips_remove_one_card(client, table):
    hand_url = reverse("captain:hand", args=[table.token])
    unknown = client.get(hand_url, {"cards": "R7 Kuh"}).content.decode()
    assert "? (checked when sent)" in unknown and "Kuh" in unknown and "points" not in unknown
    too_many = client.get(hand_url, {"cards": "109x R7"}).content.decode()
    assert "? (checked when sent)" in too_many and "points" not in too_many
    chips = client.get(hand_url, {"cards": "R7 Rev W 9"}).content.decode()
    assert 'data-without="R7 Rev W"' in chips and 'data-without="Rev W 9"' in chips  # typed order kept


def test_running_total_of_an_unknown_link_is_not_found(client):
    assert client.get(reverse("captain:hand", args=["no-such-link"]), {"cards": "R7"}).status_code == 404


# Counts read as German grammar wants: "1 Karte", "2 Karten" (Django's plural forms, never "1 Karten").
@pytest.mark.parametrize(
    ("typed", "language", "total"),
    [
        ("1", "en", "1 point · 1 card"),
        ("R1 R0", "en", "1 point · 2 cards"),
        ("1", "de", "1 Punkt · 1 Karte"),
        ("R7 R8", "de", "15 Punkte · 2 Karten"),
        ("W", "de", "50 Punkte · 1 Karte"),
    ],
)
@pytest.mark.usefixtures("german_catalogue")
def test_running_total_counts_in_the_right_number(client, table, typed, language, total):
    response = client.get(
        reverse("captain:hand", args=[table.token]), {"cards": typed}, HTTP_ACCEPT_LANGUAGE=language
    )
    assert f'<div class="total">{total}</div>' in response.content.decode()


@pytest.mark.usefixtures("german_catalogue")
def test_a_card_count_in_an_error_is_singular_for_one_card(client, table):
    ids = seat_ids(table)
    data = report_data(table, hands=("", "R7", "7 7 +4", "Y0")) | {f"count-{ids[1]}": "2"}
    german = client.post(url(table), data, HTTP_ACCEPT_LANGUAGE="de")
    assert german.context["rows"][1].errors == [
        "Ben Berg: Eingetragen ist 1 Karte, als Kartenzahl steht aber 2 da."
    ]
    data |= {f"cards-{ids[1]}": "R7 R8", f"count-{ids[1]}": "3"}
    german = client.post(url(table), data, HTTP_ACCEPT_LANGUAGE="de")
    assert german.context["rows"][1].errors == [
        "Ben Berg: Eingetragen sind 2 Karten, als Kartenzahl steht aber 3 da."
    ]
    english = client.post(url(table), data, HTTP_ACCEPT_LANGUAGE="en")
    assert english.context["rows"][1].errors == ["Ben Berg: 2 cards were entered, but the card count says 3."]


def page_alerts(html: str) -> list[tuple[str, str]]:
    """The page-level alert boxes: (their classes, their text without tags)."""
    box = r'<div class="([^"]*\bpage-alert\b[^"]*)" role="alert" tabindex="-1" data-page-alert>(.*?)</div>'
    boxes = re.findall(box, html, re.S)
    return [(classes, " ".join(re.sub(r"<[^>]+>", " ", text).split())) for classes, text in boxes]


def test_a_refused_report_is_an_alert_box_at_the_top(client, table):
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.PUBLISHED)
    html = client.post(url(table), report_data(table, key="early")).content.decode()
    assert page_alerts(html) == [(
        "message error page-alert",
        "The organizer has not opened this round for results yet. "
        "Your entries are kept; send them again in a moment.",
    )]
    assert html.index("data-page-alert") < html.index('<form method="post"')


def test_an_error_naming_no_player_is_an_alert_box_at_the_top_of_the_form(client, table):
    data = report_data(table)
    del data["outcome"]  # nobody went out: the engine names no single player
    html = client.post(url(table), data).content.decode()
    assert not Submission.objects.exists()
    assert page_alerts(html) == [(
        "message page-alert table-issues error",
        "The result was not saved: Nobody went out. Mark the player who laid their last card.",
    )]
    form = html.index('<form method="post"')
    assert form < html.index("data-page-alert") < html.index('class="players"')
