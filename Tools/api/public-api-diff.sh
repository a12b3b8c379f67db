#!/usr/bin/env bash
# public-api-diff.sh — what changed in the public API of a SwiftPM package.
#
# Usage: public-api-diff.sh [options] OLD NEW
#   OLD, NEW      package folders (git working trees or plain folders)
#   -w DIR        work folder (default /tmp/api): the trees are copied to DIR/old and
#                 DIR/new (only the files git lists: tracked + untracked-not-ignored,
#                 the working-tree content; nothing in OLD or NEW is written), built
#                 there, and their symbol graphs written to DIR/symbolgraphs-{old,new}
#   -m "A B C"    library modules to compare (default "AnimKit AnimTerminal AnimKitFoundation")
#   --no-sync     use DIR/old and DIR/new as they are (no copy)
#   --expand      list every member of a type removed or added as a whole
#   --list        append the full public API of NEW
#   -o FILE       write the report to FILE as well as to stdout
#
# Each tree is built in debug with `swift build --target T` for each module T
# (incremental after the first run), then `swift symbolgraph-extract` is run on
# the built modules with -minimum-access-level public (package and internal
# symbols are not in the graphs) and -skip-synthesized-members, with the import
# paths and module maps of SwiftPM's own compile command. api_diff.py compares
# the graphs: by precise identifier, then pairs what went away with what came
# (same path: signature changed; other module: moved; same declaration under
# another name: renamed).  Exit status: 0 done, 1 a build or extraction failed.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=/tmp/api
modules="AnimKit AnimTerminal AnimKitFoundation"
sync=1
diff_flags=()
outfile=
positional=()
while [ $# -gt 0 ]; do
    case "$1" in
        -w) work="$2"; shift 2 ;;
        -m) modules="$2"; shift 2 ;;
        --no-sync) sync=0; shift ;;
        --expand|--list) diff_flags+=("$1"); shift ;;
        -o) outfile="$2"; shift 2 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        -*) echo "public-api-diff.sh: unknown option $1" >&2; exit 2 ;;
        *) positional+=("$1"); shift ;;
    esac
done
if [ ${#positional[@]} -ne 2 ]; then sed -n '2,26p' "$0" >&2; exit 2; fi
old_src="$(cd "${positional[0]}" && pwd)"; new_src="$(cd "${positional[1]}" && pwd)"
swift="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
mkdir -p "$work"

prepare() {   # $1 = source folder, $2 = old|new
    local src="$1" side="$2" tree="$work/$2" log="$work/build-$2.log"
    if [ "$sync" = 1 ] && [ "$src" != "$tree" ]; then
        python3 "$here/sync_tree.py" "$src" "$tree"
    fi
    : > "$log"
    for m in $modules; do
        echo "building $m in $tree ..." >&2
        if ! (cd "$tree" && "$swift" build --target "$m" >> "$log" 2>&1); then
            echo "public-api-diff.sh: the build of $m in $tree failed; last lines of $log:" >&2
            tail -n 30 "$log" >&2
            return 1
        fi
    done
    local bin; bin="$(cd "$tree" && "$swift" build --show-bin-path)"
    local out="$work/symbolgraphs-$side"
    rm -rf "$out"; mkdir -p "$out"
    for m in $modules; do
        local args=()
        mapfile -t args < <(python3 "$here/sg_args.py" "$tree/.build" "$m")
        if ! "$swift" symbolgraph-extract -module-name "$m" "${args[@]}" -I "$bin/Modules" \
                -minimum-access-level public -skip-synthesized-members \
                -output-dir "$out" >> "$log" 2>&1; then
            echo "public-api-diff.sh: symbolgraph-extract failed for $m in $tree (see $log)" >&2
            return 1
        fi
    done
    echo "$side: symbol graphs in $out ($(ls "$out" | tr '\n' ' '))" >&2
}

prepare "$old_src" old
prepare "$new_src" new
# shellcheck disable=SC2086
if [ -n "$outfile" ]; then
    python3 "$here/api_diff.py" "${diff_flags[@]}" "$work/symbolgraphs-old" "$work/symbolgraphs-new" $modules | tee "$outfile"
else
    python3 "$here/api_diff.py" "${diff_flags[@]}" "$work/symbolgraphs-old" "$work/symbolgraphs-new" $modules
fi
