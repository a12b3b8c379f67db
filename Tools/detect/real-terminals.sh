#!/usr/bin/env bash
# Runs DetectRealTerminalTests inside real terminals: xterm as a VT340
# (sixel, direct colour), plain xterm (text), and tmux inside xterm (with
# allow-passthrough on). Needs xterm, Xvfb (xvfb-run) and tmux; prints each
# terminal's describe() report. Build first: swift build --build-tests.
# Usage: Tools/detect/real-terminals.sh
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
OUT="${OUT:-$ROOT/.build/detect}"
mkdir -p "$OUT"
cd "$ROOT"
BIN="$ROOT/.build/debug/animPackageTests.xctest"
status=0
run() {   # name, expectation, terminal command…
    local name=$1 expect=$2; shift 2
    rm -f "$OUT/$name.report" "$OUT/$name.log"
    # The test binary itself, not swift test: that runs it in a process
    # group of its own, in the background of the terminal (reads: EIO).
    local test="ANIM_DETECT_EXPECT=$expect ANIM_DETECT_REPORT=$OUT/$name.report $BIN --testing-library swift-testing --filter DetectRealTerminal > $OUT/$name.log 2>&1; echo \$? > $OUT/$name.status"
    timeout 120 xvfb-run -a "$@" sh -c "$test" || true
    echo "== $name (expected $expect): exit $(cat "$OUT/$name.status" 2>/dev/null || echo none)"
    cat "$OUT/$name.report" 2>/dev/null || tail -20 "$OUT/$name.log"
    [ "$(cat "$OUT/$name.status" 2>/dev/null)" = 0 ] || status=1
}
run xterm-vt340 sixel+24bit xterm -ti vt340 -e
run xterm text+24bit xterm -e
cat > "$OUT/tmux.conf" <<CONF
set -g allow-passthrough on
set -g default-terminal tmux-256color
CONF
# tmux 3.3 draws no sixel and passes it only through passthrough: xterm
# outside is known by XTERM_VERSION, which says nothing of graphics.
run tmux text+24bit+tmux xterm -e tmux -L anim-detect -f "$OUT/tmux.conf" new-session
exit $status
