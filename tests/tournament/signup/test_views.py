"""The public sign-up pages: form, private link (page and mail), withdrawal, bot protection, bad input."""

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from tests.factories import TournamentFactory
from tournament.models import AuditEntry, Signup

pytestmark = pytest.mark.django_db

GOOD = {"first_name": "Anna", "last_name": "Alt", "club": "UNO Club", "birth_year": "1980",
        "membership": "member", "email": "anna@example.org", "phone": "", "website": ""}


@pytest.fixture
def tournament():
    return TournamentFactory(signup_open=True, signup_capacity=1)


def url(tournament):
    return reverse("public:signup", args=[tournament.pk])


def test_sign_up_shows_and_mails_the_private_link(client, tournament):
    response = client.post(url(tournament), GOOD)
    signup = Signup.objects.get()
    assert response.status_code == 302 and response["Location"] == signup.get_status_url() + "?new=1"
    page = client.get(response["Location"]).content.decode()
    assert "You have a place." in page and signup.token in page
    assert len(mail.outbox) == 1 and signup.get_status_url() in mail.outbox[0].body
    assert mail.outbox[0].to == ["anna@example.org"]


def test_a_forged_host_does_not_reach_the_mailed_link(client, tournament, settings, monkeypatch):
    """#40 finding 5: with ALLOWED_HOSTS=* the mail's link is built from this machine's own address."""
    from tournament import qr

    settings.ALLOWED_HOSTS, settings.PUBLIC_BASE_URL, settings.SERVER_PORT = ["*"], "", 8000
    monkeypatch.setattr(qr, "network_address", lambda: "192.168.1.23")
    client.post(url(tournament), GOOD, HTTP_HOST="evil.example")
    signup = Signup.objects.get()
    assert "evil.example" not in mail.outbox[0].body
    assert f"http://192.168.1.23:8000{signup.get_status_url()}" in mail.outbox[0].body
    page = client.get(signup.get_status_url(), HTTP_HOST="evil.example").content.decode()
    assert "evil.example" not in page


def test_full_tournament_puts_the_next_on_the_waiting_list_and_withdrawal_moves_up(client, tournament):
    client.post(url(tournament), GOOD)
    client.post(url(tournament), {**GOOD, "first_name": "Ben", "email": ""})
    anna, ben = Signup.objects.order_by("queue")
    assert "You are number 1 on the waiting list." in client.get(ben.get_status_url()).content.decode()
    response = client.post(anna.get_status_url(), {"withdraw": "1", "confirm": "1"})
    assert response.status_code == 302
    assert "You have withdrawn." in client.get(anna.get_status_url()).content.decode()
    assert "You have a place." in client.get(ben.get_status_url()).content.decode()
    again = client.post(anna.get_status_url(), {"withdraw": "1", "confirm": "1"})
    assert again.status_code == 400 and b"already withdrawn" in again.content


def statuses(tournament):
    return [(s.first_name, s.status) for s in tournament.signups.order_by("queue")]


