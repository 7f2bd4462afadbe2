"""Every edit form shows back what is stored, and saving it unchanged changes nothing (#51 point 1).

Each edit page is rendered from a factory-built evening with every field filled; the form is read
from the page as a browser would submit it (inputs with their values, the checked boxes and radios,
the selected options, the textareas) and posted back unchanged through the real view. No stored value
may change: a value the page cannot show (a deadline in a format `datetime-local` cannot read)
would come back empty and be deleted.
"""

from __future__ import annotations

import datetime
import re
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tests.factories import PlayerFactory, RegistrationFactory, SeriesFactory, TournamentFactory, UserFactory
from tests.tournament.test_form_fields import app_forms
from tournament.models import AuditEntry, Registration

pytestmark = pytest.mark.django_db


# What a browser keeps of an input's value (HTML's value sanitization): anything else it shows as an
# empty input and sends as "".
VALID_VALUES = {
    "date": re.compile(r"\d{4}-\d{2}-\d{2}"),
    "datetime-local": re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?"),
    "number": re.compile(r"-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?"),
}


def sanitized(kind: str, value: str) -> str:
    rule = VALID_VALUES.get(kind)
    return value if rule is None or rule.fullmatch(value) else ""


class FormReader(HTMLParser):
    """The forms of a page as lists of (name, value) a browser submits without clicking a named button."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._select: dict | None = None
        self._textarea: dict | None = None

    def handle_starttag(self, tag: str, attrs: list) -> None:
        attr = dict(attrs)
        if tag == "form":
            self.forms.append({"action": attr.get("action") or "", "method": attr.get("method", "get"),
                               "fields": [], "names": set()})
            return
        if not self.forms:
            return
        form = self.forms[-1]
        name = attr.get("name")
        if tag == "input" and name:
            form["names"].add(name)
            kind = attr.get("type", "text")
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("checkbox", "radio"):
                if "checked" in attr:
                    form["fields"].append((name, attr.get("value", "on")))
                return
            form["fields"].append((name, sanitized(kind, attr.get("value") or "")))
        elif tag == "select" and name:
            form["names"].add(name)
            self._select = {"name": name, "first": None, "chosen": None}
        elif tag == "option" and self._select is not None:
            value = attr.get("value", "")
            if self._select["first"] is None:
                self._select["first"] = value
            if "selected" in attr:
                self._select["chosen"] = value
        elif tag == "textarea" and name:
            form["names"].add(name)
            self._textarea = {"name": name, "text": ""}

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._textarea["text"] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            chosen = self._select["chosen"] if self._select["chosen"] is not None else self._select["first"]
            self.forms[-1]["fields"].append((self._select["name"], chosen or ""))
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            # A browser drops the one newline right after <textarea>.
            text = self._textarea["text"].removeprefix("\r\n").removeprefix("\n")
            self.forms[-1]["fields"].append((self._textarea["name"], text))
            self._textarea = None


def page_form(html: str, field: str) -> dict:
    reader = FormReader()
    reader.feed(html)
    found = [form for form in reader.forms if field in form["names"]]
    assert len(found) == 1, f"one form with the field {field!r}, found {len(found)}"
    return found[0]


def post_data(form: dict) -> dict[str, list[str]]:
    data: dict[str, list[str]] = {}
    for name, value in form["fields"]:
        data.setdefault(name, []).append(value)
    return data


def snapshot() -> dict[str, list[dict]]:
    """Every row of the app's tables and the users, but the log (saving may say it was saved)."""
    rows = {}
    for model in [*apps.get_app_config("tournament").get_models(), get_user_model()]:
        if model is AuditEntry:
            continue
        rows[model._meta.label] = [
            {
                field.name: getattr(obj, field.attname)
                for field in model._meta.concrete_fields
                if not getattr(field, "auto_now", False)
            }
            | {field.name: sorted(o.pk for o in getattr(obj, field.name).all())
               for field in model._meta.many_to_many}
            for obj in model.objects.order_by("pk")
        ]
    return rows


