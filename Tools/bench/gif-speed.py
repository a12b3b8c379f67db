#!/usr/bin/env python3
"""GIF decoding speed on many shapes: anim against giflib and wuffs.

For each GIF, in one run on a quiet machine:
  anim 1T   `anim bench FILE --runs R --decode-ahead 0`: the fastest pass
            (ms), every frame composited, one thread
  anim      the same with decode-ahead on every core (the default)
  giflib    Tools/bench/bin/gifdec FILE R (C, one thread, in process)
  wuffs     Tools/bench/bin/convert-to-nia < FILE > /dev/null (C, one
            thread, every frame composited and written out): the fastest
            of R processes' wall times, less that for a 1x1 GIF (its
            start-up)
Fastest rather than median: on this 2-core VM the medians of the same
command moved by up to 40% between runs (neighbours on the host); the
minimum moved by a few percent.
and the ratios anim 1T / giflib, anim 1T / wuffs and anim / wuffs.

The set: Tools/bench/set's GIFs (make-set.sh), two variants made here
(big.gif interlaced, video.gif optimized by gifsicle -O3 into sub-rectangles
with transparency) and the public GIFs in Tools/bench/corpus/public.
Usage: Tools/bench/gif-speed.py [FILE...]   (env ANIM, RUNS)
Build the C programs first: Tools/bench/build-c.sh, Tools/bench/build-wuffs.sh.
"""
import glob, json, os, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANIM = os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim"))
RUNS = int(os.environ.get("RUNS", "9"))
BIN = os.path.join(HERE, "bin")
SET = os.path.join(HERE, "set")


def variants():
    made = []
    for name, args, src in [("big.interlaced.gif", ["--interlace"], "big.gif"),
                            ("video.O3.gif", ["-O3"], "video.gif")]:
        out, source = os.path.join(SET, name), os.path.join(SET, src)
        if not os.path.exists(out) and os.path.exists(source):
            subprocess.run(["gifsicle", *args, source, "-o", out], check=True)
        if os.path.exists(out):
            made.append(out)
    return made


def anim(path, ahead):
    args = [ANIM, "bench", path, "--runs", str(RUNS), "--json"] + (["--decode-ahead", "0"] if ahead == 0 else [])
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def giflib(path):
    out = subprocess.run([os.path.join(BIN, "gifdec"), path, str(RUNS)], capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])["minMs"] if out.returncode == 0 else None


def wall(path):
    """The fastest wuffs run in ms, or None when wuffs refuses the file."""
    times = []
    for _ in range(RUNS):
        with open(path, "rb") as f:
            t = time.perf_counter()
            done = subprocess.run([os.path.join(BIN, "convert-to-nia")], stdin=f, stdout=subprocess.DEVNULL,
                                  stderr=subprocess.DEVNULL)
            times.append((time.perf_counter() - t) * 1000)
        if done.returncode != 0:
            return None
    return min(times)


def main():
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(SET, "*.gif"))) + variants() + sorted(
        glob.glob(os.path.join(HERE, "corpus/public/*.gif")))
    files = list(dict.fromkeys(files))
    tiny = os.path.join(tempfile.mkdtemp(), "1x1.gif")
    with open(tiny, "wb") as f:  # a 1x1 GIF: header, 2-colour table, one image
        f.write(b"GIF89a\x01\x00\x01\x00\x80\x00\x00\x00\x00\x00\xff\xff\xff"
                b",\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02\x44\x01\x00;")
    startup = wall(tiny)
    print(f"wuffs start-up (1x1 GIF): {startup:.2f} ms, subtracted; fastest of {RUNS} runs each\n")
    print("| file | frames | size | anim 1T ms | anim ms | giflib ms | wuffs ms | 1T/giflib | 1T/wuffs | anim/wuffs |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for path in files:
        one, two = anim(path, 0), anim(path, None)
        g, w = giflib(path), wall(path)
        a1, a2 = one["minMs"], two["minMs"]
        gl, ratio = (f"{g:.1f}", f"{a1 / g:.2f}") if g else ("fails", "-")
        if w is None:
            wl, r1, r2 = "fails", "-", "-"
        elif w - startup < 1:
            # Under a millisecond: process noise, not decoding; not compared.
            wl, r1, r2 = "< 1", "-", "-"
        else:
            w -= startup
            wl, r1, r2 = f"{w:.1f}", f"{a1 / w:.2f}", f"{a2 / w:.2f}"
        print(f"| {os.path.basename(path)} | {one['frames']} | {one['width']}x{one['height']} | {a1:.1f} | {a2:.1f} "
              f"| {gl} | {wl} | {ratio} | {r1} | {r2} |", flush=True)


main()
