#!/usr/bin/env python3
"""Fails when a public symbol has no doc comment, or a function's comment leaves out a parameter,
what it returns or what it throws.

DocC renders an undocumented symbol as a bare declaration without a warning; this script makes it a
CI failure. It reads the symbol graphs that `swift package generate-documentation` extracts.

Usage: check-doc-coverage.py BUILD_DIR MODULE...  (the symbol graphs are under BUILD_DIR's
*/extracted-symbols/*/MODULE/)

Compiler-synthesized members (Hashable's hash(into:), OptionSet's insert) have no source location
and are skipped, as are extensions of other modules' types (the members they add are checked).
A parameter counts as documented by `- Parameter name:` or by `- name:` under `- Parameters:`,
with its internal or its external name.
"""
import collections
import glob
import json
import os
import re
import sys

FUNCTIONS = {"swift.func", "swift.method", "swift.type.method", "swift.init", "swift.subscript", "swift.func.op"}


def gaps(symbol):
    """What the doc comment of `symbol` leaves out: a list of names, empty when nothing."""
    if not symbol.get("docComment"):
        return ["doc comment"]
    if symbol["kind"]["identifier"] not in FUNCTIONS:
        return []
    text = "\n".join(line["text"] for line in symbol["docComment"]["lines"])
    signature = symbol.get("functionSignature", {})
    missing = []
    for parameter in signature.get("parameters", []):
        names = {parameter["name"], parameter.get("internalName", parameter["name"])} - {"_"}
        if not any(re.search(r"-\s+(Parameter\s+)?" + re.escape(name) + r"\s*:", text) for name in names):
            missing.append("parameter " + sorted(names)[0])
    returns = "".join(fragment["spelling"] for fragment in signature.get("returns", []))
    kind = symbol["kind"]["identifier"]
    if kind not in ("swift.init",) and returns not in ("", "Void", "()") and "- Returns" not in text:
        missing.append("Returns")
    declaration = "".join(fragment["spelling"] for fragment in symbol["declarationFragments"])
    if re.search(r"\b(re)?throws\b", declaration) and "- Throws" not in text:
        missing.append("Throws")
    return missing


def main():
    root, modules = sys.argv[1], sys.argv[2:]
    report = collections.defaultdict(set)
    total = 0
    for module in modules:
        paths = glob.glob(os.path.join(root, "*", "extracted-symbols", "*", module, "*.symbols.json"))
        if not paths:
            print(f"no symbol graph for {module} under {root}", file=sys.stderr)
            return 2
        for path in paths:
            for symbol in json.load(open(path))["symbols"]:
                if symbol.get("accessLevel") not in ("public", "open"):
                    continue
                if symbol["kind"]["identifier"] == "swift.extension" or "location" not in symbol:
                    continue
                total += 1
                missing = gaps(symbol)
                if missing:
                    location = symbol["location"]
                    where = f"{os.path.basename(location['uri'])}:{location['position']['line'] + 1}"
                    name = ".".join(symbol["pathComponents"])
                    report[module].add(f"{where} {name}: no {', no '.join(missing)}")
    count = sum(len(entries) for entries in report.values())
    for module, entries in sorted(report.items()):
        print(f"{module}: {len(entries)} public symbols with gaps in their documentation:")
        for entry in sorted(entries):
            print(f"  {entry}")
    print(f"documentation: {total - count} of {total} public symbols fully documented")
    return 1 if count else 0


if __name__ == "__main__":
    sys.exit(main())
