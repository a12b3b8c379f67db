#!/usr/bin/env python3
"""Batch conversion and start-up (issue 26): many GIFs to WebP as one
`anim convert IN... --out-dir DIR --format webp` against one
`anim convert IN OUT.webp` process per file, one after another; and how
long `anim --version` and `anim info SMALL.gif` take.

    Tools/bench/batch.py [FILE...]

FILE...: the GIFs (default: every GIF of Tools/bench/corpus/public and of
its gif/ folder, 109 files). Their names (less the extension) must differ:
the batch names each output after its input.

Conversion: one untimed pass of each way first (it warms the page cache and
checks: per-file exit statuses, and `--stats` on the batch for its
outcomes), then RUNS rounds, each timing both ways (the order alternates
between rounds) into emptied folders. Reported: the best and the median
wall time of each way, the CPU time (user + system of the anim processes),
the ratio batch / sequential (target <= 0.55 on 2 cores), and the checks:
both ways write the same set of files, each byte for byte the same, in every
round; the failures of each way.

Start-up: hyperfine -N (no shell), STARTUP_WARMUP warm-up runs then
STARTUP_RUNS runs of `anim --version` and of `anim info SMALL`: the mean
and the fastest in ms (target <= 5 ms each).

Environment:
  ANIM            the binary (default .build/release/anim)
  RUNS            timed rounds of the conversions (default 3)
  SMALL           the GIF for `anim info` (default
                  Tools/bench/corpus/public/wuffs-animated-red-blue.gif,
                  2913 bytes, 64x48, 4 frames)
  STARTUP         0: no start-up part; only: nothing else
  STARTUP_RUNS    hyperfine runs (default 200); STARTUP_WARMUP (default 20)
  KEEP            a folder to leave the last round's outputs in (seq/ and
                  batch/); by default they are removed

Prints a Markdown table on stdout and progress on stderr; writes every
measurement to Tools/bench/out/batch.json. Exit status 1 when a check fails
(outputs differ, a file is missing, the ways fail on different files, a
timed run fails where the untimed one did not), else 0; missed targets are
marked in the table. Time only on an otherwise idle machine. Needs python3
(standard library only) and hyperfine for the start-up part.
"""
import glob, hashlib, json, os, platform, resource, shlex, shutil, statistics, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ANIM = os.environ.get("ANIM", os.path.join(ROOT, ".build/release/anim"))
RUNS = int(os.environ.get("RUNS", "3"))
SMALL = os.environ.get("SMALL", os.path.join(HERE, "corpus/public/wuffs-animated-red-blue.gif"))
STARTUP = os.environ.get("STARTUP", "1")
STARTUP_RUNS = int(os.environ.get("STARTUP_RUNS", "200"))
STARTUP_WARMUP = int(os.environ.get("STARTUP_WARMUP", "20"))
KEEP = os.environ.get("KEEP")
OUT = os.path.join(HERE, "out")
RATIO_TARGET, STARTUP_TARGET_MS = 0.55, 5.0


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def stem(path):
    base = os.path.basename(path)
    return base[:base.rindex(".")] if "." in base else base


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def fresh(folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)


