#!/usr/bin/env python3
"""Benchmark `anim encode` against apngasm, img2webp and ffmpeg+gifsicle.

    python3 Tools/bench/encode/run.py [--sets screen,video]
                                      [--formats apng,webp,gif] [--runs 1]
                                      [--json] [--out DIR] [--timeout 600]

Encodes the rendered PNG frames of each set (Tools/bench/set/frames/SET/, from
Tools/bench/make-set.sh) at 40 ms per frame, looping forever, with anim and
with the peer tool(s) for each format:

  apng         anim encode DIR out.png --delay 40
               apngasm out.png FRAMES... 1 25            (defaults: -z1 7zip, -i15)
  webp-ll      anim encode DIR out.webp --delay 40 --lossless
               img2webp -loop 0 -lossless -d 40 FRAMES... -o out.webp
  webp-lossy   anim encode DIR out.webp --delay 40 --quality 75
               img2webp -loop 0 -lossy -q 75 -d 40 FRAMES... -o out.webp
  gif          anim encode DIR out.gif --delay 40
               ffmpeg palettegen (pass 1) + paletteuse (pass 2), defaults,
               then gifsicle -O3; the peer's time is the sum of the three.

Each command runs --runs times; the table shows the fastest wall-clock run and
its CPU time (user+sys of the child, from getrusage(RUSAGE_CHILDREN)).  Every
command has a --timeout (default 600 s).  If anim fails (e.g. "not
implemented yet") its row says "fails" and the run carries on.

Every output is then decoded and checked:
  GIF/APNG: Pillow (composited RGBA) and ffmpeg (-f rawvideo -pix_fmt rgba)
            must give the same number of frames and the same pixels; Pillow's
            frame durations must add up to frames x 40 ms.
  WebP:     Pillow (libwebp's WebPAnimDecoder) and webpinfo (frame count,
            "No error detected").
PSNR: each decoded frame (alpha-composited on black) is compared with the
source frame(s) it covers on the 40 ms timeline (so merged identical frames
count once per source frame they stand for); per-frame PSNR over RGB, with
identical frames capped at 99 dB; the mean over frames is reported.

Markdown goes to stdout (--json: the JSON document); both are also written to
--out (default Tools/bench/encode/out/).  Progress goes to stderr.
"""
import argparse
import json
import math
import os
import platform
import re
import resource
import shutil
import subprocess
import sys
import time

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SET_DIR = os.path.join(REPO, "Tools", "bench", "set")
MS = 40
FPS = 25
PSNR_CAP = 99.0

SETS = ["screen", "video"]
FORMATS = ["apng", "webp", "gif"]

# Targets, per mode: (name, kind, limit).  Ratios are anim / peer.
TARGETS = {
    "apng": [("size", "size_ratio", 1.00), ("time", "time_ratio", 0.25)],
    "webp-ll": [("size", "size_ratio", 1.05), ("time", "time_ratio", 1.00)],
    "webp-lossy": [("size", "size_ratio", 1.05), ("time", "time_ratio", 1.00)],
    "gif": [("size", "size_ratio", 1.00), ("PSNR", "psnr_delta", 0.0),
            ("time", "time_ratio_strict", 1.00)],
}


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def natural_key(name):
    return [int(t) if t.isdigit() else t.lower() for t in re.split(r"(\d+)", name)]


