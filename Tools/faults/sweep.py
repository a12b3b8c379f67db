#!/usr/bin/env python3
"""Fault-injection sweep of anim's writing commands (issue 27).

Builds inject.c (an LD_PRELOAD library: the Nth write, fsync, rename or read
of a regular file fails with ENOSPC or EIO, or the input is cut in half at
the Nth read) and runs every writing command with every fault at N = 1, 2,
... until a run no longer reaches the Nth call; then sends SIGINT and
SIGTERM at random moments. After every run it checks: no crash (exit 0, 1,
130 or 143 only), a fault that fired is an error with an "anim: " message,
no temporary file is left, OUT is either absent, the previous OUT (byte for
byte, with its mode), or exactly what a clean run writes; an extracted
frame is never partial.

  Tools/faults/sweep.py [--max-n K] [--signals N] [--quick] [--inputs A,B,...]
  ANIM=path (default .build/debug/anim, else .build/release/anim)

--inputs: the animations the commands read (default the repository's
demo GIF); `--inputs public` takes a GIF, an APNG and a WebP of other
projects' test material (Tools/bench/corpus/public, licences there). Each
input gets the whole sweep.

Prints a line per problem and the counts of runs and faults; exit 1 on a
problem."""
import glob, json, os, random, shutil, signal, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANIM = os.environ.get("ANIM") or next(
    (p for p in (os.path.join(ROOT, ".build/debug/anim"), os.path.join(ROOT, ".build/release/anim")) if os.path.exists(p)),
    None)
DEMO = os.path.join(ROOT, "Animations/demo.gif")
PUBLIC = [os.path.join(ROOT, "Tools/bench/corpus/public", f) for f in
          ["pillow-dispose_none_load_end.gif", "sdwebimage-TestImageAnimated.apng", "pillow-iss634.webp"]]
FAULTS = ["write:ENOSPC", "write:EIO", "fsync:EIO", "rename:EIO", "read:EIO", "truncate"]
args = sys.argv[1:]
QUICK = "--quick" in args
MAX_N = int(args[args.index("--max-n") + 1]) if "--max-n" in args else (6 if QUICK else 40)
SIGNAL_RUNS = int(args[args.index("--signals") + 1]) if "--signals" in args else (4 if QUICK else 20)
INPUTS = args[args.index("--inputs") + 1].split(",") if "--inputs" in args else [DEMO]
if INPUTS == ["public"]:
    INPUTS = PUBLIC
problems, runs, fired_count, signalled = [], 0, 0, 0


def build():
    lib = os.path.join(tempfile.gettempdir(), "anim-inject-%d.so" % os.getpid())
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", lib, os.path.join(HERE, "inject.c"), "-ldl"], check=True)
    return lib


def frames_dir(base, source):
    """A folder of up to 6 PNG frames of `source` (anim extract, no fault)."""
    d = os.path.join(base, "frames")
    shutil.rmtree(d, ignore_errors=True)
    last = min(frame_count(source), 6) - 1
    subprocess.run([ANIM, "extract", source, d, "--frames", "0-%d" % last], check=True, capture_output=True)
    return d


def frame_count(source):
    info = subprocess.run([ANIM, "info", "--json", source], check=True, capture_output=True, text=True).stdout
    return json.loads(info)["frameCount"]


def commands(base, source):
    """(name, argv builder, the output path) per writing command, reading
    copies of `source` named in.EXT and in2.EXT (its own extension)."""
    frames = frames_dir(base, source)
    x = os.path.splitext(source)[1]
    own = os.path.join("out" + x)
    cases = []
    # Every input is a copy in the work folder (the truncate fault cuts it).
    for ext in ["gif", "png", "webp"]:
        cases.append(("convert-" + ext, lambda w, ext=ext: [ANIM, "convert", os.path.join(w, "in" + x), os.path.join(w, "out." + ext)], "out." + ext))
    cases.append(("encode", lambda w: [ANIM, "encode", os.path.join(w, "frames"), os.path.join(w, "out.gif")], "out.gif"))
    cases.append(("optimize", lambda w: [ANIM, "optimize", os.path.join(w, "in" + x), os.path.join(w, own)], own))
    cases.append(("optimize-in-place", lambda w: [ANIM, "optimize", os.path.join(w, own)], own))
    last = min(frame_count(source), 8) - 1
    cases.append(("extract", lambda w: [ANIM, "extract", os.path.join(w, "in" + x), os.path.join(w, "x"), "--frames", "0-%d" % last], "x"))
    cases.append(("batch", lambda w: [ANIM, "convert", os.path.join(w, "in" + x), os.path.join(w, "in2" + x), "--out-dir", os.path.join(w, "b"), "-f", "webp"], "b"))
    return cases, frames


def prepare(work, name, out, frames, source):
    """A fresh folder with copies of the inputs and, for most, a previous OUT (mode 0640)."""
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    x = os.path.splitext(source)[1]
    shutil.copy(source, os.path.join(work, "in" + x))
    shutil.copy(source, os.path.join(work, "in2" + x))
    shutil.copytree(frames, os.path.join(work, "frames"))
    if name.startswith("optimize") or name.startswith("convert"):
        path = os.path.join(work, out)
        shutil.copy(source, path)
        if not name.startswith("optimize"):
            with open(path, "wb") as f:
                f.write(b"previous OUT, not an image\n")
        os.chmod(path, 0o640)


