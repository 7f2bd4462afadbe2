"""The one cleaning of typed and imported text: names, clubs, venues, notation, restored backups.

Text is normalised to NFC (an "ö" typed on a Mac and one typed on Windows are the same name) and
surrounding whitespace is dropped. Control characters are refused, not silently removed: NUL, escape,
bell, vertical tab, form feed and the rest of Unicode's Cc category, the line and paragraph separators,
the bidirectional overrides (which can make a name display as another) and non-characters. In a
multi-line text, newline and tab are allowed. Length is counted after normalisation.
"""

from __future__ import annotations

import unicodedata

_BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c")
_SEPARATORS = frozenset("\u2028\u2029\x85")


class TextError(ValueError):
    """`code` is 'control_character' or 'too_long'."""

    def __init__(self, code: str, text: str, *, max_length: int | None = None) -> None:
        super().__init__(code, text)
        self.code = code
        self.text = text
        self.max_length = max_length


def forbidden(ch: str, *, multiline: bool = False) -> bool:
    if multiline and ch in "\n\t\r":
        return False
    if ch in _BIDI_CONTROLS or ch in _SEPARATORS:
        return True
    category = unicodedata.category(ch)
    if category in ("Cc", "Cs", "Co"):
        return True
    code = ord(ch)
    return (code & 0xFFFE) == 0xFFFE or 0xFDD0 <= code <= 0xFDEF


def has_forbidden(text: str, *, multiline: bool = False) -> bool:
    """Whether `text` holds a character `forbidden` refuses; printable ASCII (most text) at C speed."""
    if text.isascii() and text.isprintable():
        return False
    return any(forbidden(ch, multiline=multiline) for ch in text)


def clean_text(raw: object, *, max_length: int | None = None, multiline: bool = False) -> str:
    """`raw` as it may be stored; raises TextError. None is the empty text."""
    if raw is None:
        return ""
    text = unicodedata.normalize("NFC", str(raw)).strip()
    if has_forbidden(text, multiline=multiline):
        raise TextError("control_character", text)
    if multiline:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if max_length is not None and len(text) > max_length:
        raise TextError("too_long", text, max_length=max_length)
    return text


def search_words(raw: str) -> list[str]:
    """The words of a search box, NFC. A character no stored text can hold (see `forbidden`) separates
    words instead of reaching the database: PostgreSQL refuses NUL in a query, SQLite would not match."""
    text = "".join(" " if forbidden(ch) else ch for ch in unicodedata.normalize("NFC", raw))
    return text.split()


_DIGRAPHS = (("ae", "a"), ("oe", "o"), ("ue", "u"))

# Letters without a Unicode decomposition that a German keyboard types as their plain letter
# (the dotless i of Turkish names, "Łukasz" typed "Lukasz", "Søren" "Soren").
_PLAIN_LETTERS = str.maketrans({"\u0131": "i", "\u0142": "l", "\u00f8": "o", "\u0111": "d"})


def _letters(text: str) -> str:
    """Casefolded (ß → ss), compatibility forms and accents dropped, plain letters for the few with no
    decomposition, spaces collapsed; repeated until nothing changes."""
    while True:
        decomposed = unicodedata.normalize("NFKD", text.casefold().translate(_PLAIN_LETTERS))
        plain = " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())
        if plain == text:
            return plain
        text = plain


def fold(text: str) -> str:
    """A name as a search compares it: case, accents and German spellings folded the same way for
    what is stored and what is typed ("Müller", "mueller", "MULLER" and "Muller" all fold to
    "muller"; "Strauß" and "Strauss" to "strauss"; Turkish dotless i as "i"), spaces collapsed.
    Forgiving where `name_key` is strict: two names with one `name_key` always fold alike. The steps
    repeat until nothing changes, so a folded text folds to itself ("aee" → "ae" → "a"; "℡" → "tel")."""
    while True:
        plain = _letters(text)
        for digraph, letter in _DIGRAPHS:
            plain = plain.replace(digraph, letter)
        if plain == text:
            return plain
        text = plain


def matches(query: str, *texts: str) -> bool:
    """Whether every word of `query` is in one of `texts`, folded (`fold`)."""
    haystack = " ".join(fold(text) for text in texts)
    return all(fold(word) in haystack for word in search_words(query))


# German umlauts as their spelling without dots; the dotless i as i (what an "I" typed in capitals is).
_SPELLINGS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "\u0131": "i"})


def name_key(text: str) -> str:
    """A name as identity compares it ("the same person", "the same club"), the same on every database:
    compatibility forms, case and German spellings folded ("Müller", "MÜLLER" and "Mueller" are one
    key; "Strauß" and "Strauss" too), other accents dropped ("é" → "e"), spaces collapsed. Unlike
    `fold` it keeps "ae" apart from "a": "Michael" and "Michal" are two people, "Muller" is not
    "Müller". The steps repeat until nothing changes, so a key is its own key."""
    while True:
        folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", text).casefold())
        decomposed = unicodedata.normalize("NFKD", folded.translate(_SPELLINGS))
        plain = " ".join("".join(ch for ch in decomposed if not unicodedata.combining(ch)).split())
        if plain == text:
            return plain
        text = plain


# Between the first and the last name of a person's key: whitespace, so never inside a `name_key`.
KEY_SEPARATOR = "\t"


def person_key(first_name: str, last_name: str) -> str:
    """A person's identity by name (`name_key` of each part): first and last name are kept apart, so
    "Anna Maria" "Schmidt" and "Anna" "Maria Schmidt" stay two keys, as they are two records."""
    return f"{name_key(first_name)}{KEY_SEPARATOR}{name_key(last_name)}"


def sort_key(text: str) -> tuple[str, str]:
    """A text as German lists sort it (DIN 5007-1, the dictionary order): ä as a, ö as o, ü as u, ß as
    ss, other accents dropped, case ignored, so "Schäfer" comes before "Schröder" and "Öztürk" among
    the O's. The text itself decides between two that sort alike, so an order never depends on the
    order rows arrived in."""
    return _letters(text), text


def person_sort_key(last_name: str, first_name: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """A person as every list of names sorts them: by last name, then first name (`sort_key`)."""
    return sort_key(last_name), sort_key(first_name)
