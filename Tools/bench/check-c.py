#!/usr/bin/env python3
"""Cross-check the C reference decoders against Pillow and ffprobe.

    Tools/bench/check-c.py [FILE...]      (default: every file in Tools/bench/set)

For each file: runs the matching bin/*dec with BENCH_DUMP set (one untimed
pass writing every composited RGBA canvas), decodes the file with Pillow
(seek(i) + convert('RGBA') per frame) and, for GIF and APNG, with ffmpeg
(-pix_fmt rgba rawvideo), and compares frame by frame.  RGB under fully
transparent pixels is ignored.  The C output must match at least one of the
two within 1 per channel (Pillow 13 gets APNG dispose_op PREVIOUS wrong when
frames are loaded one after the other, see screen.png).  Also compares the frame count with
ffprobe -count_frames (ffmpeg 5.1 cannot decode animated WebP: "n/a") and
with `webpmux -info` for WebP.  Exit status 1 if a frame count differs or
no reference matches.

Env: PREFIX=valgrind (or any wrapper) is put in front of the C program.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "bin")


def prog_for(path):
    with open(path, "rb") as f:
        head = f.read(16)
    if head[:6] in (b"GIF87a", b"GIF89a"):
        return "gifdec"
    if head[:8] == b"\x89PNG\r\n\x1a\n":
        return "pngdec"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "webpdec"
    return None


def ffprobe_frames(path):
    try:
        out = subprocess.run(
            ["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0",
             "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0", path],
            capture_output=True, text=True, timeout=600).stdout.strip()
        return int(out) if out.isdigit() else None
    except Exception:
        return None


def webpmux_frames(path):
    try:
        out = subprocess.run(["webpmux", "-info", path], capture_output=True, text=True).stdout
        m = re.search(r"Number of frames:\s*(\d+)", out)
        return int(m.group(1)) if m else None
    except Exception:
        return None


def pillow_frames(im, n):
    try:
        for i in range(n):
            im.seek(i)
            yield np.asarray(im.convert("RGBA")).astype(np.int16)
    except Exception as e:  # reference failed: stop comparing against it
        print(f"  (Pillow stopped at frame {i}: {e})")


def ffmpeg_frames(path, w, h):
    """ffmpeg's own decode + compositing, streamed as raw RGBA"""
    proc = subprocess.Popen(["ffmpeg", "-v", "error", "-i", path, "-fps_mode", "passthrough",
                             "-pix_fmt", "rgba", "-f", "rawvideo", "-"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        while True:
            b = proc.stdout.read(w * h * 4)
            if len(b) < w * h * 4:
                return
            yield np.frombuffer(b, np.uint8).reshape(h, w, 4).astype(np.int16)
    finally:
        proc.kill()
        proc.wait()


def check(path):
    prog = prog_for(path)
    name = os.path.basename(path)
    if not prog:
        print(f"{name}: unknown format")
        return False
    ok = True
    with tempfile.NamedTemporaryFile(prefix="bench-dump-", dir="/tmp") as tmp:
        cmd = shlex.split(os.environ.get("PREFIX", "")) + [os.path.join(BIN, prog), path, "1"]
        r = subprocess.run(cmd, env=dict(os.environ, BENCH_DUMP=tmp.name), capture_output=True, text=True)
        if r.returncode != 0:
            print(f"{name}: {prog} failed (rc {r.returncode}): {r.stderr.strip()[-2000:]}")
            return False
        if os.environ.get("PREFIX"):
            errs = re.findall(r"ERROR SUMMARY: (\d+) errors", r.stderr)
            if errs and errs[-1] != "0":
                print(f"{name}: {os.environ['PREFIX']} reports errors:\n{r.stderr[-3000:]}")
                ok = False
        import json
        res = json.loads(r.stdout.strip().splitlines()[-1])
        n, w, h = res["frames"], res["width"], res["height"]
        fsize = w * h * 4
        try:
            im = Image.open(path)
            pil_n = getattr(im, "n_frames", 1)
        except Exception as e:
            print(f"  (Pillow cannot open {name}: {e})")
            im, pil_n = None, None
        ff_n = ffprobe_frames(path)
        mux_n = webpmux_frames(path) if prog == "webpdec" else None
        counts = f"C {n}, Pillow {pil_n}, ffprobe {ff_n if ff_n is not None else 'n/a'}"
        if mux_n is not None:
            counts += f", webpmux {mux_n}"
        if (pil_n is not None and pil_n != n) or (ff_n is not None and ff_n != n) or (mux_n is not None and mux_n != n):
            ok = False
            counts += "  <-- MISMATCH"
        refs = {"Pillow": pillow_frames(im, pil_n)} if im else {}
        if prog != "webpdec":  # ffmpeg 5.1 cannot decode animated WebP
            refs["ffmpeg"] = ffmpeg_frames(path, w, h)
        cmp = {k: [0, -1, 0, 0] for k in refs}  # worst, worst frame, frames differing, frames compared
        with open(tmp.name, "rb") as dump:
            for i in range(n):
                c = np.frombuffer(dump.read(fsize), np.uint8).reshape(h, w, 4).astype(np.int16)
                for k, it in refs.items():
                    p = next(it, None)
                    if p is None:
                        continue
                    st = cmp[k]
                    st[3] += 1
                    if p.shape != c.shape:
                        st[0], st[1] = 999, i
                        continue
                    both_clear = (c[..., 3] == 0) & (p[..., 3] == 0)
                    d = np.abs(c - p)
                    d[both_clear] = 0
                    m = int(d.max())
                    st[2] += m > 0
                    if m > st[0]:
                        st[0], st[1] = m, i
        verdicts = []
        for k, (worst, wf, ndiff, ncmp) in cmp.items():
            v = "identical" if worst == 0 else f"max diff {worst} (first worst frame {wf}, {ndiff} frames differ)"
            if ncmp != n:
                v += f", only {ncmp} frames"
            verdicts.append(f"vs {k}: {v}")
        # fine if the C output matches at least one independent decoder (within 1)
        if not any(st[0] <= 1 and st[3] == n for st in cmp.values()):
            ok = False
            verdicts.append("<-- MISMATCH")
        print(f"{name:22s} {prog:7s} {w}x{h}  frames: {counts};  " + "; ".join(verdicts), flush=True)
    return ok


def main():
    files = sys.argv[1:]
    if not files:
        sdir = os.path.join(HERE, "set")
        files = sorted(os.path.join(sdir, f) for f in os.listdir(sdir)
                       if f.endswith((".gif", ".png", ".webp")))
    ok = all([check(f) for f in files])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
