#!/usr/bin/env python3
"""Decode speed on files the project did not make: every frame of each file
given, composited, as `anim bench` (one thread: --decode-ahead 0; and the
default, decoding ahead on the other cores) against the project's one-thread
C harness on the same library (bin/gifdec, bin/pngdec, bin/webpdec from
build-c.sh), all in one run. One row per file, the misses marked: one
thread over 1.0x the C program, decoding ahead over 0.75x.

    python3 Tools/bench/public-decode.py FILE...   (env: ANIM, RUNS=11, ROUNDS=3)
Time it on a quiet machine. The three programs take turns, ROUNDS times
each, and each figure is the median of a program's medians: on a virtual
machine, a neighbour's burst of work otherwise lands on one program only.
Files under 0.1 ms a pass are reported but marked "tiny": the timers give
three decimals of a millisecond.
"""
import json, os, subprocess, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANIM = os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim"))
RUNS = os.environ.get("RUNS", "11")
ROUNDS = int(os.environ.get("ROUNDS", "3"))
HARNESS = {"gif": "gifdec", "png": "pngdec", "apng": "pngdec", "webp": "webpdec"}


def median_ms(argv):
    r = subprocess.run(argv, capture_output=True, text=True)
    if r.returncode != 0:
        return None
    try:
        return json.loads(r.stdout.strip().splitlines()[-1])["medianMs"]
    except (ValueError, KeyError, IndexError):
        return None


def middle(values):
    """The median of the rounds' figures; None if any round failed."""
    if any(v is None for v in values):
        return None
    return sorted(values)[len(values) // 2]


def main():
    files = sys.argv[1:]
    if not files:
        sys.exit(__doc__)
    print("| file | format | frames | size | C ms | anim 1 thread ms | ratio | anim ms | ratio | misses |")
    print("|---|---|---:|---|---:|---:|---:|---:|---:|---|")
    misses = 0
    for f in files:
        info = subprocess.run([ANIM, "info", "--json", f], capture_output=True, text=True)
        try:
            j = json.loads(info.stdout)
        except ValueError:
            print(f"| {os.path.basename(f)} | ? | | | | | | | | anim info failed |")
            continue
        fmt = j["format"]
        argvs = [
            [os.path.join(HERE, "bin", HARNESS[fmt]), f, RUNS],
            [ANIM, "bench", f, "--runs", RUNS, "--decode-ahead", "0", "--json", "--no-color-management"],
            [ANIM, "bench", f, "--runs", RUNS, "--json", "--no-color-management"],
        ]
        rounds = [[median_ms(a) for a in argvs] for _ in range(ROUNDS)]
        c, one, two = (middle([r[i] for r in rounds]) for i in range(3))
        marks = []
        cells = []
        for ms, limit in ((one, 1.0), (two, 0.75)):
            if c and ms is not None:
                ratio = ms / c
                cells += [f"{ms:.3f}", f"{ratio:.2f}"]
                if ratio > limit:
                    marks.append(f">{limit}")
            else:
                cells += ["failed" if ms is None else f"{ms:.3f}", "-"]
        if c is not None and c < 0.1:
            marks.append("tiny")
        if any(m.startswith(">") for m in marks) and "tiny" not in marks:
            misses += 1
        print(f"| {os.path.basename(f)} | {fmt} | {j['frameCount']} | {j['width']}x{j['height']} | "
              f"{'failed' if c is None else f'{c:.3f}'} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} | "
              f"{', '.join(marks) or '-'} |")
    print(f"\n{misses} files (not tiny) miss a target.")


main()
