#!/usr/bin/env bash
# Runs the whole suite on SQLite, then every test of the app's code again on a throwaway PostgreSQL 15
# cluster reached through its Unix socket (no TCP port: quicker per query, nothing else can connect).
# Run once: the engine's tests (no database), the real-browser tests (they
# drive the same views and services as tests/tournament, which runs on both; SQLite is the hall's
# database) and the tests marked one_database (their subject is not the database: documents'
# geometry, settings, headers, who may open a page; test_smoke opens every page on both).
# COVERAGE=1 measures line coverage on the SQLite run (it triples the time of the seating search).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
# pytest keeps the test modules it rewrites for its assertions as bytecode; where the environment says
# not to write any, every worker of both runs would rewrite all of them again (10 s each).
unset PYTHONDONTWRITEBYTECODE
# Two workers (pytest-xdist) on these 2-core machines: the whole suite in about half the time. Each
# module goes to one worker (loadscope), so what a module builds once (its chromium, a tournament in
# the middle of the day, the demo) is built once, not once per worker: a tenth less work.
WORKERS=${PYTEST_WORKERS:-2}
DIST=(-n "$WORKERS" --dist loadscope)

echo "== test suite on SQLite"
cov=()
[ "${COVERAGE:-0}" = "1" ] && cov=(--cov --cov-report=term:skip-covered)
DATABASE_URL= $PY -m pytest "${DIST[@]}" "${cov[@]}" "$@"

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$pg_bin" ]; then
  echo "PostgreSQL server not installed; skipping the PostgreSQL run" >&2
  exit 1
fi
pgdir=$(mktemp -d /tmp/uno-pg.XXXXXX)
port=${PGTEST_PORT:-55432}
runas=()
if [ "$(id -u)" -eq 0 ]; then
  # initdb refuses to run as root: the cluster belongs to the postgres user.
  chown postgres "$pgdir"
  runas=(runuser -u postgres --)
fi
cleanup() { "${runas[@]}" "$pg_bin/pg_ctl" -D "$pgdir/data" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$pgdir"; }
trap cleanup EXIT
"${runas[@]}" "$pg_bin/initdb" -D "$pgdir/data" -U uno --auth=trust -E UTF8 >/dev/null
"${runas[@]}" "$pg_bin/pg_ctl" -D "$pgdir/data" -l "$pgdir/log" -w \
  -o "-c listen_addresses='' -p $port -k $pgdir -c fsync=off -c full_page_writes=off -c jit=off" start >/dev/null
echo "== test suite on PostgreSQL"
pg_tests=("$@")
[ ${#pg_tests[@]} -eq 0 ] && pg_tests=(tests/tournament)
# A database other than SQLite needs an explicit SECRET_KEY (tournament/settings.py); a fixed test key.
SECRET_KEY=${SECRET_KEY:-uno-test-key-not-secret} \
DATABASE_URL="postgres://uno@%2F${pgdir//\//%2F}:$port/uno" $PY -m pytest "${DIST[@]}" -p no:cacheprovider \
  -m "not one_database" "${pg_tests[@]}"
