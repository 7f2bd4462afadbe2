"""Cards are shown in the page's language: typed "gelb 3" is "Ge3" in German, "Y3" in English."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.tournament.conftest import report_data
from tournament.models import AuditEntry
from tournament.results.forms import ResultForm
from tournament.results.services import result_submit

pytestmark = pytest.mark.django_db


def submit(table, hands=("", "gelb 3, grün 7", "7 7 +4", "Y0")):
    form = ResultForm(report_data(table, hands=hands), seats=list(table.seats.order_by("position")))
    assert form.is_valid(), form.errors
    return result_submit(table=table, user=None, source="captain", token=table.token, **form.report())


def test_phone_chips_follow_the_language(client, table):
    hand_url = reverse("captain:hand", args=[table.token])
    german = client.get(hand_url, {"cards": "gelb 3 grün 7"}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">Ge3</button>" in german and ">Gr7</button>" in german
    english = client.get(hand_url, {"cards": "gelb 3 grün 7"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert ">Y3</button>" in english and ">G7</button>" in english


def test_stored_hands_stay_canonical(table):
    outcome = submit(table)
    assert sorted(e.cards for e in outcome.entries if e.cards) == ["+4 7 7", "Y0", "Y3 G7"]


def test_table_detail_shows_cards_in_german(organizer_client, table):
    submit(table)
    round_ = table.round
    url = reverse("organizer:table_detail", args=[round_.tournament_id, round_.number, table.number])
    german = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ge3 Gr7" in german and "Y3 G7" not in german
    english = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Y3 G7" in english


def test_audit_log_shows_cards_in_german(organizer_client, table):
    submit(table)
    assert AuditEntry.objects.filter(table=table).exists()
    url = reverse("organizer:audit", args=[table.round.tournament_id])
    german = organizer_client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Ge3 Gr7" in german and "Y3 G7" not in german


def test_desk_correction_is_prefilled_in_german(table):
    outcome = submit(table)
    with translation.override("de"):
        form = ResultForm.for_correction(
            seats=list(table.seats.order_by("position")), submission=outcome.submission
        )
    assert "Ge3 Gr7" in form.initial.values()


def test_tapping_a_chip_leaves_the_other_cards_in_the_pages_language(client, table):
    hand_url = reverse("captain:hand", args=[table.token])
    german = client.get(hand_url, {"cards": "Y3 grün 7 Ge9"}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert 'data-without="Gr7 Ge9"' in german and 'data-without="Ge3 Ge9"' in german
    assert 'data-without="Ge3 Gr7"' in german and "Y3" not in german and "G7" not in german
    english = client.get(hand_url, {"cards": "Y3 grün 7 Ge9"}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-without="G7 Y9"' in english and 'data-without="Y3 G7"' in english


@pytest.mark.parametrize(
    ("language", "letters"), [("de", ["R", "Ge", "Gr", "B"]), ("en", ["R", "Y", "G", "B"])]
)
def test_the_colour_keys_type_the_pages_letters(client, table, language, letters):
    url = reverse("captain:table", args=[table.token])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    for code, letter in zip("RYGB", letters, strict=True):
        assert f'data-colour="{code}" data-letter="{letter}"' in page


def test_the_captains_report_is_shown_back_in_the_pages_language(client, table):
    submit(table)
    url = reverse("captain:table", args=[table.token])
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    result = german.split('class="result ', 1)[1].split("</section>", 1)[0]
    assert '<td class="cards-cell">Ge3 Gr7</td>' in result and "Y3" not in result
    assert 'value="Ge3 Gr7"' in german  # the correction form starts from the same spelling
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<td class="cards-cell">Y3 G7</td>' in english and 'value="Y3 G7"' in english


@pytest.mark.parametrize(
    ("language", "yellow", "green", "total"),
    [("de", "Ge9", "Gr+2", "58 Punkte · 4 Karten"), ("en", "Y9", "G+2", "58 points · 4 cards")],
)
def test_both_spellings_are_read_on_either_page(client, table, language, yellow, green, total):
    hand_url = reverse("captain:hand", args=[table.token])
    page = client.get(hand_url, {"cards": "Ge9 Y9 Gr+2 G+2"}, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert page.count(f">{yellow}</button>") == 2 and page.count(f">{green}</button>") == 2
    assert f'<div class="total">{total}</div>' in page


# --- #51 item 13: one notation per language, ranks too, from the one table of engine.notation ------------


def test_german_pages_write_no_english_rank_next_to_a_german_colour(client, organizer_client, table):
    submit(table, hands=("", "gelb retour, grün aussetzen", "joker +4", "B7"))
    hand_url = reverse("captain:hand", args=[table.token])
    chips = client.get(hand_url, {"cards": "YRev GS W"}, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert ">GeRet</button>" in chips and ">GrStop</button>" in chips and ">J</button>" in chips
    assert "GeRev" not in chips and "GrS<" not in chips
    phone_url = reverse("captain:table", args=[table.token])
    phone = client.get(phone_url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "GeRet GrStop" in phone and "GeRev" not in phone
    log = organizer_client.get(reverse("organizer:audit", args=[table.round.tournament_id]),
                               HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "GeRet GrStop" in log and "YRev GS" not in log


@pytest.mark.parametrize(("language", "skip", "wild"), [("de", "Stop", "J"), ("en", "S", "W")])
def test_the_rank_keys_type_the_pages_short_names(client, table, language, skip, wild):
    url = reverse("captain:table", args=[table.token])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert f'data-rank="S" data-short="{skip}"' in page and f'data-rank="W" data-short="{wild}"' in page


@pytest.mark.parametrize(("language", "example"), [("de", "R7 GrRet J"), ("en", "R7 GRev W")])
def test_every_notation_hint_shows_the_one_example(client, organizer_client, table, language, example):
    url = reverse("captain:table", args=[table.token])
    phone = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    round_ = table.round
    desk = organizer_client.get(
        reverse("organizer:table_result", args=[round_.tournament_id, round_.number, table.number]),
        HTTP_ACCEPT_LANGUAGE=language,
    ).content.decode()
    for page in (phone, desk):
        assert f"{example}" in page
        assert "R7 Rev W" not in page and "Retour Joker" not in page and "rot 7, grün +2" not in page


@pytest.mark.parametrize(("language", "example"), [("de", "R7 GrRet J"), ("en", "R7 GRev W")])
def test_the_table_sheets_hint_shows_the_one_example(table, language, example):
    from tournament.documents.table_sheets import table_sheets_html

    with translation.override(language):
        html = table_sheets_html(table.round)
    assert f"e.g. {example}." in html or f"z. B. {example}." in html
    assert "R7 GRev W +4" not in html and "grün Retour, Farbwahl" not in html
