#!/usr/bin/env bash
# vramcalc: installs what is missing, builds both builds, runs every suite through ctest:
# native unit tests, the same unit tests as WebAssembly under Node, native/wasm parity, CLI tests
# and the browser test (headless Chromium). Ends with ctest's summary; non-zero exit on any failure.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/scripts/build.sh" all
cd "$root/build/native"
ctest --output-on-failure "$@"
