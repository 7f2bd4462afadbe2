"""Public page, seat lookup and projector: names and clubs only, 404 when off, constant queries."""

import datetime
import re

import pytest
from django.urls import reverse

from engine.validation import SeatReport
from tests.factories import RegistrationFactory, UserFactory, seated_round
from tournament.clock.services import clock_start
from tournament.models import Registration, Round, Submission, Table
from tournament.results.services import result_submit
from tournament.rounds.services import round_close

HX = {"HX-Request": "true"}


def slide_of(client, url, **params):
    """The slide the projector shows for these parameters (read from the full page's context)."""
    return client.get(url, params).context["slide"]


@pytest.fixture
def public_tournament(tournament):
    tournament.public = True
    tournament.save()
    return tournament


def confirm_table(table: Table, organizer, points: list[int]) -> None:
    """Report a table through the services as the organizer (confirmed at once); 0 points = went out."""
    regs = list(table.seats.order_by("position").values_list("registration_id", flat=True))
    outcome = result_submit(
        table=table, source=Submission.Source.ORGANIZER, user=organizer, confirm_warnings=True,
        seats=[SeatReport(player_id=reg, points=p, card_count=None, went_out=p == 0)
               for reg, p in zip(regs, points, strict=True)],
    )
    assert outcome.stored, outcome.errors


def play_round(tournament, players, organizer, number, points_per_table, close=True) -> Round:
    round_ = seated_round(tournament, players, number=number, status=Round.Status.OPEN)
    for table, points in zip(round_.tables.order_by("number"), points_per_table, strict=True):
        confirm_table(table, organizer, points)
    if close:
        round_close(round_=round_, user=organizer)
    return round_


# --- Public page -----------------------------------------------------------------------------------

def test_switched_off_public_pages_are_404_for_visitors(tournament, players, client):
    seated_round(tournament, players)
    for name in ("public:tournament", "public:projector", "public:seat_lookup"):
        assert client.get(reverse(name, args=[tournament.pk])).status_code == 404
    client.force_login(UserFactory(username="other-organizer"))
    assert client.get(reverse("public:tournament", args=[tournament.pk])).status_code == 404
    assert client.get(reverse("public:tournament", args=[999999])).status_code == 404


def test_organizers_see_a_preview_and_the_projector_of_a_switched_off_tournament(
    tournament, organizer_client
):
    response = organizer_client.get(reverse("public:tournament", args=[tournament.pk]))
    assert response.status_code == 200
    assert "preview-note" in response.content.decode()
    assert organizer_client.get(reverse("public:projector", args=[tournament.pk])).status_code == 200


def test_public_page_exposes_no_private_data(public_tournament, organizer, client):
    players = [
        RegistrationFactory(
            tournament=public_tournament, start_number=i + 1, player__first_name=f"Vorname{i}",
            player__last_name=f"Nachname{i}", player__club__name=f"Verein {i % 2}",
            player__birth_date=datetime.date(1937 + i, 3, 14), player__birth_year=1937 + i,
        )
        for i in range(8)
    ]
    play_round(public_tournament, players, organizer, 1, [[0, 5, 12, 30], [7, 0, 44, 3]])
    current = seated_round(public_tournament, players[::-1], number=2)
    tokens = list(Table.objects.values_list("token", flat=True))

    html = client.get(reverse("public:tournament", args=[public_tournament.pk])).content.decode()
    lookup = client.get(
        reverse("public:seat_lookup", args=[public_tournament.pk]), {"q": "vorname"}, headers=HX
    ).content.decode()
    projector = client.get(reverse("public:projector", args=[public_tournament.pk])).content.decode()
    for page in (html, lookup, projector):
        for token in tokens:
            assert token not in page
        assert "/t/" not in page  # no captain link of any kind
        for i in range(8):
            assert str(1937 + i) not in page
            assert f"14.03.{1937 + i}" not in page and f"{1937 + i}-03-14" not in page
    # What it does show: names, clubs, the current seating and the standings of the closed round.
    assert "Vorname3 Nachname3" in html and "Verein 1" in html
    assert current.tables.count() == 2 and html.count('class="table-card"') == 4
    assert "standings-chart" in html


