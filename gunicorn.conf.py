"""gunicorn settings for `make run` (the hall laptop) and the server behind a reverse proxy.

Sized for a two-core laptop: one process per core, one thread each (measured with bench/load.py,
docs/performance.md: fifty captains at once got their answer in a p95 of 243 ms on SQLite and 334 ms
on PostgreSQL with one thread, 816 and 518 ms with two: a second thread only fought over Python's GIL
and SQLite's write lock). Idle keep-alive connections of phones on shaky Wi-Fi do not hold the thread
in gunicorn's gthread worker: it waits for a request to arrive before handing it over.
Every value can be overridden from the environment or on the command line (`-b 127.0.0.1:9000`).
"""

import errno
import multiprocessing
import os
import socket
from pathlib import Path

_cores = multiprocessing.cpu_count()

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("GUNICORN_WORKERS", max(2, min(_cores, 4))))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "1"))
# A request that runs longer than this is stuck (a PDF of all certificates takes a few seconds).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 20
# Phones reuse their connection between the page and its htmx requests.
keepalive = 5
# Every worker listens on a socket of its own (SO_REUSEPORT) and the kernel spreads new connections
# over them. On one shared socket, the worker that woke first took 64-86 % of fifty phones at once
# (bench/load.py, docs/performance.md), and its queue set everybody's waiting time.
reuse_port = True
# Workers are not recycled after a number of requests (max_requests): with a socket per worker, the
# connections still waiting in a stopping worker's queue would be reset. bench/load.py prints the
# workers' memory after each burst.
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None  # empty: no access log
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
# The reverse proxy on the same machine is trusted to set X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
wsgi_app = "tournament.wsgi:application"
# Load Django (and WeasyPrint, ~0.8 s) once in the master: workers start ready, also one restarted
# after a crash or a reload, so no captain's report waits for a worker's first import.
preload_app = True
# gunicorn's control socket (gunicornc, since 25.1) defaults to $XDG_RUNTIME_DIR/gunicorn.ctl or
# ~/.gunicorn/gunicorn.ctl: one path for every instance of the same user on the machine, so a second
# server would take over the first one's socket. It lives in the app's var/ directory instead (the
# same UNO_VAR_DIR as the database), readable by the owner only (control_socket_mode 0600).
_var_dir = Path(os.environ.get("UNO_VAR_DIR", Path(__file__).resolve().parent / "var"))
_var_dir.mkdir(parents=True, exist_ok=True)
control_socket = os.environ.get("GUNICORN_CONTROL_SOCKET", str(_var_dir / "gunicorn.ctl"))
control_socket_mode = 0o600


def on_starting(server) -> None:
    """Refuse to start when the port is taken, also by another copy of this server: with `reuse_port`
    the two would share the phones between them without a word (one of them perhaps an old version)."""
    for address in server.cfg.address:
        if not isinstance(address, tuple):
            continue  # a Unix socket: gunicorn checks it itself
        host, port = address
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds
            try:
                probe.bind((host, port))
            except OSError as exc:
                if exc.errno != errno.EADDRINUSE:
                    raise
                raise SystemExit(
                    f"Port {port} is already in use, perhaps by the tournament server started before. "
                    "Stop that one first, or start this one on another port (make run PORT=8001)."
                ) from None
    # gunicorn's own "Listening at:" line stays empty with reuse_port (the workers bind, not the master).
    server.log.info("Listening at: %s (a socket per worker)", ", ".join(
        f"http://{address[0]}:{address[1]}" if isinstance(address, tuple) else f"unix:{address}"
        for address in server.cfg.address
    ))
