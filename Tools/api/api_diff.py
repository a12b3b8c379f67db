#!/usr/bin/env python3
"""Compare the public API in two folders of Swift symbol graphs.

    api_diff.py [--expand] [--list] OLD_GRAPHS NEW_GRAPHS MODULE...

OLD_GRAPHS / NEW_GRAPHS hold *.symbols.json files (as written by
swift-symbolgraph-extract or -emit-symbol-graph); MODULE... are the modules to
compare (e.g. AnimKit AnimTerminal AnimKitFoundation).  Symbols are matched by
precise identifier (USR); a symbol whose USR went away is paired, where
possible, with a new one of the same path (signature changed), the same path in
another module (moved), or the same declaration under another name (renamed).
Only `public` and `open` symbols are compared.

--expand  list each member of a type that was removed or added as a whole
          (by default it is one line, "with N members").
--list    also print the full public API of NEW, one line a symbol.
Standard library only.
"""
import difflib
import glob
import json
import os
import re
import sys
from collections import defaultdict

KIND_NAMES = {
    "swift.struct": "struct", "swift.class": "class", "swift.enum": "enum",
    "swift.protocol": "protocol", "swift.actor": "actor",
    "swift.typealias": "typealias", "swift.associatedtype": "associatedtype",
    "swift.enum.case": "case", "swift.init": "init", "swift.deinit": "deinit",
    "swift.property": "property", "swift.type.property": "static property",
    "swift.method": "method", "swift.type.method": "static method",
    "swift.subscript": "subscript", "swift.type.subscript": "static subscript",
    "swift.func": "function", "swift.func.op": "operator", "swift.var": "global variable",
    "swift.macro": "macro", "swift.extension": "extension",
}
TYPE_KINDS = {"struct", "class", "enum", "protocol", "actor"}


class Sym:
    __slots__ = ("usr", "kind", "path", "decl", "masked", "module", "access",
                 "deprecated", "ext_module", "generic")

    @property
    def name(self):
        return ".".join(self.path)

    @property
    def parent(self):
        return tuple(self.path[:-1])

    def label(self):
        return f"{self.name} ({self.kind})"


def render(fragments):
    s = "".join(f.get("spelling", "") for f in fragments or [])
    return re.sub(r"\s+", " ", s).strip()


def masked(fragments):
    """The declaration with its own name and parameter labels blanked out: two
    symbols with the same masked declaration differ only in naming."""
    out = []
    for f in fragments or []:
        k = f.get("kind")
        if k in ("identifier", "externalParam", "internalParam"):
            out.append("_")
        else:
            out.append(f.get("spelling", ""))
    return re.sub(r"\s+", " ", "".join(out)).strip()


