"""Players: add in place (htmx), known players, edit, withdraw/readmit, import with preview, check-in."""

import io

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import Workbook

from tests.factories import RegistrationFactory, TournamentFactory
from tournament.models import Registration
from tournament.players.services import players_register_known

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_add_player_in_place_with_htmx(organizer_client, tournament):
    url = reverse("organizer:player_add", args=[tournament.pk])
    response = organizer_client.post(
        url,
        {
            "first_name": "Anna",
            "last_name": "Huber",
            "club": "UNO-Freunde",
            "birth_date": "14.03.1961",
            "check_in": "1",
        },
        **HTMX,
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="players-section">')
    assert "<html" not in html
    assert "Huber, Anna" in html and "UNO-Freunde" in html
    reg = tournament.registrations.get()
    assert reg.start_number == 1 and reg.status == Registration.Status.CHECKED_IN
    assert reg.player.birth_year == 1961


def test_add_player_errors_stay_in_the_form(organizer_client, tournament):
    url = reverse("organizer:player_add", args=[tournament.pk])
    response = organizer_client.post(
        url, {"first_name": "", "last_name": "Huber", "birth_date": "1.1.1990", "birth_year": "1991"}, **HTMX
    )
    form = response.context["form"]
    assert "first_name" in form.errors
    assert 'value="Huber"' in response.content.decode()
    assert not tournament.registrations.exists()
    organizer_client.post(url, {"first_name": "Anna", "last_name": "Huber"}, **HTMX)
    again = organizer_client.post(url, {"first_name": "anna", "last_name": "HUBER"}, **HTMX)
    assert "already registered" in again.content.decode()
    assert tournament.registrations.count() == 1


def test_known_players_of_earlier_tournaments_are_offered_and_added(organizer_client, organizer, tournament):
    earlier = TournamentFactory(organizers=[organizer])
    club_regs = [
        RegistrationFactory(tournament=earlier, player__club__name="Kartenclub Au") for _ in range(3)
    ]
    single = RegistrationFactory(tournament=earlier, player__club__name="Spielerunde Ost")
    foreign = RegistrationFactory(tournament=TournamentFactory(), player__club__name="Fremd")
    page = organizer_client.get(reverse("organizer:players", args=[tournament.pk]))
    groups = dict(page.context["known_groups"])
    assert set(groups) == {"Kartenclub Au", "Spielerunde Ost"}
    assert foreign.player.name not in page.content.decode()
    url = reverse("organizer:player_add", args=[tournament.pk])
    organizer_client.post(url, {"known_club": "Kartenclub Au"}, **HTMX)
    organizer_client.post(url, {"known_player": str(single.player_id)}, **HTMX)
    organizer_client.post(url, {"known_player": str(foreign.player_id)}, **HTMX)  # not offered: ignored
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    assert registered == {r.player_id for r in club_regs} | {single.player_id}


def test_a_club_added_at_once_gets_consecutive_numbers_and_names_who_was_there(
    organizer_client, organizer, tournament
):
    earlier = TournamentFactory(organizers=[organizer])
    members = [
        RegistrationFactory(tournament=earlier, player__club__name="Kartenclub Au", player__last_name=name)
        for name in ("Adler", "Berger", "Christ")
    ]
    RegistrationFactory(tournament=tournament, player=members[1].player, start_number=1)
    url = reverse("organizer:player_add", args=[tournament.pk])
    page = organizer_client.post(url, {"known_club": "Kartenclub Au"}, **HTMX).content.decode()
    assert "2 players added" in page
    assert "already registered" not in page  # a registered member is not offered
    numbers = {
        reg.player.last_name: reg.start_number
        for reg in tournament.registrations.select_related("player")
    }
    assert numbers == {"Berger": 1, "Adler": 2, "Christ": 3}


def test_a_member_registered_meanwhile_is_named_and_the_others_added(organizer, tournament):
    """Another device registered one of the chosen players between the page and the click."""
    earlier = TournamentFactory(organizers=[organizer])
    chosen = [RegistrationFactory(tournament=earlier).player for _ in range(3)]
    RegistrationFactory(tournament=tournament, player=chosen[0], start_number=1)
    added, refused = players_register_known(tournament=tournament, user=organizer, players=chosen)
    assert [reg.start_number for reg in added] == [2, 3]
    assert refused == [f"{chosen[0].name} is already registered."]


def test_the_players_page_keeps_check_in_ticked_for_the_next_player(organizer_client, tournament):
    url = reverse("organizer:player_add", args=[tournament.pk])
    page = organizer_client.post(url, {"first_name": "Anna", "last_name": "Huber", "check_in": "on"}, **HTMX)
    assert page.context["form"]["check_in"].value() is True
    assert tournament.registrations.get().status == Registration.Status.CHECKED_IN
    page = organizer_client.post(url, {"first_name": "Bert", "last_name": "Huber"}, **HTMX)
    assert not page.context["form"]["check_in"].value()
    assert tournament.registrations.get(player__first_name="Bert").status == Registration.Status.REGISTERED


def test_edit_player(organizer_client, tournament, players):
    reg = players[0]
    url = reverse("organizer:player_edit", args=[tournament.pk, reg.pk])
    assert organizer_client.get(url).context["form"]["last_name"].value() == reg.player.last_name
    response = organizer_client.post(
        url, {"first_name": "Zoe", "last_name": "Zander", "club": "Neu", "birth_year": "1980"}
    )
    assert response.status_code == 302
    reg.player.refresh_from_db()
    assert (reg.player.name, reg.player.club_name, reg.player.birth_year) == ("Zoe Zander", "Neu", 1980)


def test_withdraw_and_readmit(organizer_client, tournament, players):
    reg = players[0]
    response = organizer_client.post(
        reverse("organizer:player_withdraw", args=[tournament.pk, reg.pk]), **HTMX
    )
    assert response.status_code == 200 and 'id="players-section"' in response.content.decode()
    reg.refresh_from_db()
    assert reg.status == Registration.Status.WITHDRAWN
    organizer_client.post(reverse("organizer:player_readmit", args=[tournament.pk, reg.pk]))
    reg.refresh_from_db()
    assert reg.status == Registration.Status.CHECKED_IN


def test_import_csv_preview_then_import(organizer_client, tournament, players):
    existing = players[0].player
    csv_text = (
        "Vorname;Nachname;Verein;Geburtsjahr\n"
        f"{existing.first_name};{existing.last_name};{existing.club_name};\n"
        "Maria;Kraus;UNO-Club Nord;1968\n"
        "Stefan;;UNO-Club Nord;1975\n"
        "Julia;Reiter;;19xx\n"
        "Lena;Holzer;;2004\n"
    )
    url = reverse("organizer:players_import", args=[tournament.pk])
    upload = SimpleUploadedFile("liste.csv", csv_text.encode("cp1252"), content_type="text/csv")
    preview = organizer_client.post(url, {"file": upload})
    assert preview.status_code == 200
    assert [r.name for r in preview.context["new_rows"]] == ["Maria Kraus", "Lena Holzer"]
    assert preview.context["already"] == 1
    html = preview.content.decode()
    assert "Line 4" in html and "Line 5" in html
    assert tournament.registrations.count() == 12  # nothing stored by the preview
    response = organizer_client.post(url, {"rows": preview.context["signed_rows"], "check_in": "1"})
    assert response.status_code == 302
    added = tournament.registrations.filter(start_number__gt=12).order_by("start_number")
    assert [(r.start_number, r.player.name, r.status) for r in added] == [
        (13, "Maria Kraus", "checked_in"),
        (14, "Lena Holzer", "checked_in"),
    ]


def test_import_xlsx_and_tampered_rows(organizer_client, tournament):
    workbook = Workbook()
    workbook.active.append(["First name", "Last name", "Club"])
    workbook.active.append(["Mary", "Smith", "Club A"])
    buffer = io.BytesIO()
    workbook.save(buffer)
    url = reverse("organizer:players_import", args=[tournament.pk])
    preview = organizer_client.post(url, {"file": SimpleUploadedFile("list.xlsx", buffer.getvalue())})
    assert [r.name for r in preview.context["new_rows"]] == ["Mary Smith"]
    organizer_client.post(url, {"rows": preview.context["signed_rows"] + "x"})
    assert not tournament.registrations.exists()
    organizer_client.post(url, {"rows": preview.context["signed_rows"]})
    assert tournament.registrations.get().player.name == "Mary Smith"


def test_the_desk_searches_and_checks_in_with_live_counts(organizer_client, tournament, players):
    """The admission desk (formerly the check-in page): search by name or start number, one tap checks in
    (the former check-in address still toggles), the figures follow in the same answer."""
    Registration.objects.filter(tournament=tournament).update(status=Registration.Status.REGISTERED)
    target = players[4]
    url = reverse("organizer:desk", args=[tournament.pk])
    page = organizer_client.get(url)
    assert page.context["desk"].expected == 12
    search = organizer_client.get(url, {"q": target.player.last_name}, HTTP_HX_REQUEST="true",
                                  HTTP_HX_TARGET="desk")
    assert search.content.decode().lstrip().startswith('<div id="desk" ')
    assert [line.pk for line in search.context_data["desk"].lines] == [target.pk]
    by_number = organizer_client.get(url, {"q": str(target.start_number)})
    assert [line.pk for line in by_number.context["desk"].lines] == [target.pk]
    checked = organizer_client.post(
        reverse("organizer:desk_player", args=[tournament.pk, target.pk]),
        {"action": "in", "method": "cash", "q": str(target.start_number)}, **HTMX,
    )
    html = checked.content.decode()
    assert f'id="desk-in-{target.pk}"' in html and "<b>1</b>checked in" in html.replace("\n", "")
    target.refresh_from_db()
    assert target.status == Registration.Status.CHECKED_IN
    organizer_client.post(reverse("organizer:checkin_toggle", args=[tournament.pk, target.pk]), **HTMX)
    target.refresh_from_db()
    assert target.status == Registration.Status.REGISTERED


def test_edit_membership(organizer_client, tournament, players):
    """Issue #42, 6: member, guest or not given; not given leaves what is known as it is."""
    reg = players[0]
    url = reverse("organizer:player_edit", args=[tournament.pk, reg.pk])
    typed = {
        "first_name": reg.player.first_name, "last_name": reg.player.last_name, "club": "", "birth_year": "",
    }
    assert organizer_client.get(url).context["form"]["membership"].value() == "member"
    organizer_client.post(url, {**typed, "membership": "guest"})
    reg.player.refresh_from_db()
    assert reg.player.member is False
    organizer_client.post(url, {**typed, "membership": ""})
    reg.player.refresh_from_db()
    assert reg.player.member is False
    bad = organizer_client.post(url, {**typed, "membership": "honorary"})
    assert "Select a valid choice." in bad.content.decode()
    reg.player.refresh_from_db()
    assert reg.player.member is False
