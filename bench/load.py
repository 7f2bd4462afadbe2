"""Load test: 50 table captains submit at the same moment while the projector polls.

Runs the real server (gunicorn with gunicorn.conf.py) on 127.0.0.1 at a free port, once on SQLite and
once on PostgreSQL (a throwaway cluster, like scripts/test.sh, or --database-url), and prints the
latency of the captains' submissions and the projector's polls, HTTP errors, and results lost or
stored twice. Target: 0 errors, 0 lost, 0 duplicated, p95 under 300 ms.

    python bench/load.py                      # SQLite, then PostgreSQL if it is installed
    python bench/load.py --db sqlite --tables 50
    python bench/load.py --db postgres --database-url postgres://uno@127.0.0.1:5432/uno_bench

Every captain loads the page (cookie and CSRF token), then all wait at a barrier and POST together;
each then repeats the same POST (same idempotency key: a double tap), which must not store a second
version. Loopback only, every loop and wait is bounded, and the server (and cluster) stop at the end.
The exit status is 1 when a result was lost or duplicated or a request failed.
"""

from __future__ import annotations

import argparse
import datetime
import http.cookiejar
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
HTTP_TIMEOUT = 30
TARGET_P95_MS = 300


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


# --- The database under test ---------------------------------------------------------------------

@contextmanager
def postgres_cluster():
    """A throwaway PostgreSQL cluster on loopback (trust auth, no fsync): yields its DATABASE_URL."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin"),
                  key=lambda p: [int(x) for x in p.parent.name.split(".")])
    if not bins:
        raise SystemExit("PostgreSQL is not installed (postgresql-15); use --db sqlite or --database-url.")
    pg_bin = bins[-1]
    pgdir = Path(tempfile.mkdtemp(prefix="uno-bench-pg."))
    port = free_port()
    runas: list[str] = []
    if os.geteuid() == 0:  # initdb refuses root: the cluster belongs to the postgres user
        shutil.chown(pgdir, "postgres")
        runas = ["runuser", "-u", "postgres", "--"]
    data = pgdir / "data"
    try:
        initdb = [str(pg_bin / "initdb"), "-D", str(data), "-U", "uno", "--auth=trust", "-E", "UTF8"]
        subprocess.run([*runas, *initdb], check=True, capture_output=True, timeout=120)
        options = f"-c listen_addresses=127.0.0.1 -p {port} -k {pgdir} -c fsync=off -c max_connections=200"
        subprocess.run([*runas, str(pg_bin / "pg_ctl"), "-D", str(data), "-l", str(pgdir / "log"), "-w",
                        "-t", "60", "-o", options, "start"], check=True, capture_output=True, timeout=90)
        import psycopg

        with psycopg.connect(f"postgresql://uno@127.0.0.1:{port}/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE uno")
        yield f"postgres://uno@127.0.0.1:{port}/uno"
    finally:
        subprocess.run([*runas, str(pg_bin / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(pgdir, ignore_errors=True)


def django_env(var_dir: Path, database_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "HTTPS", "UNO_HTTPS"}}
    env.update(UNO_VAR_DIR=str(var_dir), DATABASE_URL=database_url,
               DJANGO_SETTINGS_MODULE="tournament.settings", LOG_LEVEL="ERROR", PYTHONPATH=str(ROOT))
    return env


def manage(env: dict[str, str], *args: str) -> str:
    result = subprocess.run([PY, "bench/load.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=600)
    if result.returncode != 0:
        raise SystemExit(f"bench step {args[0]} failed:\n{result.stdout}\n{result.stderr}")
    return result.stdout


# --- Steps run inside Django (this script called again with --step) -------------------------------

def step_prepare(tables: int) -> None:
    """Migrate, then a tournament with tables x 4 players, seated, published and opened."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournament import services
    from tournament.models import Tournament

    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_superuser("bench", password="bench-pass-123")
    tournament = services.tournament_create(
        user=user, name="Load test", date=datetime.date(2026, 11, 29), public=True
    )
    for n in range(tables * 4):
        services.player_register(tournament=tournament, user=user, first_name=f"P{n:03d}",
                                 last_name=f"Bench{n:03d}", club_name=f"Club {n % 10}", check_in=True)
    round_ = services.round_seat(tournament=tournament, user=user, seed=7)
    services.round_publish(round_=round_, user=user)
    services.round_open(round_=round_, user=user)
    plan = {
        "tournament": Tournament.objects.get().pk,
        "tables": [
            {"number": t.number, "token": t.token,
             "seats": list(t.seats.order_by("position").values_list("registration_id", flat=True))}
            for t in round_.tables.order_by("number")
        ],
    }
    print(json.dumps(plan))


