#!/usr/bin/env bash
# vramcalc: installs what is missing, builds the web app and serves it on http://127.0.0.1:8080
# (PORT=N to change). Everything runs in the browser; the server only hands out the built files.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/build.sh" page
exec node "$root/scripts/serve.mjs" "$root/build/wasm/site" --port "${PORT:-8080}" --host 127.0.0.1
