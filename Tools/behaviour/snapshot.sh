#!/usr/bin/env bash
# A record of what anim does with every fixture, to compare two builds of a
# refactoring that must not change behaviour: for each file, `info --json`,
# the frames extracted as raw RGBA, the exit status and the message of each;
# for every fourth file, `convert` to GIF, APNG and WebP and `optimize`, by
# the bytes written. One line per file and job; diff two records.
#   Tools/behaviour/snapshot.sh [ANIM] > before.txt   # default .build/debug/anim
set -uo pipefail
cd "$(dirname "$0")/../.."
anim=${1:-.build/debug/anim}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
hash() { sha256sum | cut -c1-16; }
n=0
find Tests -path '*Fixtures*' -type f \( -name '*.gif' -o -name '*.png' -o -name '*.webp' -o -name '*.apng' \) \
    -not -path '*fuzz-*' | LC_ALL=C sort | while read -r f; do
    out=$("$anim" info --json "$f" 2>"$tmp/err"); rc=$?
    echo "$f info rc=$rc out=$(printf %s "$out" | hash) err=$(head -c 300 "$tmp/err" | tr '\n' ' ')"
    sum=$("$anim" extract "$f" - --format rgba 2>"$tmp/err" | hash); rc=${PIPESTATUS[0]}
    echo "$f frames rc=$rc out=$sum err=$(head -c 300 "$tmp/err" | tr '\n' ' ')"
    n=$((n + 1))
    [ $((n % 4)) -eq 0 ] || continue
    for ext in gif png webp; do
        "$anim" convert "$f" "$tmp/o.$ext" >/dev/null 2>"$tmp/err"; rc=$?
        echo "$f convert.$ext rc=$rc out=$(cat "$tmp/o.$ext" 2>/dev/null | hash) err=$(head -c 200 "$tmp/err" | tr '\n' ' ')"
        rm -f "$tmp/o.$ext"
    done
    "$anim" optimize "$f" "$tmp/opt.${f##*.}" >/dev/null 2>"$tmp/err"; rc=$?
    echo "$f optimize rc=$rc out=$(cat "$tmp/opt.${f##*.}" 2>/dev/null | hash) err=$(head -c 200 "$tmp/err" | tr '\n' ' ')"
    rm -f "$tmp/opt.${f##*.}"
done
