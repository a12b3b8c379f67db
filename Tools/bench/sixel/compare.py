#!/usr/bin/env python3
"""Compares anim's sixel backend with `chafa -f sixels` on the clips that
`SixelBenchTests` writes: bytes per frame and PSNR of what a terminal shows.

Usage: compare.py DIR   (DIR/CLIP/frame-NNN.ppm, anim-NNN.six, anim-times.txt)

anim's frames are decoded one after the other on one screen (each sends
only what changed; CUP and ECH are followed). chafa draws each frame whole,
so each of its frames is decoded alone. PSNR is over RGB against the source
frame, the terminal reading a percent p as round(p * 255 / 100). Plain
Python, no packages.
"""
import math
import os
import resource
import subprocess
import sys

CELL_W, CELL_H = 10, 20          # anim's cells in the bench (chafa draws at 0,0)


def read_ppm(path):
    data = open(path, 'rb').read()
    parts = data.split(b'\n', 3)
    w, h = map(int, parts[1].split())
    return w, h, parts[3]


class Screen:
    """Pixels (r, g, b) or None (the terminal's background)."""

    def __init__(self, w, h):
        self.w, self.h = w, h
        self.px = [None] * (w * h)
        self.row = self.col = 1

    def feed(self, b):
        i, n = 0, len(b)
        while i < n:
            if b[i] != 0x1B:
                raise ValueError('text byte %d at %d' % (b[i], i))
            if b[i + 1] == ord('['):
                j = i + 2
                while not (0x40 <= b[j] <= 0x7E):
                    j += 1
                self.csi(b[i + 2:j].decode(), chr(b[j]))
                i = j + 1
            elif b[i + 1] == ord('P'):
                j = b.index(b'\x1b\\', i)
                self.sixel(b[i + 2:j])
                i = j + 2
            else:
                raise ValueError('escape %r' % b[i:i + 2])

    def csi(self, params, final):
        p = [int(x) if x else 0 for x in params.split(';')] if params else []
        if final == 'H':
            self.row = max(p[0] if p else 1, 1)
            self.col = max(p[1] if len(p) > 1 else 1, 1)
        elif final == 'X':
            x0, y0 = (self.col - 1) * CELL_W, (self.row - 1) * CELL_H
            for y in range(y0, min(y0 + CELL_H, self.h)):
                for x in range(x0, min(x0 + max(p[0] if p else 1, 1) * CELL_W, self.w)):
                    self.px[y * self.w + x] = None
        elif final in 'mlh':
            pass
        else:
            raise ValueError('CSI %s%s' % (params, final))

    def sixel(self, body):
        q = body.index(b'q')
        ox, oy = (self.col - 1) * CELL_W, (self.row - 1) * CELL_H
        data, k, n = body[q + 1:], 0, len(body) - q - 1
        regs, color, x, y = {}, None, 0, 0
        w, px = self.w, self.px

        def num():
            nonlocal k
            v = 0
            while k < n and 48 <= data[k] <= 57:
                v = v * 10 + data[k] - 48
                k += 1
            return v
        while k < n:
            c = data[k]
            if c == 0x22:                                   # raster attributes
                k += 1
                while k < n and (48 <= data[k] <= 57 or data[k] == 59):
                    k += 1
            elif c == 0x23:                                 # colour
                k += 1
                vals = [num()]
                while k < n and data[k] == 59:
                    k += 1
                    vals.append(num())
                if len(vals) == 5:
                    regs[vals[0]] = tuple((v * 255 + 50) // 100 for v in vals[2:])
                color = regs.get(vals[0], (0, 0, 0))
            elif c == 0x21:                                 # repeat
                k += 1
                count = num()
                self.paint(data[k], count, x, y, ox, oy, color)
                x += count
                k += 1
            elif c == 0x24:
                x = 0
                k += 1
            elif c == 0x2D:
                x = 0
                y += 6
                k += 1
            elif 0x3F <= c <= 0x7E:
                self.paint(c, 1, x, y, ox, oy, color)
                x += 1
                k += 1
            else:
                k += 1

    def paint(self, c, count, x, y, ox, oy, color):
        bits = c - 0x3F
        if not bits:
            return
        for bit in range(6):
            if bits >> bit & 1:
                sy = oy + y + bit
                if sy >= self.h:
                    continue
                base = sy * self.w + ox
                for sx in range(x, min(x + count, self.w - ox)):
                    self.px[base + sx] = color


def psnr(screen, w, h, rgb):
    total = 0
    for i in range(w * h):
        p = screen.px[i]
        r, g, b = rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]
        if p is None:
            total += r * r + g * g + b * b
        else:
            total += (p[0] - r) ** 2 + (p[1] - g) ** 2 + (p[2] - b) ** 2
    mse = total / (3 * w * h)
    return float('inf') if mse == 0 else 10 * math.log10(255 * 255 / mse)


def cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def chafa(frame, w, h):
    """chafa's sixel image for `frame`, and the CPU seconds it took (the
    whole process: start-up and reading the file included)."""
    # With unknown cells chafa counts 8×8 pixels a cell; --stretch gives
    # exactly w×h pixels for w/8 × h/8 cells. (-w 9 gave the same bytes.)
    cmd = ['chafa', '-f', 'sixels', '--stretch', '-s', '%dx%d' % (w // 8, h // 8), frame]
    before = cpu()
    out = subprocess.run(cmd, check=True, capture_output=True).stdout
    spent = cpu() - before
    start = out.index(b'\x1bP')
    return out[start:out.index(b'\x1b\\', start) + 2], spent


def stats(values):
    return sum(values) / len(values), min(values)


def main():
    root = sys.argv[1]
    # chafa's start-up alone: a 8×8 frame.
    tiny = os.path.join(root, 'tiny.ppm')
    open(tiny, 'wb').write(b'P6\n8 8\n255\n' + bytes(192))
    startup = min(chafa(tiny, 8, 8)[1] for _ in range(5))
    print('chafa start-up (8x8 frame): %.1f ms CPU' % (startup * 1e3))
    print()
    print('| clip | size | frames | anim first | anim later (mean) | anim total | chafa mean | anim/chafa total '
          '| anim PSNR mean/min | chafa PSNR mean/min | anim ms CPU/frame | chafa ms CPU/frame (incl. start-up) |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    for clip in sorted(c for c in os.listdir(root) if os.path.isdir(os.path.join(root, c))):
        d = os.path.join(root, clip)
        frames = sorted(f for f in os.listdir(d) if f.startswith('frame-'))
        w, h, _ = read_ppm(os.path.join(d, frames[0]))
        ours, theirs, p_ours, p_theirs, spent = [], [], [], [], []
        screen = Screen(w, h)
        for f in frames:
            _, _, rgb = read_ppm(os.path.join(d, f))
            six = open(os.path.join(d, f.replace('frame-', 'anim-').replace('.ppm', '.six')), 'rb').read()
            ours.append(len(six))
            screen.feed(six)
            p_ours.append(psnr(screen, w, h, rgb))
            out, t = chafa(os.path.join(d, f), w, h)
            theirs.append(len(out))
            spent.append(t)
            alone = Screen(w, h)
            alone.feed(out)
            p_theirs.append(psnr(alone, w, h, rgb))
        times = [int(t) for t in open(os.path.join(d, 'anim-times.txt')).read().split()]
        later = ours[1:] or ours
        print('| %s | %dx%d | %d | %d | %.0f | %d | %.0f | %.3f | %.1f / %.1f | %.1f / %.1f | %.2f | %.1f |' % (
            clip, w, h, len(frames), ours[0], sum(later) / len(later), sum(ours),
            sum(theirs) / len(theirs), sum(ours) / sum(theirs),
            *stats(p_ours), *stats(p_theirs), sum(times) / len(times) / 1e6, sum(spent) / len(spent) * 1e3))


if __name__ == '__main__':
    main()
