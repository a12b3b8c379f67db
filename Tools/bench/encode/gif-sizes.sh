#!/bin/bash
# GIF to GIF sizes only (no pixel check: Tools/bench/encode/gif2gif.py does
# that, at about a minute a file): for every GIF given, its size, `anim
# convert`'s, `anim optimize`'s and `gifsicle -O3`'s, one line each, then
# how many files anim's output is larger than gifsicle's on.
#   Tools/bench/encode/gif-sizes.sh FILE.gif...     (ANIM=path, default .build/release/anim)
ANIM="${ANIM:-$(cd "$(dirname "$0")/../../.." && pwd)/.build/release/anim}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "file bytes convert optimize gifsicle"
for f in "$@"; do
  a=$("$ANIM" convert -q "$f" "$work/a.gif" >/dev/null 2>&1 && stat -c %s "$work/a.gif" || echo FAIL)
  o=$("$ANIM" optimize -q "$f" -o "$work/o.gif" >/dev/null 2>&1 && stat -c %s "$work/o.gif" || echo FAIL)
  g=$(gifsicle -O3 "$f" -o "$work/g.gif" 2>/dev/null && stat -c %s "$work/g.gif" || echo FAIL)
  echo "$(basename "$f") $(stat -c %s "$f") $a $o $g"
  rm -f "$work"/*.gif
done | tee "$work/rows"
awk '{ if ($3 == "FAIL" || $5 == "FAIL") f++; else { if ($3 > $5) c++; if ($4 > $5) o++ } }
     END { print NR " files: convert larger than gifsicle on " c ", optimize on " o "; a tool failed on " f }' "$work/rows"
