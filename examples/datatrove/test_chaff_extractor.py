"""ChaffExtractor in a datatrove pipeline gives what `chaff clean --rules-dir` gives, page for page.
Needs datatrove, chaff's Python module and the chaff binary (CHAFF_BIN, else the repo's build); skipped
without them: `pytest examples/datatrove`."""

import json
import os
import pathlib
import subprocess
import sys

import pytest

datatrove = pytest.importorskip("datatrove")
pytest.importorskip("chaff")

from datatrove.data import Document  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).parent))
from chaff_extractor import ChaffExtractor  # noqa: E402

REPO = pathlib.Path(__file__).resolve().parents[2]


def chaff_bin():
    if os.environ.get("CHAFF_BIN"):
        return pathlib.Path(os.environ["CHAFF_BIN"])
    for profile in ("release", "debug"):
        p = REPO / "target" / profile / "chaff"
        if p.exists():
            return p
    pytest.skip("no chaff binary: run `cargo build --release` or set CHAFF_BIN")


def test_the_step_cleans_each_page_with_its_sources_rules_as_the_cli_does(tmp_path):
    b = chaff_bin()
    run = lambda *a: subprocess.run([b, *a], check=True, capture_output=True, text=True).stdout
    run("generate", "--crawl", "3", "--pages", "8", "--out", tmp_path)
    run("mine", "--all", tmp_path / "crawl.jsonl", "--rules-dir", tmp_path / "rules")
    cli = [json.loads(l) for l in run("clean", "--rules-dir", tmp_path / "rules", "--text", tmp_path / "crawl.jsonl").splitlines()]
    pages = [json.loads(l) for l in (tmp_path / "crawl.jsonl").read_text().splitlines()]
    # one source's rules file missing: its pages are dropped (unknown="skip")
    gone = cli[0]["source"]
    (tmp_path / "rules" / f"{gone}.toml").unlink()
    docs = [Document(text=p["text"], id=p["id"], metadata={"url": p["url"]}) for p in pages]
    out = list(ChaffExtractor(tmp_path / "rules", output="text", batch=5).run(iter(docs)))
    expected = [c for c in cli if c["source"] != gone]
    assert [d.id for d in out] == [c["id"] for c in expected]
    assert [d.text for d in out] == [c["text"] for c in expected]
    assert all("<p>" not in d.text for d in out)
    assert len(out) < len(pages)