def load(folder, modules):
    syms = {}          # usr -> Sym
    conformances = {}  # (module, type path, protocol) -> constraint text
    names_by_usr = {}
    files = sorted(glob.glob(os.path.join(folder, "**", "*.symbols.json"), recursive=True))
    graphs = []
    for f in files:
        base = os.path.basename(f)[: -len(".symbols.json")]
        module, _, ext = base.partition("@")
        if module not in modules:
            continue
        with open(f) as fh:
            graphs.append((module, ext, json.load(fh)))
    for module, ext, g in graphs:
        for s in g.get("symbols", []):
            names_by_usr[s["identifier"]["precise"]] = ".".join(s.get("pathComponents", []))
    for module, ext, g in graphs:
        for s in g.get("symbols", []):
            access = s.get("accessLevel", "public")
            if access not in ("public", "open"):
                continue
            usr = s["identifier"]["precise"]
            if "::SYNTHESIZED::" in usr:
                continue
            kind = s["kind"]["identifier"]
            if kind == "swift.extension":
                continue
            y = Sym()
            y.usr = usr
            y.kind = KIND_NAMES.get(kind, kind.replace("swift.", ""))
            y.path = tuple(s.get("pathComponents", []))
            y.decl = render(s.get("declarationFragments"))
            y.masked = masked(s.get("declarationFragments"))
            y.module = module
            y.access = access
            y.ext_module = ext or None
            gen = (s.get("swiftGenerics") or {}).get("constraints") or []
            ext_c = (s.get("swiftExtension") or {}).get("constraints") or []
            cons = gen + [c for c in ext_c if c not in gen]
            y.generic = ", ".join(f'{c.get("lhs")} {":" if c.get("kind") == "conformance" else "=="} {c.get("rhs")}'
                                  for c in cons)
            dep = []
            for a in s.get("availability") or []:
                if a.get("isUnconditionallyDeprecated") or a.get("deprecated"):
                    d = "deprecated"
                    if a.get("renamed"):
                        d += f' (renamed: {a["renamed"]})'
                    if a.get("message"):
                        d += f' ("{a["message"]}")'
                    dep.append(d)
                if a.get("isUnconditionallyUnavailable") or a.get("obsoleted"):
                    d = "unavailable"
                    if a.get("renamed"):
                        d += f' (renamed: {a["renamed"]})'
                    dep.append(d)
            y.deprecated = "; ".join(dep)
            # the same USR can appear in two files (type + extension file); keep the first
            syms.setdefault(usr, y)
        for r in g.get("relationships", []):
            if r.get("kind") != "conformsTo":
                continue
            src = r["source"]
            if src not in names_by_usr:
                continue
            tgt = r.get("targetFallback") or names_by_usr.get(r["target"]) or r["target"]
            tgt = re.sub(r"^Swift\.", "", tgt)
            if tgt in ("SendableMetatype", "Copyable", "Escapable", "BitwiseCopyable"):
                continue   # implicit conformances
            cons = ", ".join(f'{c.get("lhs")} : {c.get("rhs")}' for c in
                             (r.get("swiftConstraints") or []))
            conformances[(module, names_by_usr[src], tgt)] = cons
    # conformances of types that are not public themselves are dropped
    public_paths = {(y.module, y.name) for y in syms.values()}
    conformances = {k: v for k, v in conformances.items() if (k[0], k[1]) in public_paths}
    return syms, conformances


def ratio(a, b):
    return difflib.SequenceMatcher(None, a, b).ratio()


def base_name(path_last):
    return path_last.split("(")[0]


