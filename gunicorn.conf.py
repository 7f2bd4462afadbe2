"""gunicorn settings for `make run` (the hall laptop) and the server behind a reverse proxy.

Sized for a two-core laptop: one process per core, two threads each (measured with bench/load.py,
docs/performance.md: with 8 threads per worker, fifty captains at once waited twice as long, the
threads only fought over Python's GIL and SQLite's write lock). Idle keep-alive connections of phones
on shaky Wi-Fi do not hold a thread in gunicorn's gthread worker.
Every value can be overridden from the environment or on the command line (`-b 127.0.0.1:9000`).
"""

import multiprocessing
import os

_cores = multiprocessing.cpu_count()

bind = os.environ.get("GUNICORN_BIND", f"0.0.0.0:{os.environ.get('PORT', '8000')}")
workers = int(os.environ.get("GUNICORN_WORKERS", max(2, min(_cores, 4))))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
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
# Load Django (and WeasyPrint, ~0.8 s) once in the master: workers start ready, also after a recycle,
# so no captain's report waits for a worker's first import.
preload_app = True
