"""A PDF read back word by word (pdftotext -bbox): where each word lies, and what leaves the printable
area or overlaps another word. Shared by the layout tests of the printed documents."""

import html
import io
import re
import subprocess
from dataclasses import dataclass

from pypdf import PdfReader

MM = 72 / 25.4  # PDF points per millimetre
PRINTABLE = 5 * MM  # what an office printer cannot reach at each edge
OVERLAP = 0.6  # points two word boxes may share (antialiasing, kerning), no more

_PAGE = re.compile(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', re.S)
_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


@dataclass(frozen=True)
class Word:
    page: int
    x0: float
    y0: float
    x1: float
    y1: float
    text: str


def words(pdf: bytes, tmp_path) -> tuple[list[tuple[float, float]], list[Word]]:
    path = tmp_path / "doc.pdf"
    path.write_bytes(pdf)
    out = subprocess.run(
        ["pdftotext", "-bbox", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages, found = [], []
    for number, (width, height, body) in enumerate(_PAGE.findall(out)):
        pages.append((float(width), float(height)))
        found += [
            Word(number, float(a), float(b), float(c), float(d), text)
            for a, b, c, d, text in _WORD.findall(body)
        ]
    return pages, found


def problems(pdf: bytes, tmp_path) -> list[str]:
    pages, found = words(pdf, tmp_path)
    issues = []
    # pdftotext leaves out what lies off the page; pypdf reads every word drawn, wherever it is.  pypdf
    # sometimes runs the last word of a line into the first of the next paragraph ("Hohenberg" and
    # "UNO-Freunde" read as one), so a word made of words on the page is not off it.
    drawn = {w for page in PdfReader(io.BytesIO(pdf)).pages for w in page.extract_text().split()}
    on_page = {w.text for w in found} | {html.unescape(w.text) for w in found}
    cut_off = {w for w in drawn if not _made_of(w, on_page)}
    issues += [f"{word!r} is drawn off the page" for word in sorted(cut_off)]
    for word in found:
        width, height = pages[word.page]
        inside = word.x0 >= PRINTABLE and word.y0 >= PRINTABLE
        inside = inside and word.x1 <= width - PRINTABLE and word.y1 <= height - PRINTABLE
        if not inside:
            issues.append(f"page {word.page + 1}: {word.text!r} leaves the printable area")
    by_page: dict[int, list[Word]] = {}
    for word in found:
        by_page.setdefault(word.page, []).append(word)
    for page_words in by_page.values():
        page_words.sort(key=lambda w: w.x0)
        for i, a in enumerate(page_words):
            for b in page_words[i + 1:]:
                if b.x0 >= a.x1 - OVERLAP:
                    break
                across = min(a.x1, b.x1) - max(a.x0, b.x0)
                if across > OVERLAP and min(a.y1, b.y1) - max(a.y0, b.y0) > OVERLAP:
                    issues.append(f"page {a.page + 1}: {a.text!r} overlaps {b.text!r}")
    return issues


def _made_of(text: str, on_page: set[str]) -> bool:
    """Whether ``text`` is one or more words of ``on_page`` run together."""
    ends = {0}  # the positions up to which ``text`` is made of words on the page
    for i in range(1, len(text) + 1):
        if any(text[j:i] in on_page for j in ends):
            ends.add(i)
    return len(text) in ends
