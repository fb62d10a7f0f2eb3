#!/usr/bin/env bash
# Runs notifcheck, the checker in ../shared/tools/notifcheck built on the real expr, text/template and sprig
# libraries, building it first into ~/.cache/glidepath-notifcheck/<hash of its sources>/ (a second run builds
# nothing). Its build.sh installs the Debian Go packages it needs when they are missing.
#   npm run notifcheck -- rollouts --configmap dist/prod/rollouts-notifications.k8s.yaml --scenarios test/notifcheck-scenarios/rollouts
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SRC="${NOTIFCHECK_SRC:-$ROOT/../shared/tools/notifcheck}"
if [[ ! -f "$SRC/build.sh" ]]; then
  echo "notifcheck: no sources at $SRC (set NOTIFCHECK_SRC to the folder of notifcheck's build.sh)" >&2
  exit 2
fi
KEY="$(cat "$SRC"/*.go "$SRC"/go.mod "$SRC"/build.sh | sha256sum | cut -c1-16)"
BIN="${GLIDEPATH_NOTIFCHECK_CACHE:-$HOME/.cache/glidepath-notifcheck}/$KEY/notifcheck"
if [[ ! -x "$BIN" ]]; then
  echo "notifcheck: building into $BIN" >&2
  NOTIFCHECK_OUT="$BIN" "$SRC/build.sh" >&2
fi
exec "$BIN" "$@"
