#!/usr/bin/env bash
# Installs the locked packages into .venv (created if missing): `python-packages.sh` for the app,
# `python-packages.sh test` with the test tools too. requirements/*.txt pin every package with its hashes
# (scripts/lock.sh writes them), so every machine installs the same files; a package whose hash differs
# is refused. uv (itself pinned, requirements/uv.txt) installs them and removes what the lock does not
# name; where uv cannot be had, pip installs the same files. The app runs from this checkout (a .pth
# file puts it on the venv's path): it is not built into a package.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
lock=requirements/run.txt
[ "${1:-}" = "test" ] && lock=requirements/test.txt
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
if .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r requirements/uv.txt \
    2>/dev/null; then
  .venv/bin/uv pip sync --quiet --python .venv/bin/python --require-hashes "$lock"
else
  echo "uv could not be installed: installing with pip"
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r "$lock"
fi
site=$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')
echo "$PWD" > "$site/uno-turnier-checkout.pth"
