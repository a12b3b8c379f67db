#!/usr/bin/env python3
"""Benchmark `anim play` against timg and chafa in an 80x24 pseudo-terminal.

    python3 Tools/bench/play/run.py [--runs 3] [--clips sprite,noise.gif,...]
                                    [--players anim,timg,chafa] [--json]
                                    [--out DIR] [--keep-raw] [--timeout 60]

Every player runs as the session leader of a new pty (80 columns x 24 rows,
640x384 pixels) which is its controlling terminal: stdout = the pty, stdin =
/dev/null, stderr = a file (so anim's --stats JSON line comes out cleanly).
The parent reads the pty master as fast as it can, timestamping each read,
and answers the usual terminal queries (see REPLIES) as a terminal would.
Output post-processing (OPOST, i.e. LF -> CRLF) and echo are off on the pty,
so the bytes read from the master are exactly the bytes the player wrote.

Per run: bytes written, CPU time (user+sys from wait4), peak RSS (VmHWM),
time from fork to the first complete frame, the frames delimited in the
output stream and their intervals.  Each measurement is repeated --runs times
and the median is reported.  The Markdown report goes to stdout (--json:
the JSON document instead); both are also written to --out (default
Tools/bench/play/out/).  Progress goes to stderr.  See README.md.
"""
import argparse
import errno
import fcntl
import json
import os
import platform
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
COLS, ROWS = 80, 24
CELL_W, CELL_H = 8, 16  # pixel size reported through TIOCGWINSZ and CSI 14t/16t
FRAME_MS = 40.0

CLIP_NAMES = ["sprite", "noise", "gradient"]
CLIP_EXTS = ["gif", "png", "webp"]
PLAYERS = ["anim", "timg", "chafa"]


def player_argv(player, clip, anim):
    if player == "anim":
        return [anim, "play", clip, "--loops", "1", "--stats"]
    if player == "timg":
        return ["timg", "-g%dx%d" % (COLS, ROWS), "-ph", "--loops=1", clip]
    if player == "chafa":
        # chafa plays a single animated file forever unless --duration is
        # given; with --duration 0 it plays every animation through once.
        return ["chafa", "-f", "symbols", "-c", "full", "--symbols", "vhalf",
                "-s", "%dx%d" % (COLS, ROWS), "--duration", "0", clip]
    raise ValueError(player)


# ------------------------------------------------------------ terminal replies
# (pattern, reply) -- a NUL in the reply stands for the query's string terminator.
REPLIES = [
    (rb"\x1b\]10;\?(\x07|\x1b\\)", b"\x1b]10;rgb:ffff/ffff/ffff\0"),           # fg colour
    (rb"\x1b\]11;\?(\x07|\x1b\\)", b"\x1b]11;rgb:0000/0000/0000\0"),           # bg colour
    (rb"\x1b\[0?c", b"\x1b[?62;22c"),                                         # DA1
    (rb"\x1b\[>0?c", b"\x1b[>41;370;0c"),                                     # DA2
    (rb"\x1b\[6n", b"\x1b[1;1R"),                                             # cursor position
    (rb"\x1b\[14t", ("\x1b[4;%d;%dt" % (ROWS * CELL_H, COLS * CELL_W)).encode()),
    (rb"\x1b\[16t", ("\x1b[6;%d;%dt" % (CELL_H, CELL_W)).encode()),
    (rb"\x1b\[18t", ("\x1b[8;%d;%dt" % (ROWS, COLS)).encode()),
    (rb"\x1b\[\?2026\$p", b"\x1b[?2026;2$y"),                                 # DECRQM sync output
]
REPLY_RES = [(re.compile(p), r) for p, r in REPLIES]


class Responder:
    """Finds terminal queries in the output stream (across read boundaries)."""

    def __init__(self, enabled, extra=()):
        self.enabled = enabled
        # Replies a terminal with graphics gives (first: they win over REPLIES).
        self.rules = [(re.compile(p), r) for p, r in extra] + REPLY_RES
        self.tail = b""
        self.answered = []

    def feed(self, data):
        if not self.enabled:
            return b""
        buf = self.tail + data
        out = b""
        last = 0
        done = set()
        for rx, reply in self.rules:
            for m in rx.finditer(buf):
                if m.start() in done:
                    continue  # answered by an earlier rule
                done.add(m.start())
                if m.end() <= len(self.tail):
                    continue  # seen (and answered) in the previous chunk
                if callable(reply):
                    out += reply(m)
                else:
                    out += reply.replace(b"\0", m.group(1)) if b"\0" in reply else reply
                self.answered.append(m.group(0).decode("latin-1").replace("\x1b", "ESC"))
                last = max(last, m.end())
        # A command cut by a read is matched whole with the next one (a
        # kitty command naming a shared-memory object is about 100 bytes).
        keep = buf[max(last, len(buf) - 256):]
        self.tail = keep
        return out


