"""Two gunicorns as on a server (HTTPS=1, ALLOWED_HOSTS set) and a client that reaches a proxy on
loopback by the site's name, for the tests of the files in deploy/."""

from __future__ import annotations

import http.client
import os
import socket
import ssl
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SITE = "uno.example.org"
START_TIMEOUT = 60  # seconds for gunicorn to answer its first request (Django and WeasyPrint load)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment of deploy/env.example, pointed at a temporary var/ with a SQLite database the
    two servers share (one machine; the database is not the subject here)."""
    env = {k: v for k, v in os.environ.items()
           if k not in {"DEBUG", "DATABASE_URL", "BACKUP_DIR", "MEDIA_ROOT", "STATIC_ROOT"}}
    env.update(
        DJANGO_SETTINGS_MODULE="tournament.settings", PYTHONPATH=str(ROOT), UNO_VAR_DIR=str(var_dir),
        HTTPS="1", ALLOWED_HOSTS=SITE, PUBLIC_BASE_URL=f"https://{SITE}", SECRET_KEY="deploy-test-key",
        HSTS_SECONDS="60", GUNICORN_WORKERS="1", GUNICORN_LOGLEVEL="warning", LOG_LEVEL="ERROR",
        GUNICORN_ACCESSLOG="-", **extra,
    )
    return env


def migrate(var_dir: Path) -> None:
    subprocess.run([sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"], cwd=ROOT,
                   env=server_env(var_dir), check=True, timeout=300)


@dataclass
class AppServer:
    port: int
    process: subprocess.Popen
    log: Path

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def stop(self) -> None:
        """As `systemctl stop`: SIGTERM, gunicorn finishes the requests it has and exits."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


@contextmanager
def app_servers(var_dir: Path, count: int = 2):
    """`count` gunicorns with gunicorn.conf.py on free loopback ports, one var/ (and database) between
    them, each with its own control socket; yields them once each answers /healthz with 200."""
    servers = []
    try:
        for number in range(count):
            port = free_port()
            log = var_dir / f"gunicorn-{number}.log"
            env = server_env(var_dir, GUNICORN_CONTROL_SOCKET=str(var_dir / f"gunicorn-{number}.ctl"))
            with log.open("w") as out:
                process = subprocess.Popen(
                    [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "-b", f"127.0.0.1:{port}"],
                    cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                )
            servers.append(AppServer(port, process, log))
        for server in servers:
            wait_for_health(server)
        yield servers
    finally:
        for server in servers:
            server.stop()


def wait_for_health(server: AppServer) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
            connection.request("GET", "/healthz")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        try:
            server.process.wait(timeout=0.1)  # the pause between two polls; at once if gunicorn stopped
        except subprocess.TimeoutExpired:
            pass
        else:
            raise AssertionError(f"gunicorn stopped:\n{server.log.read_text()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"gunicorn did not answer:\n{server.log.read_text()}")


class SiteConnection(http.client.HTTPSConnection):
    """HTTPS to a proxy on loopback, introduced as the site (SNI and Host), its certificate not checked
    (a test certificate)."""

    def __init__(self, port: int, timeout: float = 30) -> None:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        super().__init__(SITE, port, timeout=timeout, context=context)

    def connect(self) -> None:
        sock = socket.create_connection(("127.0.0.1", self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=SITE)


def wait_for_port(port: int, process: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            pass
        try:
            process.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            pass
        else:
            raise AssertionError(f"the proxy stopped:\n{log.read_text() if log.exists() else ''}")
        if time.monotonic() > deadline:
            raise AssertionError(f"the proxy did not listen:\n{log.read_text() if log.exists() else ''}")
