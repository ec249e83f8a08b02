#!/usr/bin/env python3
"""What each cleaning stage is worth: `chaff eval` with every stage on, then with each stage off alone, on
both shared datasets and both protocols, for one input (txt or html). Prints a markdown table: overall F1
with the stage off, and per site where the stage helps and where it costs (F1 change over 0.005).

Usage: scripts/stage-table.py [txt|html] [BIN]   (BIN default target/release/chaff; needs ../shared/corpora)
"""
import json
import subprocess
import sys

STAGES = ["line-boundary", "sentence-heads", "sentence-tails", "own-line", "clusters", "regions", "list-items", "threads", "cut-lines", "article-element", "cuts", "islands", "title",
          "slots", "line-slots", "headline", "datelines", "short-runs", "link-density", "link-boxes", "comments", "furniture", "author-box", "reprints", "repeats", "specks"]
DATASETS = ["dragnet", "cleanportaleval"]
NOTABLE = 0.005


def run(binary, dataset, input_kind, off):
    args = [binary, "eval", f"../shared/corpora/{dataset}", "--input", input_kind, "--protocol", "both", "--json"]
    if off:
        args += ["--off", off]
    out = json.loads(subprocess.run(args, capture_output=True, check=True, text=True).stdout)
    result = {}
    for r in out["evaluations"][0]["runs"]:
        sites = {s["site"]: s["scores"][0]["f1"] for s in r["sites"]}
        result[r["protocol"]] = (r["overall"]["scores"][0]["f1"], sites)
    return result


def main():
    input_kind = sys.argv[1] if len(sys.argv) > 1 else "txt"
    binary = sys.argv[2] if len(sys.argv) > 2 else "target/release/chaff"
    base = {d: run(binary, d, input_kind, None) for d in DATASETS}
    cells = " | ".join(f"{base[d]['in-sample'][0]:.3f} / {base[d]['held-out'][0]:.3f}" for d in DATASETS)
    print(f"| stage off ({input_kind}) | dragnet | cleanportaleval | sites it helps (held-out) | sites it costs (held-out) |")
    print("|---|---|---|---|---|")
    print(f"| none (every stage on) | {cells} | | |")
    for stage in STAGES:
        off = {d: run(binary, d, input_kind, stage) for d in DATASETS}
        cells = " | ".join(f"{off[d]['in-sample'][0]:.3f} / {off[d]['held-out'][0]:.3f}" for d in DATASETS)
        helps, costs = [], []
        for d in DATASETS:
            on_sites, off_sites = base[d]["held-out"][1], off[d]["held-out"][1]
            for site, f1 in on_sites.items():
                delta = f1 - off_sites.get(site, f1)
                if delta > NOTABLE:
                    helps.append(f"{site} +{delta:.3f}")
                elif delta < -NOTABLE:
                    costs.append(f"{site} {delta:.3f}")
        print(f"| `{stage}` | {cells} | {len(helps)}: {', '.join(helps[:6])}{' …' if len(helps) > 6 else ''} | "
              f"{len(costs)}: {', '.join(costs) if costs else '—'} |")


if __name__ == "__main__":
    main()
