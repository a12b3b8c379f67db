#!/usr/bin/env python3
"""What a sixel terminal shows after a player's output, and its PSNR
against the clip's last frame.

  /usr/bin/python3 Tools/bench/graphics/shown.py OUTPUT CLIP [--png shown.png]

OUTPUT is the bytes a player wrote (run.py keeps them with --keep); the
screen is the benchmark's (80x24 cells of 8x16 pixels). Followed: cursor
moves (CUP, HVP, CUU/CUD/CUF/CUB, CHA, VPA, CR, LF, BS, DECSC/DECRC, SCOSC/
SCORC), erases (ED 2, EL, ECH; erased pixels go back to the background)
and sixel images (DCS P1;P2;P3 q): raster attributes, RGB and HLS colour
definitions, selection, repeats, `$` and `-`. Each image starts at its
cursor cell's top-left pixel; with P2 = 1 pixels not drawn are left, else
the raster area (`"1;1;W;H`) is first filled with register 0. Registers
are shared between images (a player that relies on earlier definitions
is shown as xterm with shared registers would). After an image the
cursor goes to the cell row of its last sixel row (xterm with sixel
scrolling) and column 1, as chafa expects before its `ESC[22A`.

 picture compared is the screen right after the last sixel image (the
last frame: players clear the screen as they leave), inside the bounding box of the pixels any image drew; the
reference is the clip's last frame (decoded by `anim extract`, composited
at full size) resized to that box with whichever of Pillow's box,
bilinear, bicubic and Lanczos filters gives the player its best PSNR
(players scale differently: against Lanczos alone, anim's exact area
average of a pixel-art WebP scored 28 dB, against box 56), over the
background where it is transparent. PSNR is over R, G and B, the percent
colours read as round(p * 255 / 100). Needs numpy and Pillow (Debian's
/usr/bin/python3 after Tools/setup.sh --bench).
"""
import argparse
import colorsys
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

COLS, ROWS, CELL_W, CELL_H = 80, 24, 8, 16
CSI = re.compile(rb'[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]')  # after ESC [
NUM = re.compile(rb'[0-9;]*')
BACKGROUND = (0, 0, 0)


def hls_to_rgb(h, l, s):
    """DEC HLS (hue 0 = blue) in 0-360/0-100 to RGB 0-255."""
    r, g, b = colorsys.hls_to_rgb(((h + 240) % 360) / 360.0, l / 100.0, s / 100.0)
    return tuple(int(round(c * 255)) for c in (r, g, b))


