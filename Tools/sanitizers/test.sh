#!/usr/bin/env bash
# The test suite under a sanitizer: Tools/sanitizers/test.sh address|thread
# [swift test options...]. Builds into .build/sanitize-KIND, so the normal
# build is left alone. The anim binary the CLI tests run is instrumented too.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kind="${1:?usage: Tools/sanitizers/test.sh address|thread}"
shift
cd "$ROOT"
# Swift's crash handler reads other threads' stacks, which AddressSanitizer
# reports as an error of its own: off, so a real report is the one shown.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS="suppressions=$ROOT/Tools/sanitizers/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export TSAN_OPTIONS="halt_on_error=1${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
export ANIM_SANITIZER="$kind"          # tests of peak memory stand aside
exec swift test --sanitize="$kind" --scratch-path ".build/sanitize-$kind" "$@"
