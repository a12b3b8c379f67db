#!/usr/bin/env bash
# Regenerates Tools/screenshot/player.png, the README's picture of
# `anim play --status` (the built-in demo) in a 24-bit-colour terminal.
#
# It runs the player in a detached tmux session of a fixed size on a private
# tmux server, waits until a frame mid-animation is on screen, captures the
# pane with its colours (raw ANSI text) and draws that with render.py.  The
# frame shown may differ by a frame or two between runs.
#
# Usage (from the repository root):
#   Tools/screenshot/make.sh
# Environment:
#   ANIM=path      the binary (default .build/release/anim)
#   COLS=72 ROWS=22  the terminal size in cells
#   DELAY=1.8      seconds to let the animation run before the capture: the
#                  demo loops every 1.2 s, so 1.8 s is mid-bounce (about
#                  frame 15/30, the ball high over its shadow), while 1.2 s
#                  would catch the squashed landing at the loop point
#   CAPTURE=path   keep the captured ANSI text there (default: a temp file)
# Needs: tmux (3.2 or later for terminal-features; older ones get
# terminal-overrides), python3 with Pillow.
set -euo pipefail
export LC_ALL=C.UTF-8   # tmux must treat the half blocks as UTF-8

ANIM=${ANIM:-.build/release/anim}
COLS=${COLS:-72}
ROWS=${ROWS:-22}
DELAY=${DELAY:-1.8}
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
OUT="$HERE/player.png"
TMP="$(mktemp -d)"
CAPTURE=${CAPTURE:-$TMP/capture.ans}
where() { case "$CAPTURE" in "$TMP"/*) echo "rerun with CAPTURE=file to keep the capture" ;; *) echo "see $CAPTURE" ;; esac; }

die() { echo "make.sh: $*" >&2; exit 1; }
command -v tmux >/dev/null || die "tmux is missing (apt-get install tmux)"
command -v python3 >/dev/null || die "python3 is missing"
python3 -c 'import PIL' 2>/dev/null || die "python3 has no Pillow (pip install Pillow)"
[ -x "$ANIM" ] || die "no executable at ANIM=$ANIM (swift build -c release, or set ANIM)"
ANIM="$(cd "$(dirname "$ANIM")" && pwd)/$(basename "$ANIM")"

# A server of our own (-L), with no user configuration (-f /dev/null), so
# neither the user's tmux nor their .tmux.conf is involved.
SOCK="anim-screenshot-$$"
T=(tmux -u -f /dev/null -L "$SOCK")
SOCKET_PATH=
cleanup() {
    "${T[@]}" kill-server 2>/dev/null || true
    [ -z "$SOCKET_PATH" ] || rm -f "$SOCKET_PATH"   # tmux leaves it behind
}
trap 'cleanup; rm -rf "$TMP"' EXIT

# Options before the session exists, so that its pane gets them: no tmux
# status bar (the pane is the whole COLSxROWS), 24-bit colour, the pane kept
# after the player exits (to read its exit status).
"${T[@]}" start-server \; \
    set -g status off \; \
    set -g default-terminal tmux-256color \; \
    set -g remain-on-exit on \; \
    set -g exit-empty off
SOCKET_PATH="$("${T[@]}" display -p '#{socket_path}')"
"${T[@]}" set -as terminal-features ',*:RGB' 2>/dev/null ||
    "${T[@]}" set -as terminal-overrides ',*:Tc'
"${T[@]}" new-session -d -s shot -x "$COLS" -y "$ROWS" -c "$PWD" \
    "exec env COLORTERM=truecolor TERM=tmux-256color '$ANIM' play --status"

size="$("${T[@]}" display -p -t shot '#{pane_width}x#{pane_height}')"
[ "$size" = "${COLS}x${ROWS}" ] || die "the pane is $size, not ${COLS}x${ROWS}"

sleep "$DELAY"
# The status line is written after each frame, so seeing it means a whole
# frame has been drawn; capture until one shows it (the player may be
# mid-write at the first try).
for try in 1 2 3 4 5; do
    [ "$("${T[@]}" display -p -t shot '#{pane_dead}')" = 0 ] ||
        die "the player exited early (status $("${T[@]}" display -p -t shot '#{pane_dead_status}'))"
    "${T[@]}" capture-pane -e -p -t shot > "$CAPTURE"
    grep -q 'frame [0-9]*/[0-9]*  speed' "$CAPTURE" && break
    [ "$try" = 5 ] && die "no status line in the capture: $(where)"
    sleep 0.1
done
grep -q $'\e\\[[0-9;]*38;2;[0-9]*;[0-9]*;[0-9]*' "$CAPTURE" ||
    die "the capture has no 24-bit colours (38;2;r;g;b): $(where)"

# Quit with q and check that the player leaves cleanly.  (tmux sees the
# pane's output close before it reaps the process: wait for the status.)
"${T[@]}" send-keys -t shot q
exit_fmt='#{pane_dead}:#{pane_dead_status}#{?pane_dead_signal,signal #{pane_dead_signal},}'
for _ in $(seq 50); do
    status="$("${T[@]}" display -p -t shot "$exit_fmt")"
    case "$status" in 1:?*) break ;; esac
    sleep 0.1
done
[ "$status" = "1:0" ] || die "the player did not quit cleanly on q (dead:status = $status)"
"${T[@]}" kill-session -t shot
cleanup

python3 "$HERE/render.py" "$CAPTURE" "$OUT" --cols "$COLS" --rows "$ROWS" --title "anim play"
echo "$OUT: $(stat -c %s "$OUT") bytes, status line: $(sed -n '$s/\x1b\[[0-9;]*m//gp' "$CAPTURE")"
