#!/usr/bin/env bash
# vramcalc: installs whatever is missing to build and test vramcalc on Debian 12, and nothing else.
#   apt packages    emscripten catch2 nlohmann-json3-dev chromium fonts-dejavu-core (+ xz-utils)
#   Dear ImGui      1.90.1 source into third_party/ (scripts/fetch_imgui.sh)
#   npm packages    `npm ci` from package-lock.json (playwright-core, which drives Debian's chromium;
#                   google-closure-compiler, which minifies the page's Emscripten glue)
# Idempotent: with everything present it only checks, in about a second.
# scripts/build.sh (and so run.sh, test.sh and bench.sh) runs it first.
set -euo pipefail

setup_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

setup_apt() {
    local want=(emscripten catch2 nlohmann-json3-dev chromium fonts-dejavu-core xz-utils)
    local missing=() p
    for p in "${want[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    echo "setup: installing ${missing[*]} (apt)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

setup_npm() {
    # NOTE: the stamp holds the lock file npm ci last installed; node_modules is reused while it matches.
    local stamp="$setup_root/node_modules/.vramcalc-lock.json"
    if [ -f "$setup_root/node_modules/playwright-core/package.json" ] && cmp -s "$setup_root/package-lock.json" "$stamp"; then
        return 0
    fi
    echo "setup: npm ci (playwright-core; no browser download, tests use /usr/bin/chromium)"
    (cd "$setup_root" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
    cp "$setup_root/package-lock.json" "$stamp"
}

setup_apt
bash "$setup_root/scripts/fetch_imgui.sh"
setup_npm
