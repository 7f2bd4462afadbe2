#!/usr/bin/env bash
# Checks that README's two commands work on a minimal Debian 12 with only what the README names
# (python3 and make): builds a throw-away Debian 12 root with mmdebstrap (minbase), copies the committed
# files of this checkout into it, runs `make run` until / answers 200, then `make test`
# (`--run-only`: stops after `make run`). Needs root, mmdebstrap and the network (Debian's mirror and
# PyPI). A CI job runs it when it has the time (the whole suite inside takes as long as `make test`).
#
# When this machine reaches PyPI through a proxy with a certificate of its own (PIP_CERT or
# SSL_CERT_FILE), that certificate file is copied into the root and named there the same way: it is
# the network's, not the app's.
set -euo pipefail
cd "$(dirname "$0")/.."
run_only=0
[ "${1:-}" = "--run-only" ] && run_only=1
[ "$(id -u)" -eq 0 ] || { echo "run as root (chroot)" >&2; exit 2; }
command -v mmdebstrap >/dev/null || { echo "apt-get install mmdebstrap" >&2; exit 2; }

root=$(mktemp -d /tmp/uno-minimal-debian.XXXXXX)
# Stops what runs inside the throw-away root (and only that): the processes whose root directory it is.
stop_inside() {
  local pids=()
  for proc in /proc/[0-9]*; do
    [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ] && pids+=("${proc#/proc/}")
  done
  [ ${#pids[@]} -eq 0 ] && return 0
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 1 30); do
    kill -0 "${pids[@]}" 2>/dev/null || return 0
    sleep 1
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
}
cleanup() {
  stop_inside
  for mount in dev/pts dev proc sys; do umount -l "$root/$mount" 2>/dev/null || true; done
  rm -rf --one-file-system "$root"
}
trap cleanup EXIT

echo "== building a minimal Debian 12 root in $root (python3, make)"
mmdebstrap --quiet --variant=minbase --include=python3,make bookworm "$root" \
  "deb http://deb.debian.org/debian bookworm main" \
  "deb http://deb.debian.org/debian-security bookworm-security main"
mkdir -p "$root/srv/uno"
git archive HEAD | tar -x -C "$root/srv/uno"
cp /etc/resolv.conf "$root/etc/resolv.conf"
env_in_root=(HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8)
for var in PIP_CERT SSL_CERT_FILE; do
  if [ -n "${!var:-}" ] && [ -f "${!var}" ]; then
    mkdir -p "$root/etc/uno-check"
    cp "${!var}" "$root/etc/uno-check/$var.pem"
    env_in_root+=("$var=/etc/uno-check/$var.pem")
  fi
done
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount --bind /dev/pts "$root/dev/pts"
in_root() { chroot "$root" /usr/bin/env -i "${env_in_root[@]}" bash -c "$1"; }

echo "== make run (until / answers 200)"
in_root 'cd /srv/uno && make run PORT=8765 > /srv/run.log 2>&1 & echo $! > /srv/run.pid'
answered=0
for _ in $(seq 1 900); do
  if in_root 'python3 -c "import urllib.request as u; u.urlopen(\"http://127.0.0.1:8765/\", timeout=2)"' \
      2>/dev/null; then
    answered=1
    break
  fi
  if ! kill -0 "$(cat "$root/srv/run.pid")" 2>/dev/null; then break; fi
  sleep 1  # a script's poll, not a test: waiting for installs and the first start
done
stop_inside
tail -n 20 "$root/srv/run.log"
if [ "$answered" != 1 ]; then
  echo "FAILED: make run did not answer on a minimal Debian 12" >&2
  exit 1
fi
echo "OK: make run answered 200 on a minimal Debian 12 (python3, make)"
[ "$run_only" = 1 ] && exit 0

echo "== make test"
in_root 'cd /srv/uno && make test'
echo "OK: make test passed on a minimal Debian 12 (python3, make)"
