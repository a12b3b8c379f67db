#!/usr/bin/env bash
# Runs the fuzz targets side by side for SECONDS each (default 1800), from
# seed corpora made of the test fixtures and the shipped animations (for
# fuzz-replies: terminal replies, keys and a damaged reply).
# Corpora grow in .build/fuzz/corpus-*; crashes, leaks, timeouts and
# out-of-memory inputs land in .build/fuzz/findings-*/ (copy each into
# Tests/AnimKitTests/Fixtures/fuzz-decode, fuzz-encode or fuzz-lzw, or
# Tests/AnimTerminalTests/Fixtures/fuzz-replies, once fixed: the
# regression tests replay everything there). Logs: .build/fuzz/*.log;
# the last line of each says how many inputs ran.
# Usage: Tools/fuzz/build.sh && Tools/fuzz/run.sh [SECONDS]   (TARGETS=encode runs one)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$ROOT/.build/fuzz}"
SECONDS_EACH="${1:-1800}"
for target in decode encode replies lzw; do
    mkdir -p "$OUT/corpus-$target" "$OUT/seeds-$target" "$OUT/findings-$target"
done
# Seeds: every fixture and sample animation (for the encoder, their first
# bytes steer the options and the rest become pixels), plus past findings;
# named by content, as libFuzzer names its corpus. (awk, not head, takes
# the first lines: head's early exit kills sort with SIGPIPE, which
# pipefail makes the script's status.)
seed() { while read -r f; do cp "$f" "$1/$(sha1sum < "$f" | cut -c1-40)"; done; }
find "$ROOT/Tests" "$ROOT/Animations" -type f \( -name '*.gif' -o -name '*.png' -o -name '*.webp' \) -size -200k \
    | seed "$OUT/seeds-decode"
find "$ROOT/Tests/AnimKitTests/Fixtures/fuzz-decode" -type f ! -name '*.md' 2>/dev/null | seed "$OUT/seeds-decode"
find "$ROOT/Tests/AnimKitTests/Fixtures" -type f -size -20k \( -name '*.gif' -o -name '*.png' \) | sort | awk 'NR <= 40' \
    | seed "$OUT/seeds-encode"
find "$ROOT/Tests/AnimKitTests/Fixtures/fuzz-encode" -type f ! -name '*.md' 2>/dev/null | seed "$OUT/seeds-encode"
find "$ROOT/Tests/AnimTerminalTests/Fixtures/fuzz-replies" -type f ! -name '*.md' | seed "$OUT/seeds-replies"
# fuzz-lzw: a code size, width and height, then the tail of a small
# fixture GIF (LZW data among other bytes; the fuzzer finds the rest).
find "$ROOT/Tests/AnimKitTests/Fixtures/gif-suite" -name '*.gif' -size -8k | sort | awk 'NR <= 30' \
    | while read -r f; do { printf '\007\077\017'; tail -c +40 "$f"; } > "$OUT/seeds-lzw/$(basename "$f")"; done
find "$ROOT/Tests/AnimKitTests/Fixtures/fuzz-lzw" -type f ! -name '*.md' 2>/dev/null | seed "$OUT/seeds-lzw"


export SWIFT_BACKTRACE=enable=no     # its crash handler upsets AddressSanitizer
pids=()
for target in ${TARGETS:-decode encode replies lzw}; do
    # -max_len: 64 KiB inputs for the decoder (many fixtures are larger:
    # libFuzzer keeps their prefixes), 4 KiB for the encoder's parameters,
    # 8 KiB for replies (past the parser's 4 KiB string bound) and LZW data.
    case $target in decode) max_len=65536;; replies|lzw) max_len=8192;; *) max_len=4096;; esac
    "$OUT/fuzz-$target" "$OUT/corpus-$target" "$OUT/seeds-$target" \
        -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 -max_len="$max_len" \
        -artifact_prefix="$OUT/findings-$target/" -print_final_stats=1 \
        > "$OUT/$target.log" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for target in ${TARGETS:-decode encode replies lzw}; do
    echo "== $target: $(grep -E '^Done|stat::number_of_executed_units' "$OUT/$target.log" | tr '\n' ' ')"
    ls "$OUT/findings-$target"
done
exit $status
