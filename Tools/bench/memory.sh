#!/usr/bin/env bash
# Memory of playback: every frame of the 1920x1080x60 files of the set, two
# loops, as a terminal player needs them (160x96 pixels = 80x48 cells), and
# at full size with a 64 MiB cache. Compares with timg and chafa rendering
# the same files at 80x48 cells for two loops (both play in real time, so
# their wall time is the animation's length; peak RSS is what compares).
# Usage: Tools/bench/memory.sh   (after make-set.sh and swift build -c release)
set -euo pipefail
cd "$(dirname "$0")/../.."
ANIM=${ANIM:-.build/release/anim}
SET=Tools/bench/set
rss() { /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1; }   # peak RSS in KiB
mib() { python3 -c "import re,sys; n=re.findall(r'^[0-9]+$', sys.argv[1], re.M); print(f'{int(n[-1])/1024:.1f}' if n else 'fail')" "$1"; }
echo "| file | anim 160x96: decoded per loop | anim 160x96 peak RSS MiB | anim full size, 64M cache: decoded per loop | peak RSS MiB (bound) | timg peak RSS MiB | chafa peak RSS MiB |"
echo "|---|---|---:|---|---:|---:|---:|"
for f in big.gif big.png big.lossless.webp big.lossy.webp; do
    small=$("$ANIM" bench "$SET/$f" --loops 2 --fit 160x96 --json)
    full=$("$ANIM" bench "$SET/$f" --loops 2 --cache-limit 64M --json)
    field() { python3 -c "import json,sys; d=json.loads(sys.argv[1]); v=d['$2']; print(v if not isinstance(v,int) or '$2'!='peakRSSBytes' else f'{v/2**20:.1f}')" "$1"; }
    bound=$(python3 -c "print(f'{64 + 2*1920*1080*4/2**20 + 16:.1f}')")
    timg_kib=$(timeout 60 /usr/bin/time -f "%M" timg -g80x48 --loops=2 "$SET/$f" 2>&1 >/dev/null || true)
    chafa_kib=$(timeout 60 /usr/bin/time -f "%M" chafa --size 80x48 --duration 4.8 "$SET/$f" 2>&1 >/dev/null || true)
    echo "| $f | $(field "$small" decodedPerLoop) | $(field "$small" peakRSSBytes) | $(field "$full" decodedPerLoop) | $(field "$full" peakRSSBytes) ($bound) | $(mib "$timg_kib") | $(mib "$chafa_kib") |"
done
