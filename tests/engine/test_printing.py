"""engine.printing: who deals and starts, the local-only URL fetcher, one-pass PDF rendering."""

import io
import socket
import threading
from datetime import date, timedelta
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader

from engine.printing import FetchRefused, LocalFileFetcher, render_pdf, table_roles

# --- who deals (oldest) and who starts (youngest) ------------------------------------------------


def test_full_birth_dates_decide_dealer_and_starter():
    roles = table_roles({1: (1980, 5, 2), 2: (1950, 1, 30), 3: (2001, 12, 24), 4: (1990, 7, 7)})
    assert roles.dealer == 2
    assert roles.starter == 3


def test_a_missing_birth_leaves_both_roles_to_the_table():
    roles = table_roles({1: (1980, 5, 2), 2: None, 3: (2001, 12, 24)})
    assert roles.dealer is None
    assert roles.starter is None


def test_year_only_decides_when_the_years_differ():
    roles = table_roles({1: (1961, 0, 0), 2: (1975, 3, 1), 3: (1990, 0, 0)})
    assert (roles.dealer, roles.starter) == (1, 3)


def test_same_year_with_only_the_year_known_is_undecided():
    roles = table_roles({1: (1961, 0, 0), 2: (1961, 4, 1), 3: (1990, 6, 6)})
    assert roles.dealer is None  # 1 may be born before or after 2
    assert roles.starter == 3


def test_month_only_birth_covers_the_whole_month():
    assert table_roles({1: (1970, 2, 0), 2: (1970, 2, 28)}).dealer is None
    assert table_roles({1: (1970, 2, 0), 2: (1970, 3, 1)}).dealer == 1
    assert table_roles({1: (1970, 12, 0), 2: (1971, 1, 1)}).dealer == 1


def test_twins_share_the_day_and_nobody_is_chosen():
    roles = table_roles({1: (1988, 8, 8), 2: (1988, 8, 8)})
    assert (roles.dealer, roles.starter) == (None, None)


births = st.one_of(
    st.none(),
    st.dates(date(1920, 1, 1), date(2015, 12, 31)).map(lambda d: (d.year, d.month, d.day)),
    st.integers(1920, 2015).map(lambda y: (y, 0, 0)),
)


@given(st.dictionaries(st.integers(1, 10), births, min_size=2, max_size=10))
def test_a_chosen_dealer_is_certainly_the_oldest_and_a_starter_the_youngest(table):
    roles = table_roles(table)

    def span(born):
        year, month, day = born
        if not month:
            return date(year, 1, 1), date(year, 12, 31)
        if not day:
            return date(year, month, 1), date(year, month, 28)  # the bound only needs to be inside
        return date(year, month, day), date(year, month, day)

    if roles.dealer is not None:
        latest = span(table[roles.dealer])[1]
        assert all(latest < span(b)[0] for k, b in table.items() if k != roles.dealer)
    if roles.starter is not None:
        earliest = span(table[roles.starter])[0]
        assert all(earliest > span(b)[1] for k, b in table.items() if k != roles.starter)
    if any(born is None for born in table.values()):
        assert roles.dealer is None and roles.starter is None


def test_distinct_full_dates_always_decide():
    base = date(1960, 1, 1)
    table = {k: ((base + timedelta(days=400 * k)).year, (base + timedelta(days=400 * k)).month,
                 (base + timedelta(days=400 * k)).day) for k in range(1, 6)}
    assert table_roles(table) == table_roles(dict(reversed(table.items())))
    assert (table_roles(table).dealer, table_roles(table).starter) == (1, 5)


# --- the fetcher ----------------------------------------------------------------------------------


@pytest.fixture
def static_dir(tmp_path):
    folder = tmp_path / "static"
    (folder / "css").mkdir(parents=True)
    (folder / "css" / "doc.css").write_text("p.big { font-size: 30pt; }")
    (tmp_path / "secret.txt").write_text("not for printing")
    return folder


def test_fetcher_serves_files_below_a_root_only(static_dir):
    fetcher = LocalFileFetcher([static_dir])
    response = fetcher.fetch((static_dir / "css" / "doc.css").as_uri())
    assert response.read() == b"p.big { font-size: 30pt; }"
    assert response.content_type == "text/css"
    for url in (
        (static_dir.parent / "secret.txt").as_uri(),
        static_dir.as_uri() + "/../secret.txt",
        "http://127.0.0.1:9/x.png",
        "https://example.org/font.woff2",
        "ftp://example.org/x",
        "file://otherhost/etc/passwd",
    ):
        with pytest.raises(FetchRefused):
            fetcher.fetch(url)
    assert len(fetcher.refused) == 6
    assert fetcher.served == [(static_dir / "css" / "doc.css").as_uri()]


def test_fetcher_refuses_a_symlink_out_of_the_root(static_dir):
    (static_dir / "link.txt").symlink_to(static_dir.parent / "secret.txt")
    with pytest.raises(FetchRefused):
        LocalFileFetcher([static_dir]).fetch((static_dir / "link.txt").as_uri())


# --- rendering ------------------------------------------------------------------------------------


class CountingHandler(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self):
        CountingHandler.hits.append(self.path)
        self.send_response(200)
        self.send_header("Content-Type", "text/css")
        self.end_headers()
        self.wfile.write(b"p { color: red; }")

    def log_message(self, *args):
        pass


@pytest.fixture
def http_server():
    CountingHandler.hits = []
    server = HTTPServer(("127.0.0.1", 0), CountingHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_render_makes_no_http_request_and_reads_local_css(static_dir, http_server, monkeypatch):
    connections = []
    real_connect = socket.socket.connect

    def spy_connect(self, address):
        connections.append(address)
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", spy_connect)
    html = f"""<html><head>
      <link rel="stylesheet" href="css/doc.css">
      <link rel="stylesheet" href="{http_server}/evil.css">
      <style>@import url("{http_server}/import.css");
      @font-face {{ font-family: X; src: url({http_server}/f.woff); }}
      .page {{ break-after: page; }}</style></head>
      <body><div class="page"><p class="big">Erste Seite</p><img src="{http_server}/img.png"></div>
      <div class="page"><p>Zweite Seite</p></div>
      <div><p style="font-family: X">Dritte Seite</p></div></body></html>"""
    fetcher = LocalFileFetcher([static_dir])
    pdf = render_pdf(html, base_url=static_dir.as_uri() + "/", fetcher=fetcher)

    assert CountingHandler.hits == []
    assert connections == []
    assert {url.rsplit("/", 1)[1] for url in fetcher.refused} >= {"evil.css", "img.png"}
    assert fetcher.served == [(static_dir / "css" / "doc.css").as_uri()]
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 3
    texts = [page.extract_text().strip() for page in reader.pages]
    assert texts == ["Erste Seite", "Zweite Seite", "Dritte Seite"]


def test_render_uses_local_dejavu_fonts(static_dir):
    pdf = render_pdf("<p style='font-family: DejaVu Sans'>Grüße</p>", base_url=static_dir.as_uri() + "/")
    reader = PdfReader(io.BytesIO(pdf))
    fonts = reader.pages[0]["/Resources"]["/Font"].get_object()
    names = [str(font.get_object()["/BaseFont"]) for font in fonts.values()]
    assert any("DejaVu-Sans" in name for name in names)
    assert "Grüße" in reader.pages[0].extract_text()