# ------------------------------------------------------------------ running
def run_cmd(argv, timeout, cwd=None):
    """Run argv; return dict(ok, rc, wall, cpu, err)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout, cwd=cwd)
        rc, err = p.returncode, (p.stderr or b"").decode("utf-8", "replace")
        timed_out = False
    except subprocess.TimeoutExpired:
        rc, err, timed_out = -1, "timeout after %d s" % timeout, True
    except OSError as e:  # missing tool or binary
        rc, err, timed_out = -1, "cannot run %s: %s" % (argv[0], e.strerror), False
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    err_lines = [l for l in err.strip().splitlines() if l.strip()]
    return {"ok": rc == 0 and not timed_out, "rc": rc, "wall": wall, "cpu": cpu,
            "timeout": timed_out, "err": err_lines[-1] if err_lines else ""}


def run_pipeline(steps, outputs, timeout, runs):
    """steps: list of argv; outputs: files to delete before each run.
    Returns the fastest successful run (sum over steps) or the failure."""
    best, all_runs = None, []
    for _ in range(runs):
        for f in outputs:
            if os.path.exists(f):
                os.remove(f)
        total = {"ok": True, "wall": 0.0, "cpu": 0.0, "steps": []}
        for argv in steps:
            r = run_cmd(argv, timeout)
            total["steps"].append({"wall": r["wall"], "cpu": r["cpu"]})
            total["wall"] += r["wall"]
            total["cpu"] += r["cpu"]
            if not r["ok"]:
                total.update(ok=False, rc=r["rc"], err=r["err"], timeout=r["timeout"],
                             argv=argv)
                break
        all_runs.append({"wall": total["wall"], "cpu": total["cpu"], "ok": total["ok"]})
        if not total["ok"]:
            total["runs"] = all_runs
            return total  # failures are deterministic enough: stop repeating
        if best is None or total["wall"] < best["wall"]:
            best = total
    best["runs"] = all_runs
    return best


def show_cmd(argv, files):
    """argv as a shell-like string, the run of frame paths collapsed."""
    fs, out, skipping = set(files), [], False
    for a in argv:
        if a in fs:
            if not skipping:
                out.append("FRAMES(%d)" % len(files))
            skipping = True
            continue
        skipping = False
        out.append(a)
    return " ".join(out)


# ------------------------------------------------------------------ frames
def find_frames(name, anim, work, timeout):
    """The folder of source PNG frames for a set, and its naturally sorted list."""
    d = os.path.join(SET_DIR, "frames", name)
    if os.path.isdir(d):
        files = [f for f in os.listdir(d) if f.lower().endswith(".png") and not f.startswith(".")]
        if files:
            files.sort(key=natural_key)
            return d, [os.path.join(d, f) for f in files]
    src = os.path.join(SET_DIR, name + ".png")
    if os.path.isfile(src) and anim:
        d = os.path.join(work, "frames-" + name)
        if not os.path.isdir(d) or not os.listdir(d):
            os.makedirs(d, exist_ok=True)
            log("extracting %s with anim extract" % src)
            r = run_cmd([anim, "extract", src, d], timeout)
            if not r["ok"]:
                raise SystemExit("anim extract %s failed: %s" % (src, r["err"]))
        files = sorted((f for f in os.listdir(d) if f.endswith(".png")), key=natural_key)
        return d, [os.path.join(d, f) for f in files]
    raise SystemExit("no frames for set %r: run Tools/bench/make-set.sh first" % name)


def seq_dir(files, work):
    """Symlinks 00000.png... in natural order, for ffmpeg's image2 pattern."""
    d = os.path.join(work, "seq")
    if os.path.isdir(d):
        shutil.rmtree(d)
    os.makedirs(d)
    for i, f in enumerate(files):
        os.symlink(f, os.path.join(d, "%05d.png" % i))
    return os.path.join(d, "%05d.png")


def load_rgb(path):
    with Image.open(path) as im:
        return composite_black(np.asarray(im.convert("RGBA")))