def snapshot(path):
    if os.path.isdir(path):
        return {f: open(os.path.join(path, f), "rb").read() for f in sorted(os.listdir(path))}
    if os.path.exists(path):
        return (open(path, "rb").read(), os.stat(path).st_mode & 0o7777)
    return None


def leftovers(work):
    found = []
    for pattern in ["**/*.tmp-*", "**/.anim-*"]:
        found += glob.glob(os.path.join(work, pattern), recursive=True)
    return found


def check(label, work, out, before, clean, status, stderr, fired):
    global runs
    runs += 1
    path = os.path.join(work, out)
    after = snapshot(path)
    # A signal before anim's handlers are in (at start-up) kills it: fine,
    # as long as nothing is left; any other signal is a crash.
    if status not in (0, 1, 130, 143, -signal.SIGINT, -signal.SIGTERM):
        problems.append("%s: exit %s: %s" % (label, status, stderr[-300:]))
    if "Fatal error" in stderr or "Bus error" in stderr:
        problems.append("%s: crashed: %s" % (label, stderr[-300:]))
    if fired and status == 0 and after != clean:
        problems.append("%s: the fault fired, exit 0, and OUT is not a clean run's" % label)
    if status == 1 and not stderr.startswith("anim: "):
        problems.append("%s: exit %d without an 'anim: ' message: %r" % (label, status, stderr[:200]))
    left = leftovers(work)
    if left:
        problems.append("%s: left %s" % (label, ", ".join(os.path.relpath(p, work) for p in left)))
    cut = "truncate" in label and status == 1  # the input was cut: what decoded is written

    def readable(p):
        return subprocess.run([ANIM, "info", p], capture_output=True).returncode == 0

    if isinstance(clean, dict):  # a folder of outputs: each file whole, or not there
        for name, data in (after or {}).items():
            if clean.get(name) != data and (not isinstance(before, dict) or before.get(name) != data):
                if not (cut and readable(os.path.join(path, name))):
                    problems.append("%s: %s is partial or wrong" % (label, name))
    elif after not in (before, clean):
        # A cut input: what decoded before the cut is written (exit 1), a
        # whole animation still; in place, the cut file itself stays.
        in_place = "in-place" in label and before is not None and after == (before[0][: len(before[0]) // 2], before[1])
        if not (cut and (in_place or (after is not None and readable(path)))):
            what = "absent" if after is None else "%d bytes" % len(after[0])
            problems.append("%s: OUT is neither the previous one nor a clean run's (%s)" % (label, what))


def run(argv, env, timeout=120):
    p = subprocess.run(argv, env=env, capture_output=True, timeout=timeout)
    return p.returncode, p.stderr.decode(errors="replace")


def main():
    if not ANIM:
        sys.exit("sweep: no anim binary (swift build, or ANIM=...)")
    lib = build()
    base = tempfile.mkdtemp(prefix="anim-faults-")
    work = os.path.join(base, "w")
    try:
        for source in INPUTS:
            sweep(base, work, source, lib)
    finally:
        shutil.rmtree(base, ignore_errors=True)
        os.unlink(lib)
    for p in problems:
        print("problem: " + p)
    print("sweep: %d inputs, %d runs, %d faults fired, %d with a signal, %d problems" % (
        len(INPUTS), runs, fired_count, signalled, len(problems)))
    sys.exit(1 if problems else 0)


def sweep(base, work, source, lib):
    """Every command and fault over copies of `source`."""
    global fired_count, signalled
    tag = "" if source == DEMO else os.path.basename(source) + ": "
    cases, frames = commands(base, source)
    for name, argv, out in cases:
        label = tag + name
        prepare(work, name, out, frames, source)
        status, stderr = run(argv(work), dict(os.environ))
        if status != 0:
            problems.append("%s: the clean run failed: %s" % (label, stderr[-300:]))
            continue
        clean = snapshot(os.path.join(work, out))
        for fault in FAULTS:
            kind, _, err = fault.partition(":")
            for n in range(1, MAX_N + 1):
                prepare(work, name, out, frames, source)
                before = snapshot(os.path.join(work, out))
                report = os.path.join(base, "fired")
                if os.path.exists(report):
                    os.unlink(report)
                env = dict(os.environ, LD_PRELOAD=lib, ANIM_FAULT="%s:%d:%s" % (kind, n, err or "EIO"),
                           ANIM_FAULT_REPORT=report)
                status, stderr = run(argv(work), env)
                fired = os.path.exists(report)
                fired_count += fired
                check("%s %s N=%d" % (label, fault, n), work, out, before, clean, status, stderr, fired)
                if not fired:
                    break  # fewer than N such calls: the larger N reach none either
        rng = random.Random(27)
        for i in range(SIGNAL_RUNS):
            prepare(work, name, out, frames, source)
            before = snapshot(os.path.join(work, out))
            p = subprocess.Popen(argv(work), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(rng.uniform(0, 0.25))
            sig = rng.choice([signal.SIGINT, signal.SIGTERM])
            p.send_signal(sig)
            signalled += 1
            stderr = p.communicate(timeout=120)[1].decode(errors="replace")
            check("%s %s after a while (%d)" % (label, signal.Signals(sig).name, i), work, out, before, clean,
                  p.returncode, stderr, False)


main()
