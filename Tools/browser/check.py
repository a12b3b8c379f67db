#!/usr/bin/env python3
"""Frames as headless Chromium's own decoder (WebCodecs ImageDecoder) shows
them, against anim's: `python3 Tools/browser/check.py FILE...`.

Serves the files and decode.html from 127.0.0.1, runs `chromium --headless`,
and compares a hash of every frame (RGBA, transparent pixels as 0) with the
frames `anim extract` writes. Prints one line per file: `same`, or the
frame counts and the first frames that differ. Chromium shows every GIF
image as a frame, zero-delay ones included, as anim does by default; with
ANIM_ARGS=--merge-zero-delay a browser frame list that ends with anim's is
reported as `same (browser shows N more images first)`. A frame the browser
fails to decode ends its list there (the frames before it count); the plays
compared are what each side plays (repetitions after the first, `inf` for
ever), not the stored loop value. Translucent pixels go through
a canvas, which premultiplies them: compare files with binary alpha only.
By default both sides give the stored colour values (ImageDecoder's
colorSpaceConversion 'none', anim's --no-color-management). COLOR=N
compares colour management instead: the browser converts to sRGB
('default') and so does anim (its default), and each frame's pixels are
compared, `same` meaning no channel differs by more than N (Chromium's
skcms and Little CMS round differently); for small files (the pixels come
back as text).
Needs chromium, Pillow and numpy; ANIM (default .build/release/anim)."""
import http.server, json, os, re, shutil, subprocess, sys, tempfile, threading

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ANIM = os.environ.get("ANIM", os.path.join(HERE, "..", "..", ".build", "release", "anim"))
COLOR = os.environ.get("COLOR")  # a tolerance: compare colour-managed pixels


def frame_hash(rgba):
    if COLOR:
        return rgba.astype(np.uint8).tobytes().hex()
    a = rgba.astype(np.uint64)
    v = np.where(a[..., 3] > 0, a[..., 0] | a[..., 1] << 8 | a[..., 2] << 16 | a[..., 3] << 24, 0).ravel()
    h = 0
    for x in v.tolist():
        h = (h * 31 + x) & 0xFFFFFFFF
    return "%x" % h


def anim_hashes(path, work):
    out = os.path.join(work, "x-" + os.path.basename(path))
    # A failing extract (exit 1 after the frames it could write) still
    # compares those frames; the status is reported beside them.
    extra = os.environ.get("ANIM_ARGS", "").split() + ([] if COLOR else ["--no-color-management"])
    r = subprocess.run([ANIM, "extract", path, out] + extra, capture_output=True)
    names = sorted(os.listdir(out)) if os.path.isdir(out) else []
    hashes = [frame_hash(np.array(Image.open(os.path.join(out, f)).convert("RGBA"))) for f in names]
    # The canvas and the plays, as the browser reports them: WxH, and the
    # repetitions after the first play (inf: forever). From what anim plays,
    # not the stored loop value (a GIF without a loop block plays once).
    info = subprocess.run([ANIM, "info", "--json", path] + extra, capture_output=True, text=True)
    size, rep = "?", "?"
    if info.returncode in (0, 1) and info.stdout.strip():
        j = json.loads(info.stdout)
        size = "%dx%d" % (j["width"], j["height"])
        plays = j.get("plays")
        rep = "?" if plays is None else "inf" if plays == 0 else str(plays - 1)
    return hashes, r.returncode, size, rep


def browser_hashes(names, root):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = lambda *a: Quiet(*a, directory=root)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = "http://127.0.0.1:%d/decode.html?files=%s" % (server.server_address[1], ",".join(names))
    url += "&conversion=default&pixels=1" if COLOR else "&conversion=none"
    try:
        r = subprocess.run(
            ["timeout", "60", "chromium", "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0", url],
            capture_output=True, text=True)
    finally:
        server.shutdown()
    m = re.search(r'"RESULT (.*)", source', r.stderr)
    if not m:
        sys.exit("chromium printed no result:\n" + r.stderr[-2000:])
    result = {}
    for part in m.group(1).split(" / "):
        name, rest = part.split(" ", 1)
        if rest.startswith("error"):
            result[name] = rest
        else:
            _, size, rep, hashes = rest.split(" ")
            result[name] = (hashes.split(",") if hashes else [], size, rep)
    return result


def main():
    files = sys.argv[1:]
    if not files:
        sys.exit(__doc__)
    work = tempfile.mkdtemp()
    try:
        shutil.copy(os.path.join(HERE, "decode.html"), work)
        names = []
        for i, f in enumerate(files):
            name = "%d-%s" % (i, os.path.basename(f))
            shutil.copy(f, os.path.join(work, name))
            names.append(name)
        browser = browser_hashes(names, work)
        for f, name in zip(files, names):
            (mine, status, size, rep), theirs = anim_hashes(f, work), browser.get(name, "no answer")
            exit_note = f", anim exit {status}" if status else ""
            if not isinstance(theirs, str):
                theirs, their_size, their_rep = theirs
                if theirs and their_size != size:
                    exit_note += f", canvas anim {size} browser {their_size}"
                if len(theirs) > 1 and their_rep != rep:  # (a still's count means nothing)
                    exit_note += f", repetitions anim {rep} browser {their_rep}"
            if isinstance(theirs, str):
                print(f"{f}: browser {theirs}{exit_note}")
            elif COLOR and len(mine) == len(theirs) and all(len(a) == len(b) for a, b in zip(mine, theirs)):
                diff = max(int(np.abs(np.frombuffer(bytes.fromhex(a), np.uint8).astype(int)
                                      - np.frombuffer(bytes.fromhex(b), np.uint8).astype(int)).max())
                           for a, b in zip(mine, theirs))
                verdict = "same" if diff <= int(COLOR) else "differ"
                print(f"{f}: {verdict} ({len(mine)} frames, largest channel difference {diff}{exit_note})")
            elif mine == theirs:
                print(f"{f}: same ({len(mine)} frames{exit_note})")
            elif mine and len(theirs) > len(mine) and theirs[-len(mine):] == mine:
                print(f"{f}: same (browser shows {len(theirs) - len(mine)} more images first{exit_note})")
            else:
                bad = [i for i, (a, b) in enumerate(zip(mine, theirs)) if a != b][:5]
                print(f"{f}: differ: anim {len(mine)} frames, browser {len(theirs)}; first differing {bad}{exit_note}")
    finally:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
