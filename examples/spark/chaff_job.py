"""Mine each source's template and clean every document with it, on Spark.

Input: a table of (source, id, text) in JSON Lines (one {"source", "id", "text"} object a line) or
Parquet; `text` is a page's text or HTML. HTML pages are read as `chaff mine` reads them, through the
page view (what a reader sees); --preset html mines their raw markup instead. Output: Parquet of
(source, id, text), the text cleaned; for HTML sources --write text gives the text a reader sees of
each cleaned page (as `chaff clean --text`), --write keep-tags the page with every tag kept.

    spark-submit examples/spark/chaff_job.py --input pages.jsonl --output cleaned.parquet \
        --rules-out rules/ --write text

1. Mining: one task per source on the executors (a source's documents in one partition, sorted by id),
   `chaff.mine`, the automatic rules of `chaff mine`. The rules files come back to the driver (a few
   KB each), are written to --rules-out as <source>.toml, and are broadcast.
2. Cleaning: `mapPartitions` over the documents; each partition cleans its documents source by source
   with `Rules.clean_many` (all the executor's cores, the GIL released), the pending rules included, as
   `chaff clean --include-pending`. A partition's rows come out in its order.

A source too small to mine (one document) is said, and its documents pass through. A row with no text, or
one `clean_many` cannot clean (`chaff.BatchError`), is left out, the rest of its batch written; the job
names them at its end and exits 1.

With --rules DIR the mining is skipped and every document is routed to its own source's rules through
`chaff.Workspace` (one job for every source, as `chaff clean --rules-dir DIR`): DIR/<source>.toml,
applied without --include-pending unless given; a source without a rules file passes through or is
left out (--unknown). A crawl needs no `source` column: a `url` column names each document's source,
its host (or --group domain, its registrable domain), as `chaff mine --all CRAWL` groups it.
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from typing import Iterable, Iterator

import chaff
from pyspark.accumulators import AccumulatorParam
from pyspark.sql import Row, SparkSession

# Documents handed to clean_many at once: enough to keep every core busy, bounded memory.
BATCH = 512
# Documents not cleaned named at the end of the run (all are counted).
SHOWN = 20


def read_table(spark: SparkSession, path: str, group: str = "host"):
    """(source, id, text): the source as given, else found from the `url` column as chaff finds it."""
    if path.endswith(".parquet") or pathlib.Path(path).is_dir():
        df = spark.read.parquet(path)
    else:
        df = spark.read.json(path)
    columns = set(df.columns)
    missing = {"id", "text"} - columns
    if missing or not columns & {"source", "url"}:
        missing |= set() if columns & {"source", "url"} else {"source (or url)"}
        sys.exit(f"{path}: missing column(s) {', '.join(sorted(missing))}; the table needs id, text and source or url")
    if "source" not in columns:

        def with_source(rows: Iterable[Row]) -> Iterator[tuple[str | None, str, str]]:
            for r in rows:
                yield chaff.source_of(url=r.url, group=group), str(r.id), r.text

        df = spark.createDataFrame(df.rdd.mapPartitions(with_source), "source string, id string, text string")
        unnamed = df.where("source IS NULL").count()
        if unnamed:
            print(f"{path}: {unnamed} row(s) whose url names no host: left out", file=sys.stderr)
        return df.where("source IS NOT NULL")
    df = df.selectExpr("CAST(source AS STRING) AS source", "CAST(id AS STRING) AS id", "text")
    unnamed = df.where("source IS NULL").count()
    if unnamed:
        print(f"{path}: {unnamed} row(s) with no source (null): left out", file=sys.stderr)
    return df.where("source IS NOT NULL")


class Failures(AccumulatorParam):
    """Documents not cleaned (a null text, a bad record): their count and the first few, each
    (source, id, why)."""

    def zero(self, value):
        return (0, [])

    def addInPlace(self, a, b):
        return (a[0] + b[0], (a[1] + b[1])[:SHOWN])


def cleaned_texts(clean, rows: list[Row], failures) -> list:
    """`clean` of the rows' texts: every result in order, None where a row has no text or its document
    failed (each counted in `failures`, the others cleaned all the same)."""
    at = [i for i, r in enumerate(rows) if r.text is not None]
    bad = [(i, "no text (null)") for i, r in enumerate(rows) if r.text is None]
    texts: list = [None] * len(rows)
    try:
        got = clean([rows[i].text for i in at], at) if at else []
    except chaff.BatchError as e:
        got = e.results
        bad += [(at[i], why) for i, why in e.errors]
    for i, text in zip(at, got):
        texts[i] = text
    if bad:
        bad.sort()
        failures.add((len(bad), [(rows[i].source, rows[i].id, why) for i, why in bad[:SHOWN]]))
    return texts


def mine_sources(df, preset: str) -> tuple[dict[str, str], dict[str, str]]:
    """Each source's rules file (TOML), mined in one task per source; and the sources that could not be
    mined (too few documents), with why."""
    sources = sorted(r.source for r in df.select("source").distinct().collect())
    if not sources:
        return {}, {}
    index = {s: i for i, s in enumerate(sources)}

    def mine_partition(rows: Iterable[tuple[str, tuple[str, str]]]) -> Iterator[tuple[str, str | None, str]]:
        by_source: dict[str, list[tuple[str, str]]] = {}
        for source, doc in rows:
            by_source.setdefault(source, []).append(doc)
        for source, docs in by_source.items():
            docs.sort()  # by id: the order `chaff mine` reads a folder of <id>.txt in
            try:
                rules = chaff.mine([text for _, text in docs], source=source, preset=preset)
            except chaff.ChaffError as e:
                # as `chaff mine --all`: a source too small to mine is said and left unmined
                yield source, None, str(e)
                continue
            yield source, rules.to_toml(), ""

    # a null text is no document to mine from: it is counted when cleaning
    pairs = df.where("text IS NOT NULL").rdd.map(lambda r: (r.source, (r.id, r.text)))
    one_per_source = pairs.partitionBy(len(sources), lambda s: index[s])
    rules, unmined = {}, {}
    for source, toml, why in one_per_source.mapPartitions(mine_partition).collect():
        if toml is None:
            unmined[source] = why
        else:
            rules[source] = toml
    return rules, unmined


def clean_documents(df, rules_toml, include_pending: bool, output: str, failures):
    """(source, id, cleaned text) for every document, cleaned with its source's rules, in the order the
    partition holds them; a source without rules (too few documents to mine) passes through."""

    def clean_partition(rows: Iterable[Row]) -> Iterator[Row]:
        loaded: dict[str, chaff.Rules] = {}

        def flush(batch: list[Row]) -> Iterator[Row]:
            texts: list = [None] * len(batch)
            by_source: dict[str, list[int]] = {}
            for i, r in enumerate(batch):
                by_source.setdefault(r.source, []).append(i)
            for source, at in by_source.items():
                rows = [batch[i] for i in at]
                toml = rules_toml.value.get(source)
                if toml is None:
                    # not mined (too few documents): passed through
                    got = cleaned_texts(lambda docs, _: docs, rows, failures)
                else:
                    if source not in loaded:
                        loaded[source] = chaff.Rules.from_toml(toml, name=f"{source}.toml")
                    clean = loaded[source].clean_many
                    got = cleaned_texts(
                        lambda docs, _: clean(docs, include_pending=include_pending, output=output), rows, failures
                    )
                for i, text in zip(at, got):
                    texts[i] = text
            for r, text in zip(batch, texts):
                if text is not None:
                    yield Row(source=r.source, id=r.id, text=text)

        batch: list[Row] = []
        for row in rows:
            batch.append(row)
            if len(batch) >= BATCH:
                yield from flush(batch)
                batch = []
        if batch:
            yield from flush(batch)

    return df.rdd.mapPartitions(clean_partition)


def clean_routed(df, workspace: chaff.Workspace, include_pending: bool, output: str, unknown: str, failures):
    """(source, id, cleaned text), each document with its own source's rules through the Workspace
    (pickled as its folder, loaded on each executor once per source); rows of sources without rules
    pass through, or are left out with unknown="skip"."""

    def clean_partition(rows: Iterable[Row]) -> Iterator[Row]:
        batch: list[Row] = []

        def flush() -> Iterator[Row]:
            texts = cleaned_texts(
                lambda docs, at: workspace.clean_many(
                    docs,
                    sources=[batch[i].source for i in at],
                    include_pending=include_pending,
                    output=output,
                    unknown=unknown,
                ),
                batch,
                failures,
            )
            for r, text in zip(batch, texts):
                if text is not None:
                    yield Row(source=r.source, id=r.id, text=text)
            batch.clear()

        for row in rows:
            batch.append(row)
            if len(batch) >= BATCH:
                yield from flush()
        if batch:
            yield from flush()

    return df.rdd.mapPartitions(clean_partition)


def said(failures) -> int:
    """Names the documents not cleaned, if any: the exit code, 1 when some were."""
    count, shown = failures.value
    if not count:
        return 0
    for source, id_, why in shown:
        print(f"{source}/{id_}: not cleaned, left out: {why}", file=sys.stderr)
    print(f"{count} document(s) not cleaned, left out of the output", file=sys.stderr)
    return 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--input", required=True, help="JSON Lines or Parquet of (source, id, text)")
    ap.add_argument("--output", required=True, help="Parquet folder for (source, id, text), cleaned")
    ap.add_argument("--rules-out", help="write each source's mined rules here as <source>.toml")
    ap.add_argument("--rules", help="clean each document with DIR/<source>.toml instead of mining (routed)")
    ap.add_argument("--group", choices=["host", "domain"], default="host", help="without a source column: a url's host or domain")
    ap.add_argument(
        "--unknown", choices=["pass", "skip"], default="pass", help="with --rules: a source without rules passes or is left out"
    )
    ap.add_argument("--preset", choices=["text", "html"], default="text")
    ap.add_argument("--include-pending", action="store_true", help="with --rules: apply pending rules too")
    ap.add_argument(
        "--write",
        choices=["cleaned", "text", "keep-tags"],
        default="cleaned",
        help="HTML sources: the cleaned page (default), the text a reader sees of it, or the page with its tags kept",
    )
    ap.add_argument("--master", default=None, help="e.g. local[2] (default: spark-submit's)")
    args = ap.parse_args(argv)

    builder = SparkSession.builder.appName("chaff").config("spark.ui.showConsoleProgress", "false")
    if args.master:
        builder = builder.master(args.master)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    started = time.perf_counter()
    df = read_table(spark, args.input, args.group).cache()
    failures = spark.sparkContext.accumulator((0, []), Failures())
    if args.rules:
        # one job for every source: each executor loads a source's rules when it first meets it
        workspace = chaff.Workspace.load(str(pathlib.Path(args.rules).resolve()), group=args.group)
        cleaned = clean_routed(df, workspace, args.include_pending, args.write, args.unknown, failures)
        spark.createDataFrame(cleaned, "source string, id string, text string").write.mode("overwrite").parquet(
            args.output
        )
        print(f"cleaned into {args.output} in {time.perf_counter() - started:.1f} s in all", file=sys.stderr)
        spark.stop()
        return said(failures)
    rules, unmined = mine_sources(df, args.preset)
    include_pending = True
    print(f"mined {len(rules)} source(s) in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    for source, why in sorted(unmined.items()):
        print(f"{source}: not mined, its documents pass through: {why}", file=sys.stderr)
    if args.rules_out:
        out = pathlib.Path(args.rules_out)
        out.mkdir(parents=True, exist_ok=True)
        for source, text in rules.items():
            (out / f"{source}.toml").write_text(text, encoding="utf-8")
    cleaned = clean_documents(df, spark.sparkContext.broadcast(rules), include_pending, args.write, failures)
    spark.createDataFrame(cleaned, "source string, id string, text string").write.mode("overwrite").parquet(
        args.output
    )
    print(f"cleaned into {args.output} in {time.perf_counter() - started:.1f} s in all", file=sys.stderr)
    spark.stop()
    return said(failures)


if __name__ == "__main__":
    sys.exit(main())
