#!/usr/bin/env python3
"""Fails when a public declaration of a library target has no /// comment.

  python3 Tools/docs/check-doc-comments.py [Sources/AnimKit Sources/AnimTerminal ...]

A declaration is a line starting (after indentation and attributes) with
`public` or `open`, outside a function body; it is documented when the
lines just above it (attributes and blank-free) end in a `///` comment.
The cases of a public enum (which carry no `public` of their own) are
checked too: each `case` line directly in its body. Prints each missing one
as path:line and exits 1 if there are any.
"""
import os
import re
import sys

DECL = re.compile(r"^\s*(@[\w()., ]+\s+)*(public|open)\s+(?!import\b)")
ATTR = re.compile(r"^\s*@\w+")
PUBLIC_ENUM = re.compile(r"^(\s*)(@[\w()., ]+\s+)*public\s+(indirect\s+)?enum\b.*\{\s*$")


def missing_in(path):
    lines = open(path, encoding="utf-8").read().splitlines()
    out = []
    enums = []  # indentation of each public enum whose body we are in
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if enums and line.strip() == "}" and indent == enums[-1]:
            enums.pop()
            continue
        m = PUBLIC_ENUM.match(line)
        if m:
            enums.append(len(m.group(1)))
        is_case = bool(enums) and indent == enums[-1] + 4 and line.lstrip().startswith("case ")
        if not DECL.match(line) and not is_case:
            continue
        j = i - 1
        while j >= 0 and ATTR.match(lines[j]) and not lines[j].strip().startswith("///"):
            j -= 1
        if j < 0 or not lines[j].strip().startswith("///"):
            out.append((i + 1, line.strip()))
    return out


def main():
    roots = sys.argv[1:] or ["Sources/AnimKit", "Sources/AnimKitFoundation", "Sources/AnimTerminal"]
    total = 0
    for root in roots:
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if f.endswith(".swift"):
                    p = os.path.join(d, f)
                    for n, text in missing_in(p):
                        print("%s:%d: no doc comment: %s" % (p, n, text))
                        total += 1
    if total:
        print("check-doc-comments: %d public declarations without ///" % total, file=sys.stderr)
        return 1
    print("check-doc-comments: every public declaration is documented", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
