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
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund; else npm install --no-audit --no-fund; fi
npm run build --silent
