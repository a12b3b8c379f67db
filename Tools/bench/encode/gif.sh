#!/usr/bin/env bash
# GIF encoder benchmark: `anim encode` against ffmpeg (palettegen + paletteuse,
# defaults: sierra2_4a dithering) followed by `gifsicle -O3`, on the rendered
# frames of Tools/bench/set/frames/SET/ (Tools/bench/make-set.sh), 40 ms a frame.
#
#   Tools/bench/encode/gif.sh [SET...]        (default: sticker screen video)
#
# ANIM=path picks the anim binary (default .build/release/anim); ANIM_ARGS adds
# options (e.g. ANIM_ARGS="--dither ordered"). Outputs go to OUT (default
# Tools/bench/encode/out/gif/). For each set it prints size, wall time and
# mean PSNR (each frame decoded by Pillow, composited on black, against the
# source frame composited on black; RGB; identical frames count as 99 dB),
# and checks that Pillow and ffmpeg decode the same frames.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
ANIM=${ANIM:-$root/.build/release/anim}
OUT=${OUT:-$here/out/gif}
sets=("$@"); [ ${#sets[@]} -gt 0 ] || sets=(sticker screen video)
mkdir -p "$OUT"
[ -x "$ANIM" ] || { echo "no anim binary at $ANIM (swift build -c release, or set ANIM=)" >&2; exit 1; }

now() { date +%s.%N; }
printf '| set | encoder | bytes | seconds | mean PSNR dB | Pillow = ffmpeg |\n|---|---|---:|---:|---:|---|\n'
for set in "${sets[@]}"; do
    dir=$root/Tools/bench/set/frames/$set
    [ -d "$dir" ] || { echo "no frames in $dir: run Tools/bench/make-set.sh" >&2; exit 1; }
    a=$OUT/$set.anim.gif; f=$OUT/$set.ffmpeg.gif
    t0=$(now)
    # shellcheck disable=SC2086
    "$ANIM" encode "$dir" "$a" --delay 40 ${ANIM_ARGS:-} >/dev/null 2>"$OUT/$set.anim.log"
    t1=$(now)
    ffmpeg -v error -y -framerate 25 -i "$dir/f%03d.png" -vf palettegen "$OUT/$set.palette.png"
    ffmpeg -v error -y -framerate 25 -i "$dir/f%03d.png" -i "$OUT/$set.palette.png" \
        -lavfi paletteuse -loop 0 "$OUT/$set.ffmpeg-raw.gif"
    gifsicle -O3 "$OUT/$set.ffmpeg-raw.gif" -o "$f"
    t2=$(now)
    python3 - "$dir" "$a" "$f" "$set" "$(echo "$t1 - $t0" | bc)" "$(echo "$t2 - $t1" | bc)" <<'PY'
import os, subprocess, sys
import numpy as np
from PIL import Image, ImageSequence
src_dir, anim, peer, name, ta, tp = sys.argv[1:]
names = sorted(n for n in os.listdir(src_dir) if n.endswith('.png'))
def flat(a):
    a = a.astype(np.float64)
    return a[..., :3] * (a[..., 3:4] / 255.0)
src = [flat(np.array(Image.open(os.path.join(src_dir, n)).convert('RGBA'))) for n in names]
def report(path, label, seconds):
    im = Image.open(path)
    frames, times = [], []
    for fr in ImageSequence.Iterator(im):
        frames.append(np.array(fr.convert('RGBA')))
        times.append(fr.info.get('duration', 0))
    # Map each source frame (40 ms each) to the decoded frame shown at its start.
    ends = np.cumsum(times)
    psnrs = []
    for i, s in enumerate(src):
        k = min(int(np.searchsorted(ends, i * 40, side='right')), len(frames) - 1)
        d = flat(frames[k]); mse = ((d - s) ** 2).mean()
        psnrs.append(99.0 if mse == 0 else min(99.0, 10 * np.log10(255 ** 2 / mse)))
    h, w = frames[0].shape[:2]
    raw = subprocess.run(['ffmpeg', '-v', 'error', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgba',
                          '-fps_mode', 'passthrough', '-'], capture_output=True, check=True).stdout
    ff = np.frombuffer(raw, np.uint8).reshape(-1, h, w, 4)
    agree = len(ff) == len(frames) and all(
        ((a[..., 3] == 0) == (b[..., 3] == 0)).all() and (a[b[..., 3] > 0][:, :3] == b[b[..., 3] > 0][:, :3]).all()
        for a, b in zip(ff, frames))
    print(f'| {name} | {label} | {os.path.getsize(path)} | {float(seconds):.2f} | {np.mean(psnrs):.2f} | '
          f'{"yes" if agree else "NO"} ({len(frames)} frames, {sum(times)} ms) |')
report(anim, 'anim', ta)
report(peer, 'ffmpeg+gifsicle', tp)
PY
done
