#!/usr/bin/env python3
"""Plays an animation in real terminals under Xvfb and checks screenshots.

Each case starts a terminal (also tmux and GNU screen inside one) on a
private Xvfb display running a small shell script: it prints 25 lines, each
a bar of its own 256-colour background, runs `anim play --loops 0 --upscale`
on the demo, and when anim has ended prints a marker bar (in GNU screen, read from its hardcopy of the
scrollback). While it plays,
two screenshots 0.8 s apart must differ (the picture moves) and the drawn
picture must keep the animation's aspect ratio. Then the window is shrunk
and grown again with xdotool, and anim is ended with `q` or Ctrl-C. On the
last screenshot the bars must run in order, the last one being bar 25, and
the marker must come right below it: the shell's lines are where they
were and its next output follows them.

  python3 Tools/terminals/check.py [--cases xterm,kitty,...] [--endings q,ctrl-c] [--out DIR]

Prints one line per case and ending, writes the screenshots to --out, exits
1 if any check failed. With --baseline a plain program on the alternate
screen runs in anim's place (its "picture" checks fail by design): where
the shell's lines end up is then the terminal's own doing. A case whose terminal is not installed is skipped
and says so. Needs xvfb, xdotool, imagemagick, python3-pil and the
terminals (Tools/setup.sh --terminals installs xterm, kitty, tmux, screen,
mlterm, rxvt-unicode, konsole, xfce4-terminal). Uses .build/release/anim
(ANIM=... to change). Not run by CI: it needs a display server, eight
terminals and about five minutes, and its timing depends on the machine;
the tests model the same terminals with pseudo-terminals.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageChops

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
DISPLAY = ":97"
FONT = ["-fa", "DejaVu Sans Mono", "-fs", "10"]
KITTY = ["kitty", "--config", "NONE", "-o", "initial_window_width=720", "-o", "initial_window_height=440",
         "-o", "font_size=10"]
TMUX_CONF = os.path.join(tempfile.gettempdir(), "anim-check-tmux.conf")

# name: (terminal argv, the script appended; program that must exist)
CASES = {
    "xterm": (["xterm", "-geometry", "80x24+0+0"] + FONT + ["-e"], "xterm"),
    "xterm-vt340": (["xterm", "-ti", "vt340", "-geometry", "80x24+0+0"] + FONT
                    + ["-xrm", "XTerm*decTerminalID: vt340", "-xrm", "XTerm*numColorRegisters: 256", "-e"], "xterm"),
    "kitty": (KITTY, "kitty"),
    "konsole": (["konsole", "--hide-menubar", "--hide-tabbar", "-p", "ScrollBarPosition=2", "-e"], "konsole"),
    "mlterm": (["mlterm", "-g", "80x24", "--sb=false", "-e"], "mlterm"),
    "urxvt": (["urxvt", "+sb", "-geometry", "80x24", "-fn", "xft:DejaVu Sans Mono:size=10", "-e"], "urxvt"),
    "xfce4-terminal": (["xfce4-terminal", "--disable-server", "--hide-menubar", "--hide-toolbar", "--hide-scrollbar",
                        "--geometry", "80x24", "-x"], "xfce4-terminal"),
    "alacritty": (["alacritty", "-o", "window.dimensions.columns=80", "-o", "window.dimensions.lines=24", "-e"],
                  "alacritty"),
    "tmux-in-xterm": (["xterm", "-geometry", "80x24+0+0"] + FONT + ["-e", "tmux", "-f", TMUX_CONF, "new-session"],
                      "tmux"),
    "tmux-in-kitty": (KITTY + ["tmux", "-f", TMUX_CONF, "new-session"], "tmux"),
    "screen-in-xterm": (["xterm", "-tn", "xterm-256color", "-geometry", "80x24+0+0"] + FONT
                        + ["-e", "screen", "-q", "-c", "/dev/null", "-S", "animcheck"],
                        "screen"),
}

# The bars' 256-colour indexes (cube colours, far apart and from black
# and white); the last is the marker printed after anim.
BARS = [16 + 36 * r + 6 * g + b for r, g, b in [
    (5, 0, 0), (0, 5, 0), (0, 0, 5), (5, 5, 0), (5, 0, 5), (0, 5, 5), (2, 0, 0), (0, 2, 0), (0, 0, 2),
    (2, 2, 0), (2, 0, 2), (0, 2, 2), (5, 2, 0), (5, 0, 2), (0, 5, 2), (2, 5, 0), (2, 0, 5), (0, 2, 5),
    (5, 2, 5), (2, 5, 5), (5, 5, 2), (3, 3, 0), (0, 3, 3), (3, 0, 3), (1, 4, 1), (4, 1, 4)]]
LEVELS = [0, 95, 135, 175, 215, 255]


def bar_rgb(index):
    c = index - 16
    return (LEVELS[c // 36], LEVELS[c // 6 % 6], LEVELS[c % 6])


SCRIPT = """#!/bin/sh
trap : INT
echo > %(out)s.spawned
sleep 1.5
i=0
for c in %(bars)s; do
  i=$((i+1)); printf '\\033[48;5;%%dm%%-30s\\033[0m\\n' "$c" "line $i"
