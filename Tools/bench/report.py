#!/usr/bin/env python3
"""Turn the raw measurements of run.sh into a Markdown table and results.json.

    report.py --set DIR --raw DIR --json OUT.json

Reads RAW/files.txt, RAW/settings.txt and per file:
  FILE.c.rN.{json,err}         C reference decoder, round N ({"frames","medianMs",...})
  FILE.anim.rN.{json,rc,err}   anim bench --json (in process), round N
  FILE.TOOL.hf.json / .hf.err  hyperfine export (TOOL = anim, pillow, ffmpeg, magick)
  FILE.TOOL.pre.{rc,out,err}   check run of a peer (exit status, frames decoded)
Prints the Markdown table (plus notes) on stdout.
"""
import argparse
import datetime
import json
import math
import os
import platform
import re
import subprocess
import sys

TARGET = 1.10  # anim/C goal
PEER_NAMES = {"pillow": "Pillow", "ffmpeg": "ffmpeg", "magick": "ImageMagick"}


def read(path, default=None):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return default


def load_json(path):
    """a JSON object from a file; tolerates text around it (first '{' to last '}')"""
    text = read(path)
    if not text:
        return None
    try:
        return json.loads(text)
    except ValueError:
        a, b = text.find("{"), text.rfind("}")
        if a >= 0 and b > a:
            try:
                return json.loads(text[a:b + 1])
            except ValueError:
                return None
    return None


def first_line(text, limit=160):
    for line in (text or "").splitlines():
        line = line.strip()
        if line:
            return line[:limit]
    return ""


