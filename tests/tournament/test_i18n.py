"""The German catalogue is complete and safe, and the UI really switches between German and English.

The .po file is read with a small parser of its own (no polib dependency): it only has to
understand what makemessages writes (comments, flags, msgid/msgid_plural/msgstr[n], continued
"..." lines).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from django.utils.translation import trans_real

from tests.tournament.uploadstream import CountingBody, multipart_head, post_body

pytestmark = pytest.mark.one_database  # the catalogues and templates

PO_FILE = Path(django_settings.BASE_DIR) / "locale" / "de" / "LC_MESSAGES" / "django.po"
MO_FILE = PO_FILE.with_suffix(".mo")

NAMED_PLACEHOLDER = re.compile(r"%\((\w+)\)[-#0 +]*\d*(?:\.\d+)?[sdifr]")
POSITIONAL_PLACEHOLDER = re.compile(r"%[-#0 +]*\d*(?:\.\d+)?[sdifr]")
BRACE_PLACEHOLDER = re.compile(r"\{(\w+)\}")
HTML_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
LINE = re.compile(r'^(msgctxt|msgid|msgid_plural|msgstr(?:\[(\d+)\])?) (".*")$')


@dataclass
class Entry:
    msgctxt: str | None = None
    msgid: str = ""
    msgid_plural: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)


def parse_po(path: Path) -> list[Entry]:
    """All entries of a .po file, the header (empty msgid) first."""
    entries: list[Entry] = []
    current: Entry | None = None
    target: tuple[str, int] | None = None
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            current, target = None, None
            continue
        if line.startswith("#~"):  # obsolete entries are not part of the catalogue
            continue
        if line.startswith("#,"):
            current = current or _new(entries)
            current.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        current = current or _new(entries)
        match = LINE.match(line)
        if match:
            keyword, index, literal = match.groups()
            value = ast.literal_eval(literal)
            if keyword == "msgctxt":
                current.msgctxt, target = value, ("msgctxt", 0)
            elif keyword == "msgid":
                current.msgid, target = value, ("msgid", 0)
            elif keyword == "msgid_plural":
                current.msgid_plural, target = value, ("msgid_plural", 0)
            else:
                number = int(index) if index is not None else 0
                current.msgstr[number], target = value, ("msgstr", number)
        elif line.startswith('"') and target is not None:
            value = ast.literal_eval(line)
            kind, number = target
            if kind == "msgctxt":
                current.msgctxt = (current.msgctxt or "") + value
            elif kind == "msgid":
                current.msgid += value
            elif kind == "msgid_plural":
                current.msgid_plural = (current.msgid_plural or "") + value
            else:
                current.msgstr[number] += value
        else:
            raise AssertionError(f"unreadable .po line: {raw!r}")
    return entries


def _new(entries: list[Entry]) -> Entry:
    entries.append(Entry())
    return entries[-1]


def _placeholders(text: str) -> tuple[set[str], int, set[str], list[str]]:
    named = set(NAMED_PLACEHOLDER.findall(text))
    positional = len(POSITIONAL_PLACEHOLDER.findall(NAMED_PLACEHOLDER.sub("", text.replace("%%", ""))))
    return named, positional, set(BRACE_PLACEHOLDER.findall(text)), sorted(HTML_TAG.findall(text))


CATALOGUE = parse_po(PO_FILE)
HEADER, MESSAGES = CATALOGUE[0], CATALOGUE[1:]


def test_parser_reads_the_whole_catalogue():
    assert HEADER.msgid == ""
    assert len(MESSAGES) > 400
    assert {"Log in", "Standings", "Table sheets"} <= {entry.msgid for entry in MESSAGES}
    assert len({(entry.msgctxt, entry.msgid) for entry in MESSAGES}) == len(MESSAGES)


def test_header_declares_german_plural_forms():
    header = HEADER.msgstr[0]
    assert "Language: de\\n" in header.replace("\n", "\\n")
    assert "Plural-Forms: nplurals=2; plural=(n != 1);" in header
    assert "charset=UTF-8" in header
    assert "fuzzy" not in HEADER.flags


def test_every_message_is_translated_and_none_is_fuzzy():
    untranslated = [e.msgid for e in MESSAGES if not all(e.msgstr.get(i, "").strip() for i in _forms(e))]
    fuzzy = [e.msgid for e in MESSAGES if "fuzzy" in e.flags]
    assert untranslated == []
    assert fuzzy == []


def _forms(entry: Entry) -> range:
    return range(2) if entry.msgid_plural is not None else range(1)


def test_translations_keep_placeholders_and_markup():
    """Same %(name)s / %s / {name} placeholders and HTML tags as the source, in every form."""
    mismatches = [(entry.msgid, text) for entry in MESSAGES for text in _mismatched_forms(entry)]
    assert mismatches == []


def _mismatched_forms(entry: Entry) -> list[str]:
    if entry.msgid_plural is None:
        return [] if _placeholders(entry.msgstr[0]) == _placeholders(entry.msgid) else [entry.msgstr[0]]
    singular, plural = _placeholders(entry.msgid), _placeholders(entry.msgid_plural)
    wrong = [] if _placeholders(entry.msgstr[1]) == plural else [entry.msgstr[1]]
    # The singular may leave out the number ("one card"), but may not invent a name.
    named, *rest = _placeholders(entry.msgstr[0])
    if not named <= singular[0] | plural[0] or rest != list(plural[1:]):
        wrong.append(entry.msgstr[0])
    return wrong


@pytest.mark.parametrize(
    ("source", "german"),
    [
        ("Standings", "Rangliste"),
        ("Table sheets", "Tischzettel"),
        ("Certificates", "Urkunden"),
        ("Table captain", "Tischkapitän"),
        ("Minus points", "Minuspunkte"),
        ("Skip", "Aussetzen"),
        ("Reverse", "Retour"),
        ("Wild", "Farbwahl"),
        ("deals", "gibt"),
        ("starts", "beginnt"),
    ],
)
def test_key_terms_use_the_clubs_vocabulary(source, german, german_catalogue):
    with translation.override("de"):
        assert translation.gettext(source) == german


@pytest.fixture
def german_catalogue():
    """The compiled catalogue, built from the .po if it is missing or older (as `make test` does)."""
    if not MO_FILE.exists() or MO_FILE.stat().st_mtime < PO_FILE.stat().st_mtime:
        call_command("compilemessages", locale=["de"], ignore_patterns=[".venv"], verbosity=0)
        trans_real._translations = {}  # drop catalogues loaded before the .mo existed
    return MO_FILE


def test_engine_messages_are_translated_with_their_parameters(german_catalogue):
    message = "%(player)s: the card %(token)s is unknown."
    with translation.override("de"):
        text = translation.gettext(message) % {"player": "Anna", "token": "X9"}
    assert text == "Anna: Die Karte X9 ist unbekannt."


def test_plural_forms_follow_the_count(german_catalogue):
    with translation.override("de"):
        assert translation.ngettext("%(n)s card", "%(n)s cards", 1) % {"n": 1} == "1 Karte"
        assert translation.ngettext("%(n)s card", "%(n)s cards", 3) % {"n": 3} == "3 Karten"


@pytest.mark.django_db
def test_login_page_is_german_by_default(client, settings, german_catalogue):
    settings.LANGUAGE_CODE = "de"
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de")
    body = response.content.decode()
    assert response.status_code == 200
    assert '<html lang="de">' in body
    assert "Anmeldung Turnierleitung" in body
    assert ">Anmelden</button>" in body
    assert "Log in" not in body


@pytest.mark.django_db
def test_switching_to_english_shows_the_source_strings(client, settings, german_catalogue):
    settings.LANGUAGE_CODE = "de"
    response = client.post(reverse("set_language"), {"language": "en", "next": reverse("login")})
    assert response.status_code == 302
    body = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="en">' in body
    assert "Organizer login" in body
    assert ">Log in</button>" in body
    assert "Anmelden" not in body


@pytest.mark.django_db
def test_the_upload_limits_are_named_in_german(organizer_client, tournament, german_catalogue):
    with translation.override("de"):
        assert translation.gettext("The file is larger than 50 MB.") == "Die Datei ist größer als 50 MB."
    body = CountingBody(multipart_head("players.csv"))  # endless, refused by its Content-Length
    response = post_body(
        organizer_client, reverse("organizer:players_import", args=[tournament.pk]), body,
        length=10**9, headers={"accept-language": "de"},
    )
    assert response.status_code == 413 and body.read_bytes == 0
    assert "Die Datei ist größer als 2 MB." in response.content.decode()
