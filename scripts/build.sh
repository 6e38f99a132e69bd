#!/usr/bin/env bash
# vramcalc: builds everything (after scripts/setup.sh).
#   build/wasm    emcmake: the web app (build/wasm/site: index.html, vramcalc.js, app.js, app.wasm)
#                 and the unit tests as WebAssembly
#   build/native  g++: the vramcalc CLI, the unit tests, and the ctest entries for every suite
# Usage: scripts/build.sh [all|web|page|native]   (default all)
#   page    build/wasm/site only: the page, widget and single file (what scripts/run.sh serves)
#   web     the site and the JS library build/wasm/lib: what the browser tests (ctest browser_*) and
#           the JS library tests (js_api) read, with build/native's CLI (build it with `native`)
#   native  build/native: the CLI, the unit tests, ctest
#   all     everything: web, plus the wasm unit tests and the wasm CLI (ctest wasm_suites, parity), then native
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
what=${1:-all}
case "$what" in all|web|page|native) ;; *) echo "usage: scripts/build.sh [all|web|page|native]" >&2; exit 2 ;; esac
jobs=${VRAMCALC_JOBS:-2}
[ "${VRAMCALC_SKIP_SETUP:-0}" = 1 ] || bash "$root/scripts/setup.sh"
cd "$root"

# NOTE: Debian's emcc needs acorn from /usr/share/nodejs; emcmake's default test emulator passes a
# flag Node 20 rejects, and Node's global fetch confuses Emscripten 3.1.6's loader.
export NODE_PATH=/usr/share/nodejs

if [ "$what" != native ]; then
    # (emcmake echoes its cmake command line on stderr: dropped, errors still show)
    emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CROSSCOMPILING_EMULATOR="node;--no-experimental-fetch" > /dev/null 2> >(grep -v '^configure: ' >&2)
    if [ "$what" = page ]; then
        cmake --build build/wasm -j"$jobs" --target site
    elif [ "$what" = web ]; then
        cmake --build build/wasm -j"$jobs" --target site vramcalc_js
    else
        cmake --build build/wasm -j"$jobs"
    fi
fi
if [ "$what" = all ] || [ "$what" = native ]; then
    # Configured after build/wasm exists, so its ctest registers the wasm suites.
    cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/native -j"$jobs"
fi
