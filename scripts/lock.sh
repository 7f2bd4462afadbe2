#!/usr/bin/env bash
# Writes the lock files: every package (also those pulled in) at one version with its hashes, for the
# app (requirements/run.txt) and with the test tools (requirements/test.txt), and uv itself
# (requirements/uv.txt). Run after changing pyproject.toml's dependencies, or to take newer versions
# (`scripts/lock.sh --upgrade`); then run the tests and commit the files.
set -euo pipefail
cd "$(dirname "$0")/.."
uv=.venv/bin/uv
compile=("$uv" pip compile --quiet --generate-hashes --python-version 3.11 --universal
  --no-header --annotation-style line "$@")
"${compile[@]}" pyproject.toml -o requirements/run.txt
"${compile[@]}" pyproject.toml --extra test -o requirements/test.txt
echo "uv==$("$uv" --version | cut -d' ' -f2)" | "${compile[@]}" - -o requirements/uv.txt
