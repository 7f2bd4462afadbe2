"""Production settings: `check --deploy` is clean with HTTPS on, and gunicorn's config loads."""

import os
import runpy
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

pytestmark = pytest.mark.one_database  # settings and the server config

ROOT = Path(__file__).resolve().parents[2]


def run_with_env(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "HTTPS", "UNO_HTTPS", "SECRET_KEY"}}
    base.update({"UNO_VAR_DIR": str(tmp_path), "DJANGO_SETTINGS_MODULE": "tournament.settings", **env})
    return subprocess.run(args, cwd=ROOT, env=base, capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_https_on(tmp_path):
    result = run_with_env(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], tmp_path, HTTPS="1"
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_check_deploy_accepts_the_uno_prefixed_switch(tmp_path):
    result = run_with_env(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], tmp_path, UNO_HTTPS="1"
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_check_deploy_flags_debug_even_with_https(tmp_path):
    result = run_with_env(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], tmp_path,
        HTTPS="1", DEBUG="1",
    )
    assert result.returncode != 0
    assert "security.W018" in result.stdout + result.stderr


def test_hall_mode_serves_plain_http_and_https_mode_hardens(tmp_path):
    code = (
        "from django.conf import settings as s; "
        "print(s.DEBUG, getattr(s, 'SECURE_SSL_REDIRECT', False), s.SESSION_COOKIE_SECURE, "
        "s.CSRF_COOKIE_SECURE, s.SECURE_HSTS_SECONDS, s.SECURE_PROXY_SSL_HEADER)"
    )
    script = [sys.executable, "-c", "import django; django.setup(); " + code]
    hall = run_with_env(script, tmp_path)
    assert hall.stdout.split() == ["False", "False", "False", "False", "0", "None"], hall.stderr
    server = run_with_env(script, tmp_path, HTTPS="1")
    assert server.stdout.strip() == (
        "False True True True 31536000 ('HTTP_X_FORWARDED_PROTO', 'https')"
    ), server.stderr


@pytest.mark.parametrize("workers", ["", "2"])
def test_gunicorn_config_loads_the_app(tmp_path, workers):
    gunicorn = Path(sys.executable).with_name("gunicorn")
    env = {"GUNICORN_WORKERS": workers} if workers else {}
    result = run_with_env([str(gunicorn), "-c", "gunicorn.conf.py", "--check-config"], tmp_path, **env)
    assert result.returncode == 0, result.stdout + result.stderr


def server_on(addresses: list, logged: list | None = None) -> SimpleNamespace:
    """What gunicorn's hooks use of its arbiter: the addresses it binds, and its log."""
    logged = [] if logged is None else logged
    log = SimpleNamespace(info=lambda message, *args: logged.append(message % args))
    return SimpleNamespace(cfg=SimpleNamespace(address=addresses), log=log)


def test_gunicorn_gives_each_worker_a_socket_and_refuses_a_port_in_use():
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["reuse_port"] is True
    assert "max_requests" not in config  # recycling a worker would reset the connections it had queued
    with socket.socket() as other_server:
        # Another server on the port, itself with SO_REUSEPORT: binding beside it would succeed.
        other_server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        other_server.bind(("127.0.0.1", 0))
        other_server.listen()
        port = other_server.getsockname()[1]
        with pytest.raises(SystemExit, match=f"Port {port} is already in use"):
            config["on_starting"](server_on([("127.0.0.1", port)]))
    logged = []
    config["on_starting"](server_on([("127.0.0.1", port), "/tmp/uno.sock"], logged))  # free again
    assert logged == [f"Listening at: http://127.0.0.1:{port}, unix:/tmp/uno.sock (a socket per worker)"]


def test_gunicorn_control_socket_lives_in_the_apps_var_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("UNO_VAR_DIR", str(tmp_path))
    monkeypatch.delenv("GUNICORN_CONTROL_SOCKET", raising=False)
    config = runpy.run_path(str(ROOT / "gunicorn.conf.py"))
    assert config["control_socket"] == str(tmp_path / "gunicorn.ctl")
    assert config["control_socket_mode"] == 0o600


def test_gunicorn_accepts_the_control_socket_setting(tmp_path):
    gunicorn = Path(sys.executable).with_name("gunicorn")
    code = (
        "from gunicorn.config import Config; import runpy; c = Config(); "
        "[c.set(k, v) for k, v in runpy.run_path('gunicorn.conf.py').items() if k in c.settings]; "
        "print(c.control_socket)"
    )
    result = run_with_env([str(gunicorn.with_name("python")), "-c", code], tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(tmp_path / "gunicorn.ctl")
