#!/usr/bin/env python3
"""Generate the `anim play` benchmark clips into Tools/bench/play/clips/.

    python3 Tools/bench/play/make-clips.py [--out DIR] [--force] [--no-verify]

Three animations, each written as GIF, APNG and WebP (9 files):

    sprite    320x240, 60 frames, 40 ms: a static, detailed background (gradient,
              shapes, stripes, text-like marks) with one 24x24 sprite moving
    noise     320x240, 60 frames, 40 ms: per-pixel random colour noise each frame
    gradient  1280x720, 30 frames, 40 ms: a moving diagonal colour gradient

Encoders (all via Pillow, all looping forever):

    NAME.gif   one global 256-colour palette per clip (median cut over a few
               sample frames), no dithering, so unchanged pixels stay identical
               from frame to frame; Pillow crops each frame to the changed box.
    NAME.png   APNG (Pillow save_all, format PNG); Pillow stores sub-rectangles.
    NAME.webp  lossy WebP, quality 80, method 4 (Pillow's WebPAnimEncoder).

Deterministic: numpy's default_rng with fixed seeds, no time or environment
input.  Existing files are kept unless --force.  Every file is checked with
`anim info --json` (frame count, every duration 40 ms) when an anim binary is
found ($ANIM, else .build/release/anim); --no-verify skips that.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
MS = 40

SPECS = {  # name -> (width, height, frames)
    "sprite": (320, 240, 60),
    "noise": (320, 240, 60),
    "gradient": (1280, 720, 30),
}


# ----------------------------------------------------------------- frames
def sprite_frames(w=320, h=240, n=60):
    rng = np.random.default_rng(1001)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    # background: two-axis gradient
    bg = np.empty((h, w, 3), np.float64)
    bg[..., 0] = 40 + 150 * xx / (w - 1)
    bg[..., 1] = 60 + 120 * yy / (h - 1)
    bg[..., 2] = 170 - 90 * (xx + yy) / (w + h - 2)
    # diagonal stripes in the lower band
    band = (yy > h * 0.72) & (((xx + yy) // 6) % 2 == 0)
    bg[band] *= 0.75
    # filled circles and rectangles with random colours
    for _ in range(14):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(6, 30)
        col = rng.integers(0, 256, 3)
        m = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
        bg[m] = 0.35 * bg[m] + 0.65 * col
    for _ in range(10):
        x0, y0 = int(rng.integers(0, w - 20)), int(rng.integers(0, h - 12))
        rw, rh = int(rng.integers(8, 60)), int(rng.integers(6, 40))
        bg[y0:y0 + rh, x0:x0 + rw] = rng.integers(0, 256, 3)
        bg[y0:y0 + rh, x0:x0 + 1] = 0  # dark left edge
    # "text": rows of small random dark marks in a light panel
    bg[14:70, 180:304] = (236, 232, 220)
    for row in range(6):
        y = 18 + row * 9
        x = 184
        while x < 298:
            ww = int(rng.integers(2, 7))
            bg[y:y + 5, x:x + ww] = (30, 30, 40)
            x += ww + int(rng.integers(1, 4))
    bg = np.clip(bg, 0, 255).astype(np.uint8)

    # sprite: 24x24 disc with a face-like pattern and a dark outline
    s = 24
    sy, sx = np.mgrid[0:s, 0:s].astype(np.float64)
    d = np.hypot(sx - 11.5, sy - 11.5)
    body = d <= 11.5
    outline = body & (d > 10.0)
    spr = np.zeros((s, s, 3), np.uint8)
    spr[body] = (250, 210, 40)
    spr[outline] = (40, 20, 0)
    spr[(np.hypot(sx - 8, sy - 9) <= 2.2)] = (20, 20, 20)
    spr[(np.hypot(sx - 15, sy - 9) <= 2.2)] = (20, 20, 20)
    spr[(sy >= 15) & (sy <= 16) & (sx >= 7) & (sx <= 16)] = (170, 40, 30)

    frames = []
    for i in range(n):
        t = i / n
        # one lap around a Lissajous path
        x = int(round((w - s) / 2 + (w - s - 20) / 2 * np.sin(2 * np.pi * t)))
        y = int(round((h - s) / 2 + (h - s - 20) / 2 * np.sin(4 * np.pi * t + 0.5)))
        f = bg.copy()
        region = f[y:y + s, x:x + s]
        region[body] = spr[body]
        frames.append(f)
    return frames


def noise_frames(w=320, h=240, n=60):
    rng = np.random.default_rng(2002)
    return [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for _ in range(n)]


def gradient_frames(w=1280, h=720, n=30):
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (xx / w * 0.8 + yy / h * 0.45).astype(np.float32)
    v = (yy / h).astype(np.float32)
    frames = []
    for i in range(n):
        p = np.float32(i / n)
        r = 0.5 + 0.5 * np.cos(2 * np.pi * (u - p))
        g = 0.5 + 0.5 * np.cos(2 * np.pi * (u - p + 0.33) + 1.5 * v)
        b = 0.5 + 0.5 * np.cos(2 * np.pi * (0.6 * u + p + 0.67))
        frames.append((np.stack([r, g, b], -1) * 255 + 0.5).astype(np.uint8))
    return frames


GENERATORS = {"sprite": sprite_frames, "noise": noise_frames, "gradient": gradient_frames}


# ----------------------------------------------------------------- encoders
def global_palette(frames):
    """One 256-colour palette from a mosaic of sample frames (median cut)."""
    idx = np.linspace(0, len(frames) - 1, min(6, len(frames))).round().astype(int)
    sample = np.concatenate([frames[i] for i in idx], axis=0)
    if sample.shape[0] * sample.shape[1] > 2_000_000:  # keep median cut quick
        step = int(np.ceil(sample.shape[0] * sample.shape[1] / 2_000_000))
        sample = sample[::step]
    return Image.fromarray(sample).quantize(256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def write_gif(frames, path):
    pal = global_palette(frames)
    ims = [Image.fromarray(f).quantize(palette=pal, dither=Image.Dither.NONE) for f in frames]
    ims[0].save(path, format="GIF", save_all=True, append_images=ims[1:], duration=MS, loop=0,
                optimize=False, disposal=1)


def write_apng(frames, path):
    ims = [Image.fromarray(f) for f in frames]
    ims[0].save(path, format="PNG", save_all=True, append_images=ims[1:], duration=MS, loop=0,
                disposal=0, blend=0, compress_level=6)


def write_webp(frames, path):
    ims = [Image.fromarray(f) for f in frames]
    ims[0].save(path, format="WEBP", save_all=True, append_images=ims[1:], duration=MS, loop=0,
                lossless=False, quality=80, method=4, kmin=0, kmax=0)


ENCODERS = {"gif": write_gif, "png": write_apng, "webp": write_webp}


# ----------------------------------------------------------------- verify
def find_anim():
    a = os.environ.get("ANIM") or os.path.join(REPO, ".build", "release", "anim")
    if os.path.isfile(a) and os.access(a, os.X_OK):
        return a
    return shutil.which(a) if os.sep not in a else None


def verify(anim, path, want_frames):
    r = subprocess.run([anim, "info", path, "--json"], capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        return "anim info exit %d: %s" % (r.returncode, r.stderr.strip())
    info = json.loads(r.stdout)
    if info.get("frameCount") != want_frames:
        return "frameCount %s, want %d" % (info.get("frameCount"), want_frames)
    durs = sorted({f["durationMs"] for f in info["frames"]})
    if durs != [MS]:
        return "durations %s, want all %d ms" % (durs, MS)
    return None


def check_pillow(path, want_frames):
    """Independent check with Pillow: the frame count (APNG: really animated)."""
    with Image.open(path) as im:
        n = getattr(im, "n_frames", 1)
    return None if n == want_frames else "Pillow sees %d frames, want %d" % (n, want_frames)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(HERE, "clips"))
    ap.add_argument("--force", action="store_true", help="rewrite existing clips")
    ap.add_argument("--no-verify", action="store_true", help="skip the anim info check")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)

    problems = []
    for name, (w, h, n) in SPECS.items():
        todo = [ext for ext in ENCODERS
                if args.force or not os.path.exists(os.path.join(args.out, "%s.%s" % (name, ext)))]
        if todo:
            frames = GENERATORS[name](w, h, n)
            assert len(frames) == n and frames[0].shape == (h, w, 3)
            for ext in todo:
                path = os.path.join(args.out, "%s.%s" % (name, ext))
                tmp = path + ".tmp"
                ENCODERS[ext](frames, tmp)
                os.replace(tmp, path)
                print("make-clips: wrote %s (%d bytes)" % (path, os.path.getsize(path)), file=sys.stderr)
        for ext in ENCODERS:
            path = os.path.join(args.out, "%s.%s" % (name, ext))
            err = check_pillow(path, n)
            if err:
                problems.append("%s: %s" % (path, err))

    anim = None if args.no_verify else find_anim()
    if not args.no_verify and anim is None:
        print("make-clips: no anim binary (set ANIM=...); skipped the anim info check", file=sys.stderr)
    if anim:
        for name, (w, h, n) in SPECS.items():
            for ext in ENCODERS:
                path = os.path.join(args.out, "%s.%s" % (name, ext))
                err = verify(anim, path, n)
                status = "ok" if err is None else "FAIL: " + err
                print("make-clips: anim info %-14s %dx%d %d frames x %d ms: %s"
                      % (os.path.basename(path), w, h, n, MS, status), file=sys.stderr)
                if err:
                    problems.append("%s: %s" % (path, err))
    for p in problems:
        print("make-clips: PROBLEM " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
