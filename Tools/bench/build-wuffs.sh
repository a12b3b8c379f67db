#!/usr/bin/env bash
# Builds wuffs' example/convert-to-nia (google/wuffs, Apache-2.0; one
# thread, C) into Tools/bench/bin/ for gif-speed.py: the fastest GIF decoder
# we know of. Needs a copy of the wuffs repository: a work tree (WUFFS=dir)
# or a bare git directory (WUFFS_GIT=dir, e.g. the one the search tool's
# `fetch github:google/wuffs` makes). Not vendored: 3.5 MB of C.
# Usage: WUFFS_GIT=/work/.mirror/google+wuffs/repo Tools/bench/build-wuffs.sh
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
BIN="${BIN:-$HERE/bin}"
mkdir -p "$BIN"
SRC="$(mktemp -d)"
trap 'rm -rf "$SRC"' EXIT
files=(example/convert-to-nia/convert-to-nia.c release/c/wuffs-unsupported-snapshot.c snippet/uncompng.c)
for f in "${files[@]}"; do
  mkdir -p "$SRC/$(dirname "$f")"
  if [[ -n "${WUFFS_GIT:-}" ]]; then git -C "$WUFFS_GIT" show "HEAD:$f" > "$SRC/$f"
  elif [[ -n "${WUFFS:-}" ]]; then cp "$WUFFS/$f" "$SRC/$f"
  else echo "build-wuffs: set WUFFS (a work tree) or WUFFS_GIT (a git directory)" >&2; exit 1; fi
done
gcc -O3 -o "$BIN/convert-to-nia" "$SRC/example/convert-to-nia/convert-to-nia.c"
echo "build-wuffs: $BIN/convert-to-nia ($(git -C "${WUFFS_GIT:-${WUFFS:-.}}" log -1 --format=%h 2>/dev/null || echo '?'))"