def sequential(files, folder):
    """One process per file; (wall s, cpu s, {file: exit status, stderr})."""
    fresh(folder)
    status = {}
    cpu, start = children_cpu(), time.perf_counter()
    for f in files:
        p = subprocess.run([ANIM, "convert", f, os.path.join(folder, stem(f) + ".webp")],
                           stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        status[f] = (p.returncode, p.stderr.decode(errors="replace").strip())
    return time.perf_counter() - start, children_cpu() - cpu, status


def batch(files, folder, stats=False):
    """One process for every file; (wall s, cpu s, exit status, stderr)."""
    fresh(folder)
    cmd = [ANIM, "convert", *files, "--out-dir", folder, "--format", "webp"] + (["--stats"] if stats else [])
    cpu, start = children_cpu(), time.perf_counter()
    p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start, children_cpu() - cpu, p.returncode, p.stderr.decode(errors="replace")


def hashes(folder):
    out = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as fh:
            out[name] = hashlib.sha256(fh.read()).hexdigest()
    return out


def compare(seq, bat):
    """Problems between two {name: hash} maps, and how many are byte-identical."""
    problems = [f"only sequential wrote {n}" for n in sorted(set(seq) - set(bat))]
    problems += [f"only the batch wrote {n}" for n in sorted(set(bat) - set(seq))]
    same = [n for n in seq if n in bat and seq[n] == bat[n]]
    problems += [f"{n} differs" for n in sorted(set(seq) & set(bat)) if seq[n] != bat[n]]
    return problems, len(same)


def batch_outcomes(stderr):
    """{file: outcome} from a batch's --stats lines."""
    outcomes = {}
    for line in stderr.splitlines():
        if line.startswith("{"):
            try:
                j = json.loads(line)
                outcomes[j["file"]] = j["outcome"]
            except (ValueError, KeyError):
                pass
    return outcomes


def conversions(files, report):
    work = KEEP or tempfile.mkdtemp(prefix="anim-batch-")
    seq_dir, bat_dir = os.path.join(work, "seq"), os.path.join(work, "batch")
    problems = []

    log(f"batch.py: {len(files)} files; untimed check pass: sequential …")
    _, _, status = sequential(files, seq_dir)
    seq_failed = sorted(f for f, (code, _) in status.items() if code != 0)
    log("batch.py: untimed check pass: batch (--stats) …")
    _, _, code, err = batch(files, bat_dir, stats=True)
    outcomes = batch_outcomes(err)
    bat_failed = sorted(f for f, o in outcomes.items() if o == "failed")
    missing = [f for f in files if f not in outcomes]
    if missing:
        problems.append(f"the batch's --stats named no outcome for {len(missing)} files, e.g. {missing[0]}")
    if (code != 0) != bool(bat_failed):
        problems.append(f"the batch exited {code} with {len(bat_failed)} failed files")
    if seq_failed != bat_failed:
        problems.append(f"failed sequentially only: {sorted(set(seq_failed) - set(bat_failed))}; "
                        f"in the batch only: {sorted(set(bat_failed) - set(seq_failed))}")
    reference = hashes(seq_dir)
    p, same = compare(reference, hashes(bat_dir))
    problems += [f"check pass: {x}" for x in p]

    rounds = []
    for r in range(RUNS):
        order = ["seq", "batch"] if r % 2 == 0 else ["batch", "seq"]
        row = {}
        for way in order:
            log(f"batch.py: round {r + 1}/{RUNS}: {'sequential' if way == 'seq' else 'batch'} …")
            if way == "seq":
                wall, cpu, st = sequential(files, seq_dir)
                failed = sorted(f for f, (c, _) in st.items() if c != 0)
                if failed != seq_failed:
                    problems.append(f"round {r + 1}: sequential failed on {failed}, the check pass on {seq_failed}")
                row["seq"] = {"wall": wall, "cpu": cpu, "failed": len(failed)}
            else:
                wall, cpu, c, _ = batch(files, bat_dir)
                if (c != 0) != bool(bat_failed):
                    problems.append(f"round {r + 1}: the batch exited {c}, the check pass found {len(bat_failed)} failed")
                row["batch"] = {"wall": wall, "cpu": cpu, "exit": c}
        s, b = hashes(seq_dir), hashes(bat_dir)
        p, same = compare(s, b)
        problems += [f"round {r + 1}: {x}" for x in p]
        if s != reference:
            problems.append(f"round {r + 1}: the sequential outputs differ from the check pass's")
        rounds.append(row)
        log(f"batch.py: round {r + 1}: sequential {row['seq']['wall']:.2f} s, batch {row['batch']['wall']:.2f} s")

    if not KEEP:
        shutil.rmtree(work, ignore_errors=True)
    seq_walls = [x["seq"]["wall"] for x in rounds]
    bat_walls = [x["batch"]["wall"] for x in rounds]
    report["conversions"] = {
        "files": files, "rounds": rounds, "sequentialFailed": seq_failed, "batchFailed": bat_failed,
        "outputs": len(reference), "identical": same, "problems": problems,
    }
    return {
        "seq": (min(seq_walls), statistics.median(seq_walls), statistics.median(x["seq"]["cpu"] for x in rounds)),
        "bat": (min(bat_walls), statistics.median(bat_walls), statistics.median(x["batch"]["cpu"] for x in rounds)),
        "seq_failed": seq_failed, "bat_failed": bat_failed, "outputs": len(reference), "identical": same,
        "problems": problems,
    }


def startup(report):
    if not shutil.which("hyperfine"):
        log("batch.py: hyperfine not found (apt-get install -y hyperfine): no start-up part")
        return None, ["hyperfine not found"]
    os.makedirs(OUT, exist_ok=True)
    export = os.path.join(OUT, "batch-startup.json")
    cmds = [("anim --version", [ANIM, "--version"]), (f"anim info {os.path.basename(SMALL)}", [ANIM, "info", SMALL])]
    log(f"batch.py: start-up: hyperfine, {STARTUP_WARMUP} warm-up and {STARTUP_RUNS} runs each …")
    args = ["hyperfine", "-N", "--warmup", str(STARTUP_WARMUP), "--runs", str(STARTUP_RUNS), "--style", "none",
            "--export-json", export]
    for name, cmd in cmds:
        args += ["--command-name", name, " ".join(shlex.quote(c) for c in cmd)]
    p = subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return None, [f"hyperfine failed: {p.stderr.strip()[-300:]}"]
    with open(export) as fh:
        results = json.load(fh)["results"]
    report["startup"] = results
    return [(r["command"], r["mean"] * 1000, r["min"] * 1000, r["stddev"] * 1000) for r in results], []


def mark(ok):
    return "✓" if ok else "✗"


def main():
    if not os.access(ANIM, os.X_OK):
        sys.exit(f"batch.py: no anim binary at {ANIM} (swift build -c release, or set ANIM=)")
    files = sys.argv[1:] or sorted(glob.glob(os.path.join(HERE, "corpus/public/*.gif"))) + sorted(
        glob.glob(os.path.join(HERE, "corpus/public/gif/*.gif")))
    files = [os.path.abspath(f) for f in dict.fromkeys(files)]
    for f in files:
        if not os.path.isfile(f):
            sys.exit(f"batch.py: no file {f}")
    stems = {}
    for f in files:
        if stem(f) in stems:
            sys.exit(f"batch.py: {f} and {stems[stem(f)]} would both be written as {stem(f)}.webp")
        stems[stem(f)] = f

    version = subprocess.run([ANIM, "--version"], capture_output=True, text=True).stdout.strip().splitlines()
    report = {"anim": ANIM, "version": version, "machine": platform.platform(), "cpus": os.cpu_count(),
              "runs": RUNS, "date": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
    problems = []
    conv = None
    if STARTUP != "only":
        conv = conversions(files, report)
        problems += conv["problems"]
    st = None
    if STARTUP != "0":
        st, p = startup(report)
        problems += p
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "batch.json"), "w") as fh:
        json.dump(report, fh, indent=1)

    size = sum(os.path.getsize(f) for f in files)
    print(f"anim: {ANIM} ({version[0] if version else '?'}), {os.cpu_count()} cores\n")
    if conv:
        (sb, sm, sc), (bb, bm, bc) = conv["seq"], conv["bat"]
        print(f"{len(files)} GIFs, {size / 1e6:.1f} MB, to WebP; best and median of {RUNS} rounds, "
              f"after an untimed check pass\n")
        print("| conversion | best s | median s | CPU s (median) | batch / sequential | target |")
        print("|---|---|---|---|---|---|")
        print(f"| sequential: `anim convert IN OUT.webp` a file | {sb:.2f} | {sm:.2f} | {sc:.2f} | | |")
        print(f"| batch: `anim convert IN... --out-dir D --format webp` | {bb:.2f} | {bm:.2f} | {bc:.2f} | "
              f"best {bb / sb:.3f} {mark(bb / sb <= RATIO_TARGET)}, median {bm / sm:.3f} {mark(bm / sm <= RATIO_TARGET)} "
              f"| <= {RATIO_TARGET} |")
        print()
        print(f"Outputs: {conv['outputs']} files, {conv['identical']} byte-identical between the two ways "
              f"(last round); failed: sequential {len(conv['seq_failed'])}, batch {len(conv['bat_failed'])}")
        for f in sorted(set(conv["seq_failed"]) | set(conv["bat_failed"])):
            print(f"- failed: {os.path.relpath(f, ROOT)}")
        print()
    if st:
        print(f"| start-up (hyperfine -N, {STARTUP_RUNS} runs) | mean ms | min ms | σ ms | target |")
        print("|---|---|---|---|---|")
        for name, mean, low, sd in st:
            print(f"| `{name}` | {mean:.2f} | {low:.2f} | {sd:.2f} | <= {STARTUP_TARGET_MS:g} ms {mark(mean <= STARTUP_TARGET_MS)} |")
        print()
    for p in problems:
        print(f"- problem: {p}")
    print(f"checks: {'ok' if not problems else f'{len(problems)} problems'}")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
