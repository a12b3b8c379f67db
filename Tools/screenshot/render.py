#!/usr/bin/env python3
"""Renders a `tmux capture-pane -e -p` capture (text with ANSI SGR colours)
to a PNG that looks like a terminal window.

Usage: render.py CAPTURE.txt OUT.png [--cols N] [--rows N] [--title TEXT]
                 [--cell WxH] [--font PATH]

Every cell becomes a WxH block (default 10x20).  The half blocks are drawn
as exact rectangles, not with a font, so the picture's "pixels" are crisp:
  U+2580 upper half: top in the foreground colour, bottom in the background
  U+2584 lower half: the reverse
  U+2588 full block: all foreground;   U+258C / U+2590 left / right half
  space: all background
Any other character is drawn with a monospace TrueType font (DejaVu
Sans Mono, else fc-match monospace, else Pillow's built-in font) in the
foreground colour over the background.  The window gets a title bar
and rounded corners on a transparent background.

SGR understood: 0 reset, 7 / 27 reverse on / off, 30-37 / 90-97 / 40-47 /
100-107 (16 colours), 38;5;n / 48;5;n (xterm 256), 38;2;r;g;b / 48;2;r;g;b
(also the colon forms), 39 / 49 default colours.  Bold, italic, underline
and the like are accepted and ignored.  The SGR state carries over from one
line to the next, as tmux writes it.  Other escape sequences are skipped.

Needs Python 3 and Pillow.
"""
import argparse
import re
import shutil
import subprocess
import sys
import unicodedata

from PIL import Image, ImageDraw, ImageFont

DEFAULT_FG = (0xD0, 0xD0, 0xD0)
DEFAULT_BG = (0x1E, 0x1E, 0x1E)
TITLE_BG = (0x32, 0x32, 0x32)
TITLE_FG = (0xB8, 0xB8, 0xB8)
BORDER = (0x4A, 0x4A, 0x4A)
LIGHTS = [(0xFF, 0x5F, 0x57), (0xFE, 0xBC, 0x2E), (0x28, 0xC8, 0x40)]

# The 16 base colours (xterm defaults).
BASE16 = [
    (0x00, 0x00, 0x00), (0xCD, 0x00, 0x00), (0x00, 0xCD, 0x00), (0xCD, 0xCD, 0x00),
    (0x00, 0x00, 0xEE), (0xCD, 0x00, 0xCD), (0x00, 0xCD, 0xCD), (0xE5, 0xE5, 0xE5),
    (0x7F, 0x7F, 0x7F), (0xFF, 0x00, 0x00), (0x00, 0xFF, 0x00), (0xFF, 0xFF, 0x00),
    (0x5C, 0x5C, 0xFF), (0xFF, 0x00, 0xFF), (0x00, 0xFF, 0xFF), (0xFF, 0xFF, 0xFF),
]


