#!/usr/bin/env python3
"""Resize + convert a GIF to 480 pixels wide: `anim convert IN OUT.gif
--resize 480x` against `gifsicle --resize-width 480` (its default method,
and --resize-method lanczos3 with --colors 256 for a second opinion) and
ffmpeg's scale + palettegen/paletteuse pipeline, one run on a quiet machine.

For each: the fastest wall time of RUNS runs, the output's size, and its
quality: the mean PSNR (RGB, opaque pixels) over the source's frames, each
output frame shown at a source frame's start compared with that source
frame downscaled by Pillow, with BOX (area average) and with LANCZOS, so
neither filter's own family is the only judge. Frames are decoded by anim
(`anim extract`, checked against the browsers elsewhere).

    python3 Tools/bench/resize.py [GIF...]     (default: the set's 1920x1080 GIFs)
    env: ANIM, RUNS (default 3), WIDTH (default 480)
Needs gifsicle, ffmpeg, Pillow and numpy. The target: anim faster than
both, at equal or better PSNR (against both references).
"""
import glob, json, os, subprocess, sys, tempfile, time

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "encode"))
from corpus import at  # noqa: E402  (the frame shown at a time: one copy)
ROOT = os.path.dirname(os.path.dirname(HERE))
ANIM = os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim"))
RUNS = int(os.environ.get("RUNS", "3"))
WIDTH = int(os.environ.get("WIDTH", "480"))


def timeline(path, work, tag):
    """(start ms, RGBA array) of every frame, as anim composites them."""
    info = json.loads(subprocess.run([ANIM, "info", "--json", path], capture_output=True, text=True,
                                     check=True).stdout)
    d = os.path.join(work, "x-" + tag)
    subprocess.run(["rm", "-rf", d])
    subprocess.run([ANIM, "extract", path, d, "--no-color-management"], capture_output=True, check=True)
    pngs = sorted(glob.glob(os.path.join(d, "*.png")))
    out, t = [], 0
    for f, png in zip(info["frames"], pngs):
        out.append((t, np.array(Image.open(png).convert("RGBA"))))
        t += f["durationMs"]
    subprocess.run(["rm", "-rf", d])
    return out


def psnr(a, b):
    if a.shape != b.shape:
        return float("nan")
    mask = (a[..., 3] >= 128) & (b[..., 3] >= 128)
    if not mask.any():
        return float("nan")
    d = a[..., :3].astype(np.float64)[mask] - b[..., :3].astype(np.float64)[mask]
    mse = (d * d).mean()
    return 99.0 if mse == 0 else 10 * np.log10(255 * 255 / mse)


def best(cmd):
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return min(times)


def main():
    files = sys.argv[1:] or [f for f in sorted(glob.glob(os.path.join(HERE, "set", "*.gif")))
                             if Image.open(f).size == (1920, 1080) and "interlaced" not in f]
    print(f"resize to {WIDTH} wide, fastest of {RUNS} runs; PSNR (dB) against the source frames downscaled "
          "by Pillow BOX / LANCZOS\n")
    print("| file | tool | seconds | bytes | PSNR vs BOX | PSNR vs LANCZOS |")
    print("|---|---|---:|---:|---:|---:|")
    for path in files:
        work = tempfile.mkdtemp()
        src = timeline(path, work, "src")
        w, h = src[0][1].shape[1], src[0][1].shape[0]
        height = round(h * WIDTH / w)
        refs = {k: [np.array(Image.fromarray(img).resize((WIDTH, height), f)) for _, img in src]
                for k, f in (("box", Image.Resampling.BOX), ("lanczos", Image.Resampling.LANCZOS))}
        tools = [
            ("anim", lambda o: [ANIM, "convert", path, o, "--resize", f"{WIDTH}x"]),
            ("gifsicle", lambda o: ["gifsicle", "--resize-width", str(WIDTH), path, "-o", o]),
            ("gifsicle lanczos3", lambda o: ["gifsicle", "--resize-width", str(WIDTH), "--resize-method",
                                             "lanczos3", "--colors", "256", path, "-o", o]),
            ("ffmpeg", lambda o: ["ffmpeg", "-v", "error", "-y", "-i", path, "-vf",
                                  f"scale={WIDTH}:{height}:flags=lanczos,split[a][b];[a]palettegen[p];[b][p]paletteuse",
                                  o]),
        ]
        for name, cmd in tools:
            out = os.path.join(work, name.replace(" ", "-") + ".gif")
            seconds = best(cmd(out))
            got = timeline(out, work, "out")
            scores = {k: np.nanmean([psnr(at(got, t), refs[k][i]) for i, (t, _) in enumerate(src)]) for k in refs}
            print(f"| {os.path.basename(path)} | {name} | {seconds:.2f} | {os.path.getsize(out)} | "
                  f"{scores['box']:.2f} | {scores['lanczos']:.2f} |", flush=True)
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