def composite_black(rgba):
    a = rgba[..., 3:4].astype(np.uint16)
    if (a == 255).all():
        return np.ascontiguousarray(rgba[..., :3])
    return ((rgba[..., :3].astype(np.uint16) * a + 127) // 255).astype(np.uint8)


# ------------------------------------------------------------------ decoding
def decode_pillow(path):
    frames, durs = [], []
    with Image.open(path) as im:
        n = getattr(im, "n_frames", 1)
        for i in range(n):
            im.seek(i)
            im.load()  # the WebP plugin sets info["duration"] only when loading
            durs.append(float(im.info.get("duration", 0) or 0))
            frames.append(composite_black(np.asarray(im.convert("RGBA"))))
    return frames, durs


def decode_ffmpeg(path, w, h, timeout):
    p = subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", path,
                        "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    data = p.stdout
    fs = w * h * 4
    if p.returncode != 0 and not data:
        return None, "ffmpeg failed: " + p.stderr.decode("utf-8", "replace").strip()[-200:]
    if len(data) % fs:
        return None, "ffmpeg gave %d bytes, not a multiple of %dx%dx4" % (len(data), w, h)
    arr = np.frombuffer(data, np.uint8).reshape(-1, h, w, 4)
    return [composite_black(f) for f in arr], None


def webpinfo_frames(path, timeout):
    p = subprocess.run(["webpinfo", "-summary", path], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout)
    out = p.stdout.decode("utf-8", "replace")
    m = re.search(r"Number of frames:\s*(\d+)", out)
    ok = p.returncode == 0 and "No error detected" in out
    return (int(m.group(1)) if m else None), ok, out.strip().splitlines()[-1:] 


def psnr(a, b):
    if a.shape != b.shape:
        return None
    d = a.astype(np.int32) - b.astype(np.int32)
    mse = float(np.mean(d * d))
    if mse == 0:
        return PSNR_CAP
    return min(PSNR_CAP, 10 * math.log10(255.0 * 255.0 / mse))


def check_output(path, kind, sources, timeout):
    """Decode an output with two decoders, compare, and compute mean PSNR."""
    res = {"problems": []}
    h, w = sources[0].shape[:2]
    try:
        frames, durs = decode_pillow(path)
    except Exception as e:  # noqa: BLE001 - report any decoder failure
        res["problems"].append("Pillow cannot decode: %s" % e)
        return res
    res["pillow_frames"] = len(frames)
    res["pillow_total_ms"] = sum(durs)
    if frames and frames[0].shape[:2] != (h, w):
        res["problems"].append("canvas %dx%d, source %dx%d" % (frames[0].shape[1], frames[0].shape[0], w, h))
    if kind == "webp":
        n, ok, tail = webpinfo_frames(path, timeout)
        res["webpinfo_frames"] = n
        if not ok:
            res["problems"].append("webpinfo: %s" % " ".join(tail))
        if n is not None and n != len(frames):
            res["problems"].append("frames: Pillow %d, webpinfo %d" % (len(frames), n))
    ff = None
    if kind != "webp":
        ff, err = decode_ffmpeg(path, w, h, timeout)
        if err:
            res["problems"].append(err)
        else:
            res["ffmpeg_frames"] = len(ff)
            if len(ff) != len(frames):
                res["problems"].append("frames: Pillow %d, ffmpeg %d" % (len(frames), len(ff)))
            differ, maxdiff = 0, 0
            for a, b in zip(frames, ff):
                if a.shape != b.shape:
                    differ += 1
                    continue
                m = int(np.max(np.abs(a.astype(np.int16) - b.astype(np.int16))))
                if m:
                    differ += 1
                    maxdiff = max(maxdiff, m)
            if differ:
                res["problems"].append("Pillow and ffmpeg pixels differ in %d frames (max %d)"
                                       % (differ, maxdiff))
    total = len(sources) * MS
    if abs(sum(durs) - total) > 0.5:
        res["problems"].append("duration %.0f ms, expected %d ms" % (sum(durs), total))
    res.update(timeline_psnr(frames, durs, sources))
    if kind != "webp" and ff:
        p2 = timeline_psnr(ff, durs if len(ff) == len(durs) else [MS] * len(ff), sources)
        if "psnr" in p2:
            res["psnr_ffmpeg"] = p2["psnr"]
    return res


def timeline_psnr(frames, durs, sources):
    """Mean PSNR over the source frames; decoded frame j covers the source
    frames of its [start, start + duration) on the 40 ms timeline."""
    idx, t = [], 0.0
    for j, d in enumerate(durs):
        start = int(round(t / MS))
        t += d
        idx += [j] * (int(round(t / MS)) - start)
    if len(idx) != len(sources):
        idx = list(range(min(len(frames), len(sources))))  # fall back to one to one
    vals = [psnr(frames[j], sources[i]) for i, j in enumerate(idx)]
    vals = [v for v in vals if v is not None]
    if not vals:
        return {}
    return {"psnr": sum(vals) / len(vals), "psnr_min": min(vals),
            "identical_frames": sum(1 for v in vals if v >= PSNR_CAP)}


# ------------------------------------------------------------------ modes
def modes_for(formats):
    out = []
    for f in formats:
        out += ["webp-ll", "webp-lossy"] if f == "webp" else [f]
    return out


def jobs_for(mode, anim, src_dir, files, work, pattern):
    """[(tool label, role, steps, output, intermediate outputs)] for one mode.
    role: 'anim', 'peer' (the target's reference) or 'info'."""
    o = lambda n: os.path.join(work, n)  # noqa: E731
    frames = list(files)
    if mode == "apng":
        return [
            ("anim", "anim", [[anim, "encode", src_dir, o("anim.png"), "--delay", str(MS)]],
             o("anim.png"), []),
            ("apngasm 2.91 (defaults: -z1)", "peer",
             [["apngasm", o("apngasm.png")] + frames + ["1", str(FPS)]], o("apngasm.png"), []),
        ]
    if mode == "webp-ll":
        return [
            ("anim --lossless", "anim", [[anim, "encode", src_dir, o("anim.lossless.webp"),
                                          "--delay", str(MS), "--lossless"]],
             o("anim.lossless.webp"), []),
            ("img2webp -lossless", "peer",
             [["img2webp", "-loop", "0", "-lossless", "-d", str(MS)] + frames
              + ["-o", o("img2webp.lossless.webp")]], o("img2webp.lossless.webp"), []),
        ]
    if mode == "webp-lossy":
        return [
            ("anim --quality 75", "anim", [[anim, "encode", src_dir, o("anim.lossy.webp"),
                                            "--delay", str(MS), "--quality", "75"]],
             o("anim.lossy.webp"), []),
            ("img2webp -lossy -q 75", "peer",
             [["img2webp", "-loop", "0", "-lossy", "-q", "75", "-d", str(MS)] + frames
              + ["-o", o("img2webp.lossy.webp")]], o("img2webp.lossy.webp"), []),
        ]
    if mode == "gif":
        inp = ["-framerate", str(FPS), "-start_number", "0", "-i", pattern]
        pass1 = ["ffmpeg", "-nostdin", "-v", "error"] + inp + ["-vf", "palettegen", "-y", o("palette.png")]
        pass2 = (["ffmpeg", "-nostdin", "-v", "error"] + inp + ["-i", o("palette.png"),
                 "-lavfi", "paletteuse", "-loop", "0", "-f", "gif", "-y", o("ffmpeg.gif")])
        gsc = ["gifsicle", "-O3", o("ffmpeg.gif"), "-o", o("ffmpeg-gifsicle.gif")]
        return [
            ("anim", "anim", [[anim, "encode", src_dir, o("anim.gif"), "--delay", str(MS)]],
             o("anim.gif"), []),
            ("ffmpeg palettegen+paletteuse", "info", [pass1, pass2], o("ffmpeg.gif"),
             [o("palette.png")]),
            ("ffmpeg 2 passes + gifsicle -O3", "peer", [pass1, pass2, gsc],
             o("ffmpeg-gifsicle.gif"), [o("palette.png"), o("ffmpeg.gif")]),
        ]
    raise ValueError(mode)


def best_psnr(chk):
    """The better of the Pillow and ffmpeg decodes (they differ only when one
    decoder is wrong; the "decoders agree" check reports that separately)."""
    vals = [v for v in (chk.get("psnr"), chk.get("psnr_ffmpeg")) if v is not None]
    return max(vals) if vals else None


def evaluate(mode, a, p):
    """Targets for anim row a against peer row p: list of dicts."""
    out = []
    for name, kind, limit in TARGETS[mode]:
        t = {"target": name, "limit": limit}
        if not a["ok"]:
            t.update(value=None, result="FAIL (anim fails)")
        elif not p["ok"]:
            t.update(value=None, result="n/a (peer fails)")
        elif kind == "size_ratio":
            v = a["size"] / p["size"]
            t.update(value=v, result="PASS" if v <= limit else "FAIL", text="size %.2fx (<= %.2fx)" % (v, limit))
        elif kind in ("time_ratio", "time_ratio_strict"):
            v = a["wall"] / p["wall"]
            ok = v < limit if kind == "time_ratio_strict" else v <= limit
            t.update(value=v, result="PASS" if ok else "FAIL",
                     text="time %.2fx (%s %.2fx)" % (v, "<" if kind == "time_ratio_strict" else "<=", limit))
        elif kind == "psnr_delta":
            ap, pp = best_psnr(a["check"]), best_psnr(p["check"])
            if ap is None or pp is None:
                t.update(value=None, result="n/a (no PSNR)")
            else:
                v = round(ap, 2) - round(pp, 2)
                t.update(value=v, result="PASS" if v >= limit else "FAIL",
                         text="PSNR %+.2f dB (>= %+.1f)" % (v, limit))
        out.append(t)
    if a["ok"]:
        probs = a["check"].get("problems", [])
        out.append({"target": "decoders agree", "value": len(probs),
                    "result": "PASS" if not probs else "FAIL", "text": "decoders agree"})
    return out


# ------------------------------------------------------------------ report
def fmt_row(mode, r, peer):
    def f(x, spec):
        return spec % x if x is not None else "—"
    size = r["size"] / 1024 if r["ok"] else None
    if r["ok"]:
        sz = f(size, "%.1f") if size < 10240 else "%.1f (%.1f MiB)" % (size, size / 1024)
    else:
        sz = "—"
    wall = f(r["wall"], "%.2f") if r["ok"] else "—"
    cpu = f(r["cpu"], "%.2f") if r["ok"] else "—"
    sr = tr = "—"
    if r["ok"] and peer and peer["ok"]:
        sr = "%.3f" % (r["size"] / peer["size"])
        tr = "%.3f" % (r["wall"] / peer["wall"])
    chk = r.get("check", {})
    ps = f(chk.get("psnr"), "%.2f")
    if chk.get("psnr") is not None and chk.get("identical_frames"):
        ps += " (%d/%d =99)" % (chk["identical_frames"], r["n_src"])
    if chk.get("psnr_ffmpeg") is not None and abs(chk["psnr_ffmpeg"] - (chk.get("psnr") or 0)) >= 0.005:
        ps = "Pillow %s, ffmpeg %.2f" % (ps, chk["psnr_ffmpeg"])
    if not r["ok"]:
        status = "fails: " + ("timeout" if r.get("timeout") else (r.get("err") or "rc %s" % r.get("rc")))
        dec = "—"
    else:
        status = "ok"
        probs = chk.get("problems", [])
        n = chk.get("pillow_frames")
        if "ffmpeg_frames" in chk:
            frames = "%s fr (Pillow), %s (ffmpeg)" % (n, chk["ffmpeg_frames"])
        elif "webpinfo_frames" in chk:
            frames = "%s fr (Pillow), %s (webpinfo)" % (n, chk["webpinfo_frames"])
        else:
            frames = "%s fr (Pillow)" % n
        dec = frames + ", %.0f ms" % chk.get("pillow_total_ms", 0)
        if probs:
            dec += "; **MISMATCH**: " + "; ".join(probs)
    tg = ""
    if r["role"] == "anim":
        tg = "; ".join("%s %s" % (t.get("text", t["target"]), t["result"]) for t in r["targets"])
    elif r["role"] == "peer":
        tg = "(peer)"
    return "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
        mode, r["tool"], sz, wall, cpu, sr, tr, ps, dec if r["ok"] else status, tg)