def xterm256(n):
    """The xterm 256-colour palette: 16 base, 6x6x6 cube, 24 greys."""
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        steps = [0, 95, 135, 175, 215, 255]
        return (steps[n // 36], steps[(n // 6) % 6], steps[n % 6])
    v = 8 + 10 * (n - 232)
    return (v, v, v)


class State:
    def __init__(self):
        self.reset()

    def reset(self):
        self.fg = None  # None: the default colour
        self.bg = None
        self.reverse = False

    def colours(self):
        fg = self.fg if self.fg is not None else DEFAULT_FG
        bg = self.bg if self.bg is not None else DEFAULT_BG
        return (bg, fg) if self.reverse else (fg, bg)


def extended_colour(params, i):
    """Parses 38/48 ;5;n or ;2;r;g;b starting at params[i] (the 38/48).
    Returns (colour or None, index of the last parameter consumed)."""
    if i + 1 < len(params) and params[i + 1] == 5 and i + 2 < len(params):
        return xterm256(params[i + 2] & 255), i + 2
    if i + 1 < len(params) and params[i + 1] == 2 and i + 4 < len(params):
        r, g, b = (max(0, min(255, v)) for v in params[i + 2:i + 5])
        return (r, g, b), i + 4
    return None, len(params)


def apply_sgr(state, text):
    # The colon form: 38:2:r:g:b, 38:2::r:g:b (with a colour space id), 38:5:n.
    params = []
    for group in text.split(";") if text else ["0"]:
        if ":" in group:
            sub = group.split(":")
            if len(sub) >= 2 and sub[0] in ("38", "48", "58") and sub[1] == "2" and len(sub) == 6:
                sub = sub[:2] + sub[3:]  # drop the colour space id
            params.extend(int(s) if s else 0 for s in sub)
        else:
            params.append(int(group) if group else 0)
    i = 0
    while i < len(params):
        p = params[i]
        if p == 0:
            state.reset()
        elif p == 7:
            state.reverse = True
        elif p == 27:
            state.reverse = False
        elif 30 <= p <= 37:
            state.fg = BASE16[p - 30]
        elif 90 <= p <= 97:
            state.fg = BASE16[p - 90 + 8]
        elif 40 <= p <= 47:
            state.bg = BASE16[p - 40]
        elif 100 <= p <= 107:
            state.bg = BASE16[p - 100 + 8]
        elif p == 39:
            state.fg = None
        elif p == 49:
            state.bg = None
        elif p in (38, 48, 58):
            colour, i = extended_colour(params, i)
            if colour is not None and p == 38:
                state.fg = colour
            elif colour is not None and p == 48:
                state.bg = colour
        # 1 bold, 2 dim, 3 italic, 4 underline, 5 blink, 8 hidden, 9 strike,
        # 22-29 their "off" codes, 58/59 underline colour: ignored.
        i += 1


ESCAPE = re.compile(
    r"\x1b\[([0-9;:?<=>]*)([ -/]*)([@-~])"   # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"     # OSC (e.g. hyperlinks)
    r"|\x1b[@-Z\\-_]"                          # other two-byte escapes
)


def parse(text, cols=None, rows=None):
    """Returns (grid, cols, rows); grid[row][col] = (char, fg, bg)."""
    state = State()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    grid = []
    for line in lines:
        cells = []
        pos = 0
        for m in ESCAPE.finditer(line):
            put_text(cells, line[pos:m.start()], state)
            if m.group(3) == "m" and m.group(0).startswith("\x1b["):
                apply_sgr(state, m.group(1))
            pos = m.end()
        put_text(cells, line[pos:], state)
        grid.append(cells)
    cols = cols or max((len(r) for r in grid), default=1)
    rows = rows or len(grid)
    blank = (" ", DEFAULT_FG, DEFAULT_BG)
    grid = [(r + [blank] * cols)[:cols] for r in grid[:rows]]
    grid += [[blank] * cols for _ in range(rows - len(grid))]
    return grid, cols, rows


def put_text(cells, s, state):
    for ch in s:
        if ch in "\r\x00":
            continue
        if unicodedata.combining(ch) and cells:
            c, fg, bg = cells[-1]
            cells[-1] = (c + ch, fg, bg)
            continue
        fg, bg = state.colours()
        cells.append((ch, fg, bg))
        if unicodedata.east_asian_width(ch) in ("W", "F"):
            cells.append(("", fg, bg))  # the wide character's second cell


def find_font(path, size):
    candidates = []
    if path:
        candidates.append(path)
    # DejaVu Sans Mono first (the same picture on most Linux systems), then
    # whatever fontconfig calls monospace.
    candidates.append("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf")
    if shutil.which("fc-match"):
        try:
            out = subprocess.run(["fc-match", "-f", "%{file}", "monospace:style=Book"],
                                 capture_output=True, text=True, timeout=10).stdout.strip()
            if out.lower().endswith((".ttf", ".otf")):
                candidates.append(out)
        except (OSError, subprocess.SubprocessError):
            pass
    candidates += [
        "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf",
        "/Library/Fonts/Menlo.ttc",
        "/System/Library/Fonts/Menlo.ttc",
        "DejaVuSansMono.ttf",
    ]
    for c in candidates:
        try:
            return ImageFont.truetype(c, size), c
        except OSError:
            continue
    print("render.py: no monospace TrueType font found, using Pillow's default", file=sys.stderr)
    try:
        return ImageFont.load_default(size=size), "(Pillow default)"
    except TypeError:  # Pillow < 10.1
        return ImageFont.load_default(), "(Pillow default)"


def fitted_font(path, cw, ch):
    """The largest font size whose advance fits the cell width and whose line fits its height."""
    best = None
    for size in range(6, 2 * ch):
        font, name = find_font(path, size)
        if name == "(Pillow default)":
            return font, name
        advance = font.getlength("M")
        ascent, descent = font.getmetrics()
        if advance > cw + 0.01 or ascent + descent > ch + 2:
            break
        best = (font, name)
        path = name  # don't look the font up again
    return best or find_font(path, 6)


def draw_cells(img, grid, cw, ch, x0, y0, font):
    d = ImageDraw.Draw(img)
    half = ch // 2
    text_cells = []
    for r, row in enumerate(grid):
        y = y0 + r * ch
        for c, (char, fg, bg) in enumerate(row):
            x = x0 + c * cw
            box = (x, y, x + cw - 1, y + ch - 1)
            if char == "\u2580":      # upper half block
                d.rectangle((x, y, x + cw - 1, y + half - 1), fill=fg)
                d.rectangle((x, y + half, x + cw - 1, y + ch - 1), fill=bg)
            elif char == "\u2584":    # lower half block
                d.rectangle((x, y, x + cw - 1, y + half - 1), fill=bg)
                d.rectangle((x, y + half, x + cw - 1, y + ch - 1), fill=fg)
            elif char == "\u2588":    # full block
                d.rectangle(box, fill=fg)
            elif char == "\u258C":    # left half block
                d.rectangle(box, fill=bg)
                d.rectangle((x, y, x + cw // 2 - 1, y + ch - 1), fill=fg)
            elif char == "\u2590":    # right half block
                d.rectangle(box, fill=bg)
                d.rectangle((x + cw // 2, y, x + cw - 1, y + ch - 1), fill=fg)
            else:
                d.rectangle(box, fill=bg)
                if char.strip():
                    text_cells.append((x, y, char, fg))
    # Text after all backgrounds, so glyphs that overhang a cell aren't cut.
    for x, y, char, fg in text_cells:
        d.text((x + cw / 2, y + ch / 2), char, font=font, fill=fg, anchor="mm")


def smooth_mask(size, draw_fn, scale=4):
    """A greyscale mask drawn at `scale`x and reduced, for anti-aliased shapes."""
    big = Image.new("L", (size[0] * scale, size[1] * scale), 0)
    draw_fn(ImageDraw.Draw(big), scale)
    return big.resize(size, Image.LANCZOS)


def render(grid, cols, rows, cw, ch, title, font_path):
    font, font_name = fitted_font(font_path, cw, ch)
    pad = max(cw, 8)             # terminal background around the cells
    bar = max(ch + 8, 28)         # title bar height
    radius = 10
    width = cols * cw + 2 * pad
    height = bar + rows * ch + 2 * pad

    window = Image.new("RGB", (width, height), DEFAULT_BG)
    d = ImageDraw.Draw(window)
    d.rectangle((0, 0, width - 1, bar - 1), fill=TITLE_BG)
    d.line((0, bar - 1, width - 1, bar - 1), fill=(0x18, 0x18, 0x18))
    # Title: a slightly smaller UI-ish rendering of the same font.
    try:
        tfont = ImageFont.truetype(font_name, max(int(font.size * 0.9), 8))
    except (OSError, AttributeError):
        tfont = font
    d.text((width / 2, bar / 2), title, font=tfont, fill=TITLE_FG, anchor="mm")
    # Traffic lights, anti-aliased.
    r = max(bar // 5, 5)
    for k, colour in enumerate(LIGHTS):
        cx, cy = 14 + r + k * (2 * r + 8), bar / 2

        def dot(dd, s, cx=cx, cy=cy):
            dd.ellipse(((cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s), fill=255)
        window.paste(colour, (0, 0), smooth_mask((width, height), dot))

    draw_cells(window, grid, cw, ch, pad, bar + pad, font)

    # Rounded window with a 1px border, on a transparent background.
    def shape(dd, s):
        dd.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius=radius * s, fill=255)

    def inner(dd, s):
        dd.rounded_rectangle((s, s, (width - 1) * s - 1, (height - 1) * s - 1),
                             radius=(radius - 1) * s, fill=255)
    outer_mask = smooth_mask((width, height), shape)
    inner_mask = smooth_mask((width, height), inner)
    out = Image.new("RGBA", (width, height), (0, 0, 0, 0))
    out.paste(BORDER + (255,), (0, 0), outer_mask)
    framed = window.convert("RGBA")
    framed.putalpha(inner_mask)
    out.alpha_composite(framed)
    return out, font_name


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("capture")
    ap.add_argument("output")
    ap.add_argument("--cols", type=int, help="pane width (default: the widest line)")
    ap.add_argument("--rows", type=int, help="pane height (default: the number of lines)")
    ap.add_argument("--title", default="anim play")
    ap.add_argument("--cell", default="10x20", help="cell size in pixels, WxH (default 10x20)")
    ap.add_argument("--font", help="a monospace TrueType font file")
    a = ap.parse_args()
    cw, ch = (int(v) for v in a.cell.lower().split("x"))
    if ch % 2:
        ap.error("the cell height must be even so that half blocks are exact")

    with open(a.capture, encoding="utf-8", errors="replace") as f:
        grid, cols, rows = parse(f.read(), a.cols, a.rows)
    coloured = sum(1 for row in grid for _, fg, bg in row
                   if fg != DEFAULT_FG or bg != DEFAULT_BG)
    img, font_name = render(grid, cols, rows, cw, ch, a.title, a.font)
    img.save(a.output, optimize=True)
    print(f"render.py: {a.output}: {img.width}x{img.height}, {cols}x{rows} cells, "
          f"{coloured} coloured, font {font_name}", file=sys.stderr)
    if coloured == 0:
        print("render.py: the capture has no colours", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