class Screen:
    def __init__(self):
        self.h, self.w = ROWS * CELL_H, COLS * CELL_W
        self.px = np.zeros((self.h, self.w, 3), np.uint8)
        self.px[:] = BACKGROUND
        self.drawn = np.zeros((self.h, self.w), bool)
        self.row = self.col = 0
        self.saved = (0, 0)
        self.registers = {}

    def feed(self, b):
        i, n = 0, len(b)
        while i < n:
            c = b[i]
            if c == 0x1B and i + 1 < n:
                k = b[i + 1]
                if k == ord('['):
                    m = CSI.match(b, i + 2)
                    if not m:
                        return
                    self.csi(m.group(0))
                    i = m.end()
                elif k == ord('P'):
                    j = b.find(b'\x1b\\', i)
                    if j < 0:
                        return
                    body = b[i + 2:j]
                    m = re.match(rb'([0-9;]*)q', body)
                    if m:
                        self.sixel(m.group(1), body[m.end():])
                    i = j + 2
                elif k in (ord(']'), ord('_'), ord('^'), ord('X')):
                    j1, j2 = b.find(b'\x1b\\', i), b.find(b'\x07', i)
                    j = min(x for x in (j1, j2, n) if x >= 0)
                    i = j + (2 if j == j1 else 1)
                elif k == ord('7'):
                    self.saved = (self.row, self.col)
                    i += 2
                elif k == ord('8'):
                    self.row, self.col = self.saved
                    i += 2
                elif k in (ord('('), ord(')'), ord('#')):
                    i += 3
                else:
                    i += 2
            elif c == 0x0D:
                self.col = 0
                i += 1
            elif c == 0x0A:
                self.row = min(self.row + 1, ROWS - 1)
                i += 1
            elif c == 0x08:
                self.col = max(self.col - 1, 0)
                i += 1
            elif c >= 0x20:
                # Text: a cell written over (a space erases its pixels).
                self.erase(self.row, self.col, 1)
                self.col = min(self.col + 1, COLS - 1)
                i += 1
            else:
                i += 1

    def erase(self, row, col, count):
        y, x = row * CELL_H, col * CELL_W
        self.px[y:y + CELL_H, x:x + count * CELL_W] = BACKGROUND
        self.drawn[y:y + CELL_H, x:x + count * CELL_W] = False

    def csi(self, seq):
        final = chr(seq[-1])
        body = seq[:-1].decode('latin-1')
        if body.startswith(('?', '>', '=', '<')) or any(ch in body for ch in ' $#!'):
            return
        ps = [int(p) if p else 0 for p in body.split(';')] if body else []
        p1 = ps[0] if ps else 0
        if final in 'Hf':
            self.row = min(max((ps[0] if ps else 1) or 1, 1), ROWS) - 1
            self.col = min(max((ps[1] if len(ps) > 1 else 1) or 1, 1), COLS) - 1
        elif final == 'A':
            self.row = max(self.row - (p1 or 1), 0)
        elif final == 'B':
            self.row = min(self.row + (p1 or 1), ROWS - 1)
        elif final == 'C':
            self.col = min(self.col + (p1 or 1), COLS - 1)
        elif final == 'D':
            self.col = max(self.col - (p1 or 1), 0)
        elif final == 'G':
            self.col = min(max(p1 or 1, 1), COLS) - 1
        elif final == 'd':
            self.row = min(max(p1 or 1, 1), ROWS) - 1
        elif final == 's':
            self.saved = (self.row, self.col)
        elif final == 'u':
            self.row, self.col = self.saved
        elif final == 'J' and p1 == 2:
            self.px[:] = BACKGROUND
            self.drawn[:] = False
        elif final == 'K':
            a, z = {0: (self.col, COLS), 1: (0, self.col + 1), 2: (0, COLS)}.get(p1, (0, 0))
            self.erase(self.row, a, z - a)
        elif final == 'X':
            self.erase(self.row, self.col, min(p1 or 1, COLS - self.col))

    def sixel(self, params, data):
        ps = [int(p) if p else 0 for p in params.decode().split(';')] if params else []
        p2 = ps[1] if len(ps) > 1 else 0
        y0, x0 = self.row * CELL_H, self.col * CELL_W
        regs = self.registers
        color = regs.get(0, (0, 0, 0))
        x = y = 0
        bottom = 0
        i, n = 0, len(data)
        while i < n:
            c = data[i]
            if c == ord('"'):
                m = NUM.match(data, i + 1)
                a = [int(p) if p else 0 for p in m.group(0).decode().split(';')]
                if p2 != 1 and len(a) >= 4:
                    h, w = min(a[3], self.h - y0), min(a[2], self.w - x0)
                    self.px[y0:y0 + h, x0:x0 + w] = regs.get(0, (0, 0, 0))
                    self.drawn[y0:y0 + h, x0:x0 + w] = True
                i = m.end()
            elif c == ord('#'):
                m = NUM.match(data, i + 1)
                a = [int(p) if p else 0 for p in m.group(0).decode().split(';')]
                if len(a) >= 5:
                    if a[1] == 2:
                        regs[a[0]] = tuple(int(round(v * 255 / 100)) for v in a[2:5])
                    elif a[1] == 1:
                        regs[a[0]] = hls_to_rgb(*a[2:5])
                else:
                    color = regs.get(a[0], (0, 0, 0))
                i = m.end()
            elif c == ord('!'):
                m = NUM.match(data, i + 1)
                count = int(m.group(0) or b'1')
                i = m.end()
                if i < n:
                    self.put(y0 + y, x0 + x, data[i] - 0x3F, count, color)
                    if data[i] != 0x3F:
                        bottom = max(bottom, y + 6)
                    x += count
                    i += 1
            elif c == ord('$'):
                x = 0
                i += 1
            elif c == ord('-'):
                x = 0
                y += 6
                i += 1
            elif 0x3F <= c <= 0x7E:
                if c != 0x3F:
                    self.put(y0 + y, x0 + x, c - 0x3F, 1, color)
                    bottom = max(bottom, y + 6)
                x += 1
                i += 1
            else:
                i += 1
        last = (y0 + max(bottom, 1) - 1) // CELL_H
        self.row, self.col = min(last, ROWS - 1), 0

    def put(self, y, x, bits, count, color):
        if bits == 0 or x >= self.w:
            return
        x1 = min(x + count, self.w)
        for k in range(6):
            if bits >> k & 1 and y + k < self.h:
                self.px[y + k, x:x1] = color
                self.drawn[y + k, x:x1] = True