def compare(old, new):
    """Returns a list of (module, group, sort key, line) for changes and additions."""
    removed = {u: s for u, s in old.items() if u not in new}
    added = {u: s for u, s in new.items() if u not in old}
    changes = []   # (old Sym | None, new Sym | None, verb, detail)

    # same USR, other declaration / availability / access
    for u, o in old.items():
        n = new.get(u)
        if n is None:
            continue
        notes = []
        if o.decl != n.decl:
            notes.append(f"declaration: `{o.decl}` → `{n.decl}`")
        if o.generic != n.generic:
            notes.append(f"constraints: `{o.generic or 'none'}` → `{n.generic or 'none'}`")
        if o.access != n.access:
            notes.append(f"access {o.access} → {n.access}")
        if o.deprecated != n.deprecated:
            notes.append(f"now {n.deprecated}" if n.deprecated else "no longer deprecated")
        if notes:
            changes.append((o, n, "changed", "; ".join(notes)))

    # 1. same module and path: signature or kind changed
    def pair(pred, verb):
        by_key = defaultdict(list)
        for u, n in added.items():
            by_key[pred(n)].append(n)
        for u, o in sorted(removed.items(), key=lambda kv: kv[1].name):
            cands = [n for n in by_key.get(pred(o), []) if n.usr in added]
            if not cands:
                continue
            best = max(cands, key=lambda n: ratio(o.decl, n.decl))
            del removed[o.usr]
            del added[best.usr]
            yield o, best

    paired = list(pair(lambda s: (s.module, s.path), "changed"))
    # types whose identity changed (an enum now a struct, …): what mentions them
    # gets a new USR with an unchanged declaration
    retyped = {o.path[-1]: f"{o.name} is now a {n.kind}" for o, n in paired
               if o.kind in TYPE_KINDS and o.kind != n.kind}
    for o, n in paired:
        if o.kind != n.kind:
            changes.append((o, n, "changed", f"now a {n.kind}: `{o.decl}` → `{n.decl}`"))
        elif o.decl == n.decl:
            why = [v for k, v in retyped.items() if k in o.path or re.search(r"\b%s\b" % re.escape(k), o.decl)]
            changes.append((o, n, "changed", "declaration unchanged, identifier changed"
                            + (f" ({'; '.join(why)})" if why else " (a type it names changed)")
                            + f": `{o.decl}`"))
        else:
            changes.append((o, n, "changed", f"signature changed: `{o.decl}` → `{n.decl}`"))
    # 2. same path in another module: moved
    for o, n in pair(lambda s: s.path, "moved"):
        d = f"moved from {o.module} to {n.module}"
        if o.decl != n.decl:
            d += f": `{o.decl}` → `{n.decl}`"
        changes.append((o, n, "moved", d))

    # 3. renamed types: many members with the same names
    def members(symtab, module, path):
        return {s.path[len(path):]: s for s in symtab.values()
                if s.module == module and s.path[:len(path)] == path and len(s.path) > len(path)}

    type_renames = {}
    rem_types = [s for s in removed.values() if s.kind in TYPE_KINDS]
    add_types = [s for s in added.values() if s.kind in TYPE_KINDS]
    for o in sorted(rem_types, key=lambda s: s.name):
        om = members(old, o.module, o.path)
        best, score = None, 0.0
        for n in add_types:
            if n.usr not in added or n.module != o.module or n.kind != o.kind or n.parent != o.parent:
                continue
            nm = members(new, n.module, n.path)
            if len(om) < 2 or len(nm) < 2:
                continue
            j = len(set(om) & set(nm)) / len(set(om) | set(nm))
            if j > score:
                best, score = n, j
        if best is not None and score >= 0.6:
            type_renames[o.path] = best.path
            del removed[o.usr]
            del added[best.usr]
            changes.append((o, best, "renamed", f"renamed to {best.name}"))
    # members of renamed types: follow the type
    for opath, npath in type_renames.items():
        for u, o in list(removed.items()):
            if o.path[:len(opath)] != opath:
                continue
            want = npath + o.path[len(opath):]
            cands = [n for n in added.values() if n.module == o.module and n.path == want]
            if not cands:
                continue
            n = max(cands, key=lambda n: ratio(o.decl, n.decl))
            del removed[u]
            del added[n.usr]
            if o.masked != n.masked and o.decl.replace(opath[-1], npath[-1]) != n.decl:
                changes.append((o, n, "changed", f"with its type renamed, signature changed: `{o.decl}` → `{n.decl}`"))
            # else: carried over with the type, not listed

    # 4. renamed members: same parent, same kind, declaration equal but for names
    for u, o in sorted(list(removed.items()), key=lambda kv: kv[1].name):
        if u not in removed or o.kind in TYPE_KINDS:
            continue
        cands = [n for n in added.values() if n.module == o.module and n.parent == o.parent
                 and n.kind == o.kind and n.masked == o.masked]
        if not cands:
            continue
        if len(cands) > 1:
            cands.sort(key=lambda n: -ratio(o.path[-1], n.path[-1]))
            if ratio(o.path[-1], cands[0].path[-1]) < 0.5:
                continue
        n = cands[0]
        del removed[u]
        del added[n.usr]
        changes.append((o, n, "renamed", f"renamed to {n.name}: `{o.decl}` → `{n.decl}`"))

    # what is left is removed or added; a whole type removed/added carries its members
    def collapse(table):
        types = {(s.module, s.path) for s in table.values() if s.kind in TYPE_KINDS}
        heads, inner = {}, defaultdict(list)
        for s in table.values():
            owner = None
            for i in range(1, len(s.path)):
                if (s.module, s.path[:i]) in types:
                    owner = (s.module, s.path[:i])
                    break
            if owner:
                inner[owner].append(s)
            else:
                heads[s.usr] = s
        return heads, inner

    return changes, removed, added, collapse


