#!/bin/bash
# Do two anim binaries show the same thing? For every file given (default:
# every GIF, PNG and WebP under Tests/ and Tools/bench/set), compares what
# each binary's `anim info --json` says (frames, durations, loops, errors)
# and a hash of every frame's pixels (`anim extract FILE - --format rgba`),
# with and without --no-color-management. Prints one line per difference
# and a count; exits 1 if any file differs. With WRITES=1, also the bytes
# each writes for `convert` to GIF, APNG and WebP and for `optimize`, and
# their exit status and messages (about 4 minutes for the test files on
# 2 cores). For refactors that must not change behaviour:
#   [WRITES=1] Tools/bench/same-frames.sh BEFORE AFTER [FILES...]
set -uo pipefail
A="$(realpath "${1:?usage: same-frames.sh BEFORE AFTER [FILES...]}")"
B="$(realpath "${2:?}")"
shift 2
cd "$(dirname "$0")/../.."
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    mapfile -t files < <(find Tests Tools/bench/set -type f \( -name '*.gif' -o -name '*.png' -o -name '*.apng' -o -name '*.webp' \) 2>/dev/null | sort)
fi
# What one binary shows of one file: its info (the path left out) and one
# hash per mode of every frame's pixels, or the exit status and stderr.
shown() {
    local bin=$1 file=$2
    "$bin" info "$file" --json 2>&1 | sed "s|$file||g"
    echo "info exit ${PIPESTATUS[0]}"
    for mode in "" "--no-color-management"; do
        "$bin" extract "$file" - --format rgba $mode 2>&1 | sha256sum
        echo "extract$mode exit ${PIPESTATUS[0]}"
    done
    [ "${WRITES:-}" = 1 ] || return 0
    local out
    out=$(mktemp -d)
    for ext in gif png webp; do
        "$bin" convert "$file" "$out/o.$ext" 2>&1 | sed "s|$file||g; s|$out||g"
        echo "convert.$ext exit ${PIPESTATUS[0]} $(sha256sum <"$out/o.$ext" 2>/dev/null)"
    done
    "$bin" optimize "$file" "$out/opt.${file##*.}" 2>&1 | sed "s|$file||g; s|$out||g"
    echo "optimize exit ${PIPESTATUS[0]} $(sha256sum <"$out/opt.${file##*.}" 2>/dev/null)"
    rm -rf "$out"
}
differ=0
for f in "${files[@]}"; do
    if ! diff <(shown "$A" "$f") <(shown "$B" "$f") >/dev/null; then
        echo "differs: $f"
        differ=$((differ + 1))
    fi
done
echo "same-frames: ${#files[@]} files, $differ differ"
[ "$differ" -eq 0 ]
