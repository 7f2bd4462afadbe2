"""The address printed and encoded for phones is never a loopback address (tournament/qr.py)."""

import ipaddress
import re
import socket
import subprocess

import pytest
import segno
from django.test import RequestFactory
from django.urls import reverse

from tournament import qr

LAN = "192.168.1.23"


@pytest.fixture
def lan(monkeypatch):
    monkeypatch.setattr(qr, "network_address", lambda: LAN)


@pytest.fixture
def offline(monkeypatch):
    monkeypatch.setattr(qr, "network_address", lambda: None)


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000", "127.0.1.1:8000"])
def test_a_loopback_host_becomes_the_network_address(lan, settings, host):
    settings.PUBLIC_BASE_URL = ""
    request = RequestFactory().get("/", HTTP_HOST=host)
    assert qr.absolute_url("/t/abc/", request) == f"http://{LAN}:8000/t/abc/"
    assert not qr.unreachable_address(request)


def test_a_loopback_host_without_port_keeps_no_port(lan, settings):
    settings.PUBLIC_BASE_URL = ""
    request = RequestFactory().get("/", HTTP_HOST="localhost")
    assert qr.absolute_url("/t/abc/", request) == f"http://{LAN}/t/abc/"


def test_an_address_of_this_machine_is_kept(lan, settings, monkeypatch):
    settings.PUBLIC_BASE_URL = ""
    monkeypatch.setattr(qr, "local_address", lambda host: host == "10.0.0.5")
    request = RequestFactory().get("/", HTTP_HOST="10.0.0.5:8000")
    assert qr.absolute_url("/t/abc/", request) == "http://10.0.0.5:8000/t/abc/"


@pytest.mark.parametrize("host", ["evil.example:80", "attacker.test", "203.0.113.9:8000", "uno.example.org"])
def test_a_forged_host_never_reaches_a_link(lan, settings, host):
    """With the hall's ALLOWED_HOSTS=* any Host passes Django's check: a link is built from this
    machine's own address and port instead (#40 finding 5)."""
    settings.PUBLIC_BASE_URL, settings.ALLOWED_HOSTS, settings.SERVER_PORT = "", ["*"], 8000
    request = RequestFactory().get("/", HTTP_HOST=host)
    assert qr.absolute_url("/p/1/signup/x/", request) == f"http://{LAN}:8000/p/1/signup/x/"


def test_a_host_django_checked_is_used(lan, settings):
    settings.PUBLIC_BASE_URL, settings.ALLOWED_HOSTS = "", ["uno.example.org"]
    request = RequestFactory().get("/", HTTP_HOST="uno.example.org", secure=True)
    assert qr.absolute_url("/t/abc/", request) == "https://uno.example.org/t/abc/"


def test_the_machine_s_own_addresses_are_recognised_without_sending_anything():
    assert qr.local_address("127.0.0.1") and qr.own_host("localhost")
    assert not qr.local_address("203.0.113.9") and not qr.own_host("evil.example")


def test_the_public_base_url_wins(lan, settings):
    settings.PUBLIC_BASE_URL = "https://uno.example.org"
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    assert qr.absolute_url("/t/abc/", request) == "https://uno.example.org/t/abc/"


def test_without_a_network_address_the_loopback_stays_and_is_flagged(offline, settings):
    settings.PUBLIC_BASE_URL = ""
    request = RequestFactory().get("/", HTTP_HOST="127.0.0.1:8000")
    assert qr.absolute_url("/t/abc/", request) == "http://127.0.0.1:8000/t/abc/"
    assert qr.unreachable_address(request)


def test_the_network_address_is_found_without_sending_anything(monkeypatch):
    sent = []
    monkeypatch.setattr(socket.socket, "send", lambda self, *a: sent.append(a))
    monkeypatch.setattr(socket.socket, "sendto", lambda self, *a: sent.append(a))
    address = qr.network_address()
    assert sent == []
    hostname_i = subprocess.run(["hostname", "-I"], capture_output=True, text=True).stdout.split()
    ipv4 = [a for a in hostname_i if "." in a and not a.startswith("127.")]
    if ipv4:
        assert address in ipv4
    if address is not None:
        assert not ipaddress.ip_address(address).is_loopback


def test_no_network_address_when_the_probe_fails(monkeypatch):
    def refuse(self, address):
        raise OSError("network unreachable")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    assert qr.network_address() is None


def test_captain_links_page_prints_the_network_address(lan, organizer_client, table, settings):
    settings.PUBLIC_BASE_URL = ""
    url = reverse("organizer:round_links", args=[table.round.tournament_id, table.round.number])
    html = organizer_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert f"http://{LAN}:8000/t/{table.token}/" in html
    assert "127.0.0.1" not in html
    assert "address-warning" not in html


def test_captain_links_page_says_what_to_do_without_a_network(offline, organizer_client, table, settings):
    settings.PUBLIC_BASE_URL = ""
    url = reverse("organizer:round_links", args=[table.round.tournament_id, table.round.number])
    html = organizer_client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert "address-warning" in html
    assert "Connect this computer to the hall network" in html


def test_documents_page_says_what_to_do_without_a_network(offline, organizer_client, tournament, settings):
    settings.PUBLIC_BASE_URL = ""
    url = reverse("print:documents", args=[tournament.pk])
    html = organizer_client.get(url, HTTP_HOST="localhost").content
    assert b"address-warning" in html


def test_table_sheet_prints_the_network_address(lan, organizer_client, table, settings, tmp_path):
    settings.PUBLIC_BASE_URL = ""
    url = reverse("print:table_sheets", args=[table.round.tournament_id, table.round.number])
    pdf = tmp_path / "sheets.pdf"
    pdf.write_bytes(organizer_client.get(url, HTTP_HOST="127.0.0.1:8000").content)
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    assert f"{LAN}:8000/t/" in text
    assert "127.0.0.1" not in text


def test_projector_footer_shows_the_network_address(lan, client, tournament, settings):
    settings.PUBLIC_BASE_URL = ""
    tournament.public = True
    tournament.save()
    html = client.get(reverse("public:projector", args=[tournament.pk]), HTTP_HOST="127.0.0.1:8000").content
    assert f"http://{LAN}:8000/p/{tournament.pk}/".encode() in html
    assert b"127.0.0.1" not in html


def test_qr_svg_scales_without_clipping():
    svg = str(qr.qr_svg("http://192.168.1.23:8000/p/1/", scale=4))
    width, height, box = re.match(r'<svg width="(\d+)" height="(\d+)" viewBox="([\d ]+)"', svg).groups()
    assert box == f"0 0 {width} {height}"  # drawn in its own box: CSS may size it at will
    modules = segno.make("http://192.168.1.23:8000/p/1/", error="m").symbol_size(scale=1, border=2)[0]
    assert width == height and int(width) == 4 * modules
