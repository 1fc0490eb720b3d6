#!/usr/bin/env bash
# Installs what pagelens needs on a fresh machine: Chromium (when no browser is found) and the
# npm dependencies, then builds. Used by the README's first command and by CI.
set -euo pipefail
cd "$(dirname "$0")/.."
have_browser() {
  [ -n "${PAGELENS_CHROMIUM:-}" ] && [ -x "${PAGELENS_CHROMIUM}" ] && return 0
  for p in /usr/bin/chromium /usr/bin/chromium-browser /usr/bin/google-chrome /usr/bin/google-chrome-stable; do
    [ -x "$p" ] && return 0
  done
  return 1
}
if ! have_browser; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "pagelens: no Chromium found, installing Debian's chromium package" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update && $SUDO apt-get install -y chromium
  else
    echo "pagelens: no Chromium found; install Chrome or Chromium, or set PAGELENS_CHROMIUM to its path" >&2
    exit 1
  fi
fi
# The scale-out tests and bench (test/scale-*.test.ts, npm run bench:load) run the real parts of a
# fleet: Debian's redis-server (the sessions replicas share) and haproxy (the load balancer).
# Installed only when missing; without them those tests skip and say why.
missing_fleet=""
command -v redis-server >/dev/null 2>&1 || missing_fleet="$missing_fleet redis-server"
command -v haproxy >/dev/null 2>&1 || missing_fleet="$missing_fleet haproxy"
if [ -n "$missing_fleet" ]; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "pagelens: installing$missing_fleet for the scale-out tests and bench (replicas sharing sessions in Redis behind HAProxy)" >&2
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    # Only the programs: the tests start their own on loopback ports, so no system service is left running.
    $SUDO apt-get update && $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y $missing_fleet
    for svc in redis-server haproxy; do
      if command -v systemctl >/dev/null 2>&1; then $SUDO systemctl disable --now "$svc" >/dev/null 2>&1 || true; fi
      if command -v service >/dev/null 2>&1; then $SUDO service "$svc" stop >/dev/null 2>&1 || true; fi
    done
  else
    echo "pagelens:$missing_fleet not found and no apt-get: the scale-out tests will skip (install them to run those)" >&2
  fi
fi
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
npm run build --silent