# ------------------------------------------------------------ one run in a pty
def run_in_pty(argv, timeout, replies=True, env_extra=None, extra_replies=(), stdin_pty=False):
    """`env_extra` and `extra_replies` ((pattern, reply) pairs) make the
    pty pass for a terminal with graphics (Tools/bench/graphics);
    `stdin_pty`: the player reads the pty, not /dev/null (ncplayer spins on
    an input at end of file). A reply may be a function of the match,
    returning the bytes to answer."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, COLS * CELL_W, ROWS * CELL_H))
    attrs = termios.tcgetattr(slave)
    attrs[1] &= ~termios.OPOST                                   # oflag: no LF -> CRLF
    attrs[3] &= ~(termios.ECHO | termios.ECHONL)                 # lflag: no echo of replies
    termios.tcsetattr(slave, termios.TCSANOW, attrs)
    errf = tempfile.TemporaryFile()
    env = dict(os.environ)
    env.update(TERM="xterm-256color", COLORTERM="truecolor", LC_ALL="C.UTF-8")
    for k in ("COLUMNS", "LINES", "TMUX", "STY", "KITTY_WINDOW_ID", "TERM_PROGRAM", "VTE_VERSION"):
        env.pop(k, None)
    env.update(env_extra or {})
    devnull = os.open(os.devnull, os.O_RDONLY)

    t0 = time.perf_counter_ns()
    pid = os.fork()
    if pid == 0:  # child
        try:
            os.setsid()
            os.dup2(slave if stdin_pty else devnull, 0)
            os.dup2(slave, 1)
            os.dup2(errf.fileno(), 2)
            fcntl.ioctl(1, termios.TIOCSCTTY, 0)
            for fd in (master, slave, devnull):
                os.close(fd)
            os.execvpe(argv[0], argv, env)
        except BaseException as e:  # noqa: BLE001 -- report and die without cleanup
            os.write(2, ("exec %s: %s\n" % (argv[0], e)).encode())
        os._exit(127)
    os.close(slave)
    os.close(devnull)

    chunks = []  # (t_ns since fork, bytes)
    responder = Responder(replies, extra_replies)
    status = rusage = None
    # Peak RSS: VmHWM of the player's own memory, read while it runs (the
    # last reading is its peak but for the last 20 ms). ru_maxrss is no
    # good here: the forked child starts as a copy of this Python process,
    # whose size it keeps as its high-water mark through exec.
    hwm_kib, hwm_at = 0, 0
    timed_out = False
    deadline = t0 + int(timeout * 1e9)
    master_open = True
    drain_until = None
    while True:
        if status is None and time.perf_counter_ns() - hwm_at > 20_000_000:
            hwm_at = time.perf_counter_ns()
            # The last reading, not the largest: VmHWM only grows within one
            # program, and a reading before exec is this Python's copy's.
            hwm_kib = vm_hwm_kib(pid) or hwm_kib
        if master_open:
            wait = 0.05 if status is None else 0.02
            r, _, _ = select.select([master], [], [], wait)
            if r:
                try:
                    data = os.read(master, 1 << 16)
                except OSError as e:
                    if e.errno != errno.EIO:
                        raise
                    data = b""
                now = time.perf_counter_ns()
                if not data:
                    master_open = False
                else:
                    chunks.append((now - t0, data))
                    reply = responder.feed(data)
                    if reply and status is None:
                        try:
                            os.write(master, reply)
                        except OSError:
                            pass
                    continue
        if status is None:
            p, st, ru = os.wait4(pid, os.WNOHANG)
            if p == pid:
                status, rusage = st, ru
                t_exit = time.perf_counter_ns() - t0
                drain_until = time.perf_counter_ns() + int(0.5e9)
            elif time.perf_counter_ns() > deadline:
                timed_out = True
                try:
                    os.killpg(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                _, status, rusage = os.wait4(pid, 0)
                t_exit = time.perf_counter_ns() - t0
                drain_until = time.perf_counter_ns()
        if status is not None and (not master_open or time.perf_counter_ns() > drain_until):
            break
    os.close(master)
    errf.seek(0)
    stderr = errf.read().decode("utf-8", "replace")
    errf.close()
    return dict(chunks=chunks, status=status, rusage=rusage, timed_out=timed_out, peak_rss_kib=hwm_kib,
                t_exit_ns=t_exit, stderr=stderr, answered=responder.answered)


def vm_hwm_kib(pid):
    """The process's peak resident memory so far (0 once it is gone)."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


