"""engine.printing: the local-only URL fetcher, one-pass PDF rendering."""

import io
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest
from pypdf import PdfReader

from engine.printing import FetchRefused, LocalFileFetcher, render_pdf

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
