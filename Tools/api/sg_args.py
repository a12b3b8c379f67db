#!/usr/bin/env python3
"""Print, one a line, the flags swift-symbolgraph-extract needs to load MODULE
as SwiftPM built it: the import paths, module maps, target and module cache of
its compile command in BUILD_DIR/debug.yaml.   Usage: sg_args.py BUILD_DIR MODULE"""
import json
import re
import sys

build, module = sys.argv[1], sys.argv[2]
text = open(f"{build}/debug.yaml").read()
m = re.search(r'"C\.' + re.escape(module) + r'-[^"]*\.module":\n(.*?)(?=\n  "|\Z)', text, re.S)
if not m:
    sys.exit(f"sg_args.py: no compile command for {module} in {build}/debug.yaml")
args = json.loads(re.search(r"args: (\[.*\])", m.group(1)).group(1))
out, i = [], 0
while i < len(args):
    a = args[i]
    if a in ("-I", "-Xcc", "-target", "-module-cache-path", "-F", "-Fsystem", "-Isystem", "-sdk", "-resource-dir"):
        out += [a, args[i + 1]]
        i += 2
        continue
    if (a.startswith("-I") or a.startswith("-F")) and len(a) > 2:
        out.append(a)
    i += 1
print("\n".join(out))
