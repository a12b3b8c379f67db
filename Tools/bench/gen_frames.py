#!/usr/bin/env python3
"""Render the synthetic PNG frame sequences used by make-set.sh.

    gen_frames.py sticker OUTDIR   # 240x240, 48 frames, RGBA with soft alpha
    gen_frames.py screen  OUTDIR   # 800x600, 120 frames, RGB, mostly static
    gen_frames.py blend   OUTDIR   # 1920x1080, 40 frames, RGB, large sub-rectangles
    gen_frames.py blend-sd OUTDIR  # 640x360, 100 frames, the same at SD size

Frames are written as OUTDIR/f001.png, f002.png, ...  Everything is
deterministic (fixed seeds, no time or randomness from the environment).
"""
import math
import os
import sys

import numpy as np
from PIL import Image


def save(arr, outdir, i):
    Image.fromarray(arr).save(os.path.join(outdir, "f%03d.png" % (i + 1)), compress_level=1)


# --------------------------------------------------------------------------
# sticker: a rotating, glowing, antialiased star on a transparent background
# --------------------------------------------------------------------------
def sticker(outdir, w=240, h=240, n=48):
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    cx, cy = (w - 1) / 2.0, (h - 1) / 2.0
    dx, dy = xx - cx, yy - cy
    r = np.hypot(dx, dy)
    th = np.arctan2(dy, dx)
    for i in range(n):
        a = 2 * math.pi * i / n
        # wobbly 5-pointed star; radius pulses a little
        R = 78 + 6 * math.sin(2 * a)
        edge = R * (0.72 + 0.28 * np.cos(5 * (th - a)))
        d = r - edge  # signed distance-ish (<0 inside)
        core = np.clip(0.5 - d / 2.5, 0, 1)  # ~2.5 px antialiased edge
        glow = np.clip(1 - np.maximum(d, 0) / 18.0, 0, 1) ** 2 * 0.55  # soft halo
        # drop shadow: offset copy, blurred edge, 35% opacity
        sd = np.hypot(dx - 7, dy - 9) - R * (0.72 + 0.28 * np.cos(5 * (np.arctan2(dy - 9, dx - 7) - a)))
        shadow = np.clip(0.5 - sd / 10.0, 0, 1) * 0.35
        alpha = np.maximum(np.maximum(core, glow), shadow)
        # colour: hue from angle + time, darker towards the centre, white-ish halo
        hue = (th / (2 * math.pi) + i / n) % 1.0
        rr = 0.5 + 0.5 * np.cos(2 * math.pi * (hue + 0.00))
        gg = 0.5 + 0.5 * np.cos(2 * math.pi * (hue + 0.33))
        bb = 0.5 + 0.5 * np.cos(2 * math.pi * (hue + 0.67))
        shade = 0.55 + 0.45 * np.clip(r / np.maximum(edge, 1), 0, 1)
        rgb = np.stack([rr, gg, bb], -1) * shade[..., None]
        # outside the core the colour fades to a warm glow colour / black shadow
        glowc = np.array([1.0, 0.85, 0.4])
        inside = core[..., None]
        halo_w = (glow >= shadow)[..., None]
        outside_col = np.where(halo_w, glowc, 0.0)
        rgb = rgb * inside + outside_col * (1 - inside)
        # a specular highlight that moves
        hx, hy = cx + 30 * math.cos(a + 1), cy + 30 * math.sin(a + 1)
        spec = np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * 12.0 ** 2)) * core
        rgb = rgb + spec[..., None] * 0.6
        out = np.empty((h, w, 4), np.uint8)
        out[..., :3] = np.clip(rgb * 255 + 0.5, 0, 255).astype(np.uint8)
        out[..., 3] = np.clip(alpha * 255 + 0.5, 0, 255).astype(np.uint8)
        out[out[..., 3] == 0, :3] = 0  # fully transparent -> transparent black
        save(out, outdir, i)