def markdown(doc):
    L = ["# anim encode benchmark", "",
         "anim: `%s`; runs per command: %d (table: fastest wall clock; CPU = user+sys of that run). "
         "Machine: %s, %d cores. PSNR: mean over source frames of per-frame RGB PSNR "
         "(alpha composited on black), identical frames capped at %.0f dB." % (
             doc["anim"], doc["runs"], doc["machine"], doc["cores"], PSNR_CAP), ""]
    for s in doc["sets"]:
        L += ["## %s (%dx%d, %d frames, %d ms each)" % (s["name"], s["width"], s["height"], s["frames"], MS), "",
              "| format | tool | size KiB | wall s | CPU s | size vs peer | time vs peer | PSNR dB | decode check | targets |",
              "|---|---|---:|---:|---:|---:|---:|---:|---|---|"]
        for m in s["modes"]:
            peer = next((r for r in m["rows"] if r["role"] == "peer"), None)
            for r in m["rows"]:
                L.append(fmt_row(m["mode"], r, peer))
        L.append("")
    # summary
    L += ["## Targets", "", "| set | format | target | result |", "|---|---|---|---|"]
    for s in doc["sets"]:
        for m in s["modes"]:
            a = next(r for r in m["rows"] if r["role"] == "anim")
            for t in a.get("targets", []):
                L.append("| %s | %s | %s | %s |" % (s["name"], m["mode"], t.get("text", t["target"]), t["result"]))
    L.append("")
    return "\n".join(L)