def test_the_public_page_counts_the_rounds_the_projector_counts(public_tournament, players, organizer,
                                                                client):
    """One basis for "after round N" (#51 item 6): every round whose tables are all confirmed."""
    play_round(public_tournament, players, organizer, 1, [[0, 5, 12, 30], [7, 0, 44, 3], [1, 2, 0, 9]])
    round_2 = play_round(public_tournament, players, organizer, 2, [[0, 100, 100, 100]] * 3, close=False)
    url = reverse("public:tournament", args=[public_tournament.pk])
    projector = reverse("public:projector", args=[public_tournament.pk])
    response = client.get(url)
    lines = response.context["lines"]  # full page: the test client records its context
    assert response.context["standing_rounds"] == [1, 2]
    assert len(lines) == 12 and sum(line.row.total for line in lines) == 113 + 3 * 300  # both rounds
    assert "After round 2: every round whose tables are all confirmed" in response.content.decode()
    assert slide_of(client, projector, show="standings").heading == "Standings after round 2"
    # A table of round 2 not confirmed: both go back to round 1.
    Table.objects.filter(round=round_2, number=1).update(status=Table.Status.REPORTED)
    assert client.get(url).context["standing_rounds"] == [1]
    assert slide_of(client, projector, show="standings").heading == "Standings after round 1"


def test_seat_lookup_finds_a_player_by_parts_of_the_name(public_tournament, client):
    anna = RegistrationFactory(tournament=public_tournament, player__first_name="Anna",
                               player__last_name="Müller", player__club__name="UNO Freunde")
    others = [RegistrationFactory(tournament=public_tournament) for _ in range(7)]
    seated_round(public_tournament, [*others[:5], anna, *others[5:]], number=1, status=Round.Status.CLOSED)
    seated_round(public_tournament, [anna, *others], number=2)
    url = reverse("public:seat_lookup", args=[public_tournament.pk])

    response = client.get(url, {"q": "anna mül"}, headers=HX)
    html = response.content.decode()
    assert "<html" not in html and html.lstrip().startswith('<div id="lookup-results"')
    assert "Anna Müller" in html and "UNO Freunde" in html
    assert re.search(r"Round 2:.*Table\s*<b>1</b>\s*·\s*Seat 1", html, re.S)
    # The page without script has every published round's seat: round 1 at table 2, seat 2.
    full = client.get(url, {"q": "Müller"})
    assert "<html" in full.content.decode() and "Anna Müller" in full.content.decode()
    (result,) = full.context["results"]
    assert [(number, seat.table, seat.position) for number, seat in result["seats"]] == [(2, 1, 1), (1, 2, 2)]

    assert "Anna" not in client.get(url, {"q": "a"}, headers=HX).content.decode()  # too short to search
    assert "Nobody" in client.get(url, {"q": "zzzz"}, headers=HX).content.decode()


def test_seat_lookup_queries_do_not_grow_with_results(public_tournament, client, django_assert_num_queries):
    regs = [RegistrationFactory(tournament=public_tournament, player__first_name="Kim") for _ in range(12)]
    seated_round(public_tournament, regs, number=1, status=Round.Status.CLOSED)
    seated_round(public_tournament, regs[::-1], number=2)
    url = reverse("public:seat_lookup", args=[public_tournament.pk])
    with django_assert_num_queries(4):  # tournament, rounds, registrations, seats
        response = client.get(url, {"q": "kim"}, headers=HX)
    assert response.content.decode().count("Kim ") == 12


# --- Projector -------------------------------------------------------------------------------------

def test_polling_request_returns_only_the_fragment(public_tournament, players, client):
    seated_round(public_tournament, players)
    url = reverse("public:projector", args=[public_tournament.pk])
    page = client.get(url).content.decode()
    assert "<html" in page and 'id="stage"' in page and "clock.js" in page

    fragment = client.get(url, {"slide": "0"}, headers=HX).content.decode()
    assert fragment.lstrip().startswith('<div id="stage"')
    assert "<html" not in fragment and "<body" not in fragment and "topbar" not in fragment
    assert fragment.rstrip().endswith("</div>")
    # The fragment carries the URL of the next slide (only one slide here: the seating, again).
    assert f'hx-get="{url}?show=all&amp;every=10&amp;slide=0"' in fragment
    assert 'hx-trigger="every 10s"' in fragment


