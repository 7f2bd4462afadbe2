#!/usr/bin/env bash
# Installs the npm packages the browser tests inject into pages (axe-core for the accessibility
# checks) from the npm registry into .npm-test/ (git-ignored), only when missing. Nothing is fetched
# while the tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.npm-test
[ -f "$target/node_modules/axe-core/axe.min.js" ] && exit 0
echo "Installing npm packages for the browser tests: axe-core@4"
npm install --prefix "$target" --no-audit --no-fund --no-save --silent axe-core@4 >/dev/null
