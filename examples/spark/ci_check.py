"""CI check of the Spark job: run it in local[2] on ../shared/corpora (each site a source, each page's
naive text, <id>.txt) and check, for every page, that its cleaned text is what `chaff clean` writes with
the rules the job mined; and that those rules are the file `chaff mine` writes for the same pages. Also
runs the no-Python route (`RDD.pipe` through `chaff clean`) on one source, and the routed job (`--rules`
through `chaff.Workspace`) on a generated crawl against `chaff clean --rules-dir`. Prints the end-to-end
time and throughput per core of the routes.

    python3 examples/spark/ci_check.py [--corpora ../shared/corpora] [--chaff target/release/chaff]

Skips (exit 0, with a message) where Java or the corpora are missing. Exit 1 on any difference.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORES = 2


def pages(site: pathlib.Path) -> list[pathlib.Path]:
    return sorted(p for p in site.glob("*.txt") if not p.name.endswith(".gold.txt"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpora", default=str(REPO.parent / "shared" / "corpora"))
    ap.add_argument("--chaff", default=os.environ.get("CHAFF_BIN", str(REPO / "target" / "release" / "chaff")))
    args = ap.parse_args()
    corpora = pathlib.Path(args.corpora)
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        print("spark check skipped: no Java (install a JDK 17 to run PySpark)")
        return 0
    binary = pathlib.Path(args.chaff)
    if not binary.exists():
        print(f"{binary}: no chaff binary (cargo build --release, or --chaff PATH)", file=sys.stderr)
        return 1

    tmp = pathlib.Path(tempfile.mkdtemp(prefix="chaff-spark-"))
    try:
        failed = check_routed_crawl(binary, tmp)
        if not corpora.is_dir():
            print(f"spark check of the corpora skipped: {corpora} is missing")
            return 1 if failed else 0
        return run(corpora, binary, tmp) or (1 if failed else 0)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check_routed_crawl(binary: pathlib.Path, tmp: pathlib.Path) -> int:
    """The routed job on a generated crawl (JSON Lines of id, url, text: no source column) with rules
    `chaff mine --all` wrote, against `chaff clean --rules-dir` on the same crawl. Returns differences."""
    crawl = tmp / "crawl"
    subprocess.run([binary, "generate", "--crawl", "20", "--pages", "10", "--out", crawl], check=True,
                   stdout=subprocess.DEVNULL)
    rules = crawl / "rules"
    # one site left without rules: its pages pass through, in the job as in the command line
    subprocess.run([binary, "mine", "--all", crawl / "crawl.warc.gz", "--rules-dir", rules], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    sorted(rules.glob("*.toml"))[0].unlink()
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, HERE / "chaff_job.py", "--master", f"local[{CORES}]", "--input", crawl / "crawl.jsonl",
         "--output", tmp / "crawl.parquet", "--rules", rules, "--include-pending", "--write", "text"],
        check=True,
    )
    seconds = time.perf_counter() - started
    done = subprocess.run([binary, "clean", "--rules-dir", rules, "--include-pending", "--text",
                           crawl / "crawl.jsonl"], capture_output=True, check=True)
    expected = {(r["source"], str(r["id"])): r["text"] for r in map(json.loads, done.stdout.decode().splitlines())}
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master(f"local[{CORES}]").appName("chaff-ci-crawl").getOrCreate()
    got = {(r.source, r.id): r.text for r in spark.read.parquet(str(tmp / "crawl.parquet")).collect()}
    spark.stop()
    differ = [k for k in expected if got.get(k) != expected[k]] + [k for k in got if k not in expected]
    for source, id_ in differ[:10]:
        print(f"{source}/{id_}: the routed job differs from chaff clean --rules-dir", file=sys.stderr)
    mb = (crawl / "crawl.jsonl").stat().st_size / 1e6
    sources = len({s for s, _ in expected})
    if not differ:
        print(f"spark routed job: {len(expected)} pages of {sources} sources (one without rules) as chaff clean "
              f"--rules-dir writes them; {mb:.1f} MB in {seconds:.1f} s end to end (Spark's start included)")
    return len(differ)


def run(corpora: pathlib.Path, binary: pathlib.Path, tmp: pathlib.Path) -> int:
    # the table: one row per page; sources named <dataset>.<site>, as rules files <source>.toml
    table = tmp / "pages.jsonl"
    docs: dict[str, dict[str, str]] = {}
    with table.open("w", encoding="utf-8") as out:
        for dataset in sorted(p for p in corpora.iterdir() if p.is_dir()):
            for site in sorted(p for p in dataset.iterdir() if p.is_dir()):
                source = f"{dataset.name}.{site.name}"
                for page in pages(site):
                    text = page.read_bytes().decode("utf-8", errors="replace")
                    docs.setdefault(source, {})[page.stem] = text
                    out.write(json.dumps({"source": source, "id": page.stem, "text": text}) + "\n")
    total_bytes = sum(len(t.encode()) for d in docs.values() for t in d.values())
    n_pages = sum(len(d) for d in docs.values())
    print(f"{len(docs)} sources, {n_pages} pages, {total_bytes / 1e6:.1f} MB of text")

    # the job, end to end, as a user runs it
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, HERE / "chaff_job.py", "--master", f"local[{CORES}]", "--input", table,
         "--output", tmp / "cleaned.parquet", "--rules-out", tmp / "rules"],
        check=True,
    )
    spark_seconds = time.perf_counter() - started

    # the command line on the same pages: mine each source's folder, clean its pages as JSON Lines
    started = time.perf_counter()
    expected: dict[tuple[str, str], str] = {}
    for source, by_id in docs.items():
        folder = tmp / "folders" / source
        folder.mkdir(parents=True)
        for id_, text in by_id.items():
            (folder / f"{id_}.txt").write_text(text, encoding="utf-8")
        subprocess.run([binary, "mine", folder, "--source", source, "--rules-dir", tmp / "cli-rules"],
                       check=True, stdout=subprocess.DEVNULL)
        lines = "".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in by_id.items())
        done = subprocess.run([binary, "clean", "--rules", tmp / "rules" / f"{source}.toml", "--include-pending"],
                              input=lines.encode(), capture_output=True, check=True)
        for line in done.stdout.decode().splitlines():
            record = json.loads(line)
            expected[(source, str(record["id"]))] = record["text"]
    cli_seconds = time.perf_counter() - started

    failures = 0
    for source in docs:
        job = (tmp / "rules" / f"{source}.toml").read_text(encoding="utf-8")
        cli = (tmp / "cli-rules" / f"{source}.toml").read_text(encoding="utf-8")
        if job != cli:
            print(f"{source}: the job's rules differ from `chaff mine`'s", file=sys.stderr)
            failures += 1

    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(f"local[{CORES}]")
        .appName("chaff-ci")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    got = {(r.source, r.id): r.text for r in spark.read.parquet(str(tmp / "cleaned.parquet")).collect()}
    if set(got) != set(expected):
        print(f"the job wrote {len(got)} pages, chaff clean {len(expected)}", file=sys.stderr)
        failures += 1
    differ = [k for k in expected if k in got and got[k] != expected[k]]
    for source, id_ in differ[:10]:
        print(f"{source}/{id_}: the job's cleaned text differs from chaff clean's", file=sys.stderr)
    failures += len(differ)

    # the no-Python route: RDD.pipe through `chaff clean`, one source
    source = max(docs, key=lambda s: len(docs[s]))
    rules = tmp / "rules" / f"{source}.toml"
    started = time.perf_counter()
    records = spark.sparkContext.parallelize(
        [json.dumps({"id": i, "text": t}) for i, t in docs[source].items()], CORES
    )
    piped = records.pipe(f"{binary} clean --rules {rules} --include-pending").map(json.loads).collect()
    pipe_seconds = time.perf_counter() - started
    spark.stop()
    piped_text = {str(r["id"]): r["text"] for r in piped}
    if piped_text != {i: expected[(source, i)] for i in docs[source]}:
        print(f"{source}: RDD.pipe through chaff clean differs from chaff clean", file=sys.stderr)
        failures += 1

    failures += check_html_reader_text(binary, tmp)

    mb = total_bytes / 1e6
    print(f"spark job (local[{CORES}], mine + clean, end to end): {spark_seconds:.1f} s, "
          f"{mb / spark_seconds / CORES:.2f} MB/s per core")
    print(f"chaff mine + chaff clean, one source after another: {cli_seconds:.1f} s, "
          f"{mb / cli_seconds / CORES:.2f} MB/s per core")
    print(f"RDD.pipe through chaff clean, {source} ({len(docs[source])} pages): {pipe_seconds:.1f} s")
    if failures:
        print(f"spark check FAILED: {failures} difference(s)", file=sys.stderr)
        return 1
    print(f"spark check ok: {len(expected)} pages of {len(docs)} sources cleaned as chaff clean cleans them, "
          "with the rules chaff mine writes")
    return 0


def check_html_reader_text(binary: pathlib.Path, tmp: pathlib.Path) -> int:
    """The job with --write text on the sample HTML source: each page's reader text as `chaff clean --text`."""
    folder = REPO / "sample-corpora" / "html_news"
    pages_ = sorted(folder.glob("*.html"))
    table = tmp / "html.jsonl"
    with table.open("w", encoding="utf-8") as out:
        for page in pages_:
            out.write(json.dumps({"source": "html_news", "id": page.stem, "text": page.read_text("utf-8")}) + "\n")
    subprocess.run(
        [sys.executable, HERE / "chaff_job.py", "--master", f"local[{CORES}]", "--input", table,
         "--output", tmp / "html.parquet", "--rules-out", tmp / "html-rules", "--write", "text"],
        check=True,
    )
    subprocess.run([binary, "clean", "--rules", tmp / "html-rules" / "html_news.toml", "--include-pending",
                    "--text", folder, "--out", tmp / "html-text"], check=True, stderr=subprocess.DEVNULL)
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master(f"local[{CORES}]").appName("chaff-ci-html").getOrCreate()
    got = {r.id: r.text for r in spark.read.parquet(str(tmp / "html.parquet")).collect()}
    spark.stop()
    differ = [p.stem for p in pages_ if got.get(p.stem) != (tmp / "html-text" / f"{p.stem}.txt").read_text("utf-8")]
    for id_ in differ[:10]:
        print(f"html_news/{id_}: the job's --write text differs from chaff clean --text", file=sys.stderr)
    if not differ:
        print(f"spark --write text: {len(pages_)} HTML pages' reader text as chaff clean --text writes it")
    return len(differ)


if __name__ == "__main__":
    sys.exit(main())
