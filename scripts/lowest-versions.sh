#!/usr/bin/env bash
# Checks the floors of pyproject.toml: installs the lowest version each dependency declares (what a
# resolver may pick when the lock is not used) into a throw-away virtualenv and runs the tests there:
# `scripts/lowest-versions.sh` the whole suite on SQLite (for CI, when it has the time), or the given
# test paths. Needs the system packages of `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=$(mktemp -d /tmp/uno-lowest.XXXXXX)
trap 'rm -rf "$venv"' EXIT
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements/uv.txt
"$venv/bin/uv" pip install --quiet --python "$venv/bin/python" --resolution lowest-direct -r pyproject.toml --extra test
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
echo "$PWD" > "$site/uno-turnier-checkout.pth"
"$venv/bin/uv" pip list --python "$venv/bin/python" 2>/dev/null | grep -iE '^(django|django-htmx|weasyprint|gunicorn|pypdf|pillow|whitenoise) '
"$venv/bin/python" manage.py compilemessages --ignore=.venv -v 0
if [ $# -eq 0 ]; then set -- tests; fi
DATABASE_URL= "$venv/bin/python" -m pytest -p no:cacheprovider -q -n 2 --dist loadscope "$@"
