#!/usr/bin/env bash
# Installs the Debian packages the app and its tests need, only those missing.
# `system-packages.sh run`: what `make run` needs (the venv, make, translations, Pango for WeasyPrint).
# `system-packages.sh` (test, the default): that, and what the tests need: Debian's
# chromium-headless-shell for the browser tests (never a downloaded browser), PostgreSQL 15 for the
# second run, poppler for the PDF checks, Caddy, nginx, openssl and systemd-analyze for the tests of
# deploy/ (tests/deploy; procps for the /bin/kill uno.service reloads with, as on any server), npm for
# axe-core (scripts/npm-packages.sh), libatomic1 for Playwright's driver.
set -euo pipefail
run=(python3-venv make gettext libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
test=(chromium-headless-shell libatomic1 postgresql-15 poppler-utils caddy nginx openssl curl systemd procps)
wanted=("${run[@]}")
[ "${1:-test}" = "run" ] || wanted+=("${test[@]}")
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
# npm by its command: a machine whose Node.js comes with its own npm (not Debian's package) has it
# already, and Debian's npm would conflict with that Node.js.
if [ "${1:-test}" != "run" ] && ! command -v npm >/dev/null; then
  missing+=(npm)
fi
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing system packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
# Caddy and nginx are only run by the tests, on loopback ports of their own: their Debian packages
# would start them as services on port 80 at once. policy-rc.d tells the packages not to start them.
policy=/usr/sbin/policy-rc.d
made_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null
  $sudo chmod 755 "$policy"
  made_policy=1
fi
trap 'if [ "$made_policy" = 1 ]; then $sudo rm -f "$policy"; fi' EXIT
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Nor at the next boot.
if [ "$made_policy" = 1 ] && command -v systemctl >/dev/null; then
  $sudo systemctl disable caddy.service nginx.service >/dev/null 2>&1 || true
fi
