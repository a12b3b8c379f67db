#!/usr/bin/env bash
# Generate the clips (if missing) and run the benchmark.  Options go to run.py.
#   ANIM=/path/to/anim Tools/bench/play/run.sh [--runs N] [--clips ...] [--json] ...
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$HERE/../../.."
export ANIM="${ANIM:-.build/release/anim}"
python3 "$HERE/make-clips.py"
exec python3 "$HERE/run.py" "$@"
