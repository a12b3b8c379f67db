#!/usr/bin/env python3
"""A previewer's call: one frame of a file as text cells into a pipe, as fzf,
lf and ranger run it on every cursor move. `anim play FILE --frame 0`
against `chafa --animate off` and `timg --frames=1`, each into an 80x24
box, 24-bit colour (COLORTERM=truecolor), output to a pipe; the mean wall
time of hyperfine's runs after warm-up (files in the page cache).

    python3 Tools/bench/preview-frame.py [FILE...]
        (default: every file of Tools/bench/set and the GIF/APNG/WebP
        fixtures over 1 MB)
    env: ANIM, RUNS (default 15)
Needs hyperfine; chafa and timg where installed. The target: anim under
50 ms on every file.
"""
import glob, json, os, shutil, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANIM = os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim"))
RUNS = os.environ.get("RUNS", "15")


def files():
    if len(sys.argv) > 1:
        return sys.argv[1:]
    found = sorted(f for f in glob.glob(os.path.join(HERE, "set", "*")) if os.path.isfile(f))
    for f in sorted(glob.glob(os.path.join(ROOT, "Tests/AnimKitTests/Fixtures/**/*"), recursive=True)):
        if f.endswith((".gif", ".png", ".webp")) and os.path.getsize(f) > 1 << 20:
            found.append(f)
    return found


def mean_ms(command):
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        r = subprocess.run(["hyperfine", "-N", "-w", "3", "-r", RUNS, "-i", "--export-json", out.name,
                            "--output", "pipe", command], capture_output=True, text=True,
                           env=dict(os.environ, COLORTERM="truecolor"))
        if r.returncode != 0:
            return None
        result = json.load(open(out.name))["results"][0]
        if any(code != 0 for code in result.get("exit_codes", [0])):
            return None
        return result["mean"] * 1000


def main():
    peers = [("anim", lambda f: f"{ANIM} play {f} --frame 0 --width 80 --height 24")]
    if shutil.which("chafa"):
        peers.append(("chafa", lambda f: f"chafa --animate off -f symbols -s 80x24 {f}"))
    if shutil.which("timg"):
        peers.append(("timg", lambda f: f"timg -pq --frames=1 -g80x24 {f}"))
    print("| file | MB | " + " | ".join(f"{name} ms" for name, _ in peers) + " |")
    print("|---|---:|" + "---:|" * len(peers))
    worst = 0.0
    for f in files():
        times = [mean_ms(cmd(f)) for _, cmd in peers]
        worst = max(worst, times[0] or 1e9)
        cells = " | ".join("failed" if t is None else f"{t:.1f}" for t in times)
        print(f"| {os.path.relpath(f, ROOT)} | {os.path.getsize(f) / 1e6:.1f} | {cells} |")
    print(f"\nanim's slowest: {worst:.1f} ms (target < 50 ms)")


main()