done
echo started > %(out)s.started
%(anim)s play --loops 0 --upscale %(clip)s 2> %(out)s.err
echo "$?" > %(out)s.status
printf '\\033[48;5;%(marker)dm%%-30s\\033[0m\\n' marker
sleep 30
"""


def x(*argv, **kw):
    env = dict(os.environ, DISPLAY=DISPLAY)
    return subprocess.run(list(argv), env=env, capture_output=True, text=True, **kw)


def shot(window, path):
    for _ in range(3):
        x("import", "-window", window, path)
        if os.path.exists(path):
            return Image.open(path).convert("RGB")
        time.sleep(0.5)
    return Image.open(path).convert("RGB")


def picture_box(img, background, empty):
    """The bounding box of the widest run of columns (and then rows) where
    many pixels differ from the background and are not the window's own
    (a toolbar or a scrollbar, seen on `empty`, the window before output)."""
    def differs(image):
        diff = ImageChops.difference(image, Image.new("RGB", image.size, background)).convert("L")
        return diff.point(lambda v: 255 if v > 40 else 0)
    mask = ImageChops.subtract(differs(img), differs(empty))
    w, h = mask.size
    px = mask.load()
    cols = [sum(1 for y in range(0, h, 2) if px[xx, y]) for xx in range(w)]

    def widest(counts):
        # Runs of columns (rows) with a tenth of the most, joined across
        # gaps of up to 12 (a row of dithered sky close to the background).
        least = max(counts) / 10
        best, start, last = (0, 0), None, None
        for i, c in enumerate(counts + [0] * 13):
            if c > least:
                start = i if start is None else start
                last = i
            elif start is not None and i - last > 12:
                if last + 1 - start > best[1] - best[0]:
                    best = (start, last + 1)
                start = None
        return best
    x0, x1 = widest(cols)
    if x1 <= x0:
        return None
    rows = [sum(1 for xx in range(x0, x1, 2) if px[xx, y]) for y in range(h)]
    y0, y1 = widest(rows)
    return (x0, y0, x1, y1) if y1 > y0 else None


def bar_sequence(img, sample_x):
    """The bars down column `sample_x`: [(bar number 1-26, first y, last y)]."""
    colours = [bar_rgb(i) for i in BARS]
    runs = []
    px = img.load()
    for y in range(img.height):
        p = px[sample_x, y]
        hit = None
        for n, c in enumerate(colours):
            if sum(abs(p[k] - c[k]) for k in range(3)) < 40:
                hit = n + 1
                break
        if hit and runs and runs[-1][0] == hit and runs[-1][2] >= y - 3:
            runs[-1][2] = y
        elif hit:
            runs.append([hit, y, y])
    return [tuple(r) for r in runs if r[2] - r[1] >= 3]


def check_lines(seq):
    """Bars in order, ending 25 then the marker, the marker right below."""
    numbers = [n for n, _, _ in seq]
    if not numbers:
        return "no bars on the screen"
    if numbers[-2:] != [25, 26]:
        return "the last bars are %s, not 25 then the marker" % numbers[-3:]
    if numbers != list(range(numbers[0], 27)):
        return "bars out of order: %s" % numbers
    height = seq[-2][2] - seq[-2][1] + 1
    gap = seq[-1][1] - seq[-2][2] - 1
    if gap > height // 3:
        return "%d px between bar 25 and the marker (a line is %d px)" % (gap, height)
    return None


def run_case(name, ending, anim, clip, out):
    term, _ = CASES[name]
    base = os.path.join(out, "%s-%s" % (name, ending))
    for suffix in (".spawned", ".started", ".status", ".err"):
        if os.path.exists(base + suffix):
            os.unlink(base + suffix)
    script = base + ".sh"
    with open(script, "w") as f:
        f.write(SCRIPT % dict(bars=" ".join(map(str, BARS[:25])), out=base, anim=anim, clip=clip, marker=BARS[25]))
    os.chmod(script, 0o755)
    env = dict(os.environ, DISPLAY=DISPLAY, LIBGL_ALWAYS_SOFTWARE="1")
    for k in ("COLORTERM", "TMUX", "STY", "KITTY_WINDOW_ID", "VTE_VERSION", "KONSOLE_VERSION", "TERM_PROGRAM"):
        env.pop(k, None)
    proc = subprocess.Popen(term + [script], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    result = dict(name=name, ending=ending, problems=[])
    try:
        deadline = time.time() + 20
        while not os.path.exists(base + ".spawned") and time.time() < deadline:
            time.sleep(0.1)
        found = x("xdotool", "search", "--sync", "--onlyvisible", "--pid", str(proc.pid), timeout=10).stdout.split()
        window = found[-1] if found else "root"
        time.sleep(0.7)
        empty = shot(window, base + "-empty.png")
        while not os.path.exists(base + ".started") and time.time() < deadline:
            time.sleep(0.2)
        if not os.path.exists(base + ".started"):
            result["problems"].append("the script did not start")
            return result
        time.sleep(3.5)
        a = shot(window, base + "-a.png")
        time.sleep(0.8)
        b = shot(window, base + "-b.png")
        background = a.getpixel((a.width - 3, a.height - 3))
        box = picture_box(a, background, empty)
        if not box:
            result["problems"].append("no picture while playing")
        else:
            moved = ImageChops.difference(a.crop(box), b.crop(box)).convert("L").point(lambda v: 255 if v > 24 else 0)
            changed = sum(1 for v in moved.getdata() if v)
            want = 96 / 64
            got = (box[2] - box[0]) / (box[3] - box[1])
            result.update(box=box, changed=changed, aspect_error=got / want - 1)
            if changed < 50:
                result["problems"].append("the picture does not move (%d pixels changed)" % changed)
            if abs(got / want - 1) > 0.04:
                result["problems"].append("aspect %.3f where the animation's is %.3f" % (got, want))
        geometry = x("xdotool", "getwindowgeometry", window).stdout
        size = [int(v) for v in geometry.split("Geometry: ")[1].split()[0].split("x")] if "Geometry: " in geometry else None
        if size:
            x("xdotool", "windowsize", window, str(size[0]), str(size[1] // 2))
            time.sleep(1.5)
            x("xdotool", "windowsize", window, str(size[0]), str(size[1]))
            time.sleep(1.5)
        x("xdotool", "windowfocus", window)
        x("xdotool", "key", "--window", window, "q" if ending == "q" else "ctrl+c")
        deadline = time.time() + 10
        while not os.path.exists(base + ".status") and time.time() < deadline:
            time.sleep(0.2)
        if not os.path.exists(base + ".status"):
            result["problems"].append("anim did not end on %s" % ending)
            return result
        status = open(base + ".status").read().strip()
        result["status"] = status
        if status not in ("0", "130"):
            result["problems"].append("anim exited %s: %s" % (status, open(base + ".err").read().strip()[-200:]))
        time.sleep(1.0)
        c = shot(window, base + "-c.png")
        if name.startswith("screen"):
            # screen's alternate screen is off by default: the shell's lines
            # go to its scrollback and the window is cleared; its hardcopy
            # of scrollback and window must hold them in order, the marker next.
            copy = base + "-hardcopy.txt"
            x("screen", "-S", "animcheck", "-X", "hardcopy", "-h", copy)
            time.sleep(0.5)
            text = [l.rstrip() for l in open(copy, errors="replace")] if os.path.exists(copy) else []
            shown = [l for l in text if l.startswith("line ") or l == "marker"]
            result["bars"] = [26 if l == "marker" else int(l.split()[1]) for l in shown]
            if result["bars"] != list(range(1, 27)):
                result["problems"].append("screen's hardcopy holds %s" % result["bars"])
            else:
                # The window (the hardcopy's last rows) starts with the marker:
                # a clean window, the prompt at its top. Between line 25 and it
                # screen's history may hold what a resize pushed up.
                rows = 24  # the xterm's -geometry 80x24
                window_top = len(text) - rows
                if text.index("marker") != window_top:
                    result["problems"].append("the marker is on window row %d, not 1" % (text.index("marker") - window_top + 1))
            return result
        # A quarter across: inside the bars (30 of 80 columns), past their text.
        seq = bar_sequence(c, c.width // 4)
        result["bars"] = [n for n, _, _ in seq]
        problem = check_lines(seq)
        if problem:
            result["problems"].append(problem)
        return result
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default=",".join(CASES))
    ap.add_argument("--endings", default="q,ctrl-c")
    ap.add_argument("--clip", default=os.path.join(REPO, "Animations", "demo.gif"))
    ap.add_argument("--out", default=os.path.join(HERE, "out"))
    ap.add_argument("--baseline", action="store_true",
                    help="run a plain program on the alternate screen in place of anim (it draws nothing and ends"
                         " on a key or Ctrl-C): what the terminal itself does with the shell's lines")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    anim = os.environ.get("ANIM", os.path.join(REPO, ".build", "release", "anim"))
    if a.baseline:
        anim = os.path.join(a.out, "plain-player.sh")
        with open(anim, "w") as f:
            f.write("#!/bin/sh\nprintf '\\033[?1049h\\033[H\\033[2J'\nold=$(stty -g); stty raw -echo\n"
                    "dd bs=1 count=1 >/dev/null 2>&1\nstty \"$old\"; printf '\\033[?1049l'\n")
        os.chmod(anim, 0o755)
    with open(TMUX_CONF, "w") as f:
        f.write("set -g allow-passthrough on\nset -g default-terminal tmux-256color\nset -g status off\n")
    xvfb = subprocess.Popen(["Xvfb", DISPLAY, "-screen", "0", "1024x768x24"], stderr=subprocess.DEVNULL)
    time.sleep(1)
    failed = 0
    try:
        for name in a.cases.split(","):
            if shutil.which(CASES[name][1]) is None or shutil.which(CASES[name][0][0]) is None:
                print("%-16s skipped: %s is not installed" % (name, CASES[name][1]))
                continue
            for ending in a.endings.split(","):
                r = run_case(name, ending, anim, a.clip, a.out)
                failed += bool(r["problems"])
                facts = []
                if "aspect_error" in r:
                    facts.append("aspect %+.1f%%, %d px moved" % (100 * r["aspect_error"], r["changed"]))
                if "bars" in r:
                    facts.append("bars %s" % (r["bars"][-4:]))
                print("%-16s %-7s %s  %s" % (name, ending, "; ".join(facts),
                                             "ok" if not r["problems"] else "FAIL: " + "; ".join(r["problems"])),
                      flush=True)
    finally:
        xvfb.kill()
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
