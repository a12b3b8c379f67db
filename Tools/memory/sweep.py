#!/usr/bin/env python3
"""--max-memory against the peak memory measured: every reading command on
large and hostile files, under several budgets. A run either succeeds with
its peak resident memory (VmHWM, ANIM_REPORT_PEAK_RSS) at or below the
budget, or is refused before anything canvas-sized is allocated (exit 1,
the message naming --max-memory, under 64 MiB beside twice the file's
size: optimize reads the file and keeps a copy). Anything else is a miss.

Usage: Tools/memory/sweep.py [--budgets 150M,300M,1G,default] [FILE...]
  (ANIM=path/to/anim; without FILEs it makes its own in a temporary folder:
  an 11000x11000 APNG of 3 frames from 1.4 MB, 2000x2000 noise frames,
  a 4000x4000 noise still)
"""
import os, re, struct, subprocess, sys, tempfile, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ANIM = os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim"))
UNITS = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}


def size(text):
    return int(float(text[:-1]) * UNITS[text[-1]]) if text[-1] in UNITS else int(text)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def apng(path, w, h, frames, row):
    """An APNG whose frames are all `row(y, frame)` rows (RGBA)."""
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
    out += chunk(b"acTL", struct.pack(">II", frames, 0))
    seq = 0
    for f in range(frames):
        c = zlib.compressobj(1 if f or w * h < 1 << 26 else 9)
        data = b"".join(c.compress(b"\0" + row(y, f)) for y in range(h)) + c.flush()
        out += chunk(b"fcTL", struct.pack(">IIIIIHHBB", seq, w, h, 0, 0, 10, 100, 0, 0))
        seq += 1
        if f == 0:
            out += chunk(b"IDAT", data)
        else:
            out += chunk(b"fdAT", struct.pack(">I", seq) + data)
            seq += 1
    open(path, "wb").write(out + chunk(b"IEND", b""))


def make(folder):
    files = []
    p = os.path.join(folder, "zeros-11000.png")
    zero = b"\0" * 44000
    apng(p, 11000, 11000, 3, lambda y, f: zero)
    files.append(p)
    p = os.path.join(folder, "noise-2000x3.png")
    apng(p, 2000, 2000, 3, lambda y, f: os.urandom(8000))
    files.append(p)
    p = os.path.join(folder, "noise-4000.png")
    apng(p, 4000, 4000, 1, lambda y, f: os.urandom(16000))
    files.append(p)
    # The same noise frames as GIF and lossless WebP, written by anim.
    for ext in ["gif", "webp"]:
        q = os.path.join(folder, "noise-2000x3." + ext)
        subprocess.run([ANIM, "convert", "-q", "--max-memory", "8G", files[1], q], check=True)
        files.append(q)
    return files


def run(args, budget):
    env = dict(os.environ, ANIM_REPORT_PEAK_RSS="1")
    flags = [] if budget is None else ["--max-memory", str(budget)]
    r = subprocess.run([ANIM, args[0]] + flags + args[1:], env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    m = re.search(r"peak RSS: (\d+) bytes", r.stderr)
    return r.returncode, int(m.group(1)) if m else -1, r.stderr


def main():
    argv = sys.argv[1:]
    budgets = ["150M", "300M", "1G", "default"]
    if argv[:1] == ["--budgets"]:
        budgets, argv = argv[1].split(","), argv[2:]
    default = min(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 4, 2 << 30)
    work = tempfile.mkdtemp(prefix="anim-memory-")
    files = argv or make(work)
    out = os.path.join(work, "out")
    commands = [
        lambda f: ["info", f], lambda f: ["extract", f, out + "-d"], lambda f: ["extract", "-f", "webp", f, out + "-w"],
        lambda f: ["convert", f, out + ".gif"], lambda f: ["convert", f, out + ".png"],
        lambda f: ["convert", f, out + ".webp"], lambda f: ["optimize", "--effort", "1", f, "-o", out + "-o.png"],
        lambda f: ["play", "--frame", "0", f],
    ]
    misses = runs = refused = 0
    print(f"{'file':22} {'command':26} {'budget':>8} {'exit':>4} {'peak MiB':>9}  result")
    for f in files:
        for make_args in commands:
            for b in budgets:
                args = make_args(f)
                budget = None if b == "default" else size(b)
                limit = default if budget is None else budget
                subprocess.run(["rm", "-rf", out + "-d", out + "-w", out + ".gif", out + ".png", out + ".webp", out + "-o.png"])
                status, peak, err = run(args, b if budget is not None else None)
                runs += 1
                if status == 0:
                    ok = peak <= limit
                    result = "within" if ok else "OVER"
                elif status == 1 and "--max-memory" in err and peak < (64 << 20) + 2 * os.path.getsize(f):
                    ok, result = True, "refused"
                    refused += 1
                else:
                    ok, result = False, "FAILED: " + err.strip().splitlines()[-1][:80] if err.strip() else "FAILED"
                misses += not ok
                shown = [os.path.splitext(a)[1] or "DIR" if a.startswith(work) else a for a in args if a != f]
                name = " ".join(shown)
                print(f"{os.path.basename(f)[:22]:22} {name[:26]:26} {b:>8} {status:>4} {peak / 1048576:9.0f}  {result}")
                sys.stdout.flush()
    print(f"{runs} runs, {refused} refused, {misses} misses")
    subprocess.run(["rm", "-rf", work])
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
