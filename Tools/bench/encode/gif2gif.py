#!/usr/bin/env python3
"""GIF to GIF: `anim convert in.gif out.gif` against `gifsicle -O3`, one row
per file. For each input it reports the frames, the most opaque colours in
one frame, the pixels anim's output shows differently from the input at each
input frame's start, and the three sizes. Frames are decoded by anim (whose
GIF decoding is checked against the browsers' by the conformance suites)
and, for a second opinion, by Pillow (which disposes to the background
colour and counts frames in its own way, so it differs on some inputs).

    python3 Tools/bench/encode/gif2gif.py FILE.gif... [--anim PATH] [--json]
    python3 Tools/bench/encode/gif2gif.py --dir DIR   # every *.gif in DIR

Needs gifsicle, Pillow and numpy. A target is met on a file when no pixel
changed (where every frame has at most 256 colours) and anim's size is at
most gifsicle's; the last line counts the files that miss either.
"""
import argparse, glob, json, os, subprocess, sys, tempfile

import numpy as np
from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus import at, pillow_timeline  # noqa: E402  (one copy of the timeline helpers)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def anim_timeline(anim, path, work):
    """(start ms, RGBA array) of every frame, as anim composites them."""
    info = json.loads(subprocess.run([anim, "info", "--json", path], capture_output=True, text=True).stdout)
    d = os.path.join(work, "x")
    subprocess.run(["rm", "-rf", d])
    subprocess.run([anim, "extract", path, d], capture_output=True)
    pngs = sorted(glob.glob(os.path.join(d, "*.png")))
    out, t = [], 0
    for f, png in zip(info["frames"], pngs):
        out.append((t, np.array(Image.open(png).convert("RGBA"))))
        t += f["durationMs"]
    return out


def differs(a, b):
    """Pixels that differ, transparent pixels equal whatever their colour
    (every pixel when Pillow gives the two files canvases of other sizes)."""
    if a.shape != b.shape:
        return a.shape[0] * a.shape[1]
    ta, tb = a[..., 3] == 0, b[..., 3] == 0
    colour = np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 0
    return int(((ta != tb) | (~ta & ~tb & colour)).sum())


def colours(a):
    op = a[a[..., 3] >= 128][:, :3]
    return len(np.unique(op.view([("", op.dtype)] * 3))) if len(op) else 0


def row(path, anim, work):
    name = os.path.basename(path)
    out = os.path.join(work, "anim.gif")
    gs = os.path.join(work, "gifsicle.gif")
    r = subprocess.run([anim, "convert", path, out], capture_output=True, text=True)
    if r.returncode != 0:
        return {"file": name, "error": r.stderr.strip()[:120]}
    g = subprocess.run(["gifsicle", "-O3", path, "-o", gs], capture_output=True)
    src = anim_timeline(anim, path, work)
    got = anim_timeline(anim, out, work)
    changed = sum(differs(a, at(got, t)) for t, a in src)
    most = max(colours(a) for _, a in src)
    psrc, pgot = pillow_timeline(path), pillow_timeline(out)
    pillow = sum(differs(a, at(pgot, t)) for t, a in psrc)
    return {
        "file": name, "frames": len(src), "colours": most, "changed": changed, "pillowChanged": pillow,
        "input": os.path.getsize(path), "anim": os.path.getsize(out),
        "gifsicle": os.path.getsize(gs) if g.returncode == 0 else None,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("files", nargs="*")
    ap.add_argument("--dir")
    ap.add_argument("--anim", default=os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim")))
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    files = a.files + (sorted(glob.glob(os.path.join(a.dir, "*.gif"))) if a.dir else [])
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for f in files:
            rows.append(row(f, a.anim, work))
            print(f"gif2gif: {os.path.basename(f)}", file=sys.stderr)
    if a.json:
        print(json.dumps(rows, indent=1))
        return
    print("| file | frames | colours | pixels changed | (Pillow) | input | anim | gifsicle -O3 | anim/gifsicle |")
    print("|---|---|---|---|---|---|---|---|---|")
    misses = 0
    for r in rows:
        if "error" in r:
            print(f"| {r['file']} | anim failed: {r['error']} | | | | | | | |")
            misses += 1
            continue
        ratio = r["anim"] / r["gifsicle"] if r["gifsicle"] else float("nan")
        miss = (r["colours"] <= 256 and r["changed"] > 0) or (r["gifsicle"] and r["anim"] > r["gifsicle"])
        misses += bool(miss)
        print(f"| {r['file']} | {r['frames']} | {r['colours']} | {r['changed']} | {r['pillowChanged']} | {r['input']} | {r['anim']} "
              f"| {r['gifsicle']} | {ratio:.2f}{' (miss)' if miss else ''} |")
    print(f"\n{len(rows)} files, {misses} miss a target (a changed pixel where colours fit, or bigger than gifsicle -O3)")


if __name__ == "__main__":
    main()