def merge_rounds(rounds):
    """one result from several rounds: median of the medians, min of the mins"""
    first = dict(rounds[0])
    if len(rounds) > 1:
        meds = sorted(r["medianMs"] for r in rounds)
        k = len(meds)
        first["medianMs"] = meds[k // 2] if k % 2 else (meds[k // 2 - 1] + meds[k // 2]) / 2
        first["minMs"] = min(r["minMs"] for r in rounds)
        if first.get("frames"):
            first["msPerFrame"] = first["medianMs"] / first["frames"]
            mpix = first.get("width", 0) * first.get("height", 0) * first["frames"] / 1e6
            first["megapixelsPerSecond"] = mpix / (first["medianMs"] / 1e3) if first["medianMs"] else 0
        first["roundsMedianMs"] = [r["medianMs"] for r in rounds]
    return first


def human_size(n):
    if n >= 1 << 20:
        return "%.1f MB" % (n / (1 << 20))
    return "%.0f KB" % (n / 1024)


def fmt_ms(v):
    return "%.1f" % v if v >= 10 else "%.2f" % v


def fmt_s(v):
    return "%.2f" % v if v >= 1 else "%.3f" % v


def tool_version(cmd, pattern=None):
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
        text = (out.stdout or out.stderr).strip()
        line = text.splitlines()[0] if text else ""
        if pattern:
            m = re.search(pattern, text)
            line = m.group(0) if m else line
        return line
    except Exception:
        return "n/a"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", required=True)
    ap.add_argument("--raw", required=True)
    ap.add_argument("--json", required=True)
    a = ap.parse_args()

    settings = dict(l.split("=", 1) for l in (read(os.path.join(a.raw, "settings.txt"), "")).splitlines() if "=" in l)
    have_anim = settings.get("have_anim") == "1"
    peers = settings.get("peers", "pillow ffmpeg magick").split()
    files = [l for l in read(os.path.join(a.raw, "files.txt"), "").splitlines() if l]

    rows, notes, results = [], [], []
    for b in files:
        raw = lambda suffix: os.path.join(a.raw, b + suffix)  # noqa: E731
        path = os.path.join(a.set, b)
        size = os.path.getsize(path) if os.path.exists(path) else 0
        rec = {"file": b, "bytes": size}

        nrounds = int(settings.get("rounds", "1") or 1)
        c_rounds = [load_json(raw(f".c.r{r}.json")) for r in range(1, nrounds + 1)]
        c = merge_rounds(c_rounds) if all(c_rounds) else None
        rec["c"] = c
        if c is None:
            bad = next(r for r in range(1, nrounds + 1) if not c_rounds[r - 1])
            notes.append(f"{b}: C decoder fails: {first_line(read(raw(f'.c.r{bad}.err')))}")
        frames = c["frames"] if c else None
        rec["frames"] = frames
        if c:
            rec["width"], rec["height"] = c["width"], c["height"]

        # anim, in process
        anim = None
        anim_status = "n/a"
        if have_anim:
            a_rounds, anim = [], None
            for r in range(1, nrounds + 1):
                j = load_json(raw(f".anim.r{r}.json"))
                rc = (read(raw(f".anim.r{r}.rc"), "1") or "1").strip()
                if rc != "0" or j is None or "medianMs" not in j:
                    anim_status = "fails"
                    notes.append(f"{b}: anim bench fails (exit {rc}): {first_line(read(raw(f'.anim.r{r}.err')))}")
                    break
                a_rounds.append(j)
            else:
                anim = merge_rounds(a_rounds)
                anim_status = "ok"
                if frames is not None and anim.get("frames") != frames:
                    notes.append(f"{b}: anim decodes {anim.get('frames')} frames, the C decoder {frames}")
        rec["anim"] = anim
        rec["animStatus"] = anim_status

        ratio_c = None
        if anim and c and c["medianMs"] > 0:
            ratio_c = anim["medianMs"] / c["medianMs"]
        rec["animOverC"] = ratio_c

        # whole-process timings
        proc = {}
        for tool in (["anim"] if have_anim else []) + peers:
            hf = load_json(raw(f".{tool}.hf.json"))
            entry = {"status": "fails"}
            if hf and hf.get("results"):
                r = hf["results"][0]
                entry = {"status": "ok", "medianS": r["median"], "meanS": r["mean"], "minS": r["min"],
                         "maxS": r["max"], "stddevS": r.get("stddev"), "times": r.get("times"),
                         "command": r.get("command")}
            else:
                if tool == "anim":
                    if anim_status != "ok":
                        entry["reason"] = "anim bench fails"
                    else:
                        entry["reason"] = first_line(read(raw(".anim.hf.err")))
                else:
                    prc = (read(raw(f".{tool}.pre.rc"), "") or "").strip()
                    got = (read(raw(f".{tool}.pre.out"), "") or "").strip()
                    err = first_line(read(raw(f".{tool}.pre.err")))
                    ptime = (read(raw(f".{tool}.pre.time"), "") or "").strip()
                    if ptime:
                        entry["checkRunS"] = float(ptime)
                    if prc and prc != "0":
                        entry["reason"] = f"exit {prc}" + (f": {err}" if err else "")
                        if got.isdigit() and int(got) > 0:  # e.g. ImageMagick: all frames out, then an error
                            entry["reason"] += f" (untimed check run: {got}/{frames} frames in {ptime} s)"
                    elif prc == "0" and frames is not None and got != str(frames):
                        entry["reason"] = f"decodes {got or 0} of {frames} frames" + (f" ({err})" if err else "")
                    elif prc == "0":
                        entry["reason"] = "failed while timing: " + first_line(read(raw(f".{tool}.hf.err")))
                    else:
                        entry["reason"] = "not run"
                    entry["framesDecoded"] = int(got) if got.isdigit() else None
                if not (tool == "anim" and anim_status != "ok"):  # already noted
                    name = "anim process" if tool == "anim" else PEER_NAMES.get(tool, tool)
                    notes.append(f"{b}: {name} fails: {entry.get('reason', '')}")
            proc[tool] = entry
        rec["process"] = proc

        ok_peers = {t: proc[t]["medianS"] for t in peers if proc.get(t, {}).get("status") == "ok"}
        best = min(ok_peers, key=ok_peers.get) if ok_peers else None
        rec["bestPeer"] = best
        vs_peer = None
        if best and proc.get("anim", {}).get("status") == "ok":
            vs_peer = proc["anim"]["medianS"] / ok_peers[best]
        rec["animVsBestPeer"] = vs_peer
        results.append(rec)

        def pcell(t):
            e = proc.get(t)
            if e is None:
                return "n/a"
            return fmt_s(e["medianS"]) if e["status"] == "ok" else "fails"

        if anim:
            anim_cell = fmt_ms(anim["medianMs"])
            if frames is not None and anim.get("frames") != frames:
                anim_cell += f" ({anim.get('frames')} fr!)"
        else:
            anim_cell = anim_status
        if ratio_c is not None:
            ratio_cell = "%.2f" % ratio_c + ("" if ratio_c <= TARGET else " ✗")
        else:
            ratio_cell = "n/a"
        if vs_peer is not None:
            peer_cell = "%.2f (%s)" % (vs_peer, PEER_NAMES.get(best, best))
        elif best:
            peer_cell = "n/a (best: %s %s s)" % (PEER_NAMES.get(best, best), fmt_s(ok_peers[best]))
        else:
            peer_cell = "n/a"
        rows.append([
            b, str(frames) if frames is not None else "?",
            human_size(size),
            anim_cell,
            fmt_ms(c["medianMs"]) if c else "fails",
            ratio_cell,
            pcell("anim") if have_anim else "n/a",
            pcell("pillow") if "pillow" in peers else "n/a",
            pcell("ffmpeg") if "ffmpeg" in peers else "n/a",
            pcell("magick") if "magick" in peers else "n/a",
            peer_cell,
        ])

    head = ["file", "frames", "size", "anim ms/pass", "C ms/pass", "anim/C", "anim process s",
            "Pillow s", "ffmpeg s", "ImageMagick s", "anim vs best peer"]
    out = ["| " + " | ".join(head) + " |",
           "|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|"]
    for r in rows:
        out.append("| " + " | ".join(r) + " |")

    # summary
    ratios = [r["animOverC"] for r in results if r["animOverC"]]
    summary = {}
    if ratios:
        gm = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
        worst = max(results, key=lambda r: r["animOverC"] or 0)
        within = sum(1 for x in ratios if x <= TARGET)
        summary.update(animOverCGeomean=gm, animOverCWorst=worst["animOverC"], animOverCWorstFile=worst["file"],
                       withinTarget=within, measured=len(ratios), target=TARGET)
        out.append("")
        out.append(f"anim/C: geometric mean {gm:.2f}, worst {worst['animOverC']:.2f} ({worst['file']}), "
                   f"{within}/{len(ratios)} files within the {TARGET:.2f} target (✗ = over).")
    vs = [r["animVsBestPeer"] for r in results if r["animVsBestPeer"]]
    if vs:
        gm = math.exp(sum(math.log(x) for x in vs) / len(vs))
        summary["animVsBestPeerGeomean"] = gm
        out.append(f"anim vs best peer (whole process, < 1 = anim faster): geometric mean {gm:.2f}.")
    if not have_anim:
        out.append("")
        out.append(f"anim not measured: no binary at {settings.get('anim', '?')}.")
    out.append("")
    rounds_txt = f" (median over {settings.get('rounds')} alternating rounds)" if settings.get("rounds", "1") != "1" else ""
    out.append(f"ms/pass: median of {settings.get('runs', '?')} in-process passes over every frame{rounds_txt}; "
               f"process s: median wall time of {settings.get('proc_runs', '?')} hyperfine runs "
               "(startup included). anim vs best peer = anim process s / fastest peer's.")
    if notes:
        out.append("")
        out.append("Failures and warnings:")
        for n in notes:
            out.append(f"- {n}")
    print("\n".join(out))

    doc = {
        "generated": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {
            "platform": platform.platform(),
            "cpu": next((l.split(":", 1)[1].strip() for l in (read("/proc/cpuinfo", "") or "").splitlines()
                         if l.startswith("model name")), platform.processor()),
            "cores": os.cpu_count(),
        },
        "settings": {
            "anim": settings.get("anim"), "animAvailable": have_anim, "animArgs": settings.get("anim_args", ""),
            "runs": int(settings.get("runs", 0) or 0), "rounds": int(settings.get("rounds", 1) or 1), "processRuns": int(settings.get("proc_runs", 0) or 0),
            "peers": peers, "imagemagick": settings.get("magick"),
        },
        "tools": {
            "ffmpeg": tool_version(["ffmpeg", "-version"]),
            "imagemagick": tool_version([settings.get("magick", "/usr/bin/convert"), "-version"],
                                        r"ImageMagick [^ ]+ Q\d+"),
            "python": sys.version.split()[0],
            "pillow": tool_version([sys.executable, "-c", "import PIL; print(PIL.__version__)"]),
            "hyperfine": tool_version(["hyperfine", "--version"]),
            "c": sorted({r["c"]["decoder"] for r in results if r.get("c") and "decoder" in r["c"]}),
        },
        "summary": summary,
        "notes": notes,
        "files": results,
        "table": "\n".join(out),
    }
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
