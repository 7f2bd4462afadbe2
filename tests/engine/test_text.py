"""The one text rule (engine.text): NFC, no control characters, length after normalising (#15 items 3, 6)."""

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.text import TextError, clean_text, fold, forbidden, has_forbidden, matches, search_words

CONTROLS = ["\x00", "\x1b", "\x0b", "\x07", "\x0c", "\x7f", "\x85", "\u2028", "\u202e", "\ufffe"]


@pytest.mark.parametrize("ch", CONTROLS)
def test_control_characters_are_refused(ch):
    with pytest.raises(TextError) as exc:
        clean_text(f"Anna{ch}Alt")
    assert exc.value.code == "control_character"


def test_nfc_and_surrounding_space():
    assert clean_text("  Mu\u0308ller ") == "Müller"
    assert clean_text(None) == ""


def test_length_is_counted_after_normalising():
    assert clean_text("u\u0308" * 3, max_length=3) == "üüü"
    with pytest.raises(TextError) as exc:
        clean_text("abcd", max_length=3)
    assert exc.value.code == "too_long" and exc.value.max_length == 3


def test_multiline_allows_newline_and_tab_only():
    assert clean_text("a\r\nb\tc", multiline=True) == "a\nb\tc"
    with pytest.raises(TextError):
        clean_text("a\nb")


@given(st.text())
def test_cleaned_text_has_no_forbidden_character_and_is_nfc(text):
    try:
        cleaned = clean_text(text)
    except TextError:
        return
    assert not any(forbidden(ch) for ch in cleaned)
    assert unicodedata.is_normalized("NFC", cleaned)


@pytest.mark.parametrize(
    ("typed", "words"),
    [
        ("anna  mül", ["anna", "mül"]),
        ("Ann\x00a", ["Ann", "a"]),
        ("Anna\x00", ["Anna"]),
        ("\x00\x00", []),
        ("Mu\u0308ller\u202e", ["Müller"]),
        ("", []),
    ],
)
def test_search_words_never_carry_a_character_no_stored_text_holds(typed, words):
    assert search_words(typed) == words


@given(st.text(st.characters(max_codepoint=0x30000)) | st.text(st.characters(max_codepoint=0x7F)),
       st.booleans())
def test_has_forbidden_agrees_with_the_rule_for_every_character(text, multiline):
    """The fast path for printable ASCII gives what the character rule gives."""
    assert has_forbidden(text, multiline=multiline) == any(forbidden(ch, multiline=multiline) for ch in text)


@pytest.mark.parametrize(
    ("typed", "stored"),
    [("muller", "Müller"), ("mueller", "Müller"), ("MÜLLER", "Mueller"), ("strasse", "Straße"),
     ("STRAUSS", "Strauß"), ("Cel", "Çelik"), ("ozturk", "Öztürk")],
)
def test_fold_makes_the_spellings_of_a_name_equal(typed, stored):
    assert fold(typed) in fold(stored)
    assert matches(typed, "Anna", stored)


def test_every_word_must_match_somewhere():
    assert matches("anna sud", "Anna Alt", "UNO Süd")
    assert not matches("anna nord", "Anna Alt", "UNO Süd")


@pytest.mark.parametrize("text", ["aee", "uee", "\u2121", "Ｍüｌｌｅｒ", "oeoe  e"])
def test_a_folded_text_folds_to_itself(text):
    assert fold(fold(text)) == fold(text)


@given(st.text(max_size=20))
def test_fold_is_idempotent(text):
    assert fold(fold(text)) == fold(text)
