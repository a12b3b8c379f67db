#!/usr/bin/env python3
"""Graphics-protocol playback benchmark: anim vs timg, chafa, notcurses'
ncplayer and mpv (--vo=sixel, --vo=tct), same clips, same 80x24-cell
pseudo-terminal of 8x16-pixel cells, one run.

For each clip and mode (kitty, iterm2, sixel, text) it runs each player for
one loop and for two loops and reports bytes of the first loop, bytes per
frame of the second loop (two-loop bytes minus one-loop bytes, over the
frame count), CPU ms per frame and peak RSS (one loop). Ratios against the
best peer follow, with the CPU target (0.25x the best peer) beside anim's
own decoding alone (`anim bench`), which no drawing can go below. In
sixel mode the picture is measured too: the PSNR of the last frame as a
terminal shows it after the player's bytes (Tools/bench/graphics/shown.py,
run by Debian's /usr/bin/python3 for numpy and Pillow), beside the bytes
ratio, since fewer bytes count only at an equal or better picture. Aspect
and motion are checked in real terminals by Tools/terminals/check.py
(anim only).

  python3 Tools/bench/graphics/run.py [--clips a.gif,b.webp] [--modes kitty,sixel]

Uses Tools/bench/play's pseudo-terminal harness (it answers the terminal
queries as a terminal would; for kitty and sixel it answers as kitty 0.26
and as xterm with sixel, for the peers that ask; in kitty mode it reads
and unlinks the shared-memory objects of `t=s` uploads as kitty on the
same machine does, and their bytes count with the pty's) and
.build/release/anim
(ANIM=... to change). ncplayer is built from source by
Tools/bench/graphics/build-ncplayer.sh (Debian 12 has no package);
NCPLAYER=... to use another. A player missing from the machine fails its
runs and is left out of the ratios.
"""
import argparse
import base64
import json
import re
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(HERE, "..", "play"))
import run as harness  # noqa: E402  (Tools/bench/play/run.py)

COLS, ROWS = harness.COLS, harness.ROWS

MODES = {
    # mode: {player: argv builder(clip, loops)}
    "kitty": {
        "anim": lambda c, n: ["--protocol", "kitty"],
        "ncplayer": lambda c, n: ncplayer(c, "pixel"),
        "timg": lambda c, n: ["timg", "-pk", "--compress", "-g%dx%d" % (COLS, ROWS), "--loops=%d" % n, c],
        "chafa": lambda c, n: ["chafa", "-f", "kitty", "-s", "%dx%d" % (COLS, ROWS), "--duration", "0", c],
    },
    "iterm2": {
        "anim": lambda c, n: ["--protocol", "iterm2"],
        "timg": lambda c, n: ["timg", "-pi", "--compress", "-g%dx%d" % (COLS, ROWS), "--loops=%d" % n, c],
        "chafa": lambda c, n: ["chafa", "-f", "iterm", "-s", "%dx%d" % (COLS, ROWS), "--duration", "0", c],
    },
    "sixel": {
        "anim": lambda c, n: ["--protocol", "sixel"],
        "chafa": lambda c, n: ["chafa", "-f", "sixels", "-s", "%dx%d" % (COLS, ROWS), "--duration", "0", c],
        "ncplayer": lambda c, n: ncplayer(c, "pixel"),
        "mpv": lambda c, n: mpv(c, n, "--vo=sixel", "--vo-sixel-cols=%d" % COLS, "--vo-sixel-rows=%d" % ROWS),
    },
    "text": {
        "anim": lambda c, n: ["--protocol", "text"],
        "anim-sextant": lambda c, n: ["--protocol", "text", "--symbols", "sextant"],
        "timg": lambda c, n: ["timg", "-ph", "-g%dx%d" % (COLS, ROWS), "--loops=%d" % n, c],
        "timg-quarter": lambda c, n: ["timg", "-pq", "-g%dx%d" % (COLS, ROWS), "--loops=%d" % n, c],
        "chafa-sextant": lambda c, n: ["chafa", "-f", "symbols", "-c", "full", "--symbols", "sextant",
                                       "-s", "%dx%d" % (COLS, ROWS), "--duration", "0", c],
        "ncplayer": lambda c, n: ncplayer(c, "half"),
        "ncplayer-sextant": lambda c, n: ncplayer(c, "sex"),
        "mpv": lambda c, n: mpv(c, n, "--vo=tct", "--vo-tct-width=%d" % COLS, "--vo-tct-height=%d" % ROWS),
    },
}

