#!/usr/bin/env bash
# Installs the Debian packages the app and its tests need, only those missing.
# WeasyPrint needs Pango; the browser tests drive Debian's chromium-headless-shell (never a downloaded
# browser); the suite also runs on a throwaway PostgreSQL 15 cluster; gettext compiles the translations.
set -euo pipefail
wanted=(libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core gettext chromium-headless-shell postgresql-15 poppler-utils)
missing=()
for pkg in "${wanted[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing system packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
