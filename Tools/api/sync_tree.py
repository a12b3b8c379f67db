#!/usr/bin/env python3
"""Copy the files git knows about (tracked, plus untracked files that are not
ignored) from a working tree SRC into DST, without touching SRC.

Only files whose content differs are rewritten (so SwiftPM's incremental build
in DST stays valid); files in DST that are no longer in the list are removed,
except under DST/.build.  Usage: sync_tree.py SRC DST
"""
import os
import shutil
import subprocess
import sys


def listed_files(src):
    try:
        out = subprocess.run(
            ["git", "-C", src, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            capture_output=True, check=True).stdout
        names = [p.decode() for p in out.split(b"\0") if p]
    except (subprocess.CalledProcessError, FileNotFoundError):
        # not a git checkout: everything but .build and .git
        names = []
        for root, dirs, files in os.walk(src):
            dirs[:] = [d for d in dirs if d not in (".build", ".git", ".swiftpm")]
            for f in files:
                names.append(os.path.relpath(os.path.join(root, f), src))
    keep = []
    for n in names:
        p = os.path.join(src, n)
        if os.path.islink(p) or os.path.isfile(p):   # deleted-but-tracked files are skipped
            keep.append(n)
    return keep


def same(a, b):
    try:
        sa, sb = os.lstat(a), os.lstat(b)
    except FileNotFoundError:
        return False
    if os.path.islink(a) or os.path.islink(b):
        return os.path.islink(a) and os.path.islink(b) and os.readlink(a) == os.readlink(b)
    if sa.st_size != sb.st_size:
        return False
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def main():
    src, dst = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    names = listed_files(src)
    os.makedirs(dst, exist_ok=True)
    wanted = set(names)
    copied = 0
    for n in names:
        s, d = os.path.join(src, n), os.path.join(dst, n)
        if same(s, d):
            continue
        os.makedirs(os.path.dirname(d), exist_ok=True)
        if os.path.lexists(d):
            os.remove(d)
        shutil.copy2(s, d, follow_symlinks=False)
        copied += 1
    removed = 0
    for root, dirs, files in os.walk(dst):
        rel = os.path.relpath(root, dst)
        if rel == "." :
            dirs[:] = [x for x in dirs if x not in (".build", ".swiftpm")]
        for f in files:
            r = os.path.normpath(os.path.join(rel, f))
            if r not in wanted:
                os.remove(os.path.join(root, f))
                removed += 1
    print(f"synced {src} -> {dst}: {len(names)} files, {copied} written, {removed} removed", file=sys.stderr)


if __name__ == "__main__":
    main()
