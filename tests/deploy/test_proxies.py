"""deploy/caddy and deploy/nginx, started on loopback in front of two gunicorns set up as on a server
(HTTPS=1, ALLOWED_HOSTS set): the pages come through, also while one app server is stopped, and the
health probe keeps the healthy server in.

Skipped only where caddy or nginx is not installed; scripts/system-packages.sh installs both for
`make test`. The figures (answered, errors, lost, retried) are printed (`pytest -s`)."""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

import pytest

from .load import CLIENTS, Tally, run
from .servers import ROOT, SITE, AppServer, SiteConnection, app_servers, free_port, migrate, wait_for_port

DEPLOY = ROOT / "deploy"
CADDY = shutil.which("caddy")
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
OPENSSL = shutil.which("openssl")


@pytest.fixture(scope="module")
def var_dir(tmp_path_factory) -> Path:
    var_dir = tmp_path_factory.mktemp("var")
    migrate(var_dir)
    return var_dir


def substituted(text: str, replacements: dict[str, str]) -> str:
    """The file with the test's addresses; each replaced text must be in it (the file is the subject)."""
    for old, new in replacements.items():
        assert old in text, f"{old!r} is no longer in the file"
        text = text.replace(old, new)
    return text


def stopped(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def caddy(config: str, work: Path):
    """Caddy with deploy/caddy's site block, on loopback ports, its certificate from its own local CA."""
    http_port, https_port = free_port(), free_port()
    log = work / "caddy.log"
    global_options = (
        "{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n\tdefault_bind 127.0.0.1\n"
        f"\thttp_port {http_port}\n\thttps_port {https_port}\n\tdefault_sni {SITE}\n"
        f"\tlog {{\n\t\toutput file {log}\n\t\tlevel DEBUG\n\t}}\n}}\n"
    )
    caddyfile = work / "Caddyfile"
    caddyfile.write_text(global_options + config)
    env = {**os.environ, "HOME": str(work), "XDG_DATA_HOME": str(work / "data"),
           "XDG_CONFIG_HOME": str(work / "config")}
    out = work / "caddy.out"
    with out.open("w") as stream:
        process = subprocess.Popen([CADDY, "run", "--config", str(caddyfile), "--adapter", "caddyfile"],
                                   env=env, stdout=stream, stderr=subprocess.STDOUT)
    try:
        wait_for_port(https_port, process, out)
        yield https_port, log
    finally:
        stopped(process)


def certificate(work: Path) -> tuple[Path, Path]:
    cert, key = work / "fullchain.pem", work / "privkey.pem"
    subprocess.run(
        [OPENSSL, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", f"/CN={SITE}",
         "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )
    return cert, key


@contextmanager
def nginx(site: str, work: Path):
    """nginx with deploy/nginx's server blocks in a minimal nginx.conf of its own, on loopback ports."""
    http_port, https_port = free_port(), free_port()
    cert, key = certificate(work)
    site = substituted(site, {
        "listen 80;": f"listen 127.0.0.1:{http_port};", "listen [::]:80;\n": "",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{https_port} ssl http2;",
        "listen [::]:443 ssl http2;\n": "",
        f"/etc/letsencrypt/live/{SITE}/fullchain.pem": str(cert),
        f"/etc/letsencrypt/live/{SITE}/privkey.pem": str(key),
    })
    (work / "uno.conf").write_text(site)
    user = f"user {getpass.getuser()};\n" if os.geteuid() == 0 else ""
    temp = {name: work / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for folder in temp.values():
        folder.mkdir()
    (work / "nginx.conf").write_text(
        f"{user}worker_processes 1;\ndaemon off;\npid {work / 'nginx.pid'};\n"
        f"error_log {work / 'error.log'} info;\nevents {{ worker_connections 256; }}\n"
        "http {\n"
        "    log_format uno '$request_method $status $upstream_addr $upstream_status';\n"
        f"    access_log {work / 'access.log'} uno;\n"
        f"    client_body_temp_path {temp['body']};\n    proxy_temp_path {temp['proxy']};\n"
        f"    fastcgi_temp_path {temp['fastcgi']};\n    uwsgi_temp_path {temp['uwsgi']};\n"
        f"    scgi_temp_path {temp['scgi']};\n"
        f"    include {work / 'uno.conf'};\n}}\n"
    )
    out = work / "nginx.out"
    with out.open("w") as stream:
        process = subprocess.Popen([NGINX, "-p", str(work), "-c", str(work / "nginx.conf"), "-e",
                                    str(work / "error.log")], stdout=stream, stderr=subprocess.STDOUT)
    try:
        wait_for_port(https_port, process, work / "error.log")
        yield https_port, http_port
    finally:
        stopped(process)


def get(port: int, path: str) -> tuple[int, dict[str, str]]:
    connection = SiteConnection(port)
    try:
        connection.request("GET", path, headers={"Host": f"{SITE}:{port}"})
        answer = connection.getresponse()
        answer.read()
        return answer.status, {k.lower(): v for k, v in answer.getheaders()}
    finally:
        connection.close()


def served(server: AppServer) -> int:
    """Requests the server's access log shows (its lines with an HTTP status after the request)."""
    return sum(1 for line in server.log.read_text().splitlines() if '" 200 ' in line or '" 302 ' in line)


def report(name: str, tally: Tally, retried: int) -> dict[str, Counter]:
    """Prints the figures (`pytest -s`) and returns them by kind and method."""
    figures = tally.figures()
    statuses = sorted({status for _, status in tally.answers if status is None or status >= 400}, key=str)
    total = {kind: sum(counter.values()) for kind, counter in figures.items()}
    print(f"\n{name}: {len(tally.answers)} requests, answered {total['ok']}, errors {total['errors']}, "
          f"lost {total['lost']}, retried on the other server {retried}; by method {figures}, "
          f"error statuses {statuses}")
    return figures


needs_caddy = pytest.mark.skipif(CADDY is None, reason="caddy is not installed (scripts/system-packages.sh)")
needs_nginx = pytest.mark.skipif(NGINX is None or OPENSSL is None,
                                 reason="nginx or openssl is not installed (scripts/system-packages.sh)")


@needs_caddy
def test_caddy_with_two_servers_keeps_serving_while_one_is_stopped(var_dir, tmp_path):
    with app_servers(var_dir) as (first, second):
        config = substituted((DEPLOY / "caddy" / "Caddyfile.two-servers").read_text(), {
            "10.0.0.11:8000 10.0.0.12:8000": f"{first.address} {second.address}",
        })
        with caddy(config, tmp_path) as (port, log):
            status, headers = get(port, "/accounts/login/")
            # Served (not 503: the health probe by the backend's address passed), with the app's headers.
            assert status == 200
            assert headers["strict-transport-security"].startswith("max-age=60")
            tally = run(port, first.stop, origin=f"https://{SITE}:{port}")
            retried = log.read_text().count(f"dial tcp {first.address}: connect: connection refused")
    figures = report("Caddy", tally, retried)
    assert served(first) > 0 and served(second) > 0  # both took requests before the stop
    assert retried > 0  # requests did meet the stopped server, and went on to the other
    assert figures["lost"] == Counter()
    # Caddy resends GET and HEAD; a POST that met the stopped server before it was marked down is
    # answered 502 (never resent with an empty body), or 503 while its one try is still counted against
    # the server it went to (on a busy machine): at most one per client, and the client sends it again.
    assert figures["errors"]["GET"] == 0
    assert figures["errors"]["POST"] <= CLIENTS
    assert {status for _, status in tally.answers if status >= 400} <= {502, 503}


@needs_nginx
def test_nginx_with_two_servers_keeps_serving_while_one_is_stopped(var_dir, tmp_path):
    with app_servers(var_dir) as (first, second):
        site = substituted((DEPLOY / "nginx" / "uno-two-servers.conf").read_text(), {
            "server 10.0.0.11:8000": f"server {first.address}",
            "server 10.0.0.12:8000": f"server {second.address}",
        })
        with nginx(site, tmp_path) as (port, _http_port):
            status, headers = get(port, "/accounts/login/")
            assert status == 200
            assert headers["strict-transport-security"].startswith("max-age=60")
            tally = run(port, first.stop, origin=f"https://{SITE}")  # its Host $host has no port
        access = (tmp_path / "access.log").read_text().splitlines()
    retried = sum(1 for line in access if f"{first.address}, {second.address}" in line)
    figures = report("nginx", tally, retried)
    assert served(first) > 0 and served(second) > 0
    assert retried > 0
    # nginx keeps the body itself, so it resends any request that met a refused connection.
    assert figures["lost"] == Counter()
    assert figures["errors"] == Counter()


@needs_nginx
def test_nginx_one_server_redirects_http_and_serves_https(var_dir, tmp_path):
    with app_servers(var_dir, count=1) as (only,):
        site = substituted((DEPLOY / "nginx" / "uno.conf").read_text(), {
            "proxy_pass http://127.0.0.1:8000;": f"proxy_pass http://{only.address};",
        })
        with nginx(site, tmp_path) as (port, http_port):
            status, _ = get(port, "/accounts/login/")
            plain = subprocess.run(
                ["curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{redirect_url}", "-H",
                 f"Host: {SITE}", f"http://127.0.0.1:{http_port}/p/"],
                capture_output=True, text=True, timeout=30,
            ) if shutil.which("curl") else None
    assert status == 200
    if plain is not None:
        assert plain.stdout == f"301 https://{SITE}/p/"


@needs_caddy
def test_caddy_one_server_serves_through_its_health_probe(var_dir, tmp_path):
    with app_servers(var_dir, count=1) as (only,):
        config = substituted((DEPLOY / "caddy" / "Caddyfile").read_text(), {
            "reverse_proxy 127.0.0.1:8000": f"reverse_proxy {only.address}",
        })
        with caddy(config, tmp_path) as (port, log):
            status, _ = get(port, "/accounts/login/")
            probes = log.read_text()
    assert status == 200
    assert "unhealthy" not in probes.lower()
