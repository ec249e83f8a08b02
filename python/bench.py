"""Throughput of `Rules.clean_many` against `chaff clean` (JSON Lines, stdin to stdout) on the same
documents and cores. Prints figures; asserts nothing.

    python3 python/bench.py [--mb 20] [--chaff target/release/chaff] [--repeat 3]

Documents: the bundled sample corpora's, repeated (each copy made distinct) up to --mb MB per source;
rules: `chaff mine --all sample-corpora`, applied with --include-pending. The Python figure is
clean_many on a list already in memory; the command line's includes reading and writing JSON Lines,
which is how it is used.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

import chaff

REPO = pathlib.Path(__file__).resolve().parents[1]
SAMPLES = REPO / "sample-corpora"


def documents(folder: pathlib.Path) -> list[str]:
    paths = sorted(p for p in folder.iterdir() if p.suffix in (".txt", ".html") and ".template." not in p.name)
    return [p.read_text(encoding="utf-8") for p in paths]


def best(repeat: int, run) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mb", type=float, default=20.0, help="MB of documents per source")
    ap.add_argument("--chaff", default=os.environ.get("CHAFF_BIN", str(REPO / "target" / "release" / "chaff")))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sources", default="sevendays,html_news,comments")
    args = ap.parse_args()
    print(f"{os.cpu_count()} cores; best of {args.repeat}; load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        subprocess.run([args.chaff, "mine", "--all", SAMPLES, "--rules-dir", tmp / "rules"], check=True,
                       stdout=subprocess.DEVNULL)
        print(f"{'source':<12} {'docs':>7} {'MB':>6} {'chaff clean MB/s':>17} {'clean_many MB/s':>16} {'ratio':>6}")
        for name in args.sources.split(","):
            base = documents(SAMPLES / name)
            docs: list[str] = []
            size = 0
            while size < args.mb * 1e6:
                doc = base[len(docs) % len(base)] + f"\n{len(docs)}"
                docs.append(doc)
                size += len(doc.encode())
            rules_path = tmp / "rules" / f"{name}.toml"
            rules = chaff.Rules.load(rules_path)
            jsonl = tmp / f"{name}.jsonl"
            jsonl.write_text("".join(json.dumps({"id": i, "text": d}) + "\n" for i, d in enumerate(docs)))

            def cli():
                with jsonl.open("rb") as stdin:
                    subprocess.run([args.chaff, "clean", "--rules", rules_path, "--include-pending"], stdin=stdin,
                                   stdout=subprocess.DEVNULL, check=True)

            rules.clean_many(docs[:50], include_pending=True)  # the cleaner is built on first use
            t_cli = best(args.repeat, cli)
            t_py = best(args.repeat, lambda: rules.clean_many(docs, include_pending=True))
            mb = size / 1e6
            print(f"{name:<12} {len(docs):>7} {mb:>6.1f} {mb / t_cli:>17.1f} {mb / t_py:>16.1f} {t_cli / t_py:>6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
