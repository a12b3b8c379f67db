#!/usr/bin/env bash
# Builds the libFuzzer targets (AddressSanitizer + fuzzer instrumentation):
#   .build/fuzz/fuzz-decode   bytes -> ImageSource / IncrementalImageSource
#   .build/fuzz/fuzz-encode   bytes -> ImageDestination options + frames -> decode
#   .build/fuzz/fuzz-replies  bytes -> TerminalReplyParser (chunked, a reply embedded)
#   .build/fuzz/fuzz-lzw      bytes -> GIF LZW data: anim's decoder against giflib and a textbook one
# Each is AnimKit's sources and the target compiled as one Swift module
# (SwiftPM has no fuzzer sanitizer), with the C bridge built by clang;
# fuzz-replies is the reply parser's sources alone (it needs nothing else).
# Usage: Tools/fuzz/build.sh   (then Tools/fuzz/run.sh); TARGETS=encode builds one.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$ROOT/Tools/fuzz"
OUT="${OUT:-$ROOT/.build/fuzz}"
mkdir -p "$OUT/include"

# The C targets (the PNG bridge and fast path, the colour kernel, CSystem: the
# mapped-file guard, xattrs, the temporary-file registry), instrumented but
# without libFuzzer's main.
clang -c -g -O1 -fsanitize=fuzzer-no-link,address $(pkg-config --cflags libpng16) \
    -I "$ROOT/Sources/CPNGBridge/include" "$ROOT/Sources/CPNGBridge/pngbridge.c" -o "$OUT/pngbridge.o"
# The rest need no flags of their own: TARGET/FILE each. Every file of the
# colour kernel, so that a new kernel is in the fuzz targets too.
OBJECTS=("$OUT/pngbridge.o")
KERNEL=()
for f in "$ROOT"/Sources/CColorKernel/*.c; do KERNEL+=("CColorKernel/$(basename "$f" .c)"); done
for c in CPNGBridge/pngfast "${KERNEL[@]}" CSystem/mappedfile CSystem/xattrs CSystem/temporaryfiles; do
    clang -c -g -O2 -fsanitize=fuzzer-no-link,address \
        -I "$ROOT/Sources/${c%/*}/include" "$ROOT/Sources/$c.c" -o "$OUT/${c#*/}.o"
    OBJECTS+=("$OUT/${c#*/}.o")
done
KERNEL_HEADERS=$(for h in "$ROOT"/Sources/CColorKernel/include/*.h; do printf '    header "%s"\n' "$h"; done)
cat > "$OUT/include/module.modulemap" <<MAP
module CPNGBridge {
    header "$ROOT/Sources/CPNGBridge/include/pngbridge.h"
    export *
}
module CSystem {
    header "$ROOT/Sources/CSystem/include/mappedfile.h"
    header "$ROOT/Sources/CSystem/include/xattrs.h"
    header "$ROOT/Sources/CSystem/include/temporaryfiles.h"
    export *
}
module CColorKernel {
$KERNEL_HEADERS
    export *
}
MAP

mapfile -t SOURCES < <(find "$ROOT/Sources/AnimKit" -name '*.swift' | sort)
LIBS=(-lgif -lpng16 -lz -ldeflate -lzopfli -lwebp -lwebpdemux -lwebpmux -llcms2)
for target in ${TARGETS:-decode encode replies lzw}; do
    if [ "$target" = replies ]; then
        echo "building fuzz-replies" >&2
        DETECT="$ROOT/Sources/AnimTerminal/Detect"
        TESTS="$ROOT/Tests/AnimTerminalTests/Fuzz"
        swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name anim -module-name FuzzReplies \
            "$DETECT/TerminalReply.swift" "$DETECT/TerminalReplyParser.swift" "$DETECT/TerminalReplyParser+Grammar.swift" \
            "$TESTS/ReplyFuzzChecks.swift" "$TESTS/ReplySamples.swift" "$ROOT/Tests/AnimTestSupport/FuzzRandom.swift" \
            "$HERE/FuzzReplies.swift" -o "$OUT/fuzz-replies" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
        continue
    fi
    case $target in lzw) name=FuzzLZW;; *) name="Fuzz$(tr '[:lower:]' '[:upper:]' <<< "${target:0:1}")${target:1}";; esac
    echo "building fuzz-$target" >&2
    swiftc -sanitize=fuzzer,address -parse-as-library -O -g -package-name anim -module-name "$name" \
        -I "$ROOT/Sources/CGIF" -I "$ROOT/Sources/CPNG" -I "$ROOT/Sources/CWebP" -I "$ROOT/Sources/CDeflate" -I "$ROOT/Sources/CLCMS" -I "$OUT/include" \
        "${SOURCES[@]}" "$HERE/$name.swift" "$ROOT/Tests/AnimKitTests/Fuzz/FuzzChecks.swift" "$ROOT/Tests/AnimKitTests/Fuzz/FuzzGIFRoundTrip.swift" "$ROOT/Tests/AnimTestSupport/FuzzRandom.swift" "$ROOT/Tests/AnimKitTests/Fuzz/LZWOracle.swift" "${OBJECTS[@]}" "${LIBS[@]}" \
        -o "$OUT/fuzz-$target" 2>&1 | grep -v "Cannot export local symbol" >&2 || true
done
# swiftc's errors are filtered above, not fatal: say what is missing.
for target in ${TARGETS:-decode encode replies lzw}; do
    [ -x "$OUT/fuzz-$target" ] || { echo "fuzz-$target was not built (see the errors above)" >&2; exit 1; }
done
echo "built: $OUT/fuzz-decode $OUT/fuzz-encode $OUT/fuzz-replies $OUT/fuzz-lzw" >&2
