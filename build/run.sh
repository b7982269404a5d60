#!/usr/bin/env bash
# The README's "run the app" command, from a fresh clone:
#
#   1. the Debian packages the native modules build from (keytar needs libsecret's headers, and
#      both it and better-sqlite3 compile when no prebuilt binary can be downloaded): installed,
#      or one line naming them (build/system-packages.sh);
#   2. `npm ci` when node_modules is missing or older than package-lock.json;
#   3. the Electron binary, downloaded when the network allows;
#   4. the desktop app (`npm start`, with better-sqlite3 built for Electron's ABI), or, where
#      Electron cannot be downloaded or started, the same app in a browser (`npm run serve`),
#      saying so.
#
# Arguments go to the app (`--hidden`, `--screen positions`) or to the browser host (`--port N`).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=build/system-packages.sh
. build/system-packages.sh

say() { echo "betdesk: $*" >&2; }

node_major="$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)"
if [ "$node_major" -lt 20 ]; then
  say "needs Node.js 20 or newer (found ${node_major/#0/none}); install it from https://nodejs.org or your package manager."
  exit 1
fi

need_packages "building Betdesk's native modules (keytar, better-sqlite3)" \
  g++:build-essential make:build-essential python3:python3 libsecret-1-dev

if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "installing the npm packages (npm ci)"
  # Electron's own download is tried below, so that an unreachable download host leaves the
  # browser version rather than a failed install.
  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm ci --no-audit --no-fund >&2
fi

electron_ok=0
if node node_modules/electron/install.js >/dev/null 2>&1; then
  electron_ok=1
else
  say "Electron could not be downloaded here (see ELECTRON_MIRROR, ELECTRON_CACHE in docs/desktop.md)."
fi

if [ "$electron_ok" -eq 1 ] && [ ! -f build/electron-native/better_sqlite3.node ]; then
  if ! node build/electron-native.mjs >&2; then
    electron_ok=0
  fi
fi

if [ "$electron_ok" -eq 1 ]; then
  exec npm start -- "$@"
fi

say "starting Betdesk in your browser instead: open the address printed below (it holds a token)."
exec node build/serve.mjs "$@"
