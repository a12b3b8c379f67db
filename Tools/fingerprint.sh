#!/usr/bin/env bash
# A fingerprint of everything anim reads and writes, to show that a
# refactoring changed no behaviour: Tools/fingerprint.sh [ANIM] > before.txt,
# change the code, run it again and diff. For every fixture and sample file
# (Tests/**/Fixtures, Animations/): `anim info --json`, the exit status and
# error of `anim extract`, and the SHA-256 of every PNG it writes; for the
# sample animations, the bytes `anim convert` writes to GIF, APNG and WebP.
set -uo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ANIM="${1:-$ROOT/.build/release/anim}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$ROOT"
files=$(find Tests Animations -type f \( -name '*.gif' -o -name '*.png' -o -name '*.apng' -o -name '*.webp' \) | LC_ALL=C sort)
for f in $files; do
    echo "== $f"
    "$ANIM" info --json "$f" 2>&1 | sha256sum | cut -c1-16
    rm -rf "$work/x"
    "$ANIM" extract "$f" "$work/x" >/dev/null 2>"$work/err"
    echo "extract rc=$? $(sed "s|$work|OUT|g" "$work/err" | tr '\n' ' ' | cut -c1-200)"
    [ -d "$work/x" ] && (cd "$work/x" && find . -type f | LC_ALL=C sort | xargs -r sha256sum | sha256sum | cut -c1-16)
done
for f in Animations/*.gif Animations/*.png Animations/*.webp; do
    for ext in gif png webp; do
        "$ANIM" convert "$f" "$work/out.$ext" >/dev/null 2>&1
        echo "convert $f .$ext rc=$? $( { sha256sum <"$work/out.$ext"; } 2>/dev/null | cut -c1-16)"
        rm -f "$work/out.$ext"
    done
done
