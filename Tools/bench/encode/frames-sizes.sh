#!/bin/bash
# Frames to APNG and to lossless WebP, sizes and wall times only (no pixel
# check: corpus.py does that): every animation given is extracted to
# full-canvas frames, then encoded at 100 ms a frame by
#   anim encode F out.png --effort 7      against  apngasm out.png F/* 1 10
#   anim encode F out.webp --lossless --effort 7
#                                         against  img2webp -lossless -min_size
#   anim encode F out.webp --quality 75 --effort 7 (FORMATS=webp-lossy)
#                                         against  img2webp -lossy -q 75 -min_size
# one line each, then how many files anim's output is larger on. A peer that
# runs longer than $TIMEOUT seconds (default 600) counts as FAIL.
#   Tools/bench/encode/frames-sizes.sh FILE...   (ANIM=path, default .build/release/anim;
#                                                 FORMATS="apng webp", the default)
ANIM="${ANIM:-$(cd "$(dirname "$0")/../../.." && pwd)/.build/release/anim}"
FORMATS="${FORMATS:-apng webp}"
TIMEOUT="${TIMEOUT:-600}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs a command; prints "BYTES SECONDS" of OUT, or "FAIL -".
sized() {
  local out=$1
  shift
  local t0 t1
  t0=$(date +%s.%N)
  if timeout "$TIMEOUT" "$@" >/dev/null 2>&1 && [ -s "$out" ]; then
    t1=$(date +%s.%N)
    echo "$(stat -c %s "$out") $(echo "$t1 - $t0" | bc | awk '{printf "%.2f", $1}')"
  else
    echo "FAIL -"
  fi
}

echo "file frames format anim_bytes anim_s peer_bytes peer_s"
for f in "$@"; do
  rm -rf "$work/f" "$work"/out.*
  mkdir "$work/f"
  "$ANIM" extract -q "$f" "$work/f/" >/dev/null 2>&1 || { echo "$(basename "$f") - extract FAIL - FAIL -"; continue; }
  frames=("$work"/f/*.png)
  mapfile -t frames < <(printf '%s\n' "${frames[@]}" | sort -V)
  for fmt in $FORMATS; do
    note=
    case $fmt in
      apng)
        a=$(sized "$work/out.a.png" "$ANIM" encode -q "$work/f" "$work/out.a.png" --delay 100 --effort 7)
        p=$(sized "$work/out.p.png" apngasm "$work/out.p.png" "${frames[@]}" 1 10) ;;
      webp)
        a=$(sized "$work/out.a.webp" "$ANIM" encode -q "$work/f" "$work/out.a.webp" --lossless --effort 7 --delay 100)
        p=$(sized "$work/out.p.webp" img2webp -lossless -min_size -d 100 "${frames[@]}" -o "$work/out.p.webp") ;;
      webp-lossy)
        a=$(sized "$work/out.a.webp" "$ANIM" encode -q "$work/f" "$work/out.a.webp" --quality 75 --effort 7 --delay 100)
        p=$(sized "$work/out.p.webp" img2webp -lossy -q 75 -min_size -d 100 "${frames[@]}" -o "$work/out.p.webp")
        # Equal bytes are equal pictures; else the PSNR of each (corpus.py measures it).
        cmp -s "$work/out.a.webp" "$work/out.p.webp" && note=same || note=differs ;;
    esac
    echo "$(basename "$f") ${#frames[@]} $fmt $a $p $note"
  done
done | tee "$work/rows"
awk 'NR > 0 && $3 != "extract" {
       n[$3]++
       if ($4 == "FAIL" || $6 == "FAIL") f[$3]++
       else {
         if ($4 > $6) big[$3]++
         if ($3 == "apng" && $7 >= 1 && $5 > 0.25 * $7) slow[$3]++
       }
     }
     END { for (k in n) print k ": " n[k] " files; anim larger on " big[k]+0 ", slower than a quarter of the peer where it took 1 s or more (APNG only) on " slow[k]+0 "; a tool failed on " f[k]+0 }' "$work/rows"
