"""gunicorn settings for `make run` (the hall laptop) and the server behind a reverse proxy.

Sized for a two-core laptop with SQLite in WAL mode: a few processes, each with a few threads.
SQLite lets one writer at a time in (the others wait on the busy timeout, see settings.py), so more
workers would only queue on the lock; threads keep slow phones on shaky Wi-Fi from blocking a worker.
Every value can be overridden from the environment or on the command line (`-b 127.0.0.1:9000`).
"""

import multiprocessing
import os

_cores = multiprocessing.cpu_count()

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("GUNICORN_WORKERS", min(_cores + 1, 4)))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
# A request that runs longer than this is stuck (a PDF of all certificates takes a few seconds).
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 20
# Phones reuse their connection between the page and its htmx requests.
keepalive = 5
# Recycle workers now and then so a slow leak (e.g. in PDF rendering) never builds up over an evening.
max_requests = 2000
max_requests_jitter = 200
accesslog = os.environ.get("GUNICORN_ACCESSLOG", "-") or None  # empty: no access log
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOGLEVEL", "info")
# The reverse proxy on the same machine is trusted to set X-Forwarded-* headers.
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
wsgi_app = "tournament.wsgi:application"