def test_projector_alternates_seating_and_standings(public_tournament, players, organizer, client):
    play_round(public_tournament, players, organizer, 1, [[0, 5, 12, 30], [7, 0, 44, 3], [1, 2, 0, 9]])
    seated_round(public_tournament, players[::-1], number=2)
    url = reverse("public:projector", args=[public_tournament.pk])
    kinds = [slide_of(client, url, slide=i).kind for i in range(4)]
    assert kinds == ["seating", "standings", "chart", "seating"]

    seating = slide_of(client, url, slide=0)
    names = [line.sort_name for column in seating.columns for line in column]
    assert names == sorted(names, key=str.casefold) and len(names) == 12
    chart = client.get(url, {"slide": 2}, headers=HX).content.decode()
    assert chart.count('class="line ') == 12


def test_long_lists_are_paged_into_columns_not_scrolled(public_tournament, organizer, client):
    regs = [RegistrationFactory(tournament=public_tournament) for _ in range(60)]
    seated_round(public_tournament, regs)
    url = reverse("public:projector", args=[public_tournament.pk])
    first = slide_of(client, url, show="seating", slide=0)
    second = slide_of(client, url, show="seating", slide=1)
    assert (first.page, first.pages, second.page) == (1, 2, 2)
    assert [len(column) for column in first.columns] == [15, 15, 15]
    assert [len(column) for column in second.columns] == [5, 5, 5]  # the rest over all three columns


def test_seating_of_23_uses_all_three_columns(public_tournament, organizer, client):
    regs = [RegistrationFactory(tournament=public_tournament) for _ in range(23)]
    seated_round(public_tournament, regs)
    url = reverse("public:projector", args=[public_tournament.pk])
    slide = slide_of(client, url, show="seating", slide=0)
    assert [len(column) for column in slide.columns] == [8, 8, 7] and slide.pages == 1


def test_projector_shows_a_running_clock(public_tournament, players, organizer, client):
    round_ = seated_round(public_tournament, players, status=Round.Status.OPEN)
    url = reverse("public:projector", args=[public_tournament.pk])
    assert "data-clock" not in client.get(url, headers=HX).content.decode()
    clock_start(round_=round_, user=organizer, minutes=20)
    html = client.get(url, headers=HX).content.decode()
    assert 'data-status="running"' in html and "20:00" in html


def test_projector_counts_an_open_round_once_every_table_is_confirmed(public_tournament, players, organizer,
                                                                     client):
    round_ = seated_round(public_tournament, players, status=Round.Status.OPEN)
    tables = list(round_.tables.order_by("number"))
    url = reverse("public:projector", args=[public_tournament.pk])
    confirm_table(tables[0], organizer, [0, 5, 12, 30])
    confirm_table(tables[1], organizer, [7, 0, 44, 3])
    assert slide_of(client, url, show="standings").kind == "empty"
    confirm_table(tables[2], organizer, [1, 2, 0, 9])
    slide = slide_of(client, url, show="standings")
    assert slide.kind == "standings"
    totals = [line.row.total for column in slide.columns for line in column]
    assert totals == [0, 0, 0, 1, 2, 3, 5, 7, 9, 12, 30, 44]