# Each player scales with its own filter; the reference is the source
# scaled by whichever of these comes nearest to what it shows, so that
# PSNR measures the colours, not the choice of filter.
FILTERS = [("box", Image.BOX), ("bilinear", Image.BILINEAR), ("bicubic", Image.BICUBIC),
           ("lanczos", Image.LANCZOS)]


def last_frame(clip, anim):
    with tempfile.TemporaryDirectory() as d:
        out = subprocess.run([anim, "info", clip, "--json"], capture_output=True, check=True).stdout
        count = len(json.loads(out)["frames"])
        subprocess.run([anim, "extract", clip, d, "--frames", str(count - 1), "--name", "last-%d.png"],
                       capture_output=True, check=True)
        return Image.open(os.path.join(d, "last-%d.png" % (count - 1))).convert("RGBA")


def last_image_end(data):
    """The offset just past the last sixel image's ST, or None."""
    start = None
    for m in re.finditer(rb'\x1bP[0-9;]*q', data):
        start = m.start()
    if start is None:
        return None
    end = data.find(b'\x1b\\', start)
    return None if end < 0 else end + 2


def psnr(data, clip, anim, png=None):
    """(PSNR dB, box (x, y, w, h)) of the screen after `data`, or (None, None)."""
    # Up to the end of the last image: players clear the screen as they leave.
    end = last_image_end(data)
    if end is None:
        return None, None
    s = Screen()
    s.feed(data[:end])
    ys, xs = np.nonzero(s.drawn)
    if len(ys) == 0:
        return None, None
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    shown = s.px[y0:y1, x0:x1].astype(np.float64)
    frame = last_frame(clip, anim)
    best = None
    for name, f in FILTERS:
        ref = frame.resize((int(x1 - x0), int(y1 - y0)), f)
        over = Image.new("RGBA", ref.size, BACKGROUND + (255,))
        over.alpha_composite(ref)
        want = np.asarray(over.convert("RGB")).astype(np.float64)
        mse = float(np.mean((shown - want) ** 2))
        db = 99.0 if mse == 0 else 10 * np.log10(255.0 ** 2 / mse)
        if best is None or db > best[0]:
            best = (db, name)
    if png:
        Image.fromarray(s.px).save(png)
    db = best[0]
    return db, (int(x0), int(y0), int(x1 - x0), int(y1 - y0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("output")
    ap.add_argument("clip")
    ap.add_argument("--png", help="also write the screen here")
    args = ap.parse_args()
    repo = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
    anim = os.environ.get("ANIM", os.path.join(repo, ".build", "release", "anim"))
    db, box = psnr(open(args.output, "rb").read(), args.clip, anim, args.png)
    if db is None:
        print("nothing drawn")
        return 1
    print("%.2f dB over %dx%d at (%d, %d)" % (db, box[2], box[3], box[0], box[1]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
