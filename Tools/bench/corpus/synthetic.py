#!/usr/bin/env python3
"""Renders the corpus's synthetic shapes: frames that stress an encoder in
ways the public files do not. Deterministic (fixed seeds), so every run
and every machine gets the same pixels.

    python3 Tools/bench/corpus/synthetic.py OUTDIR [--only NAME,...]

Writes OUTDIR/NAME/frame-NNN.png for each shape:

  sparse-wide     960x540 opaque: a wallpaper gradient (thousands of
                  colours) and a terminal whose cursor and a few characters
                  far apart change each frame, so the changed rectangle is
                  wide and nearly all of it unchanged.
  ui-recording    800x500 opaque: a window with a scrolling list, a moving
                  pointer and a button that lights up: text and UI.
  soft-alpha      256x256 transparent: a soft-edged blob (alpha ramps) that
                  moves and changes colour over a transparent canvas.
  sticker-blink   300x300 transparent: a face with hard and soft edges of
                  which only the eyes and mouth change (small changes on
                  alpha, where the disposal choice matters).
  many-palettes   200x200 opaque: each frame a different gradient of at
                  most 200 colours, so no two frames share a table.
  dithered-video  320x240 opaque: moving gradients with dither-like noise
                  in every pixel (full motion, many colours).
  tiny-sprite     16x16 transparent pixel art of 5 colours, 8 frames.
"""
import argparse
import os

import numpy as np
from PIL import Image, ImageDraw, ImageFont


def save(frames, d):
    os.makedirs(d, exist_ok=True)
    for i, f in enumerate(frames):
        f.save(os.path.join(d, f"frame-{i:03d}.png"))


def font(size):
    try:
        return ImageFont.load_default(size)
    except TypeError:  # Pillow before 10.1
        return ImageFont.load_default()


