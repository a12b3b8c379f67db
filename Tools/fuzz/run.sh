#!/usr/bin/env bash
# Runs the fuzz targets side by side for SECONDS each (default 1800), from
# seed corpora made of the test fixtures and the shipped animations (for
# fuzz-replies: terminal replies, keys and a damaged reply).
# Corpora grow in .build/fuzz/corpus-*; crashes, leaks, timeouts and
# out-of-memory inputs land in .build/fuzz/findings-*/ (copy each into
# Tests/AnimKitTests/Fixtures/fuzz-decode or fuzz-encode once fixed: the
# regression tests replay everything there). Logs: .build/fuzz/*.log;
# the last line of each says how many inputs ran.
# Usage: Tools/fuzz/build.sh && Tools/fuzz/run.sh [SECONDS]   (TARGETS=encode runs one)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$ROOT/.build/fuzz}"
SECONDS_EACH="${1:-1800}"
for target in decode encode replies; do
    mkdir -p "$OUT/corpus-$target" "$OUT/seeds-$target" "$OUT/findings-$target"
done
# Seeds: every fixture and sample animation (for the encoder, their first
# bytes steer the options and the rest become pixels), plus past findings;
# named by content, as libFuzzer names its corpus.
seed() { while read -r f; do cp "$f" "$1/$(sha1sum < "$f" | cut -c1-40)"; done; }
find "$ROOT/Tests" "$ROOT/Animations" -type f \( -name '*.gif' -o -name '*.png' -o -name '*.webp' \) -size -200k \
    | seed "$OUT/seeds-decode"
find "$ROOT/Tests/AnimKitTests/Fixtures/fuzz-decode" -type f ! -name '*.md' 2>/dev/null | seed "$OUT/seeds-decode"
find "$ROOT/Tests/AnimKitTests/Fixtures" -type f -size -20k \( -name '*.gif' -o -name '*.png' \) | sort | head -40 \
    | seed "$OUT/seeds-encode"
find "$ROOT/Tests/AnimKitTests/Fixtures/fuzz-encode" -type f ! -name '*.md' 2>/dev/null | seed "$OUT/seeds-encode"
replies=(
    '\e_Gi=31;OK\e\\\e[?62;4;22c' '\e[6;19;8t\e[4;456;640tq\e[C' '\eP1+r524742=382F382F38\e\\\eP0+r\e\\'
    '\e[?1;0;1024S\e[?2;0;1000;1000S\e[?63;1;2;4;6;9;15;22c' '\eP>|kitty(0.35.2)\e\\\eP1$r0;38:2::1:2:3m\e\\'
    '\e[?2026;2$y\e\e[D \e_Gi=31;ENOENT:x\e' '\e]11;rgb:0/0/0\a\eP1+r5463\e\\\e[8;24;80t')
for r in "${replies[@]}"; do printf "$r" > "$OUT/seeds-replies/$(printf "$r" | sha1sum | cut -c1-40)"; done
if [ -d "$ROOT/Tests/AnimTerminalTests/Fixtures/fuzz-replies" ]; then
    find "$ROOT/Tests/AnimTerminalTests/Fixtures/fuzz-replies" -type f ! -name '*.md' | seed "$OUT/seeds-replies"
fi

export SWIFT_BACKTRACE=enable=no     # its crash handler upsets AddressSanitizer
pids=()
for target in ${TARGETS:-decode encode replies}; do
    # -max_len: 64 KiB inputs for the decoder (many fixtures are larger:
    # libFuzzer keeps their prefixes), 4 KiB for the encoder's parameters,
    # 8 KiB for replies (past the parser's 4 KiB string bound).
    case $target in decode) max_len=65536;; replies) max_len=8192;; *) max_len=4096;; esac
    "$OUT/fuzz-$target" "$OUT/corpus-$target" "$OUT/seeds-$target" \
        -max_total_time="$SECONDS_EACH" -timeout=20 -rss_limit_mb=2048 -max_len="$max_len" \
        -artifact_prefix="$OUT/findings-$target/" -print_final_stats=1 \
        > "$OUT/$target.log" 2>&1 &
    pids+=($!)
done
status=0
for pid in "${pids[@]}"; do wait "$pid" || status=1; done
for target in ${TARGETS:-decode encode replies}; do
    echo "== $target: $(grep -E '^Done|stat::number_of_executed_units' "$OUT/$target.log" | tr '\n' ' ')"
    ls "$OUT/findings-$target"
done
exit $status
