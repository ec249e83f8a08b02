"""The Python module against the command line: the same rules files, the same output byte for byte."""

import json
import os
import pathlib
import pickle
import subprocess
import threading

import pytest

import chaff
from conftest import SAMPLES, documents, sources


def read(path) -> str:
    return path.read_bytes().decode("utf-8")


@pytest.mark.parametrize("source", sources(), ids=lambda p: p.name)
def test_clean_equals_the_cli_on_every_sample_corpus(chaff_bin, mined, tmp_path, source):
    rules_path = mined / f"{source.name}.toml"
    rules = chaff.Rules.load(rules_path)
    docs = documents(source)
    texts = [read(p) for p in docs]
    outputs = ["cleaned"] + (["text", "keep-tags"] if rules.input == "html" else [])
    for output in outputs:
        out = tmp_path / output
        flags = {"cleaned": [], "text": ["--text"], "keep-tags": ["--keep-tags"]}[output]
        subprocess.run(
            [chaff_bin, "clean", "--rules", rules_path, "--include-pending", *flags, source, "--out", out],
            check=True,
            stderr=subprocess.DEVNULL,
        )
        many = rules.clean_many(texts, include_pending=True, output=output)
        changed = 0
        for path, text, from_many in zip(docs, texts, many):
            name = path.with_suffix(".txt").name if output == "text" else path.name
            expected = read(out / name)
            assert rules.clean(text, include_pending=True, output=output) == expected, path
            assert from_many == expected, path
            changed += expected != text
        assert changed > len(docs) // 2, "the rules removed something from most documents"


def test_explain_matches_the_cli_with_byte_and_character_offsets(chaff_bin, mined):
    rules_path = mined / "sevendays.toml"
    rules = chaff.Rules.load(rules_path)
    # non-ASCII letters before removed spans: byte and character offsets differ
    texts = [read(p).replace("the ", "thé ").replace("a ", "ä ") for p in documents(SAMPLES / "sevendays")]
    lines = "".join(json.dumps({"id": i, "text": t}) + "\n" for i, t in enumerate(texts))
    done = subprocess.run(
        [chaff_bin, "clean", "--rules", rules_path, "--include-pending", "--explain"],
        input=lines.encode(),
        check=True,
        capture_output=True,
    )
    records = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert len(records) == len(texts)
    apart = 0
    for text, record in zip(texts, records):
        spans = rules.explain(text, include_pending=True)
        assert [{k: s[k] for k in ("start", "end", "kind", "rules")} for s in spans] == record["spans"]
        encoded = text.encode("utf-8")
        for s in spans:
            assert text[s["char_start"] : s["char_end"]] == encoded[s["start"] : s["end"]].decode("utf-8")
            apart += s["char_start"] != s["start"]
    assert apart > 0, "some spans start after a non-ASCII letter"


@pytest.mark.parametrize("name,preset", [("sevendays", "text"), ("html_news", "text"), ("comments", "text")])
def test_mine_writes_the_rules_file_chaff_mine_writes(chaff_bin, tmp_path, name, preset):
    subprocess.run(
        [chaff_bin, "mine", SAMPLES / name, "--rules-dir", tmp_path / "cli"], check=True, stdout=subprocess.DEVNULL
    )
    expected = (tmp_path / "cli" / f"{name}.toml").read_text()
    rules = chaff.mine([read(p) for p in documents(SAMPLES / name)], source=name, preset=preset)
    assert rules.to_toml() == expected
    rules.save(tmp_path / "py.toml")
    assert (tmp_path / "py.toml").read_text() == expected
    assert len(rules.rule_ids(include_pending=True)) > 0 and rules.rule_ids() == []


def test_mine_decides_html_as_chaff_mine_does_for_pages_that_start_with_a_wrapper_element(chaff_bin, tmp_path):
    # pages served as fragments: no doctype, no <html>, a wrapper <div> first
    folder = tmp_path / "wrapped"
    folder.mkdir()
    texts = []
    for p in documents(SAMPLES / "html_news"):
        page = read(p)
        body = page[page.index("<body>") + len("<body>") : page.index("</body>")]
        text = f'<div class="page">{body}</div>\n'
        (folder / p.name).write_text(text)
        texts.append(text)
    subprocess.run([chaff_bin, "mine", folder, "--rules-dir", tmp_path / "cli"], check=True, stdout=subprocess.DEVNULL)
    expected = (tmp_path / "cli" / "wrapped.toml").read_text()
    rules = chaff.mine(texts, source="wrapped")
    assert rules.input == "html"
    assert rules.to_toml() == expected


