#!/usr/bin/env bash
# The CHANGELOG's "Migrating from 1.x", checked: client-1x/main.swift (a
# client of the 1.x API: every way 1.x read frames, its error cases,
# RGBAImage(validating:), writing and transcoding) builds against a 1.x
# revision, and client-2x/main.swift (the same program after the migration
# steps) builds against this tree; both without a warning in their own
# code, and both run on Animations/demo.gif with the same output.
#   Tools/api/migration-check.sh [OLD_REV]   # default 0411a1d, the last 1.x
# About 10 minutes on 2 cores (two builds of the package).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rev="${1:-0411a1d}"
work="$(mktemp -d /tmp/anim-migration.XXXXXX)"
mkdir -p "$work/old" "$work/new"
git -C "$root" archive "$rev" | tar -x -C "$work/old"
(cd "$root" && git ls-files -co --exclude-standard -z | xargs -0 tar -c 2>/dev/null) | tar -x -C "$work/new"
for side in old:1x new:2x; do
    tree="${side%%:*}" name="client${side##*:}"
    mkdir -p "$work/$name/Sources/$name"
    cp "$root/Tools/api/client-${side##*:}/main.swift" "$work/$name/Sources/$name/main.swift"
    cat > "$work/$name/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "$name",
    dependencies: [.package(path: "$work/$tree")],
    targets: [
        .executableTarget(
            name: "$name",
            dependencies: [
                .product(name: "AnimKit", package: "$tree"), .product(name: "AnimKitFoundation", package: "$tree"),
                .product(name: "AnimTerminal", package: "$tree"),
            ])
    ]
)
MANIFEST
    (cd "$work/$name" && swift build 2>&1) > "$work/$name.log" || { tail -20 "$work/$name.log"; echo "migration: $name does not build" >&2; exit 1; }
    if grep "Sources/$name/.*warning:" "$work/$name.log" >&2; then echo "migration: $name has warnings" >&2; exit 1; fi
    (cd "$root" && "$work/$name/.build/debug/$name" Animations/demo.gif) > "$work/$name.out"
done
diff "$work/client1x.out" "$work/client2x.out" && echo "migration: client-1x builds against $rev, client-2x against this tree, same output ($(wc -l < "$work/client2x.out") lines)"