def sparse_wide():
    w, h = 960, 540
    y, x = np.mgrid[0:h, 0:w]
    wall = np.stack([(x * 255 // w), (y * 200 // h + 30), ((x + y) * 127 // (w + h) + 80)], -1).astype(np.uint8)
    base = Image.fromarray(wall, "RGB")
    d = ImageDraw.Draw(base)
    d.rectangle([420, 20, 940, 520], fill=(18, 18, 24))
    f = font(14)
    rng = np.random.default_rng(1)
    lines = ["$ anim play demo.gif", "GIF 320x240, 31 frames", "$ ls -l Animations", "total 184"]
    for i, t in enumerate(lines):
        d.text((430, 30 + i * 18), t, font=f, fill=(200, 200, 200))
    frames = []
    img = base.copy()
    for i in range(24):
        img = img.copy()
        d = ImageDraw.Draw(img)
        # a character typed at the prompt, a clock far away, the cursor
        d.text((430 + i * 8, 30 + 5 * 18), "abcdefghijklmnopqrstuvwx"[i], font=f, fill=(120, 220, 120))
        d.rectangle([880, 500, 935, 515], fill=(18, 18, 24))
        d.text((880, 500), f"12:{i:02d}", font=f, fill=(200, 160, 80))
        frame = img.copy()
        ImageDraw.Draw(frame).rectangle([438 + i * 8, 30 + 5 * 18, 445 + i * 8, 46 + 5 * 18], fill=(220, 220, 220))
        # a status light on the wallpaper side, far from the terminal
        if i % 3 == 0:
            lx = 30 + int(rng.integers(0, 300))
            ImageDraw.Draw(frame).ellipse([lx, 480, lx + 12, 492], fill=(255, 60, 60))
        frames.append(frame)
    return frames


def ui_recording():
    w, h = 800, 500
    f = font(13)
    items = [f"Document {i:03d}.txt     {(i * 37) % 900 + 100} KB" for i in range(80)]
    frames = []
    for i in range(30):
        img = Image.new("RGB", (w, h), (236, 236, 240))
        d = ImageDraw.Draw(img)
        d.rectangle([0, 0, w, 32], fill=(52, 101, 164))
        d.text((12, 8), "Files", font=f, fill=(255, 255, 255))
        scroll = i * 3
        for k in range(22):
            yy = 44 + k * 20 - (scroll % 20)
            row = items[(scroll // 20 + k) % len(items)]
            if (scroll // 20 + k) % 2:
                d.rectangle([10, yy, 560, yy + 19], fill=(226, 226, 232))
            d.text((16, yy + 3), row, font=f, fill=(30, 30, 30))
        lit = (i // 5) % 2 == 1
        d.rounded_rectangle([600, 420, 780, 470], 8, fill=(90, 160, 90) if lit else (200, 200, 200))
        d.text((650, 438), "Upload", font=f, fill=(255, 255, 255) if lit else (40, 40, 40))
        px, py = 300 + i * 10, 120 + i * 9
        d.polygon([(px, py), (px, py + 18), (px + 5, py + 14), (px + 12, py + 14)], fill=(0, 0, 0), outline=(255, 255, 255))
        frames.append(img)
    return frames


def soft_alpha():
    s = 256
    y, x = np.mgrid[0:s, 0:s].astype(np.float32)
    frames = []
    for i in range(24):
        cx, cy = 70 + i * 5, 128 + 40 * np.sin(i / 4)
        r = np.hypot(x - cx, y - cy)
        a = np.clip((60 - r) / 25, 0, 1)
        rgba = np.zeros((s, s, 4), np.uint8)
        rgba[..., 0] = 255 - i * 8
        rgba[..., 1] = (x * 255 / s).astype(np.uint8)
        rgba[..., 2] = 60 + i * 6
        rgba[..., 3] = (a * 255).astype(np.uint8)
        frames.append(Image.fromarray(rgba, "RGBA"))
    return frames


def sticker_blink():
    s = 300
    face = Image.new("RGBA", (s, s), (0, 0, 0, 0))
    d = ImageDraw.Draw(face)
    d.ellipse([20, 20, 280, 280], fill=(250, 200, 60, 255), outline=(120, 80, 0, 255), width=6)
    # a soft shadow: alpha ramps
    y, x = np.mgrid[0:s, 0:s]
    shade = np.clip(1 - np.hypot(x - 150, y - 290) / 120, 0, 1) * 120
    a = np.array(face)
    under = a[..., 3] == 0
    a[under, 3] = shade[under].astype(np.uint8)
    face = Image.fromarray(a, "RGBA")
    frames = []
    for i in range(20):
        img = face.copy()
        d = ImageDraw.Draw(img)
        open_ = 22 if i % 7 not in (3, 4) else 3
        for ex in (95, 185):
            d.ellipse([ex, 110 - open_ // 2, ex + 24, 110 + open_ // 2], fill=(40, 20, 0, 255))
        m = 10 + (i % 5) * 4
        d.arc([100, 170 - m // 2, 200, 200 + m // 2], 10, 170, fill=(120, 40, 0, 255), width=8)
        frames.append(img)
    return frames


def many_palettes():
    s = 200
    y, x = np.mgrid[0:s, 0:s]
    frames = []
    for i in range(16):
        level = ((x + y * (i + 1)) * 200 // (s * (i + 2))) % 200
        rgb = np.stack([(level * 13 + i * 40) % 256, (level * 7 + i * 90) % 256, (level * 3 + i * 17) % 256], -1)
        frames.append(Image.fromarray(rgb.astype(np.uint8), "RGB"))
    return frames


def dithered_video():
    w, h = 320, 240
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    rng = np.random.default_rng(7)
    frames = []
    for i in range(30):
        r = 128 + 100 * np.sin((x + i * 6) / 40)
        g = 128 + 100 * np.sin((y - i * 4) / 30)
        b = 128 + 100 * np.sin((x + y + i * 9) / 55)
        noise = rng.integers(-12, 13, (h, w, 3))
        rgb = np.clip(np.stack([r, g, b], -1) + noise, 0, 255).astype(np.uint8)
        frames.append(Image.fromarray(rgb, "RGB"))
    return frames


def tiny_sprite():
    pal = [(0, 0, 0, 0), (30, 30, 30, 255), (220, 60, 60, 255), (250, 220, 180, 255), (60, 60, 200, 255)]
    frames = []
    for i in range(8):
        a = np.zeros((16, 16), np.uint8)
        a[2:6, 5:11] = 2  # hat
        a[6:10, 5:11] = 3  # face
        a[7, 6 + (i % 2)] = 1
        a[7, 9 + (i % 2)] = 1
        a[10:14, 4:12] = 4  # body
        leg = i % 4
        a[14:16, 5 + (leg % 2)] = 1
        a[14:16, 10 - (leg // 2)] = 1
        rgba = np.array([pal[v] for v in a.flatten()], np.uint8).reshape(16, 16, 4)
        frames.append(Image.fromarray(rgba, "RGBA"))
    return frames


SHAPES = {
    "sparse-wide": sparse_wide,
    "ui-recording": ui_recording,
    "soft-alpha": soft_alpha,
    "sticker-blink": sticker_blink,
    "many-palettes": many_palettes,
    "dithered-video": dithered_video,
    "tiny-sprite": tiny_sprite,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--only", default="")
    a = ap.parse_args()
    names = a.only.split(",") if a.only else list(SHAPES)
    for n in names:
        save(SHAPES[n](), os.path.join(a.out, n))


if __name__ == "__main__":
    main()
