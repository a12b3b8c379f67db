#!/usr/bin/env bash
# Builds and runs every Swift snippet of README.md and of the DocC articles
# (Sources/AnimKit/AnimKit.docc) from a separate package
# that depends on AnimKit the way a user does: by URL, from: "2.0.0".
#
#   Tools/client/check.sh [WORKDIR]
#
# The repository's files as they are now (committed or not) go into a fresh
# git repository tagged 2.0.0 under WORKDIR (default: a temporary folder);
# a client package there depends on it by its file:// URL, in Swift 6
# language mode. Each ```swift block that is not a manifest fragment
# becomes an async function in a file of its own; main runs them all from
# the repository's root (they read Animations/). Fails on any compiler
# warning, a build error, or a snippet that throws.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
WORK="${1:-$(mktemp -d /tmp/anim-client.XXXXXX)}"
mkdir -p "$WORK"
REPO="$WORK/anim"
rm -rf "$REPO" "$WORK/client"
mkdir -p "$REPO"
cd "$ROOT"
git ls-files -co --exclude-standard -z | while IFS= read -r -d '' f; do
    [ -e "$f" ] || continue
    mkdir -p "$REPO/$(dirname "$f")"; cp -p "$f" "$REPO/$f"
done
git -C "$REPO" init -q
git -C "$REPO" add -A
git -C "$REPO" -c user.name=client -c user.email=client@localhost commit -qm "snapshot for the client check"
git -C "$REPO" tag 2.0.0

CLIENT="$WORK/client"
mkdir -p "$CLIENT/Sources/client"
cat > "$CLIENT/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "client",
    dependencies: [.package(url: "file://$REPO", from: "2.0.0")],
    targets: [
        .executableTarget(name: "client", dependencies: [
            .product(name: "AnimKit", package: "anim"),
            .product(name: "AnimKitFoundation", package: "anim"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
python3 - "$ROOT" "$CLIENT/Sources/client" <<'PY'
import glob, os, re, sys
root, out = sys.argv[1], sys.argv[2]
docs = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "Sources/AnimKit/AnimKit.docc/*.md")))
blocks = [b for d in docs for b in re.findall(r"```swift\n(.*?)```", open(d).read(), re.S)]
names = []
for n, block in enumerate(blocks):
    if "Package.swift" in block or "dependencies:" in block:
        continue                                   # a manifest fragment, not code to run
    imports = sorted(set(l for l in block.splitlines() if l.startswith("import ")))
    body = "\n".join("    " + l if l.strip() else "" for l in block.splitlines() if not l.startswith("import "))
    name = "snippet%d" % n
    names.append(name)
    open("%s/%s.swift" % (out, name), "w").write("\n".join(imports) + "\n\nfunc %s() async throws {\n%s\n}\n" % (name, body))
if not names:
    sys.exit("no Swift snippet found in the README or the DocC articles")
calls = "\n".join('    print("== %s"); try await %s()' % (n, n) for n in names)
open(out + "/main.swift", "w").write("#if canImport(Glibc)\nimport Glibc\n#endif\n\ndo {\n%s\n} catch {\n    print(\"snippet failed: \\(error)\")\n    exit(1)\n}\n" % calls)
print("client: %d snippets" % len(names), file=sys.stderr)
PY
cd "$CLIENT"
log="$WORK/build.log"
if ! swift build 2>&1 | tee "$log"; then echo "client: build failed" >&2; exit 1; fi
if grep -q "warning:" "$log"; then grep "warning:" "$log" >&2; echo "client: the build has warnings" >&2; exit 1; fi
cd "$ROOT"
"$CLIENT/.build/debug/client"
echo "client: built with no warning, every snippet ran"
