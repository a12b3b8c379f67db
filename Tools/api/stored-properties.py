#!/usr/bin/env python3
"""The types with the most stored properties (issue 42's figure: at most 12).

Counts, per class, struct, actor or enum body, the instance `let`s and
`var`s declared directly in it (not computed `var`s, not statics; a
tuple-typed property counts once, `let a: Int, b: Int` twice).
A text scan, not a parser: read a surprising row before trusting it.
    Tools/api/stored-properties.py [DIR] [--most N]   # default Sources, 8
"""
import os
import re
import sys

DECL = re.compile(r'\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|final|indirect)\s+)*'
                  r'(class|struct|actor|enum)\s+(\w+)')
PROP = re.compile(r'\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|private|fileprivate|internal|nonisolated|weak|unowned|lazy)'
                  r'(?:\([^)]*\))?\s+)*(let|var)\s+(.*)')


def count(rest):
    head = rest.split('=')[0]
    for _ in range(2):
        head = re.sub(r'\([^()]*\)', 'T', head)  # tuple types count once
    return len(re.findall(r'(?:^|,)\s*\w+', head)) if ',' in head else 1


def scan(path):
    found, stack, depth = [], [], 0
    for line in open(path, encoding='utf-8'):
        s = re.sub(r'"(\\.|[^"\\])*"', '""', re.sub(r'//.*', '', line))
        m = DECL.match(s)
        if m and '{' in s:
            stack.append([m.group(2), depth, 0])
        elif stack and depth == stack[-1][1] + 1:
            p = PROP.match(s)
            if p and not re.search(r'\bstatic\b|\bclass\s+var\b', s):
                rest = p.group(2)
                computed = p.group(1) == 'var' and '{' in rest and '=' not in rest.split('{')[0]
                if not computed:
                    stack[-1][2] += count(rest)
        depth += s.count('{') - s.count('}')
        while stack and depth <= stack[-1][1]:
            name, _, n = stack.pop()
            found.append((n, name, path))
    return found


def main():
    args = sys.argv[1:]
    most = 8
    if '--most' in args:
        i = args.index('--most')
        most = int(args[i + 1])
        del args[i:i + 2]
    root = args[0] if args else 'Sources'
    rows = []
    for d, _, files in os.walk(root):
        rows += [r for f in files if f.endswith('.swift') for r in scan(os.path.join(d, f))]
    for n, name, path in sorted(rows, key=lambda r: (-r[0], r[1]))[:most]:
        print(f'{n:3d}  {name}  {path}')


main()