# ------------------------------------------------------------------ main
def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sets", default=",".join(SETS))
    ap.add_argument("--formats", default=",".join(FORMATS), help="apng,webp,gif (webp = lossless and lossy q75)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="print JSON instead of Markdown")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--timeout", type=int, default=600, help="seconds per command (default 600)")
    args = ap.parse_args()

    anim = os.environ.get("ANIM") or os.path.join(REPO, ".build", "release", "anim")
    anim = os.path.abspath(anim)
    if not os.access(anim, os.X_OK):
        log("warning: no anim binary at %s (set ANIM=...): anim rows will fail" % anim)
    sets = [s for s in args.sets.split(",") if s]
    formats = [f for f in args.formats.split(",") if f]
    for f in formats:
        if f not in FORMATS:
            ap.error("unknown format %r (apng, webp, gif)" % f)
    needed = {"apng": ["apngasm", "ffmpeg"], "webp": ["img2webp", "webpinfo"],
              "gif": ["ffmpeg", "gifsicle"]}
    for f in formats:
        for tool in needed[f]:
            if not shutil.which(tool):
                log("warning: %s not found: its rows will fail" % tool)
    os.makedirs(args.out, exist_ok=True)

    doc = {"anim": anim, "runs": args.runs, "machine": platform.machine() + " " + platform.system(),
           "cores": os.cpu_count() or 0, "psnr_cap": PSNR_CAP, "timeout": args.timeout, "sets": []}
    for name in sets:
        work = os.path.join(args.out, name)
        os.makedirs(work, exist_ok=True)
        src_dir, files = find_frames(name, anim, args.out, args.timeout)
        log("%s: %d frames in %s" % (name, len(files), src_dir))
        sources = [load_rgb(f) for f in files]
        h, w = sources[0].shape[:2]
        pattern = seq_dir(files, work)
        sd = {"name": name, "frames_dir": src_dir, "frames": len(files), "width": w, "height": h, "modes": []}
        for mode in modes_for(formats):
            md = {"mode": mode, "rows": []}
            for tool, role, steps, output, extra in jobs_for(mode, anim, src_dir, files, work, pattern):
                log("%s %s: %s ..." % (name, mode, tool))
                r = run_pipeline(steps, [output] + extra, args.timeout, args.runs)
                r.update(tool=tool, role=role, output=output, n_src=len(files),
                         commands=[show_cmd(st, files) for st in steps])
                if r["ok"] and not os.path.isfile(output):
                    r.update(ok=False, err="no output file")
                if r["ok"]:
                    r["size"] = os.path.getsize(output)
                    r["check"] = check_output(output, "webp" if mode.startswith("webp") else "img",
                                              sources, args.timeout)
                    log("  %.1f KiB, %.2f s wall, %.2f s CPU, PSNR %s%s" % (
                        r["size"] / 1024, r["wall"], r["cpu"],
                        "%.2f" % r["check"]["psnr"] if "psnr" in r["check"] else "—",
                        ("; MISMATCH: " + "; ".join(r["check"]["problems"])) if r["check"]["problems"] else ""))
                else:
                    log("  fails: %s" % r.get("err"))
                md["rows"].append(r)
            a = next(r for r in md["rows"] if r["role"] == "anim")
            p = next(r for r in md["rows"] if r["role"] == "peer")
            a["targets"] = evaluate(mode, a, p)
            sd["modes"].append(md)
        doc["sets"].append(sd)
        del sources

    text = markdown(doc)
    with open(os.path.join(args.out, "results.md"), "w") as fh:
        fh.write(text)
    with open(os.path.join(args.out, "results.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
    print(json.dumps(doc, indent=1) if args.json else text)


if __name__ == "__main__":
    main()
