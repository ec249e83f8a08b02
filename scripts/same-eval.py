#!/usr/bin/env python3
"""Whether two `chaff eval --json` outputs score every page alike: for a change meant to keep behaviour.

    python3 scripts/same-eval.py BEFORE.json AFTER.json

Compares, per evaluation (method) and protocol, every page's scores and floor, every site's and the
overall scores, the models and the notes. Timings (`seconds`, `speed`) are ignored, and so is the
`options` object (how a method's parameters are reported), which is printed when it differs. Exit 0
when every page is scored alike, 1 with the first differences otherwise.
"""

import json
import sys


def pages(run):
    return {(p["site"], p["id"], p["fold"]): (p["scores"], p["floor"]) for p in run["pages"]}


def main(before_path, after_path):
    before, after = (json.load(open(p)) for p in (before_path, after_path))
    diffs = []
    eb, ea = before["evaluations"], after["evaluations"]
    if [e["method"] for e in eb] != [e["method"] for e in ea]:
        diffs.append(f"methods: {[e['method'] for e in eb]} vs {[e['method'] for e in ea]}")
    compared = 0
    for b, a in zip(eb, ea):
        name = b["method"]
        if b["options"] != a["options"]:
            print(f"note: {name}: options reported differently (not compared):\n  {b['options']}\n  {a['options']}")
        for key in ("dataset", "input", "models", "warnings"):
            if b.get(key) != a.get(key):
                diffs.append(f"{name}: {key}: {b.get(key)} vs {a.get(key)}")
        if len(b["runs"]) != len(a["runs"]):
            diffs.append(f"{name}: {len(b['runs'])} runs vs {len(a['runs'])}")
        for rb, ra in zip(b["runs"], a["runs"]):
            where = f"{name} {rb['protocol']}"
            for key in ("protocol", "folds", "notes", "overall", "sites"):
                if rb.get(key) != ra.get(key):
                    diffs.append(f"{where}: {key} differs")
            pb, pa = pages(rb), pages(ra)
            if pb.keys() != pa.keys():
                diffs.append(f"{where}: pages {sorted(pb.keys() ^ pa.keys())[:5]} in one only")
            for k in sorted(pb.keys() & pa.keys()):
                compared += 1
                if pb[k] != pa[k]:
                    diffs.append(f"{where}: page {k}: {pb[k]} vs {pa[k]}")
    if diffs:
        print(f"{len(diffs)} difference(s):")
        for d in diffs[:20]:
            print("  " + d)
        return 1
    print(f"same: {compared} page scores, every site and overall score alike")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