def group_of(s):
    return (s.module, s.path[0] if s.path else "")


def main(argv):
    expand = "--expand" in argv
    listing = "--list" in argv
    args = [a for a in argv if not a.startswith("--")]
    if len(args) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    old_dir, new_dir, modules = args[0], args[1], set(args[2:])
    old, old_conf = load(old_dir, modules)
    new, new_conf = load(new_dir, modules)
    changes, removed, added, collapse = compare(old, new)

    lines_out = defaultdict(list)   # (module, group) -> [(order, text)]
    lines_in = defaultdict(list)

    for o, n, verb, detail in changes:
        kind = o.kind if o.kind == n.kind else f"{o.kind} → {n.kind}"
        lines_out[group_of(o)].append((o.name, f"- {o.name} ({kind}) — {detail}"))

    def heads(symbols, into, mark, verb, its, member_decl):
        """One line per symbol removed or added; a whole type's members are
        counted on its line (listed too with --expand)."""
        top, inner = collapse(symbols)
        for s in top.values():
            extra = ""
            m = inner.get((s.module, s.path)) if s.kind in TYPE_KINDS else None
            if m:
                extra = f", with {its}{len(m)} member{'s' if len(m) != 1 else ''}"
                if expand:
                    for x in m:
                        tail = f": `{x.decl}`" if member_decl else ""
                        into[group_of(x)].append((x.name, f"{mark} {x.name} ({x.kind}) — {verb} with {s.name}{tail}"))
            into[group_of(s)].append((s.name, f"{mark} {s.name} ({s.kind}) — {verb}{extra}: `{s.decl}`"))

    heads(removed, lines_out, "-", "removed", "its ", member_decl=False)
    # members of a removed type whose type head was itself paired are already heads
    heads(added, lines_in, "+", "added", "", member_decl=True)

    for key in sorted(set(old_conf) | set(new_conf)):
        module, typ, proto = key
        top = (module, typ.split(".")[0])
        if key in old_conf and key not in new_conf:
            if (module, typ) in {(s.module, s.name) for s in new.values()}:
                lines_out[top].append((typ, f"- {typ} — no longer conforms to {proto}"))
        elif key in new_conf and key not in old_conf:
            if (module, typ) in {(s.module, s.name) for s in old.values()}:
                lines_in[top].append((typ, f"+ {typ} — now conforms to {proto}"
                                      + (f" where {new_conf[key]}" if new_conf[key] else "")))
        elif old_conf[key] != new_conf[key]:
            lines_out[top].append((typ, f"- {typ} — conformance to {proto}: where `{old_conf[key] or 'always'}` → `{new_conf[key] or 'always'}`"))

    def dump(title, table):
        print(title)
        print("=" * len(title))
        if not table:
            print("(none)")
        for module in sorted({m for m, _ in table}):
            print(f"\n## {module}")
            for key in sorted(k for k in table if k[0] == module):
                print(f"\n### {key[1]}")
                for _, text in sorted(table[key]):
                    print(text)
        print()

    n_out = sum(len(v) for v in lines_out.values())
    n_in = sum(len(v) for v in lines_in.values())
    print(f"Public API diff, modules {', '.join(sorted(modules))}")
    print(f"old: {len(old)} public symbols in {old_dir}")
    print(f"new: {len(new)} public symbols in {new_dir}")
    print(f"{n_out} removed/renamed/changed lines, {n_in} added lines "
          f"(a whole type removed or added is one line{'' if not expand else ', members listed'})\n")
    dump("Removed, renamed or changed (old → new)", lines_out)
    dump("Added", lines_in)
    if listing:
        print("Public API of new")
        print("=================")
        for s in sorted(new.values(), key=lambda s: (s.module, s.path)):
            print(f"{s.module}  {s.name} ({s.kind}): {s.decl}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