# --------------------------------------------------------------------------
# screen: a synthetic desktop recording (static UI, moving cursor, typing)
# --------------------------------------------------------------------------
def screen(outdir, w=800, h=600, n=120):
    rng = np.random.default_rng(20240601)
    # a tiny random "font": 40 glyphs of 5x7 px
    glyphs = (rng.random((40, 7, 5)) < 0.45).astype(np.uint8)
    glyphs[:, :, 0] |= rng.random((40, 7)) < 0.3  # some vertical strokes

    img = np.zeros((h, w, 3), np.uint8)
    # desktop background: vertical gradient with a subtle diagonal pattern
    yy, xx = np.mgrid[0:h, 0:w]
    img[..., 0] = (30 + 20 * yy / h).astype(np.uint8)
    img[..., 1] = (90 + 40 * yy / h).astype(np.uint8)
    img[..., 2] = (120 + 50 * yy / h).astype(np.uint8)
    img[((xx + yy) % 16) == 0] += np.array([6, 6, 6], np.uint8)

    def rect(x0, y0, x1, y1, col):
        img[y0:y1, x0:x1] = col

    def text(x, y, nchars, col, wrap_w=None, scale=1):
        """draw random 'words' of glyphs; returns x after the text"""
        cx = x
        for k in range(nchars):
            g = glyphs[rng.integers(0, 40)]
            if rng.random() < 0.18:
                cx += 4 * scale  # space
                continue
            gg = np.kron(g, np.ones((scale, scale), np.uint8)).astype(bool)
            sub = img[y:y + gg.shape[0], cx:cx + gg.shape[1]]
            sub[gg[:sub.shape[0], :sub.shape[1]]] = col
            cx += 6 * scale
            if wrap_w and cx > x + wrap_w:
                break
        return cx

    # desktop icons with labels
    for k in range(6):
        y = 20 + k * 80
        col = np.array(rng.integers(60, 240, 3), np.uint8)
        rect(24, y, 64, y + 40, col)
        rect(30, y + 6, 58, y + 34, col // 2 + 60)
        text(16, y + 46, 9, (250, 250, 250))
    # taskbar
    rect(0, h - 36, w, h, (32, 34, 40))
    rect(6, h - 30, 30, h - 6, (70, 140, 220))
    for k in range(5):
        rect(44 + k * 36, h - 30, 68 + k * 36, h - 6, tuple(int(v) for v in rng.integers(80, 220, 3)))
    # window
    wx, wy, ww, wh = 150, 50, 580, 420
    rect(wx + 6, wy + 6, wx + ww + 6, wy + wh + 6, (20, 40, 55))  # shadow
    rect(wx, wy, wx + ww, wy + wh, (245, 245, 245))
    rect(wx, wy, wx + ww, wy + 28, (52, 101, 164))
    text(wx + 10, wy + 8, 24, (255, 255, 255))
    for k, c in enumerate([(230, 80, 70), (240, 190, 60), (90, 190, 90)]):
        rect(wx + ww - 70 + k * 22, wy + 8, wx + ww - 58 + k * 22, wy + 20, c)
    # sidebar
    rect(wx, wy + 28, wx + 130, wy + wh, (228, 232, 238))
    for k in range(14):
        text(wx + 10, wy + 40 + k * 18, 14, (60, 60, 80), wrap_w=110)
    # document text
    line_y = []
    for k in range(19):
        y = wy + 40 + k * 16
        line_y.append(y)
        if k in (4, 11):
            continue  # paragraph breaks
        text(wx + 145, y, 66 - int(rng.integers(0, 20)), (30, 30, 30), wrap_w=410)
    # the line being typed is at the end of the document
    type_y = wy + 40 + 20 * 16
    static = img.copy()

    cursor = np.array([
        "X...........",
        "XX..........",
        "XWX.........",
        "XWWX........",
        "XWWWX.......",
        "XWWWWX......",
        "XWWWWWX.....",
        "XWWWWWWX....",
        "XWWWWWWWX...",
        "XWWWWWWWWX..",
        "XWWWWWWWWWX.",
        "XWWWWWWXXXXX",
        "XWWWXWWX....",
        "XWWX.XWWX...",
        "XWX..XWWX...",
        "XX....XWWX..",
        "X.....XWWX..",
        ".......XX...",
    ])
    cur = np.array([[c for c in row] for row in cursor])
    typed = []  # glyph indices typed so far
    type_rng = np.random.default_rng(7)
    for i in range(n):
        img[:] = static
        # typing: one character every 2 frames, caret blinks every 12 frames
        if i % 2 == 0 and len(typed) < 66:
            typed.append(-1 if type_rng.random() < 0.18 else int(type_rng.integers(0, 40)))
        cx = wx + 145
        for g in typed:
            if g >= 0:
                img[type_y:type_y + 7, cx:cx + 5][glyphs[g].astype(bool)] = (30, 30, 30)
                cx += 6
            else:
                cx += 4
        if (i // 12) % 2 == 0:
            rect(cx + 1, type_y - 2, cx + 2, type_y + 9, (0, 0, 0))
        # spinner in the status area of the window (small region, changes every frame)
        sx, sy = wx + ww - 30, wy + wh - 30
        for k in range(8):
            ang = 2 * math.pi * (k / 8 + i / 24)
            px, py = int(sx + 9 * math.cos(ang)), int(sy + 9 * math.sin(ang))
            shade = 80 + int(170 * ((k - i) % 8) / 8)
            rect(px - 2, py - 2, px + 2, py + 2, (shade, shade, 255))
        # clock in the taskbar: changes once per second (every 25 frames)
        sec = i // 25
        rng_clock = np.random.default_rng(1000 + sec)
        ccx = w - 70
        for d in range(5):
            g = glyphs[int(rng_clock.integers(0, 40))]
            img[h - 24:h - 17, ccx:ccx + 5][g.astype(bool)] = (230, 230, 230)
            ccx += 7
        # mouse cursor: a Lissajous path over the desktop
        t = i / n
        mx = int(400 + 300 * math.sin(2 * math.pi * t))
        my = int(300 + 200 * math.sin(4 * math.pi * t + 0.5))
        sub = img[my:my + cur.shape[0], mx:mx + cur.shape[1]]
        c = cur[:sub.shape[0], :sub.shape[1]]
        sub[c == "X"] = (0, 0, 0)
        sub[c == "W"] = (255, 255, 255)
        save(img, outdir, i)


# --------------------------------------------------------------------------
# blend: a static backdrop with a large moving region (about 80% x 76% of
# the canvas) in flat colour bands, under a static grid: from one frame to
# the next many pixels inside the region keep their colour, so encoders
# write each frame as a large sub-rectangle blended over the canvas, the
# unchanged pixels transparent (WebPAnimEncoder, apngasm, ffmpeg's GIF and
# APNG encoders all do).
# --------------------------------------------------------------------------
def blend(outdir, w=1920, h=1080, n=40):
    rng = np.random.default_rng(777)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float64)
    back = np.empty((h, w, 3), np.uint8)
    back[..., 0] = (40 + 60 * xx / w).astype(np.uint8)
    back[..., 1] = (50 + 40 * yy / h).astype(np.uint8)
    back[..., 2] = 90
    back = np.clip(back.astype(np.int16) + rng.integers(-6, 7, (h, w, 1)), 0, 255).astype(np.uint8)
    x0, x1, y0, y1 = int(w * 0.1), int(w * 0.9), int(h * 0.12), int(h * 0.88)
    sx, sy = xx[y0:y1, x0:x1] / w, yy[y0:y1, x0:x1] / h
    grid = ((xx[y0:y1, x0:x1].astype(int) % 48) < 2) | ((yy[y0:y1, x0:x1].astype(int) % 48) < 2)
    palette = rng.integers(0, 256, (24, 3)).astype(np.uint8)
    for i in range(n):
        t = 2 * math.pi * i / n
        v = (np.sin(sx * 9 + t) + np.sin(sy * 7 - t * 0.5) + np.sin((sx + sy) * 5 + t * 0.7)
             + np.sin(np.hypot(sx - 0.5 - 0.1 * math.cos(t), sy - 0.5) * 14 - t))
        band = ((v + 4) / 8 * 24).astype(int).clip(0, 23)
        img = back.copy()
        region = palette[band]
        region[grid] = (235, 235, 235)
        img[y0:y1, x0:x1] = region
        save(img, outdir, i)


def main():
    shapes = {
        "sticker": sticker,
        "screen": screen,
        "blend": blend,
        "blend-sd": lambda d: blend(d, w=640, h=360, n=100),
    }
    if len(sys.argv) != 3 or sys.argv[1] not in shapes:
        sys.exit(__doc__)
    os.makedirs(sys.argv[2], exist_ok=True)
    shapes[sys.argv[1]](sys.argv[2])


if __name__ == "__main__":
    main()
