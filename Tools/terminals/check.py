#!/usr/bin/env python3
"""Plays a still in real terminals under Xvfb and checks the screenshot.

For each terminal and protocol (kitty with kitty graphics and with text
cells; xterm as a VT340 with sixel, and with text cells) it starts the
terminal on a private Xvfb display, runs `anim play` on a picture, takes a
screenshot of the window (ImageMagick `import`), finds the picture (the
pixels that differ from the terminal's background), and compares it with
the source: the aspect ratio of what is drawn, and the PSNR of the drawn
picture against the source resized to the drawn size. Prints one line per
case and writes the screenshots to --out.

  python3 Tools/terminals/check.py [--picture FILE] [--out DIR]

Needs xvfb, kitty, xterm, imagemagick, python3-pil (Tools/setup.sh --terminals).
kitty runs with LIBGL_ALWAYS_SOFTWARE=1. Not run by CI (it needs a display
server and about a minute); the tests cover the same logic with models.
"""
import argparse
import math
import os
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageChops

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DISPLAY = ":97"

CASES = [
    # name, terminal argv (the command is appended), anim arguments
    ("kitty-kitty", ["kitty", "--config", "NONE", "-o", "initial_window_width=800", "-o", "initial_window_height=520"],
     ["--protocol", "kitty", "--upscale"]),
    ("kitty-text", ["kitty", "--config", "NONE", "-o", "initial_window_width=800", "-o", "initial_window_height=520"],
     ["--protocol", "text", "--upscale"]),
    ("kitty-sextant", ["kitty", "--config", "NONE", "-o", "initial_window_width=800", "-o", "initial_window_height=520"],
     ["--protocol", "text", "--symbols", "sextant", "--upscale"]),
    ("xterm-sixel", ["xterm", "-ti", "vt340", "-geometry", "100x32+0+0", "-fa", "DejaVu Sans Mono", "-fs", "10",
                     "-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256", "-e"],
     ["--protocol", "sixel", "--upscale"]),
    ("xterm-text", ["xterm", "-geometry", "100x32+0+0", "-fa", "DejaVu Sans Mono", "-fs", "10", "-e"],
     ["--protocol", "text", "--upscale", "--colors", "24bit"]),
]


def picture_box(shot, background):
    diff = ImageChops.difference(shot.convert("RGB"), Image.new("RGB", shot.size, background))
    mask = diff.convert("L").point(lambda v: 255 if v > 24 else 0)
    return mask.getbbox()


def psnr(a, b):
    ha, hb = a.convert("RGB").tobytes(), b.convert("RGB").tobytes()
    mse = sum((x - y) ** 2 for x, y in zip(ha, hb)) / len(ha)
    return float("inf") if mse == 0 else 10 * math.log10(255 * 255 / mse)


def run_case(name, term, args, picture, anim, out):
    script = tempfile.NamedTemporaryFile("w", suffix=".sh", delete=False)
    script.write("#!/bin/sh\n%s play --loops 0 %s '%s' 2>%s/%s.err\nsleep 30\n"
                 % (anim, " ".join(args), picture, out, name))
    script.close()
    os.chmod(script.name, 0o755)
    env = dict(os.environ, DISPLAY=DISPLAY, LIBGL_ALWAYS_SOFTWARE="1")
    env.pop("COLORTERM", None)
    proc = subprocess.Popen(term + [script.name], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(5)
    path = os.path.join(out, name + ".png")
    window = subprocess.run(["xdotool", "search", "--sync", "--pid", str(proc.pid)], env=env,
                            capture_output=True, text=True).stdout.split()
    subprocess.run(["import", "-window", window[-1] if window else "root", path], env=env, check=True)
    proc.kill()
    proc.wait()
    os.unlink(script.name)
    win = Image.open(path).convert("RGB")
    # Default backgrounds: kitty's black, xterm's white.
    background = (0, 0, 0) if name.startswith("kitty") else (255, 255, 255)
    box = picture_box(win, background)
    if not box:
        return dict(name=name, ok=False, note="no picture found")
    drawn = win.crop(box)
    src = Image.open(picture).convert("RGB")
    want = src.width / src.height
    got = drawn.width / drawn.height
    return dict(name=name, ok=True, box=box, aspect_error=abs(got / want - 1),
                psnr=psnr(drawn, src.resize(drawn.size, Image.BOX)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--picture", default="")
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--cases", default=",".join(c[0] for c in CASES))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    anim = os.environ.get("ANIM", os.path.join(REPO, ".build", "release", "anim"))
    picture = a.picture
    if not picture:
        # The demo's first frame, at its own size: a still the player holds.
        frames = os.path.join(a.out, "demo-frames")
        subprocess.run([anim, "extract", os.path.join(REPO, "Animations", "demo.gif"), frames, "--frames", "0-0"],
                       check=True, stdout=subprocess.DEVNULL)
        picture = os.path.join(frames, sorted(os.listdir(frames))[0])
    xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1024x768x24"], stderr=subprocess.DEVNULL)
    time.sleep(1)
    failed = 0
    try:
        for name, term, args in CASES:
            if name not in a.cases.split(","):
                continue
            r = run_case(name, term, args, picture, anim, a.out)
            if r["ok"]:
                ok = r["aspect_error"] <= 0.02
                failed += not ok
                print("%-14s picture %s: aspect error %.2f%%, PSNR %.1f dB  %s" % (
                    name, r["box"], 100 * r["aspect_error"], r["psnr"], "ok" if ok else "ASPECT OFF"))
            else:
                failed += 1
                print("%-14s %s" % (name, r["note"]))
    finally:
        xvfb.kill()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