@pytest.mark.parametrize("answer", [{}, {"confirm": ""}, {"confirm": "0"}, {"confirm": "false"}])
def test_the_withdraw_button_asks_first_and_changes_nothing(client, tournament, answer):
    client.post(url(tournament), GOOD)
    client.post(url(tournament), {**GOOD, "first_name": "Ben", "email": ""})
    anna = Signup.objects.get(first_name="Anna")
    response = client.post(anna.get_status_url(), {"withdraw": "1", **answer}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Wirklich abmelden?" in page
    assert "Ihr Platz geht an die nächste Person auf der Warteliste." in page
    assert '<input type="hidden" name="confirm" value="1">' in page and "Ja, abmelden" in page
    assert f'href="{anna.get_status_url()}">Nein, angemeldet bleiben</a>' in page
    assert "Meine Anmeldung zurückziehen" not in page  # the question replaces the first button
    # nothing happened: Anna keeps her place, Ben still waits, no audit entry
    assert statuses(tournament) == [("Anna", "confirmed"), ("Ben", "waiting")]
    assert not AuditEntry.objects.filter(action__in=["signup_withdraw", "signup_promote"]).exists()


def test_withdrawing_after_the_question_moves_the_waiting_list_with_an_audit_entry(client, tournament):
    client.post(url(tournament), GOOD)
    client.post(url(tournament), {**GOOD, "first_name": "Ben", "email": ""})
    ben = Signup.objects.get(first_name="Ben")
    asked = client.post(ben.get_status_url(), {"withdraw": "1"}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Sie verlassen die Warteliste." in asked  # a waiting person is told what they give up
    anna = Signup.objects.get(first_name="Anna")
    response = client.post(anna.get_status_url(), {"withdraw": "1", "confirm": "1"})
    assert response.status_code == 302 and response["Location"] == anna.get_status_url()
    assert statuses(tournament) == [("Anna", "withdrawn"), ("Ben", "confirmed")]
    withdrawn = AuditEntry.objects.get(action="signup_withdraw")
    assert withdrawn.actor == "Anna Alt"
    assert withdrawn.before["status"] == "confirmed" and withdrawn.after["status"] == "withdrawn"
    assert AuditEntry.objects.get(action="signup_promote").after["name"] == "Ben Alt"


SENT = "Wir haben den Link auch an anna@example.org geschickt."
NOT_SENT = "An anna@example.org konnte keine E-Mail geschickt werden: Bitte bewahren Sie diesen Link"


def signed_up_page(client, tournament, data=GOOD) -> str:
    response = client.post(url(tournament), data, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 302
    return client.get(response["Location"], HTTP_ACCEPT_LANGUAGE="de").content.decode()


def test_the_page_says_the_link_was_mailed_when_it_was(client, tournament):
    page = signed_up_page(client, tournament)
    assert len(mail.outbox) == 1
    assert SENT in page and NOT_SENT not in page
    assert SENT not in client.get(Signup.objects.get().get_status_url()).content.decode()  # said once


def test_no_claim_of_a_mail_when_mail_goes_to_the_console(client, tournament, settings, capsys):
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"  # the hall laptop's default
    page = signed_up_page(client, tournament)
    assert SENT not in page and NOT_SENT in page
    assert "anna@example.org" not in capsys.readouterr().out  # nothing pretended to send it


def test_no_claim_of_a_mail_when_the_mail_server_fails(client, tournament, monkeypatch):
    def refused(*args, **kwargs):
        raise ConnectionRefusedError("no mail server")

    monkeypatch.setattr("tournament.signup.mail.send_mail", refused)
    page = signed_up_page(client, tournament)
    assert SENT not in page and NOT_SENT in page


def test_no_word_about_mail_without_an_address(client, tournament):
    page = signed_up_page(client, tournament, {**GOOD, "email": ""})
    assert "geschickt" not in page and "E-Mail" not in page
    assert mail.outbox == []


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("first_name", "   ", "This field is required."),
        ("last_name", "", "This field is required."),
        ("first_name", "x" * 81, "at most 80 characters"),
        ("club", "c" * 121, "at most 120 characters"),
        ("birth_year", "", "This field is required."),
        ("birth_year", "1899", "between 1900 and this year"),
        ("birth_year", "abc", "Enter a whole number in digits 0-9."),
        ("email", "not-an-address", "Enter a valid email address."),
        ("phone", "call me", "phone number with digits only"),
        ("website", "http://spam.example", "This field must stay empty."),
    ],
)
def test_bad_input_is_refused_with_a_message_and_nothing_stored(client, tournament, field, value, message):
    response = client.post(url(tournament), {**GOOD, field: value})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Signup.objects.count() == 0 and AuditEntry.objects.count() == 0
    assert mail.outbox == []


def test_wrong_private_link_is_not_found_and_changes_nothing(client, tournament):
    client.post(url(tournament), GOOD)
    wrong = reverse("public:signup_status", args=[tournament.pk, "x" * 43])
    assert client.get(wrong).status_code == 404
    assert client.post(wrong).status_code == 404
    other = TournamentFactory(signup_open=True)
    signup = Signup.objects.get()
    assert client.post(reverse("public:signup_status", args=[other.pk, signup.token])).status_code == 404
    assert Signup.objects.get().status == "confirmed"


def test_closed_sign_up_and_hidden_tournament(client):
    closed = TournamentFactory(public=True)
    response = client.get(url(closed))
    assert "Sign-up for this tournament is not open." in response.content.decode()
    assert client.post(url(closed), GOOD).status_code == 400
    assert Signup.objects.count() == 0
    assert client.get(url(TournamentFactory())).status_code == 404


def test_rate_limit_per_address(client, tournament, settings):
    settings.SIGNUPS_PER_ADDRESS = 2
    for index in range(2):
        client.post(url(tournament), {**GOOD, "first_name": f"P{index}"})
    response = client.post(url(tournament), {**GOOD, "first_name": "P3"})
    assert response.status_code == 429 and b"Too many sign-ups" in response.content
    assert Signup.objects.count() == 2


def test_csrf_is_required():
    tournament = TournamentFactory(signup_open=True)
    client = Client(enforce_csrf_checks=True)
    assert client.post(url(tournament), GOOD).status_code == 403
    assert Signup.objects.count() == 0


def test_the_sign_up_asks_for_membership(client, tournament):
    """Issue #42, 6: member or guest is a required choice of the public form, stored with the sign-up."""
    refused = client.post(url(tournament), {**GOOD, "membership": ""})
    assert refused.status_code == 400 and "Please choose club member or guest." in refused.content.decode()
    assert not Signup.objects.exists()
    page = client.get(url(tournament)).content.decode()
    assert 'name="membership" value="member"' in page and 'name="membership" value="guest"' in page
    assert "checked" not in page.split('name="membership"')[1].split(">")[0]  # nothing chosen beforehand
    client.post(url(tournament), {**GOOD, "membership": "guest"})
    assert Signup.objects.get().member is False


def test_a_club_signs_up_over_the_halls_one_address():
    """Issue #42, 10: thirty members of a club sign up from one public address, none is stopped."""
    tournament = TournamentFactory(signup_open=True, signup_capacity=24)
    client = Client(REMOTE_ADDR="203.0.113.7")
    answers = [
        client.post(url(tournament), {**GOOD, "first_name": f"Mitglied{n:02d}", "email": ""}).status_code
        for n in range(30)
    ]
    assert answers == [302] * 30
    assert Signup.objects.filter(status="confirmed").count() == 24
    assert Signup.objects.filter(status="waiting").count() == 6


def test_the_same_name_is_limited_per_tournament(client, tournament, settings):
    settings.SIGNUPS_PER_NAME = 3
    for _attempt in range(3):
        assert client.post(url(tournament), {**GOOD, "email": ""}).status_code == 302
    again = client.post(url(tournament), {**GOOD, "first_name": " anna ", "last_name": "ALT", "email": ""})
    assert again.status_code == 429
    assert "This name has been signed up too often" in again.content.decode()
    assert Signup.objects.count() == 3
    assert client.post(url(tournament), {**GOOD, "first_name": "Berta"}).status_code == 302
    other = TournamentFactory(signup_open=True)
    assert client.post(url(other), GOOD).status_code == 302  # another evening counts on its own


def test_the_sign_up_closes_when_the_evening_starts(client, tournament, organizer):
    """#41 item 5: once round 1 is published the public page says so and takes no more entries, not even
    on the waiting list (a drafted round does not count: it may still be drawn again)."""
    from tests.factories import RegistrationFactory
    from tournament.rounds.services import round_publish, round_seat

    tournament.organizers.add(organizer)
    for n in range(8):
        RegistrationFactory(tournament=tournament, start_number=n + 1)
    round_ = round_seat(tournament=tournament, user=organizer, seed=1)
    assert client.post(url(tournament), GOOD).status_code == 302  # a draft: still open
    round_publish(round_=round_, user=organizer)
    page = client.get(url(tournament)).content.decode()
    assert "The evening has started: sign-up is closed." in page and 'name="first_name"' not in page
    refused = client.post(url(tournament), {**GOOD, "first_name": "Late"})
    assert refused.status_code == 400 and "The evening has started" in refused.content.decode()
    assert not Signup.objects.filter(first_name="Late").exists()
    tournament.public = True
    tournament.save(update_fields=["public"])
    public = client.get(reverse("public:tournament", args=[tournament.pk])).content.decode()
    assert "The evening has started: sign-up is closed." in public
    assert "Sign up for this tournament" not in public
