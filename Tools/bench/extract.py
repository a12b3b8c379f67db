#!/usr/bin/env python3
"""`anim extract` against ffmpeg, one run on a quiet machine (issue 16).

1. Frames to PNG files: `anim extract IN DIR` (RGBA) and `--color auto`
   against `ffmpeg -i IN DIR/frame%03d.png` (its default pixel format for
   the input): fastest wall time of RUNS runs and the bytes written.
   Targets: RGBA at most 0.5x ffmpeg's time; --color auto at most its size.
2. One large frame to PNG: a 11158x2156 lossy WebP tiled from wuffs'
   public test picture test/data/harvesters.png (google/wuffs; give a
   checkout or a bare mirror with WUFFS=..., or a file with BIG=...).
   Target: at most 1.5 s.
3. `anim extract IN - --format rgba | cat > /dev/null` against
   `anim bench IN --runs 1` (decode alone): target at most 1.1x.

    python3 Tools/bench/extract.py [FILE...]   (default: the set's GIFs and
        APNGs, and the public GIFs of the fixtures over 100 KB)
    env: ANIM, RUNS (default 3), WUFFS, BIG
Needs ffmpeg, Pillow and cwebp (for the large frame).
"""
import glob, json, os, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANIM = os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim"))
RUNS = int(os.environ.get("RUNS", "3"))


def best(cmd, prepare=None, shell=False):
    times = []
    for _ in range(RUNS):
        if prepare:
            prepare()
        t = time.perf_counter()
        r = subprocess.run(cmd, shell=shell, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
        if r.returncode != 0:
            return None
    return min(times)


def size(d):
    return sum(os.path.getsize(os.path.join(d, f)) for f in os.listdir(d))


def files():
    if len(sys.argv) > 1:
        return sys.argv[1:]
    found = sorted(glob.glob(os.path.join(HERE, "set", "*.gif")) + glob.glob(os.path.join(HERE, "set", "*.png")))
    found += sorted(f for f in glob.glob(os.path.join(ROOT, "Tests/AnimKitTests/Fixtures/gif-public/*.gif"))
                    if os.path.getsize(f) > 100_000)
    return found


def to_png(work):
    print("## Frames to PNG files (seconds: fastest of %d; MB written)\n" % RUNS)
    print("| file | frames | anim RGBA s | auto s | ffmpeg s | RGBA/ffmpeg | anim RGBA MB | auto MB | ffmpeg MB | auto/ffmpeg size |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst_time, worst_size = 0, 0
    for f in files():
        dirs = {k: os.path.join(work, k) for k in ("a", "c", "f")}

        def clean():
            for d in dirs.values():
                shutil.rmtree(d, ignore_errors=True)
            os.makedirs(dirs["f"])
        ta = best([ANIM, "extract", f, dirs["a"]], clean)
        tc = best([ANIM, "extract", f, dirs["c"], "--color", "auto"], clean)
        tf = best(["ffmpeg", "-v", "error", "-i", f, os.path.join(dirs["f"], "frame%03d.png")], clean)
        # One more of each, kept, to measure.
        clean()
        subprocess.run([ANIM, "extract", f, dirs["a"]], capture_output=True)
        subprocess.run([ANIM, "extract", f, dirs["c"], "--color", "auto"], capture_output=True)
        subprocess.run(["ffmpeg", "-v", "error", "-i", f, os.path.join(dirs["f"], "frame%03d.png")], capture_output=True)
        n = len(os.listdir(dirs["a"]))
        sa, sc, sf = size(dirs["a"]), size(dirs["c"]), size(dirs["f"])
        nf = len(os.listdir(dirs["f"]))
        ok = tf is not None and nf > 0
        rt = ta / tf if ok else None
        rs = sc / sf if ok else None
        if ok:
            worst_time, worst_size = max(worst_time, rt), max(worst_size, rs)
        fmt = lambda v, p=2: "failed" if v is None else f"{v:.{p}f}"
        print(f"| {os.path.relpath(f, ROOT)} | {n} | {fmt(ta)} | {fmt(tc)} | {fmt(tf) if ok else 'failed'} | {fmt(rt)} "
              f"| {sa / 1e6:.1f} | {sc / 1e6:.1f} | {(sf if ok else 0) / 1e6:.1f} | {fmt(rs)} |")
    print(f"\nworst RGBA/ffmpeg time {worst_time:.2f} (target <= 0.5); worst auto/ffmpeg size {worst_size:.2f} (target <= 1.0)\n")


def big_frame(work):
    big = os.environ.get("BIG")
    if not big:
        wuffs = os.environ.get("WUFFS", "/work/.mirror/google+wuffs/repo")
        src = os.path.join(work, "harvesters.png")
        if os.path.isdir(os.path.join(wuffs, "test")):
            shutil.copy(os.path.join(wuffs, "test/data/harvesters.png"), src)
        else:
            with open(src, "wb") as out:
                r = subprocess.run(["git", "--git-dir", wuffs, "show", "HEAD:test/data/harvesters.png"], stdout=out)
            if r.returncode != 0:
                print("## One large frame: no wuffs checkout (WUFFS=...) and no BIG=...: skipped\n")
                return
        from PIL import Image
        tile = Image.open(src).convert("RGB")
        canvas = Image.new("RGB", (11158, 2156))
        for y in range(0, 2156, tile.height):
            for x in range(0, 11158, tile.width):
                canvas.paste(tile, (x, y))
        png = os.path.join(work, "big.png")
        canvas.save(png)
        big = os.path.join(work, "big.webp")
        subprocess.run(["cwebp", "-quiet", "-q", "80", png, "-o", big], check=True)
    out = os.path.join(work, "big-out")
    t = best([ANIM, "extract", big, out], lambda: shutil.rmtree(out, ignore_errors=True))
    tc = best([ANIM, "extract", big, out, "--color", "auto"], lambda: shutil.rmtree(out, ignore_errors=True))
    td = best([ANIM, "bench", big, "--runs", "1"])
    print("## One large frame to PNG\n")
    print(f"{os.path.basename(big)} (11158x2156): anim extract {t:.2f} s, --color auto {tc:.2f} s; decoding alone "
          f"(anim bench --runs 1, whole process) {td:.2f} s. Target <= 1.5 s.\n")


def stream(work):
    print("## Raw RGBA to a pipe against decoding alone\n")
    print("| file | extract - --format rgba s | anim bench --runs 1 s | ratio |")
    print("|---|---:|---:|---:|")
    worst = 0
    for f in files():
        ts = best(f"{ANIM} extract '{f}' - --format rgba | cat > /dev/null", shell=True)
        td = best([ANIM, "bench", f, "--runs", "1"])
        worst = max(worst, ts / td)
        print(f"| {os.path.relpath(f, ROOT)} | {ts:.3f} | {td:.3f} | {ts / td:.2f} |")
    print(f"\nworst ratio {worst:.2f} (target <= 1.1)\n")


with tempfile.TemporaryDirectory() as work:
    to_png(work)
    big_frame(work)
    stream(work)