def test_a_byte_order_mark_changes_nothing_that_is_removed(mined):
    rules = chaff.Rules.load(mined / "html_news.toml")
    texts = [read(p) for p in documents(SAMPLES / "html_news")][:20]
    for output in ("cleaned", "text", "keep-tags"):
        plain = rules.clean_many(texts, include_pending=True, output=output)
        marked = rules.clean_many(["\ufeff" + t for t in texts], include_pending=True, output=output)
        assert marked == ["\ufeff" + t for t in plain], output
    spans = rules.explain("\ufeff" + texts[0], include_pending=True)
    assert [(s["start"] - 3, s["end"] - 3) for s in spans] == [
        (s["start"], s["end"]) for s in rules.explain(texts[0], include_pending=True)
    ]


def test_a_malformed_rules_file_raises_with_file_line_and_column_as_the_cli_says(chaff_bin, tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('source = "x"\n[cutoff]\nauto = 5\nchosen = "high"\n')
    with pytest.raises(chaff.ChaffError) as raised:
        chaff.Rules.load(path)
    message = str(raised.value)
    assert message.startswith(f"{path}:4:10:"), message
    assert isinstance(raised.value, ValueError)
    cli = subprocess.run(
        [chaff_bin, "clean", "--rules", path], input=b"", capture_output=True
    )
    assert cli.returncode == 1
    assert cli.stderr.decode().strip() == f"chaff: error: {message}"


def test_bad_input_raises_chaff_errors():
    with pytest.raises(chaff.ChaffError, match="at least two documents"):
        chaff.mine(["only one"], source="lonely")
    with pytest.raises(chaff.ChaffError, match="preset"):
        chaff.mine(["a b", "a b"], source="x", preset="pdf")
    rules = chaff.mine(["a b c\nd", "a b c\ne"], source="tiny")
    with pytest.raises(chaff.ChaffError, match="output"):
        rules.clean("a b c", output="markdown")
    with pytest.raises(chaff.ChaffError, match="no such file|No such file"):
        chaff.Rules.load("/nonexistent/rules.toml")


def test_rules_pickle_as_their_file(mined):
    rules = chaff.Rules.load(mined / "html_news.toml")
    again = pickle.loads(pickle.dumps(rules))
    assert again.to_toml() == rules.to_toml()
    doc = read(documents(SAMPLES / "html_news")[0])
    assert again.clean(doc, include_pending=True) == rules.clean(doc, include_pending=True)


def thread_times() -> dict[int, int]:
    """CPU clock ticks (user + system) of each thread of this process."""
    times = {}
    for task in pathlib.Path("/proc/self/task").iterdir():
        fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        times[int(task.name)] = int(fields[11]) + int(fields[12])
    return times


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="one core: nothing to run in parallel")
def test_clean_many_uses_more_than_one_core(mined):
    rules = chaff.Rules.load(mined / "sevendays.toml")
    base = [read(p) for p in documents(SAMPLES / "sevendays")]
    docs = [base[i % len(base)] + f" {i}" for i in range(10_000)]
    rules.clean_many(docs[:100], include_pending=True)  # the cleaner is built once, outside the clock
    before = thread_times()
    cleaned = rules.clean_many(docs, include_pending=True)
    after = thread_times()
    assert len(cleaned) == len(docs)
    # however busy the machine, the work is spread over threads other than the caller's
    main = threading.get_native_id()
    workers = [t for t in after if t != main and after[t] > before.get(t, 0)]
    # CPU time against wall time is not asked: on a machine busy with other work it says nothing
    assert len(workers) >= 2, f"threads that worked besides the caller: {workers}"


def test_diff_gives_the_numbers_chaff_diff_prints(chaff_bin, tmp_path):
    # a source nothing is accepted of, then one candidate accepted: the stages start with it
    source = SAMPLES / "html_news"
    subprocess.run([chaff_bin, "mine", source, "--rules-dir", tmp_path], check=True, stdout=subprocess.DEVNULL)
    old_path = tmp_path / "html_news.toml"
    new_path = tmp_path / "new.toml"
    new_path.write_text(old_path.read_text().replace('status = "pending"', 'status = "accepted"', 1))
    old, new = chaff.Rules.load(old_path), chaff.Rules.load(new_path)
    docs = [read(p) for p in documents(source)]
    got = old.diff(new, docs)
    cli = json.loads(
        subprocess.run(
            [chaff_bin, "diff", "--rules", old_path, "--rules", new_path, "--json", source],
            check=True,
            capture_output=True,
        ).stdout
    )
    keys = ["documents", "changed_documents", "removed_inside", "removed_outside"]
    keys += ["given_back_inside", "given_back_outside"]
    assert {k: got[k] for k in keys} == {k: cli[k] for k in keys}
    assert got["changed_documents"] > 0 and len(got["changed"]) == got["changed_documents"]
    assert got["stages_start"] == cli["stages_start"]
    first = got["changed"][0]
    assert first["removed"] and {"start", "end", "words", "inside"} <= set(first["removed"][0])
    # the same rules change nothing
    assert new.diff(new, docs)["changed_documents"] == 0