@pytest.fixture
def evening(client):
    """An evening with every setting filled (not the defaults), its series, a player with every field."""
    organizer = UserFactory(username="orga", first_name="Olga", last_name="Ordnung")
    series = SeriesFactory(
        organizers=[organizer], points="table", points_table=[25, 20, 16, 13], best_of=4, min_evenings=2,
        attendance_bonus=3, free_misses=1, miss_deduction=5, members_only=True,
        tiebreaks=["best_evening", "attended"], club_best=4, club_value="average", junior_under=21,
        senior_from=65,
    )
    deadline = timezone.make_aware(datetime.datetime(2026, 12, 7, 21, 0))
    tournament = TournamentFactory(
        organizers=[organizer], series=series, venue="Pfarrsaal", rounds_total=5, table_size=4, table_min=3,
        table_max=5, fill="larger", scoring="minus", end_rule="threshold", threshold=500,
        missed_rounds="charge", time_limit_minutes=25, require_second_entry=True,
        table_confirmation="player", public=True,
        separate_clubs=False, plan_all_rounds=True, standings_hidden_from=4, tiebreaks=["rounds_won"],
        signup_open=True, signup_capacity=25, signup_deadline=deadline, entry_fee_cents=550,
        payout_percent=60, pot_basis="nominal", prize_kind="fixed", prize_table=[30, 20, 10],
        shared_places="full", goods_prizes=["Buch", "Kartenspiel"], prize_overrides={"1": 4000},
        cash_float_cents=5025, cash_counted_cents=12050, cash_note="Wechselgeld geliehen",
        separate_teams=False,
    )
    player = PlayerFactory(
        first_name="Anna", last_name="Alt", club__name="SG Rot-Weiß", birth_date=datetime.date(1970, 3, 4),
        birth_year=1970, gender="f", member=False,
    )
    registration = RegistrationFactory(tournament=tournament, player=player, start_number=1,
                                       status=Registration.Status.REGISTERED)
    client.force_login(organizer)
    return tournament, registration


def edit_pages(tournament, registration) -> list[tuple[str, str, str]]:
    """(page, a field of its edit form, the form class) for every page that edits stored values."""
    t = tournament.pk
    return [
        (reverse("organizer:tournament_edit", args=[t]), "date", "TournamentForm"),
        (reverse("organizer:signups", args=[t]), "signup_deadline", "SignupSettingsForm"),
        (reverse("organizer:player_edit", args=[t, registration.pk]), "birth_date", "PlayerEditForm"),
        (reverse("organizer:series", args=[t]), "points_table_text", "SeriesForm"),
        (reverse("organizer:prizes", args=[t]), "goods_prizes", "PrizeSettingsForm"),
        (reverse("organizer:cash_record", args=[t]), "note", "CashForm"),
        (reverse("organizer:teams", args=[t]), "separate_teams", "TeamsSeparateForm"),
        (reverse("account"), "first_name", "NameForm"),
    ]


# Forms built from stored values that have no page of their own to walk: the logo (a file input a
# browser never sends back; its form keeps the stored file when none is chosen) and the rankings' choice
# of how clubs count, a GET that changes nothing.
NOT_WALKED = {"LogoForm", "ClubRankingForm"}


def edit_form_classes() -> set[str]:
    """The forms that edit a stored record: model forms and forms with their own `initial_for` or
    `for_player` (the stored values as the form's initial)."""
    return {
        cls.__name__ for cls in app_forms()
        if getattr(getattr(cls, "_meta", None), "model", None) is not None
        or {"initial_for", "for_player"} & set(vars(cls))
    }


def test_every_edit_form_is_walked(evening):
    walked = {form for _page, _field, form in edit_pages(*evening)}
    assert edit_form_classes() - {"PlayerForm"} <= walked | NOT_WALKED


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("index", range(8))
def test_an_edit_form_saved_unchanged_changes_nothing(client, settings, evening, index, language):
    settings.LANGUAGE_CODE = language
    page, field, form_class = edit_pages(*evening)[index]
    before = snapshot()
    response = client.get(page, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    form = page_form(response.content.decode(), field)
    assert form["method"].lower() == "post", form_class
    answer = client.post(form["action"] or page, post_data(form), HTTP_ACCEPT_LANGUAGE=language)
    errors = [line for line in answer.content.decode().splitlines() if "error" in line]
    assert answer.status_code == 302, (form_class, errors)
    after = snapshot()
    changed = {
        (label, name): (old[name], new[name])
        for label, rows in before.items() for old, new in zip(rows, after[label], strict=False)
        for name in old if old[name] != new[name]
    }
    assert not changed, form_class
    assert [len(rows) for rows in after.values()] == [len(rows) for rows in before.values()], form_class


def test_the_sign_up_deadline_is_shown_as_the_input_reads_it(client, settings, evening):
    settings.LANGUAGE_CODE = "de"
    tournament, _registration = evening
    response = client.get(reverse("organizer:signups", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de")
    form = page_form(response.content.decode(), "signup_deadline")
    assert ("signup_deadline", "2026-12-07T21:00") in form["fields"]


def test_a_date_of_birth_is_shown_as_the_input_reads_it(client, settings, evening):
    settings.LANGUAGE_CODE = "de"
    tournament, registration = evening
    response = client.get(
        reverse("organizer:player_edit", args=[tournament.pk, registration.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    form = page_form(response.content.decode(), "birth_date")
    assert ("birth_date", "1970-03-04") in form["fields"]

