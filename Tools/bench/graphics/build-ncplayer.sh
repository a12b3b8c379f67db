#!/bin/sh
# Builds notcurses' ncplayer (Debian 12 has no package) for the graphics
# benchmark only: Tools/bench/bin/ncplayer, with its libraries beside it.
#
#   Tools/bench/graphics/build-ncplayer.sh [NOTCURSES_SOURCE_DIR]
#
# Without a directory it clones notcurses v3.0.17 from GitHub. Needs cmake,
# FFmpeg's development packages, libunistring and ncurses (installed with
# apt when missing, as root). Built with: notcurses 3.0.17 on Debian 12.
set -eu
here=$(cd "$(dirname "$0")/../../.." && pwd)
out="$here/Tools/bench/bin"
work=${TMPDIR:-/tmp}/anim-notcurses
src=${1:-}
need="cmake pkg-config libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libavdevice-dev libunistring-dev libncurses-dev libdeflate-dev"
missing=$(for p in $need; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ]; then
    [ "$(id -u)" = 0 ] || { echo "build-ncplayer: install first: $missing" >&2; exit 1; }
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $missing >/dev/null
fi
if [ -z "$src" ]; then
    src="$work/src"
    [ -d "$src" ] || git clone -q --depth 1 --branch v3.0.17 https://github.com/dankamongmen/notcurses "$src"
fi
mkdir -p "$work/build" "$out"
cmake -S "$src" -B "$work/build" -DCMAKE_BUILD_TYPE=Release -DUSE_PANDOC=OFF -DUSE_DOXYGEN=OFF \
    -DUSE_POC=OFF -DBUILD_TESTING=OFF -DUSE_STATIC=OFF -DUSE_MULTIMEDIA=ffmpeg \
    -DCMAKE_BUILD_RPATH='$ORIGIN' >/dev/null
cmake --build "$work/build" --target ncplayer -j "$(nproc)" >/dev/null
cp -P "$work/build/ncplayer" "$work/build"/libnotcurses*.so* "$out/"
"$out/ncplayer" -V