# notcurses' ncplayer is not packaged in Debian 12: Tools/bench/graphics/build-ncplayer.sh
# builds it from source into Tools/bench/bin (NCPLAYER=... to use another).
NCPLAYER = os.environ.get("NCPLAYER", os.path.join(REPO, "Tools", "bench", "bin", "ncplayer"))


def ncplayer(clip, blitter):
    # -q: no frame counter over the picture; -s scale: keep the aspect in the box.
    # -t 0: end after the file (else it waits for a key). ncplayer 3.0.17
    # draws the frames of these files without waiting their delays.
    return [NCPLAYER, "-q", "-t", "0", "-b", blitter, "-s", "scale", clip]


def mpv(clip, loops, *vo):
    return ["mpv", "--really-quiet", "--no-config", "--no-audio", "--loop-file=%d" % (loops - 1) if loops > 1 else "--loop-file=no",
            "--keep-open=no", "--no-input-terminal"] + list(vo) + [clip]


class SharedMemoryReader:
    """kitty's reading of `t=s` uploads: the object the command names is
    read (its bytes counted) and unlinked, as kitty does; a query (`a=q`)
    is answered OK when the object could be read, else with kitty's error,
    and an upload that asks for errors (`q=1`) gets the error."""

    PATTERN = rb"\x1b_G([^;\x1b]*t=s[^;\x1b]*);([A-Za-z0-9+/=]*)\x1b\\"

    def __init__(self):
        self.bytes = 0
        self.objects = 0

    def __call__(self, m):
        keys = dict(k.split(b"=", 1) for k in m.group(1).split(b",") if b"=" in k)
        name = base64.b64decode(m.group(2)).decode("latin-1").lstrip("/")
        path = os.path.join("/dev/shm", name)
        try:
            with open(path, "rb") as f:
                self.bytes += len(f.read())
            os.unlink(path)
            self.objects += 1
            ok = True
        except OSError:
            ok = False
        ident = keys.get(b"i", b"0")
        if keys.get(b"a") == b"q":
            return b"\x1b_Gi=" + ident + (b";OK" if ok else b";EBADF:Failed to open file") + b"\x1b\\"
        if not ok and keys.get(b"q") == b"1":
            return b"\x1b_Gi=" + ident + b";EBADF:Failed to open file\x1b\\"
        return b""


# What the pty answers beyond Tools/bench/play's REPLIES, by mode: peers
# that probe (ncplayer) see the terminal the mode needs.
TERMINALS = {
    "kitty": (dict(TERM="xterm-kitty", KITTY_WINDOW_ID="1"), [
        (rb"\x1b_Gi=(\d+)[^\x1b]*a=q[^\x1b]*\x1b\\", b"\x1b_Gi=\0;OK\x1b\\"),
        (rb"\x1b\[>0?q", b"\x1bP>|kitty(0.26.5)\x1b\\"),
    ]),
    "sixel": (dict(TERM="xterm-256color"), [
        (rb"\x1b\[0?c", b"\x1b[?63;1;2;4;6;9;15;16;22;28c"),
        (rb"\x1b\[\?1;1;0S", b"\x1b[?1;0;256S"),
        (rb"\x1b\[\?2;1;0S", ("\x1b[?2;0;%d;%dS" % (COLS * harness.CELL_W, ROWS * harness.CELL_H)).encode()),
        (rb"\x1b\[>0?q", b"\x1bP>|XTerm(390)\x1b\\"),
    ]),
}


def argv_for(player, mode, clip, loops, anim):
    extra = MODES[mode][player](clip, loops)
    if player.startswith("anim"):
        return [anim, "play", clip, "--loops", str(loops), "--stats"] + extra
    return extra


