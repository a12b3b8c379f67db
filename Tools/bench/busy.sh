#!/usr/bin/env bash
# Decode-ahead on a busy machine: `anim bench` on one thread and with
# decode-ahead, each while another process keeps one core busy (a shell
# loop), on every file given (default: the set). Prints a Markdown table of
# the best median of ROUNDS rounds (default 3) and the ratio; decode-ahead
# should never be slower than one thread (ratio at most 1).
# Usage: Tools/bench/busy.sh [FILE...]   (env: ANIM, ROUNDS, RUNS)
set -euo pipefail
cd "$(dirname "$0")/../.."
ANIM=${ANIM:-.build/release/anim}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-5}
files=("$@")
[ ${#files[@]} -eq 0 ] && files=(Tools/bench/set/*.gif Tools/bench/set/*.png Tools/bench/set/*.webp)
sh -c 'while :; do :; done' &
hog=$!
trap 'kill $hog 2>/dev/null' EXIT
median() { "$ANIM" bench "$1" --runs "$RUNS" --json "${@:2}" | python3 -c 'import json,sys;print(json.load(sys.stdin)["medianMs"])'; }
echo "| file (one core busy) | one thread ms | decode-ahead ms | ratio |"
echo "|---|---:|---:|---:|"
for f in "${files[@]}"; do
    one=(); ahead=()
    for _ in $(seq "$ROUNDS"); do
        one+=("$(median "$f" --decode-ahead 0)")
        ahead+=("$(median "$f")")
    done
    python3 - "$(basename "$f")" "${one[*]}" "${ahead[*]}" <<'PY'
import sys
name, one, ahead = sys.argv[1], [float(x) for x in sys.argv[2].split()], [float(x) for x in sys.argv[3].split()]
print(f"| {name} | {min(one):.1f} | {min(ahead):.1f} | {min(ahead)/min(one):.2f} |")
PY
done
