#!/usr/bin/env bash
# Installs the npm packages the browser tests inject into pages (axe-core for the accessibility
# checks) from the npm registry into .npm-test/ (git-ignored), at the version named here, only when
# that version is missing. Nothing is fetched while the tests run.
set -euo pipefail
cd "$(dirname "$0")/.."
target=.npm-test
AXE_CORE=4.14.1
installed=$(node -p "require('./$target/node_modules/axe-core/package.json').version" 2>/dev/null || true)
[ "$installed" = "$AXE_CORE" ] && exit 0
echo "Installing npm packages for the browser tests: axe-core@$AXE_CORE"
npm install --prefix "$target" --no-audit --no-fund --no-save --silent --save-exact "axe-core@$AXE_CORE" >/dev/null