def run(argv, timeout, mode):
    env, replies = TERMINALS.get(mode, (None, ()))
    # kitty reads the objects of `t=s` uploads (a kitty on this machine):
    # their bytes count with the pty's.
    shm = SharedMemoryReader()
    if mode == "kitty":
        replies = [(SharedMemoryReader.PATTERN, shm)] + list(replies)
    r = harness.run_in_pty(argv, timeout, env_extra=env, extra_replies=replies,
                           stdin_pty=os.path.basename(argv[0]) == "ncplayer")
    data = b"".join(c for _, c in r["chunks"])
    ru = r["rusage"]
    ok = (not r["timed_out"]) and os.WIFEXITED(r["status"]) and os.WEXITSTATUS(r["status"]) == 0
    return dict(ok=ok, bytes=len(data) + shm.bytes, shm_bytes=shm.bytes, shm_objects=shm.objects,
                cpu_ms=(ru.ru_utime + ru.ru_stime) * 1000 if ru else None,
                rss_mib=r["peak_rss_kib"] / 1024, data=data, stderr=r["stderr"][-400:])


def measure(player, mode, clip, frames, anim, timeout, loops2):
    one = run(argv_for(player, mode, clip, 1, anim), timeout, mode)
    res = dict(ok=one["ok"], first_loop_bytes=one["bytes"], cpu_ms_per_frame=(one["cpu_ms"] or 0) / frames,
               peak_rss_mib=one["rss_mib"], stderr=one["stderr"] if not one["ok"] else "")
    if loops2 and player.split("-")[0] in ("anim", "timg", "mpv"):
        two = run(argv_for(player, mode, clip, 2, anim), timeout, mode)
        if two["ok"]:
            res["later_loop_bytes_per_frame"] = (two["bytes"] - one["bytes"]) / frames
    res["_data"] = one["data"]
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--clips", default="", help="comma list of files (default: Tools/bench/play/clips/* and Animations/demo.gif)")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--json", default=os.path.join(HERE, "out", "results.json"))
    ap.add_argument("--report", metavar="JSON", help="print the tables of an earlier run's JSON, run nothing")
    args = ap.parse_args()
    if args.report:
        with open(args.report) as f:
            report(json.load(f))
        return
    anim = os.environ.get("ANIM", os.path.join(REPO, ".build", "release", "anim"))
    if args.clips:
        clips = args.clips.split(",")
    else:
        cdir = os.path.join(REPO, "Tools", "bench", "play", "clips")
        clips = sorted(os.path.join(cdir, f) for f in os.listdir(cdir)) if os.path.isdir(cdir) else []
        clips.append(os.path.join(REPO, "Animations", "demo.gif"))
    results = []
    for clip in clips:
        frames = harness.clip_frame_count(clip, anim)
        if not frames:
            print("%s: no frame count, skipped" % clip, file=sys.stderr)
            continue
        floor = decode_floor(clip, anim)
        for mode in args.modes.split(","):
            for player in MODES[mode]:
                print("%s %s %s" % (os.path.basename(clip), mode, player), file=sys.stderr, flush=True)
                r = measure(player, mode, clip, frames, anim, args.timeout, loops2=True)
                data = r.pop("_data")
                r["images"] = images_sent(mode, data)
                if mode == "sixel" and r["ok"]:
                    r["psnr_db"] = shown_psnr(data, clip)
                results.append(dict(clip=os.path.basename(clip), frames=frames, mode=mode, player=player,
                                    decode_ms_per_frame=floor, **r))
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    with open(args.json, "w") as f:
        json.dump(results, f, indent=1)
    report(results)


def decode_floor(clip, anim):
    """anim's own decoding alone, ms a frame: every frame composited at
    full size on one thread (`anim bench --decode-ahead 0`, median of 3
    passes). A player must do at least this much per frame, so a CPU
    target below it cannot be met without a faster decoder."""
    try:
        out = subprocess.run([anim, "bench", clip, "--decode-ahead", "0", "--runs", "3", "--json"],
                             capture_output=True, timeout=300, check=True).stdout
        return json.loads(out)["msPerFrame"]
    except (subprocess.SubprocessError, ValueError, KeyError):
        return None


def shown_psnr(data, clip):
    """PSNR (dB) of the last frame shown after `data`, or None (shown.py)."""
    with tempfile.NamedTemporaryFile(suffix=".out") as f:
        f.write(data)
        f.flush()
        try:
            out = subprocess.run([PYTHON_WITH_NUMPY, os.path.join(HERE, "shown.py"), f.name, clip],
                                 capture_output=True, text=True, timeout=600).stdout
            return float(out.split()[0])
        except (subprocess.SubprocessError, ValueError, IndexError, OSError):
            return None


PYTHON_WITH_NUMPY = os.environ.get("PYTHON_WITH_NUMPY", "/usr/bin/python3")


def images_sent(mode, data):
    """Pictures a player sent in one loop: kitty transmissions (keys with
    a=T, a=t or a=f), iTerm2 File= commands, sixel DCS images; None for
    text. A peer that sent fewer than half the clip's frames did not play
    it (chafa shows an APNG's first frame only) and is no yardstick."""
    if mode == "kitty":
        return sum(1 for m in re.finditer(rb"\x1b_G([^;\x1b]*)", data)
                   if re.search(rb"(^|,)a=[Ttf](,|$)", m.group(1)))
    if mode == "iterm2":
        return data.count(b"\x1b]1337;File=")
    if mode == "sixel":
        return len(re.findall(rb"\x1bP[0-9;]*q", data))
    return None


def report(results):
    print("| clip | mode | player | first loop bytes | later loops B/frame | CPU ms/frame | peak RSS MiB | PSNR dB (sixel) | ok |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in results:
        later = r.get("later_loop_bytes_per_frame")
        rss = r.get("peak_rss_mib")
        print("| %s | %s | %s | %d | %s | %.2f | %s | %s | %s |" % (
            r["clip"], r["mode"], r["player"], r["first_loop_bytes"],
            "%.0f" % later if later is not None else "-", r["cpu_ms_per_frame"],
            "%.1f" % rss if rss is not None else "-", db(r.get("psnr_db")), "yes" if r["ok"] else "NO"))
    print()
    # Target: CPU per frame at most 0.25x the best peer's (issue 30). The
    # decode floor is anim's decoding alone (decode_floor): a target below
    # it cannot be met by drawing faster.
    print("| clip | mode | first-loop bytes anim / best peer | PSNR anim / that peer, dB | CPU anim / best peer | CPU target 0.25x best, ms | anim ms | decoding alone, ms | best peer (bytes; CPU) |")
    print("|---|---|---|---|---|---|---|---|---|")
    by = {}
    for r in results:
        by.setdefault((r["clip"], r["mode"]), {})[r["player"]] = r
    for (clip, mode), ps in by.items():
        a = ps.get("anim")
        peers = [p for n, p in ps.items() if not n.startswith("anim") and p["ok"] and p["first_loop_bytes"] > 0
                 and (p.get("images") is None or p["frames"] < 2 or p["images"] * 2 >= p["frames"])
                 # chafa 1.12 shows an APNG's first frame only (text cells
                 # have no image count to tell).
                 and not (n.startswith("chafa") and clip.endswith((".png", ".apng")))]
        if not a or not a["ok"] or not peers:
            continue
        by_b = min(peers, key=lambda p: p["first_loop_bytes"])
        by_c = min(peers, key=lambda p: p["cpu_ms_per_frame"])
        best_b, best_c = by_b["first_loop_bytes"], by_c["cpu_ms_per_frame"]
        floor = a.get("decode_ms_per_frame")
        target = best_c / 4
        print("| %s | %s | %.3f | %s | %.2f | %.2f | %.2f | %s | %s; %s |" % (
            clip, mode, a["first_loop_bytes"] / best_b,
            "-" if mode != "sixel" else "%s / %s" % (db(a.get("psnr_db")), db(by_b.get("psnr_db"))),
            a["cpu_ms_per_frame"] / best_c if best_c else float("nan"),
            target, a["cpu_ms_per_frame"],
            "-" if floor is None else "%.2f%s" % (floor, " (above the target)" if floor > target else ""),
            by_b["player"], by_c["player"]))


def db(v):
    return "-" if v is None else "%.1f" % v


if __name__ == "__main__":
    main()
