#!/usr/bin/env bash
# vramcalc: builds everything (after scripts/setup.sh).
#   build/wasm    emcmake: the web app (build/wasm/site: index.html, vramcalc.js, app.js, app.wasm)
#                 and the unit tests as WebAssembly
#   build/native  g++: the vramcalc CLI, the unit tests, and the ctest entries for every suite
# Usage: scripts/build.sh [all|web|native]   (default all; `web` builds only the page)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
what=${1:-all}
jobs=${VRAMCALC_JOBS:-2}
[ "${VRAMCALC_SKIP_SETUP:-0}" = 1 ] || bash "$root/scripts/setup.sh"
cd "$root"

# NOTE: Debian's emcc needs acorn from /usr/share/nodejs; emcmake's default test emulator passes a
# flag Node 20 rejects, and Node's global fetch confuses Emscripten 3.1.6's loader.
export NODE_PATH=/usr/share/nodejs

if [ "$what" = all ] || [ "$what" = web ]; then
    # (emcmake echoes its cmake command line on stderr: dropped, errors still show)
    emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
        -DCMAKE_CROSSCOMPILING_EMULATOR="node;--no-experimental-fetch" > /dev/null 2> >(grep -v '^configure: ' >&2)
    if [ "$what" = web ]; then
        cmake --build build/wasm -j"$jobs" --target site
    else
        cmake --build build/wasm -j"$jobs"
    fi
fi
if [ "$what" = all ] || [ "$what" = native ]; then
    # Configured after build/wasm exists, so its ctest registers the wasm suites.
    cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build build/native -j"$jobs"
fi
