#!/usr/bin/env python3
"""What each cleaning stage is worth on pages the rules were not mined from: `chaff eval` with every stage
on, then with each stage off alone, on both shared datasets, held out (ten folds: mined on nine tenths of a
site, scored on the rest) and few pages (three folds turned over: mined on a third, scored on the other two
thirds), for one input (txt or html). Prints a markdown table: the overall F1 change with the stage off,
and per site where the stage helps and where it costs (F1 change over 0.005 in either protocol).

Usage: scripts/stage-table.py [txt|html] [BIN] [CACHE]
  BIN    default target/release/chaff; needs ../shared/corpora
  CACHE  a folder keeping each run's JSON (<input>-<stage|none>-<dataset>-<ho|fp3>.json): runs found there
         are read, not run again
"""
import json
import os
import subprocess
import sys

STAGES = ["line-boundary", "sentence-heads", "sentence-tails", "own-line", "clusters", "regions", "list-items",
          "threads", "cut-lines", "article-element", "cuts", "islands", "title", "slots", "line-slots", "headline",
          "datelines", "short-runs", "link-density", "link-boxes", "comments", "furniture", "author-box",
          "reprints", "repeats", "preformatted", "specks"]
DATASETS = ["dragnet", "cleanportaleval"]
PROTOCOLS = {"ho": ["--protocol", "held-out"], "fp3": ["--protocol", "few-pages", "--folds", "3"]}
NOTABLE = 0.005


def run(binary, cache, dataset, input_kind, off, protocol):
    """Overall F1 and F1 per site of one run."""
    kept = cache and os.path.join(cache, f"{input_kind}-{off or 'none'}-{dataset}-{protocol}.json")
    if kept and os.path.exists(kept) and os.path.getsize(kept) > 0:
        with open(kept) as f:
            text = f.read()
    else:
        args = [binary, "eval", f"../shared/corpora/{dataset}", "--input", input_kind, "--json"]
        args += PROTOCOLS[protocol] + (["--off", off] if off else [])
        text = subprocess.run(args, capture_output=True, check=True, text=True).stdout
        if kept:
            with open(kept, "w") as f:
                f.write(text)
    r = json.loads(text)["evaluations"][0]["runs"][0]
    return r["overall"]["scores"][0]["f1"], {s["site"]: s["scores"][0]["f1"] for s in r["sites"]}


def main():
    input_kind = sys.argv[1] if len(sys.argv) > 1 else "txt"
    binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/chaff"
    cache = sys.argv[3] if len(sys.argv) > 3 else None
    if cache:
        os.makedirs(cache, exist_ok=True)

    def runs(off):
        return {(d, p): run(binary, cache, d, input_kind, off, p) for d in DATASETS for p in PROTOCOLS}

    base = runs(None)
    cells = " | ".join(f"{base[(d, 'ho')][0]:.4f} / {base[(d, 'fp3')][0]:.4f}" for d in DATASETS)
    print(f"| stage off ({input_kind}) | dragnet | cleanportaleval | sites it helps | sites it costs |")
    print("|---|---|---|---|---|")
    print(f"| none (every stage on) | {cells} | | |")
    for stage in STAGES:
        off = runs(stage)
        moved = {key: off[key][0] - base[key][0] for key in base}
        cells = " | ".join(f"{moved[(d, 'ho')]:+.4f} / {moved[(d, 'fp3')]:+.4f}" for d in DATASETS)
        helps, costs = {}, {}
        for key in base:
            on_sites, off_sites = base[key][1], off[key][1]
            for name, f1 in on_sites.items():
                delta = f1 - off_sites.get(name, f1)
                # both datasets hold a bbc.co.uk and a washingtonpost.com
                site = name if key[0] == DATASETS[0] else f"{name} ({key[0]})"
                if delta > NOTABLE:
                    helps[site] = max(helps.get(site, 0.0), delta)
                elif delta < -NOTABLE:
                    costs[site] = min(costs.get(site, 0.0), delta)
        listed = [f"{s} +{d:.3f}" for s, d in sorted(helps.items(), key=lambda x: -x[1])]
        worst = ", ".join(f"{s} {d:.3f}" for s, d in sorted(costs.items(), key=lambda x: x[1])) or "—"
        print(f"| `{stage}` | {cells} | {len(helps)}: {', '.join(listed[:5])}{' …' if len(listed) > 5 else ''} | "
              f"{len(costs)}: {worst} |")


if __name__ == "__main__":
    main()