# ------------------------------------------------------------ frame delimiting
CSI_RE = re.compile(rb"\x1b\[[0-?]*[ -/]*[@-~]")
OSC_RE = re.compile(rb"\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
ESC2_RE = re.compile(rb"\x1b[@-Z\\-_]")
SYNC_BEGIN, SYNC_END = b"\x1b[?2026h", b"\x1b[?2026l"
UP_RE = re.compile(rb"\x1b\[(\d*)A")
HOME_RE = re.compile(rb"\x1b\[(?:1;1)?H")


def last_printable(data, start, end):
    """Offset of the last byte in data[start:end] that is not part of an escape
    sequence or a control character, or None."""
    seg = data[start:end]
    mask = bytearray(b"\x01") * len(seg)
    for rx in (CSI_RE, OSC_RE, ESC2_RE):
        for m in rx.finditer(seg):
            mask[m.start():m.end()] = bytes(m.end() - m.start())
    for i in range(len(seg) - 1, -1, -1):
        if mask[i] and seg[i] >= 0x20 and seg[i] != 0x7f:
            return start + i
    return None


def frame_ends_sync(data):
    """anim: a frame ends with the ESC[?2026l that closes an ESC[?2026h."""
    ends, pos = [], 0
    while True:
        b = data.find(SYNC_BEGIN, pos)
        if b < 0:
            return ends
        e = data.find(SYNC_END, b)
        if e < 0:  # unterminated last frame
            lp = last_printable(data, b, len(data))
            if lp is not None:
                ends.append(lp)
            return ends
        ends.append(e + len(SYNC_END) - 1)
        pos = e + len(SYNC_END)


def frame_ends_cursor(data):
    """timg/chafa: frame k+1 starts with a cursor-up by 2 or more rows (or a
    cursor-home), which takes the cursor back to the image's top row.  A frame
    ends at its last printable byte (or, if it printed nothing, at the end of
    its delimiter)."""
    starts = [0]
    for m in UP_RE.finditer(data):
        if int(m.group(1) or 1) >= 2:
            starts.append(m.start())
    for m in HOME_RE.finditer(data):
        starts.append(m.start())
    starts = sorted(set(starts))
    ends = []
    for i, s in enumerate(starts):
        e = starts[i + 1] if i + 1 < len(starts) else len(data)
        lp = last_printable(data, s, e)
        if lp is not None:
            ends.append(lp)
        elif i > 0:  # an empty diff still counts as a frame shown
            m = UP_RE.match(data, s) or HOME_RE.match(data, s)
            ends.append(m.end() - 1 if m else s)
    return ends


def offset_times(chunks, offsets):
    """Read timestamps (ms since fork) of the chunks holding the given offsets."""
    res, base, ci = [], 0, 0
    for off in offsets:  # offsets are increasing
        while ci < len(chunks) and base + len(chunks[ci][1]) <= off:
            base += len(chunks[ci][1])
            ci += 1
        res.append(chunks[min(ci, len(chunks) - 1)][0] / 1e6)
    return res


# ------------------------------------------------------------ measurement
def parse_stats(stderr):
    for line in reversed(stderr.strip().splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                return json.loads(line)
            except ValueError:
                pass
    return None


def measure(player, clip, clip_frames, anim, timeout, replies, raw_path=None):
    argv = player_argv(player, clip, anim)
    r = run_in_pty(argv, timeout, replies)
    data = b"".join(c for _, c in r["chunks"])
    if raw_path:
        with open(raw_path, "wb") as f:
            f.write(data)
    ru, st = r["rusage"], r["status"]
    exit_code = os.waitstatus_to_exitcode(st) if st is not None else None
    ends = frame_ends_sync(data) if player == "anim" else frame_ends_cursor(data)
    times = offset_times(r["chunks"], ends) if ends else []
    iv = [b - a for a, b in zip(times, times[1:])]
    cpu_s = ru.ru_utime + ru.ru_stime
    ok = not r["timed_out"] and exit_code == 0 and len(ends) > 0
    m = dict(
        player=player, clip=os.path.basename(clip), argv=argv,
        exit=exit_code, timed_out=r["timed_out"], ok=ok,
        error=None if ok else ("timeout after %gs" % timeout if r["timed_out"]
                               else "exit %s%s" % (exit_code, ", no frame" if not ends else "")),
        stderr_tail=r["stderr"].strip()[-300:],
        clip_frames=clip_frames,
        frames_shown=len(ends),
        bytes=len(data),
        bytes_per_frame=len(data) / clip_frames,
        cpu_ms=cpu_s * 1000,
        cpu_ms_per_frame=cpu_s * 1000 / clip_frames,
        peak_rss_mib=r["peak_rss_kib"] / 1024.0,
        first_frame_ms=times[0] if times else None,
        wall_ms=r["t_exit_ns"] / 1e6,
        intervals=len(iv),
        mean_interval_ms=statistics.fmean(iv) if iv else None,
        stdev_interval_ms=statistics.pstdev(iv) if len(iv) > 1 else None,
        max_interval_ms=max(iv) if iv else None,
        queries_answered=r["answered"],
        frame_times_ms=[round(t, 2) for t in times],
    )
    if player == "anim":
        m["stats"] = parse_stats(r["stderr"])
    return m


NUMERIC = ["frames_shown", "bytes", "bytes_per_frame", "cpu_ms", "cpu_ms_per_frame", "peak_rss_mib",
           "first_frame_ms", "wall_ms", "intervals", "mean_interval_ms", "stdev_interval_ms",
           "max_interval_ms"]
STATS_KEYS = ["framesShown", "framesDropped", "bytesWritten", "firstFrameMs", "meanIntervalMs",
              "stdevIntervalMs", "decodedFrames", "cacheHits", "peakCacheBytes"]


def med(vals):
    vals = [v for v in vals if v is not None]
    return statistics.median(vals) if vals else None


def summarize(runs):
    """Median of every figure over the runs (successful runs if there are any)."""
    good = [r for r in runs if r["ok"]] or runs
    s = dict(player=runs[0]["player"], clip=runs[0]["clip"], clip_frames=runs[0]["clip_frames"],
             runs=len(runs), ok_runs=sum(r["ok"] for r in runs),
             error=next((r["error"] for r in runs if not r["ok"]), None),
             stderr_tail=next((r["stderr_tail"] for r in runs if not r["ok"] and r["stderr_tail"]), ""))
    for k in NUMERIC:
        s[k] = med([r[k] for r in good])
    s["frames_shown_min"] = min(r["frames_shown"] for r in runs)
    s["complete"] = s["ok_runs"] == len(runs) and s["frames_shown_min"] >= s["clip_frames"]
    stats = [r.get("stats") for r in good if r.get("stats")]
    if stats:
        s["stats"] = {k: med([x.get(k) for x in stats]) for k in STATS_KEYS}
        s["stats"]["framesDropped_max"] = max((x.get("framesDropped") or 0) for x in stats)
    q = sorted({x for r in runs for x in r["queries_answered"]})
    s["queries_answered"] = q
    return s


# ------------------------------------------------------------ clips
def clip_frame_count(path, anim):
    if anim:
        try:
            p = subprocess.run([anim, "info", path, "--json"], capture_output=True, text=True, timeout=60)
            if p.returncode == 0:
                return json.loads(p.stdout)["frameCount"]
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
    try:
        from PIL import Image
        with Image.open(path) as im:
            return getattr(im, "n_frames", 1)
    except Exception:  # noqa: BLE001
        return None


def select_clips(clipdir, spec):
    names = [f"{n}.{e}" for n in CLIP_NAMES for e in CLIP_EXTS]
    if spec:
        want = [w.strip() for w in spec.split(",") if w.strip()]
        names = [n for n in names if n in want or n.split(".")[0] in want or n.split(".")[1] in want]
    return [os.path.join(clipdir, n) for n in names]


# ------------------------------------------------------------ report
def fmt(v, nd=1):
    if v is None:
        return "—"
    if isinstance(v, float):
        return ("%%.%df" % nd) % v
    return str(v)


def shown_cell(s):
    if s["ok_runs"] == 0:
        return "fails (%s)" % s["error"]
    txt = "%d/%d" % (s["frames_shown"], s["clip_frames"])
    if s["frames_shown"] < s["clip_frames"]:
        txt += " (1 frame)" if s["frames_shown"] == 1 else " (incomplete)"
    if s["ok_runs"] < s["runs"]:
        txt += " [%d/%d runs ok]" % (s["ok_runs"], s["runs"])
    return txt


def clip_table(clip, rows):
    out = ["### %s (%d frames)" % (clip, rows[0]["clip_frames"]), "",
           "| player | frames shown | bytes/frame | CPU ms/frame | first frame ms | peak RSS MiB "
           "| mean interval ms | stdev ms | wall ms |",
           "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for s in rows:
        failed = s["ok_runs"] == 0
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            s["player"], shown_cell(s),
            "—" if failed else fmt(s["bytes_per_frame"], 0),
            fmt(s["cpu_ms_per_frame"], 2),
            "—" if failed else fmt(s["first_frame_ms"]),
            fmt(s["peak_rss_mib"]),
            fmt(s["mean_interval_ms"], 2), fmt(s["stdev_interval_ms"], 2), fmt(s["wall_ms"], 0)))
    a = next((s for s in rows if s["player"] == "anim" and s.get("stats")), None)
    if a:
        st = a["stats"]
        out += ["", "anim --stats: framesShown %s, framesDropped %s (max %s), bytesWritten %s, firstFrameMs %s, "
                "meanIntervalMs %s, stdevIntervalMs %s, decodedFrames %s, cacheHits %s, peakCacheBytes %s" % (
                    fmt(st["framesShown"]), fmt(st["framesDropped"]), fmt(st["framesDropped_max"]),
                    fmt(st["bytesWritten"]), fmt(st["firstFrameMs"]), fmt(st["meanIntervalMs"], 2),
                    fmt(st["stdevIntervalMs"], 2), fmt(st["decodedFrames"]), fmt(st["cacheHits"]),
                    fmt(st["peakCacheBytes"]))]
    notes = [s for s in rows if s["ok_runs"] < s["runs"] and s["stderr_tail"]]
    for s in notes:
        out.append("")
        out.append("%s stderr: `%s`" % (s["player"], s["stderr_tail"].replace("\n", " ⏎ ")[:200]))
    out.append("")
    return out


def verdict(ok):
    return "n/a" if ok is None else ("pass" if ok else "**FAIL**")


def targets(summ):
    """The issue's targets, one row per clip and target."""
    by = {(s["clip"], s["player"]): s for s in summ}
    clips = sorted({s["clip"] for s in summ}, key=lambda c: (CLIP_NAMES.index(c.split(".")[0]), CLIP_EXTS.index(c.split(".")[1])))
    rows = []

    def add(target, clip, value, limit, ok, note=""):
        rows.append(dict(target=target, clip=clip, value=value, limit=limit, result=verdict(ok), note=note))

    for clip in clips:
        name = clip.split(".")[0]
        a, t = by.get((clip, "anim")), by.get((clip, "timg"))
        if a is None:
            continue
        a_ok = a["ok_runs"] > 0
        # bytes per frame vs timg
        if name in ("sprite", "noise"):
            lim = 0.9 if name == "sprite" else 1.0
            if t is None:
                add("bytes/frame anim/timg", clip, None, "≤ %.1f" % lim, None, "timg not run")
            elif not t["complete"]:
                add("bytes/frame anim/timg", clip, None, "≤ %.1f" % lim, None,
                    "timg %s" % shown_cell(t))
            elif not a_ok:
                add("bytes/frame anim/timg", clip, None, "≤ %.1f" % lim, False, "anim failed")
            else:
                ratio = a["bytes_per_frame"] / t["bytes_per_frame"]
                add("bytes/frame anim/timg", clip, "%.3f (%.0f / %.0f)" % (ratio, a["bytes_per_frame"], t["bytes_per_frame"]),
                    "≤ %.1f" % lim, ratio <= lim)
        # CPU vs the better peer (peers that played every frame)
        peers = [by.get((clip, p)) for p in ("timg", "chafa")]
        peers = [p for p in peers if p is not None and p["complete"]]
        skipped = [p for p in ("timg", "chafa") if by.get((clip, p)) is not None and not by[(clip, p)]["complete"]]
        note = ("excluded: " + ", ".join("%s %s" % (p, shown_cell(by[(clip, p)])) for p in skipped)) if skipped else ""
        if not peers:
            add("CPU/frame anim/min(peers)", clip, None, "≤ 1.0", None, note or "no peer ran")
        elif not a_ok:
            add("CPU/frame anim/min(peers)", clip, None, "≤ 1.0", False, "anim failed")
        else:
            best = min(peers, key=lambda p: p["cpu_ms_per_frame"])
            ratio = a["cpu_ms_per_frame"] / best["cpu_ms_per_frame"] if best["cpu_ms_per_frame"] > 0 else float("inf")
            add("CPU/frame anim/min(peers)", clip, "%.2f (%.2f / %s %.2f ms)" % (
                ratio, a["cpu_ms_per_frame"], best["player"], best["cpu_ms_per_frame"]), "≤ 1.0", ratio <= 1.0, note)
        # first frame on the big clip
        if name == "gradient":
            v = a["first_frame_ms"] if a_ok else None
            own = a.get("stats", {}).get("firstFrameMs") if a.get("stats") else None
            add("first frame ms", clip, None if v is None else "%.1f (own %s)" % (v, fmt(own)), "≤ 50",
                None if v is None else v <= 50)
        # peak RSS
        add("peak RSS MiB", clip, fmt(a["peak_rss_mib"]), "≤ 32", a["peak_rss_mib"] <= 32 if a_ok else False)
        # timing on the 40 ms clips
        if name in ("sprite", "noise"):
            st = a.get("stats") or {}
            mean, sd = a["mean_interval_ms"], a["stdev_interval_ms"]
            dropped = max(st.get("framesDropped_max") or 0, a["clip_frames"] - a["frames_shown_min"])
            if mean is None or sd is None:
                add("timing (mean, stdev, dropped)", clip, None, "40±0.4, ≤ 1, 0", False if a_ok else None)
            else:
                ok = abs(mean - FRAME_MS) <= FRAME_MS * 0.01 and sd <= 1.0 and dropped == 0
                add("timing (mean, stdev, dropped)", clip, "%.2f, %.2f, %d (own %s, %s)" % (
                    mean, sd, dropped, fmt(st.get("meanIntervalMs"), 2), fmt(st.get("stdevIntervalMs"), 2)),
                    "40±0.4, ≤ 1, 0", ok)
    return rows


def markdown(doc):
    out = ["# anim play vs timg vs chafa", "",
           "Host: %s, %d CPUs, load average at start %s. %d run(s) per cell, medians. "
           "Terminal: %dx%d pty. %s" % (doc["host"]["machine"], doc["host"]["cpus"],
                                          doc["host"]["loadavg"], doc["runs"], COLS, ROWS, doc["date"]),
           "", "Versions: " + "; ".join("%s: %s" % kv for kv in doc["versions"].items()), ""]
    by_clip = {}
    for s in doc["results"]:
        by_clip.setdefault(s["clip"], []).append(s)
    for clip, rows in by_clip.items():
        out += clip_table(clip, rows)
    out += ["## Targets", "", "| target | clip | anim | limit | result | note |", "|---|---|---|---|---|---|"]
    for r in doc["targets"]:
        out.append("| %s | %s | %s | %s | %s | %s |" % (r["target"], r["clip"], fmt(r["value"]), r["limit"],
                                                       r["result"], r["note"]))
    n_fail = sum(r["result"] == "**FAIL**" for r in doc["targets"])
    n_pass = sum(r["result"] == "pass" for r in doc["targets"])
    out += ["", "%d pass, %d fail, %d n/a." % (n_pass, n_fail, len(doc["targets"]) - n_pass - n_fail), ""]
    return "\n".join(out)


def version_of(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=10)
        return (p.stdout or p.stderr).strip().splitlines()[0]
    except Exception:  # noqa: BLE001
        return "unavailable"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--clips", default="", help="comma list: names (sprite), extensions (gif) or files (noise.png)")
    ap.add_argument("--players", default=",".join(PLAYERS))
    ap.add_argument("--clipdir", default=os.path.join(HERE, "clips"))
    ap.add_argument("--out", default=os.path.join(HERE, "out"), help="where results.md/results.json go ('' = nowhere)")
    ap.add_argument("--keep-raw", action="store_true", help="save each run's byte stream to OUT/raw/")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run")
    ap.add_argument("--no-replies", action="store_true", help="do not answer terminal queries")
    ap.add_argument("--json", action="store_true", help="print the JSON document instead of Markdown")
    args = ap.parse_args()

    anim = os.environ.get("ANIM") or ".build/release/anim"
    if not os.path.isabs(anim) and os.sep in anim:
        anim = os.path.join(REPO, anim) if not os.path.exists(anim) else os.path.abspath(anim)
    players = [p.strip() for p in args.players.split(",") if p.strip()]
    for p in players:
        if p not in PLAYERS:
            ap.error("unknown player %r" % p)
    usable = []
    for p in players:
        exe = anim if p == "anim" else p
        if (os.path.isfile(exe) and os.access(exe, os.X_OK)) or shutil.which(exe):
            usable.append(p)
        else:
            print("run: %s not found (%s); skipped" % (p, exe), file=sys.stderr)
    anim_ok = "anim" in usable
    clips = select_clips(args.clipdir, args.clips)
    missing = [c for c in clips if not os.path.exists(c)]
    if missing:
        print("run: missing clips (run make-clips.py first): " + ", ".join(missing), file=sys.stderr)
        return 1
    if not clips or not usable:
        print("run: nothing to do", file=sys.stderr)
        return 1
    rawdir = os.path.join(args.out, "raw") if args.keep_raw and args.out else None
    if rawdir:
        os.makedirs(rawdir, exist_ok=True)

    results, allruns = [], []
    for clip in clips:
        n = clip_frame_count(clip, anim if anim_ok else None)
        if not n:
            print("run: cannot count the frames of %s; skipped" % clip, file=sys.stderr)
            continue
        for p in usable:
            runs = []
            for i in range(args.runs):
                raw = os.path.join(rawdir, "%s.%s.%d.out" % (os.path.basename(clip), p, i + 1)) if rawdir else None
                m = measure(p, clip, n, anim, args.timeout, not args.no_replies, raw)
                m["run"] = i + 1
                runs.append(m)
                print("run: %-14s %-5s #%d: %s frames %d/%d, %d B, cpu %.0f ms, rss %.1f MiB, first %s ms, "
                      "mean %s ms, wall %.0f ms" % (
                          os.path.basename(clip), p, i + 1, "ok  " if m["ok"] else "FAIL(%s)" % m["error"],
                          m["frames_shown"], n, m["bytes"], m["cpu_ms"], m["peak_rss_mib"], fmt(m["first_frame_ms"]),
                          fmt(m["mean_interval_ms"], 2), m["wall_ms"]), file=sys.stderr)
            allruns += runs
            results.append(summarize(runs))

    doc = dict(
        date=time.strftime("%Y-%m-%d %H:%M:%S %z"),
        host=dict(machine=platform.machine(), cpus=os.cpu_count(), loadavg=" ".join("%.2f" % x for x in os.getloadavg())),
        terminal=dict(cols=COLS, rows=ROWS, cell_px=[CELL_W, CELL_H], replies=not args.no_replies),
        runs=args.runs,
        versions=dict(anim=anim if anim_ok else "not run",
                      timg=version_of(["timg", "--version"]) if "timg" in usable else "not run",
                      chafa=version_of(["chafa", "--version"]) if "chafa" in usable else "not run"),
        commands={p: " ".join(player_argv(p, "CLIP", "$ANIM")) for p in usable},
        results=results,
        targets=targets(results),
        raw_runs=[{k: v for k, v in r.items()} for r in allruns],
    )
    md = markdown(doc)
    js = json.dumps(doc, indent=1, ensure_ascii=False)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        with open(os.path.join(args.out, "results.md"), "w") as f:
            f.write(md)
        with open(os.path.join(args.out, "results.json"), "w") as f:
            f.write(js + "\n")
    print(js if args.json else md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
