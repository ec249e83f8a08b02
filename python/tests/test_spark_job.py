"""The Spark job (examples/spark/chaff_job.py) on a table of messy rows: a null text, a source too small
to mine, sources interleaved. Each bad row is named and left out, the run fails at its end, and every
other row is written, cleaned, in the order it came."""

import importlib.util
import json
import pathlib
import shutil
import sys

import pytest

import chaff
from conftest import REPO, SAMPLES, documents

pytest.importorskip("pyspark")
if shutil.which("java") is None:
    pytest.skip("no Java: PySpark needs a JDK", allow_module_level=True)


def job():
    spec = importlib.util.spec_from_file_location("chaff_job", REPO / "examples" / "spark" / "chaff_job.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_spark_job_leaves_out_only_bad_rows_names_them_and_keeps_the_input_order(tmp_path, capsys, monkeypatch):
    # the workers run this interpreter, which has the chaff module
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    texts = [p.read_bytes().decode() for p in documents(SAMPLES / "sevendays")][:12]
    comments = [p.read_bytes().decode() for p in documents(SAMPLES / "comments")][:12]
    rows = []
    for i in range(12):
        # the two sources interleaved: a partition holds them mixed
        rows.append({"source": "sevendays", "id": f"s{i:02}", "text": texts[i]})
        rows.append({"source": "comments", "id": f"c{i:02}", "text": comments[i]})
    rows.insert(5, {"source": "sevendays", "id": "null-text", "text": None})
    rows.append({"source": "lonely", "id": "only", "text": "One page of a source too small to mine."})
    table = tmp_path / "pages.jsonl"
    table.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "cleaned.parquet"
    code = job().main(["--master", "local[1]", "--input", str(table), "--output", str(out), "--rules-out", str(tmp_path / "rules")])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "sevendays/null-text: not cleaned, left out: no text (null)" in err, err
    assert "1 document(s) not cleaned" in err, err
    assert "lonely: not mined, its documents pass through" in err, err

    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[1]").appName("chaff-test").getOrCreate()
    got = [(r.source, r.id, r.text) for r in spark.read.parquet(str(out)).collect()]
    spark.stop()
    good = [r for r in rows if r["text"] is not None]
    assert [(s, i) for s, i, _ in got] == [(r["source"], r["id"]) for r in good], "every good row, in input order"
    rules = {s: chaff.Rules.load(tmp_path / "rules" / f"{s}.toml") for s in ("sevendays", "comments")}
    for (source, _, text), r in zip(got, good):
        expected = r["text"] if source == "lonely" else rules[source].clean(r["text"], include_pending=True)
        assert text == expected


def test_the_routed_spark_job_leaves_out_only_the_rows_of_a_source_with_a_broken_rules_file(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    texts = [p.read_bytes().decode() for p in documents(SAMPLES / "sevendays")][:10]
    rules_dir = tmp_path / "rules"
    rules_dir.mkdir()
    rules = chaff.mine(texts, source="sevendays")
    rules.save(rules_dir / "sevendays.toml")
    (rules_dir / "broken.toml").write_text('source = "broken"\n[cutoff\n')
    rows = [{"source": "sevendays" if i % 2 else "broken", "id": f"{i:02}", "text": texts[i]} for i in range(10)]
    table = tmp_path / "pages.jsonl"
    table.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "cleaned.parquet"
    args = ["--master", "local[1]", "--input", str(table), "--output", str(out), "--rules", str(rules_dir)]
    code = job().main([*args, "--include-pending"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert "broken/00: not cleaned, left out: " in err and "broken.toml:2:" in err, err
    assert "5 document(s) not cleaned" in err, err
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[1]").appName("chaff-test").getOrCreate()
    got = [(r.id, r.text) for r in spark.read.parquet(str(out)).collect()]
    spark.stop()
    assert got == [(r["id"], rules.clean(r["text"], include_pending=True)) for r in rows if r["source"] == "sevendays"]
