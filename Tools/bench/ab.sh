#!/bin/bash
# A/B of two anim binaries on the decode set, interleaved, 3 rounds of
# `anim bench --runs 5` each, with decode-ahead on and off; prints the best
# median of each and the ratio: Tools/bench/ab.sh BEFORE AFTER [FILES...]
A="$(realpath "${1:?usage: ab.sh BEFORE AFTER [FILES...]}")"; B="$(realpath "${2:?}")"; shift 2
files=(); for f in "$@"; do files+=("$(realpath "$f")"); done
cd "$(dirname "$0")/../.."
[ ${#files[@]} -eq 0 ] && files=(Tools/bench/set/*.gif Tools/bench/set/*.png Tools/bench/set/*.webp)
for f in "${files[@]}"; do
  for da in default 0; do
    args=(); [ $da = 0 ] && args=(--decode-ahead 0)
    b=(); a=()
    for round in 1 2 3; do
      b+=($("$A" bench "$f" --runs 5 --json "${args[@]}" | python3 -c 'import json,sys;print(json.load(sys.stdin)["medianMs"])'))
      a+=($("$B" bench "$f" --runs 5 --json "${args[@]}" | python3 -c 'import json,sys;print(json.load(sys.stdin)["medianMs"])'))
    done
    python3 - "$f" "$da" "${b[*]}" "${a[*]}" <<'PY'
import sys,statistics as st
f,da,b,a=sys.argv[1:]
b=[float(x) for x in b.split()];a=[float(x) for x in a.split()]
print(f"| {f.split('/')[-1]} | {da} | {min(b):.1f} | {min(a):.1f} | {min(a)/min(b):.3f} |")
PY
  done
done
