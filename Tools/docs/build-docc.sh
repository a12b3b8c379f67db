#!/usr/bin/env bash
# Builds AnimKit's DocC catalog (Sources/AnimKit/AnimKit.docc) with the
# toolchain's docc, from the module's symbol graph. Fails on any docc
# warning (a broken symbol link, a missing article).
#
#   Tools/docs/build-docc.sh [OUTPUT]      # default .build/docs/AnimKit.doccarchive
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT"
OUT="${1:-$ROOT/.build/docs/AnimKit.doccarchive}"
GRAPHS="$ROOT/.build/docs/symbol-graphs"
rm -rf "$GRAPHS" && mkdir -p "$GRAPHS" "$(dirname "$OUT")"
# The public symbols of AnimKit (dump-symbol-graph writes every module's).
dumped="$(swift package dump-symbol-graph --minimum-access-level public 2>&1 | sed -n 's/^Files written to //p' | tail -1)"
test -n "$dumped" && test -f "$dumped/AnimKit.symbols.json" || { echo "build-docc: no symbol graph for AnimKit" >&2; exit 1; }
cp "$dumped"/AnimKit.symbols.json "$dumped"/AnimKit@*.symbols.json "$GRAPHS"/ 2>/dev/null || cp "$dumped"/AnimKit.symbols.json "$GRAPHS"/
DOCC="$(dirname "$(readlink -f "$(command -v swift)")")/docc"
log="$ROOT/.build/docs/docc.log"
"$DOCC" convert Sources/AnimKit/AnimKit.docc --fallback-display-name AnimKit --fallback-bundle-identifier org.anim.AnimKit \
    --additional-symbol-graph-dir "$GRAPHS" --output-path "$OUT" 2>&1 | tee "$log"
if grep -q "warning:" "$log"; then echo "build-docc: docc reported warnings" >&2; exit 1; fi
test -d "$OUT/data/documentation" || { echo "build-docc: no documentation in $OUT" >&2; exit 1; }
echo "build-docc: $OUT"
