#!/usr/bin/env bash
# vramcalc: fetches the Dear ImGui 1.90.1 source (Debian 13's `imgui` source package) into the
# git-ignored third_party/imgui-1.90.1, with a private apt source list and state folder so the
# machine's own apt set-up stays untouched (the team's toolchain notes). Verifies the tarball's
# sha256 before unpacking. Does nothing when the source is already there.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dest="$root/third_party"
version=1.90.1
tarball="imgui_${version}+ds.orig.tar.xz"
sha256=ecce377df0f90b292f15dcbd83d438bddc162b2388c881132bde18c787572a1c

if [ -f "$dest/imgui-$version/imgui.cpp" ] && [ -f "$dest/imgui-$version/backends/imgui_impl_glfw.cpp" ]; then
    exit 0
fi

work="$dest/.apt-imgui"
mkdir -p "$work/parts" "$work/lists/partial"

# The archive this machine's apt already uses: the first URI of its Debian sources.
uri=""
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    uri=$(awk '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)
fi
if [ -z "$uri" ] && [ -f /etc/apt/sources.list ]; then
    uri=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' /etc/apt/sources.list)
fi
if [ -z "$uri" ]; then
    echo "fetch_imgui: cannot find the Debian archive URI in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list" >&2
    exit 1
fi

printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
    "$uri" > "$work/parts/src.sources"
opts=(-o APT::Sandbox::User=root -o Dir::Etc::SourceList=/dev/null -o "Dir::Etc::SourceParts=$work/parts" -o "Dir::State::Lists=$work/lists")

if ! echo "$sha256  $work/$tarball" | sha256sum -c --status 2>/dev/null; then
    echo "fetch_imgui: downloading Dear ImGui $version source (Debian source package imgui)"
    apt-get "${opts[@]}" -qq update
    (cd "$work" && apt-get "${opts[@]}" -qq source --download-only "imgui=${version}+ds-1")
fi
if ! echo "$sha256  $work/$tarball" | sha256sum -c --status; then
    echo "fetch_imgui: $tarball does not have the expected sha256 $sha256" >&2
    exit 1
fi

rm -rf "$dest/imgui-$version"
tar xf "$work/$tarball" -C "$dest"
test -f "$dest/imgui-$version/imgui.cpp"
echo "fetch_imgui: Dear ImGui $version in third_party/imgui-$version"