def step_verify() -> None:
    """Per table: how many versions were stored (exactly one expected)."""
    import django

    django.setup()
    from django.db.models import Count

    from tournament.models import Table

    counts = dict(Table.objects.annotate(n=Count("submissions")).values_list("number", "n"))
    print(json.dumps(counts))


# --- The server ----------------------------------------------------------------------------------

@contextmanager
def gunicorn(env: dict[str, str], port: int):
    server_env = dict(env, GUNICORN_ACCESSLOG="", GUNICORN_LOGLEVEL="warning")
    proc = subprocess.Popen(
        [PY, "-m", "gunicorn", "-c", "gunicorn.conf.py", "-b", f"127.0.0.1:{port}"],
        cwd=ROOT, env=server_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"gunicorn stopped: {proc.stderr.read() if proc.stderr else ''}")
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise SystemExit("gunicorn did not answer within 30 s") from None
                time.sleep(0.2)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


# --- The clients ---------------------------------------------------------------------------------

class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: dict[str, list[float]] = {"submit": [], "repeat": [], "projector": []}
        self.errors: list[str] = []

    def add(self, kind: str, seconds: float) -> None:
        with self.lock:
            self.latencies[kind].append(seconds * 1000)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text)


def captain(base: str, table: dict, barrier: threading.Barrier, stats: Stats) -> None:
    """One phone: load the page, wait for everyone, submit, then submit the same thing again."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    url = f"{base}/t/{table['token']}/"
    try:
        opener.open(url, timeout=HTTP_TIMEOUT).read()
        csrf = next(c.value for c in jar if c.name == "csrftoken")
    except (OSError, StopIteration) as exc:
        stats.error(f"table {table['number']}: page: {exc}")
        barrier.abort()
        return
    seats = table["seats"]
    winner = seats[table["number"] % len(seats)]
    fields = {"idempotency_key": f"bench-{table['number']}", "outcome": str(winner)}
    for n, reg_id in enumerate(seats):
        if reg_id != winner:
            fields[f"points-{reg_id}"] = str(5 + (n * 13 + table["number"]) % 50)
    body = urllib.parse.urlencode(fields).encode()
    headers = {"X-CSRFToken": csrf, "HX-Request": "true", "Referer": url,
               "Content-Type": "application/x-www-form-urlencoded"}
    try:
        barrier.wait(timeout=60)
    except threading.BrokenBarrierError:
        stats.error(f"table {table['number']}: the start was aborted")
        return
    for kind in ("submit", "repeat"):
        started = time.perf_counter()
        try:
            request = urllib.request.Request(url, data=body, headers=headers)
            with opener.open(request, timeout=HTTP_TIMEOUT) as r:
                r.read()
                if r.status != 200:
                    stats.error(f"table {table['number']}: {kind}: HTTP {r.status}")
        except urllib.error.HTTPError as exc:
            stats.error(f"table {table['number']}: {kind}: HTTP {exc.code}")
        except OSError as exc:
            stats.error(f"table {table['number']}: {kind}: {exc}")
        stats.add(kind, time.perf_counter() - started)


def projector(base: str, tournament: int, stop: threading.Event, stats: Stats) -> None:
    """The hall's screen: asks for the next slide every half second until the captains are done."""
    slide, deadline = 0, time.monotonic() + 120
    while not stop.is_set() and time.monotonic() < deadline:
        started = time.perf_counter()
        url = f"{base}/p/{tournament}/projector/?slide={slide}"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers={"HX-Request": "true"}),
                                        timeout=HTTP_TIMEOUT) as r:
                r.read()
        except OSError as exc:
            stats.error(f"projector: {exc}")
        stats.add("projector", time.perf_counter() - started)
        slide += 1
        stop.wait(0.5)


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def run_one(name: str, database_url: str, tables: int) -> bool:
    with tempfile.TemporaryDirectory(prefix="uno-bench.") as var_dir:
        env = django_env(Path(var_dir), database_url)
        plan = json.loads(manage(env, "--step", "prepare", "--tables", str(tables)).strip().splitlines()[-1])
        port = free_port()
        stats = Stats()
        with gunicorn(env, port):
            base = f"http://127.0.0.1:{port}"
            barrier = threading.Barrier(len(plan["tables"]))
            stop = threading.Event()
            screen = threading.Thread(target=projector, args=(base, plan["tournament"], stop, stats))
            phones = [threading.Thread(target=captain, args=(base, table, barrier, stats))
                      for table in plan["tables"]]
            screen.start()
            started = time.perf_counter()
            for phone in phones:
                phone.start()
            for phone in phones:
                phone.join(timeout=HTTP_TIMEOUT * 3)
            elapsed = time.perf_counter() - started
            stop.set()
            screen.join(timeout=HTTP_TIMEOUT + 5)
        stored = {int(k): v for k, v in json.loads(manage(env, "--step", "verify").strip()).items()}
    lost = sum(1 for n in stored.values() if n == 0)
    duplicated = sum(n - 1 for n in stored.values() if n > 1)
    submit = stats.latencies["submit"]
    p95 = percentile(submit, 0.95)
    print(f"\n== {name}: {len(plan['tables'])} captains at once, {len(plan['tables']) * 4} players "
          f"({elapsed:.1f} s in all)")
    for kind, values in stats.latencies.items():
        print(f"  {kind:<10} n={len(values):<4} p50 {percentile(values, 0.5):7.1f} ms   "
              f"p95 {percentile(values, 0.95):7.1f} ms   max {max(values, default=float('nan')):7.1f} ms")
    print(f"  errors {len(stats.errors)}   lost {lost}   duplicated {duplicated}   "
          f"(tables with exactly one stored version: {sum(1 for n in stored.values() if n == 1)})")
    for text in stats.errors[:10]:
        print(f"    {text}")
    ok = not stats.errors and lost == 0 and duplicated == 0
    print(f"  target: 0 errors, 0 lost, 0 duplicated: {'met' if ok else 'MISSED'}; "
          f"p95 {p95:.0f} ms {'<' if p95 < TARGET_P95_MS else '>='} {TARGET_P95_MS} ms")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", choices=["sqlite", "postgres", "both"], default="both")
    parser.add_argument("--database-url", help="An empty PostgreSQL database instead of a throwaway cluster.")
    parser.add_argument("--tables", type=int, default=50, help="Tables, i.e. captains submitting at once.")
    parser.add_argument("--step", choices=["prepare", "verify"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step == "prepare":
        step_prepare(args.tables)
        return 0
    if args.step == "verify":
        step_verify()
        return 0
    if not 1 <= args.tables <= 200:
        parser.error("--tables must be between 1 and 200")
    ok = True
    if args.db in ("sqlite", "both"):
        ok &= run_one("SQLite (WAL)", "", args.tables)
    if args.db in ("postgres", "both"):
        if args.database_url:
            ok &= run_one("PostgreSQL", args.database_url, args.tables)
        elif args.db == "both" and not Path("/usr/lib/postgresql").exists():
            print("\nPostgreSQL is not installed: skipped.")
        else:
            with postgres_cluster() as url:
                ok &= run_one("PostgreSQL", url, args.tables)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
