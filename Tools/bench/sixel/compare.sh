#!/bin/sh
# Sixel backend vs `chafa -f sixels`: bytes per frame and PSNR on the clips
# SixelBenchTests writes (a sprite over a photograph, full motion, flat
# colours, larger full motion). Needs chafa (Debian: apt-get install chafa)
# and python3. Builds the tests in release (with testability, for the
# fixtures) unless BUILD=debug; OUT (default Tools/bench/sixel/out, ignored
# by git) receives the clips and the outputs.
set -eu
cd "$(dirname "$0")/../../.."
OUT=${OUT:-Tools/bench/sixel/out}
CONFIG=${BUILD:-release}
rm -rf "$OUT" && mkdir -p "$OUT"
if [ "$CONFIG" = release ]; then
    swift build -c release -Xswiftc -enable-testing --build-tests >&2
    ANIM_SIXEL_BENCH="$PWD/$OUT" swift test -c release -Xswiftc -enable-testing --skip-build \
        --filter SixelBenchTests >&2
else
    ANIM_SIXEL_BENCH="$PWD/$OUT" swift test --filter SixelBenchTests >&2
fi
chafa --version | head -1 >&2
python3 Tools/bench/sixel/compare.py "$OUT"
