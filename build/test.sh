#!/usr/bin/env bash
# `npm test`: every test the project has. Keychain tests need a Secret Service; when this
# session has none, run inside a private D-Bus session with an unlocked gnome-keyring of our own
# (its own XDG_DATA_HOME, so no real keyring of the user's is touched).
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -z "${BETDESK_IN_KEYRING_SESSION:-}" ] && command -v dbus-run-session >/dev/null 2>&1 \
  && command -v gnome-keyring-daemon >/dev/null 2>&1; then
  keyring_home="$(mktemp -d -t betdesk-keyring-XXXXXX)"
  trap 'rm -rf "$keyring_home"' EXIT
  export XDG_DATA_HOME="$keyring_home/data" XDG_RUNTIME_DIR="$keyring_home/run"
  mkdir -p "$XDG_DATA_HOME" "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
  export BETDESK_IN_KEYRING_SESSION=1
  exec dbus-run-session -- bash -c 'echo -n betdesk-test | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec bash build/test.sh "$@"' bash "$@"
fi

if [ -z "${BETDESK_IN_KEYRING_SESSION:-}" ]; then
  echo "npm test: no dbus-run-session or gnome-keyring-daemon here, so the keychain tests will be" \
    "skipped (Debian: apt-get install dbus-x11 gnome-keyring). In CI that fails the run." >&2
fi

rm -f test-results/vitest.json test-results/playwright.json
status=0
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" || status=$?
if [ $# -eq 0 ]; then
  npx playwright test || status=$?
fi
node build/test-summary.mjs || status=$?
exit "$status"