@pytest.mark.parametrize("size", [8, 40])
def test_projector_fragment_queries_are_constant(public_tournament, organizer, client, size,
                                                 django_assert_num_queries):
    regs = [RegistrationFactory(tournament=public_tournament) for _ in range(size)]
    play_round(public_tournament, regs, organizer, 1, [[0, 5, 12, 30]] * (size // 4))
    seated_round(public_tournament, regs[::-1], number=2, status=Round.Status.OPEN)
    url = reverse("public:projector", args=[public_tournament.pk])
    for slide in range(3):
        # tournament, shown round, the evening's version (its audit entries), seats, live rounds, counted
        # rounds, registrations, results, and for the expected end the rounds and each table's first report
        with django_assert_num_queries(10):
            client.get(url, {"slide": slide}, headers=HX)


def test_public_page_queries_are_constant(public_tournament, organizer, client, django_assert_num_queries):
    regs = [RegistrationFactory(tournament=public_tournament) for _ in range(16)]
    play_round(public_tournament, regs, organizer, 1, [[0, 5, 12, 30]] * 4)
    play_round(public_tournament, regs[::-1], organizer, 2, [[3, 0, 8, 1]] * 4)
    seated_round(public_tournament, regs, number=3)
    # tournament, rounds, the evening's version (its audit entries), seats, live rounds, counted rounds,
    # registrations, results
    with django_assert_num_queries(8):
        client.get(reverse("public:tournament", args=[public_tournament.pk]))


# --- The players' pages: no organizer login in their header (issue #41, 6) -------------------------

def header_of(html: str) -> str:
    (header,) = re.findall(r'<header class="topbar[^"]*">.*?</header>', html, re.S)
    return header


def test_the_players_pages_have_no_organizer_login_in_their_header(public_tournament, players, organizer,
                                                                   client):
    """"Anmelden" (log in) stood beside "Zu diesem Turnier anmelden" (sign up): the organizers' way in is
    a small link at the foot of the page instead, to the tournament's organizer pages (which ask for the
    login). The captain's page and the projector have none either."""
    from tests.factories import SeriesFactory
    from tournament.models import Signup

    public_tournament.series = SeriesFactory(organizers=[organizer])
    public_tournament.signup_open = True
    public_tournament.save()
    round_ = play_round(public_tournament, players, organizer, 1,
                        [[0, 5, 12, 30], [7, 0, 44, 3], [1, 2, 0, 9]])
    signup = Signup.objects.create(tournament=public_tournament, first_name="Sina", last_name="Signed",
                                   birth_year=1990, queue=1, status=Signup.Status.CONFIRMED)
    pk = public_tournament.pk
    login = reverse("login")
    # The start page keeps its login: the same look finds it there.
    home = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert f'href="{login}"' in header_of(home)
    pages = [reverse("public:tournament", args=[pk]), reverse("public:series", args=[pk]),
             reverse("public:signup", args=[pk]), signup.get_status_url()]
    for url in pages:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
        assert response.status_code == 200, url
        html = response.content.decode()
        header = header_of(html)
        assert "/login/" not in header and "Anmelden" not in header and 'class="lang' in header, url
        footer = re.search(r'<footer class="public-foot">.*?</footer>', html, re.S).group()
        assert f'href="{reverse("organizer:tournament", args=[pk])}"' in footer, url
        assert "Für Veranstalter" in footer, url
    tournament_page = client.get(pages[0], HTTP_ACCEPT_LANGUAGE="de").content.decode()
    # Round 1 is published: the sign-up has closed and the page says so where the sign-up link stood.
    assert "Der Abend hat begonnen: die Anmeldung ist geschlossen." in tournament_page
    # The organizer's own preview: no log-out button in the players' header either.
    client.force_login(organizer)
    assert "logout" not in header_of(client.get(pages[0]).content.decode())
    client.logout()
    captain = client.get(reverse("captain:table", args=[round_.tables.first().token])).content.decode()
    assert "/login/" not in header_of(captain)
    projector = client.get(reverse("public:projector", args=[pk])).content.decode()
    assert 'class="topbar' not in projector and "/login/" not in projector


def test_the_projector_marks_withdrawn_and_late_players_as_the_public_page_does(
    public_tournament, organizer, client
):
    """#51 item 6: the same marks beside the name on the wall and on the phone."""
    regs = [RegistrationFactory(tournament=public_tournament, player__first_name=f"P{i}") for i in range(8)]
    late = RegistrationFactory(tournament=public_tournament, player__first_name="Spät",
                               player__last_name="Kommer")
    gone = regs[0]
    play_round(public_tournament, regs, organizer, 1, [[0, 5, 12, 30], [7, 0, 44, 3]])
    gone.status = Registration.Status.WITHDRAWN
    gone.save()
    play_round(public_tournament, [*regs[1:], late], organizer, 2, [[0, 5, 12, 30], [7, 0, 44, 3]])

    def marks(html: str, name: str) -> list[str]:
        """The badges of the name's line (up to its total)."""
        line = re.search(">" + re.escape(name) + r"(.*?)class=\"(?:num )?total", html, re.S).group(1)
        return list(dict.fromkeys(re.findall(r'<span class="badge ([^"]+)">', line)))  # wide and phone

    page = client.get(reverse("public:tournament", args=[public_tournament.pk])).content.decode()
    page = page.split('id="standings-heading"', 1)[1]
    wall = client.get(reverse("public:projector", args=[public_tournament.pk]), {"show": "standings"})
    wall = wall.content.decode().split('class="standings-list"', 1)[1]
    for html in (page, wall):
        assert marks(html, gone.player.name) == ["withdrawn", "missed-rounds"]
        assert marks(html, late.player.name) == ["missed-rounds"]
        assert marks(html, regs[1].player.name) == []
