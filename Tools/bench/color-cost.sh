#!/usr/bin/env bash
# What colour management costs: each file of the set given (default: the
# blend, video and sticker files) is copied with a Display P3 ICC profile
# embedded (color-tag.py, the profile of the colour fixtures), then decoded
# with `anim bench` with colour management and with --no-color-management,
# on one thread and with decode-ahead, ROUNDS rounds interleaved (default 3).
# Also the untagged file both ways (colour management should cost nothing).
# Prints a Markdown table of the best medians and the ratios; the target is
# at most 1.10 for a tagged file and 1.00 (noise aside) for an untagged one.
# Usage: Tools/bench/color-cost.sh [FILE...]   (after make-set.sh; env: ANIM, ROUNDS, RUNS)
set -euo pipefail
cd "$(dirname "$0")/../.."
ANIM=${ANIM:-.build/release/anim}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-5}
SET=Tools/bench/set
TAGGED=$SET/color
mkdir -p "$TAGGED"
python3 - <<'PY' > "$TAGGED/p3.icc"
import struct, sys, zlib
d = open("Tests/AnimKitTests/Fixtures/color/p3.png", "rb").read()
i = 8
while i < len(d):
    n, = struct.unpack(">I", d[i:i + 4])
    if d[i + 4:i + 8] == b"iCCP":
        body = d[i + 8:i + 8 + n]
        sys.stdout.buffer.write(zlib.decompress(body[body.index(b"\0") + 2:]))
        break
    i += 12 + n
PY
files=("$@")
[ ${#files[@]} -eq 0 ] && files=($SET/blend.{gif,png,lossless.webp,lossy.webp} $SET/video.{gif,png,lossless.webp} $SET/sticker.{png,lossless.webp})
median() { "$ANIM" bench "$@" --runs "$RUNS" --json | python3 -c 'import json,sys;print(json.load(sys.stdin)["medianMs"])'; }
echo "| file | decode-ahead | tagged: managed ms | tagged: --no-color-management ms | ratio | untagged: managed ms | untagged: off ms | ratio |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for f in "${files[@]}"; do
    t="$TAGGED/$(basename "$f")"
    [ -s "$t" ] || python3 Tools/bench/color-tag.py "$TAGGED/p3.icc" "$f" "$t"
    "$ANIM" info "$t" --json | grep -q '"colorConversion" *: *"' || { echo "color-cost: $t is not converted" >&2; exit 1; }
    for da in 0 default; do
        args=(); [ "$da" = 0 ] && args=(--decode-ahead 0)
        a=(); b=(); c=(); d=()
        for _ in $(seq "$ROUNDS"); do
            a+=("$(median "$t" "${args[@]}")"); b+=("$(median "$t" "${args[@]}" --no-color-management)")
            c+=("$(median "$f" "${args[@]}")"); d+=("$(median "$f" "${args[@]}" --no-color-management)")
        done
        python3 - "$(basename "$f")" "$da" "${a[*]}" "${b[*]}" "${c[*]}" "${d[*]}" <<'PY'
import sys
name, da, *runs = sys.argv[1:]
a, b, c, d = (min(float(x) for x in r.split()) for r in runs)
print(f"| {name} | {da} | {a:.1f} | {b:.1f} | {a/b:.2f} | {c:.1f} | {d:.1f} | {c/d:.2f} |")
PY
    done
done
