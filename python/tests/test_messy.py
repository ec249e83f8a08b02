"""Documents as pipelines hand them over: None in a batch, bytes in any encoding, unpaired surrogates,
rules files with keys chaff does not read, a folder with a broken rules file. A bad document fails
alone; nothing else is lost."""

import pickle
import subprocess

import pytest

import chaff
from conftest import SAMPLES, documents


def read(path) -> str:
    return path.read_bytes().decode("utf-8")


@pytest.fixture(scope="module")
def sevendays():
    texts = [read(p) for p in documents(SAMPLES / "sevendays")]
    return chaff.mine(texts, source="sevendays"), texts


def test_a_bad_document_in_a_batch_fails_alone_and_the_rest_are_cleaned(sevendays):
    rules, texts = sevendays
    docs = list(texts[:8])
    docs[3] = None
    docs[5] = b"binary\x00page"
    with pytest.raises(chaff.BatchError) as raised:
        rules.clean_many(docs, include_pending=True)
    e = raised.value
    assert isinstance(e, chaff.ChaffError)
    assert [i for i, _ in e.errors] == [3, 5]
    assert "NoneType" in dict(e.errors)[3] and "NUL" in dict(e.errors)[5]
    assert str(e).startswith("2 of 8 document(s) not cleaned"), str(e)
    assert "document 3: " in str(e)
    for i, (doc, out) in enumerate(zip(docs, e.results)):
        if i in (3, 5):
            assert out is None
        else:
            assert out == rules.clean(doc, include_pending=True)
            assert out != doc


def test_a_batch_of_good_documents_returns_its_results_in_order(sevendays):
    rules, texts = sevendays
    docs = (texts * 3)[:50]
    one_by_one = [rules.clean(d, include_pending=True) for d in docs]
    assert rules.clean_many(docs, include_pending=True) == one_by_one
    assert rules.clean_many(list(reversed(docs)), include_pending=True) == list(reversed(one_by_one))
    assert rules.clean_many(tuple(docs), include_pending=True) == one_by_one
    assert rules.clean_many([], include_pending=True) == []
    with pytest.raises(TypeError, match="one document"):
        rules.clean_many(docs[0])


def test_bytes_in_any_encoding_are_cleaned_into_the_bytes_chaff_clean_writes(chaff_bin, sevendays, tmp_path):
    rules, texts = sevendays
    path = tmp_path / "sevendays.toml"
    rules.save(path)
    folder = tmp_path / "in"
    folder.mkdir()
    encoded = []
    for i, text in enumerate(texts[:6]):
        # UTF-16 with its mark, UTF-8 with and without one
        data = [b"\xff\xfe" + text.encode("utf-16-le"), b"\xef\xbb\xbf" + text.encode(), text.encode()][i % 3]
        (folder / f"{i}.txt").write_bytes(data)
        encoded.append(data)
    subprocess.run(
        [chaff_bin, "clean", "--rules", path, "--include-pending", folder, "--out", tmp_path / "out"],
        check=True,
        stderr=subprocess.DEVNULL,
    )
    expected = [(tmp_path / "out" / f"{i}.txt").read_bytes() for i in range(len(encoded))]
    assert [rules.clean(d, include_pending=True) for d in encoded] == expected
    assert rules.clean_many(encoded, include_pending=True) == expected
    assert expected[0] != encoded[0] and expected[0].startswith(b"\xff\xfe")


def test_a_legacy_encoded_html_page_given_as_bytes_is_read_by_its_declaration():
    pages = [
        f'<html><head><meta charset="windows-1251"><title>Новости</title></head><body>'
        f"<nav>Главная | Политика | Спорт</nav><p>Статья номер {i}: {'слово ' * (5 + i)}</p>"
        f"<footer>© Новости 2024</footer></body></html>"
        for i in range(6)
    ]
    rules = chaff.mine(pages, source="legacy")
    as_bytes = [p.encode("windows-1251") for p in pages]
    for page, data in zip(pages, as_bytes):
        out = rules.clean(data, include_pending=True)
        assert isinstance(out, bytes)
        assert out.decode("windows-1251") == rules.clean(page, include_pending=True)
        text = rules.clean(data, include_pending=True, output="text")
        # a legacy page's reader text is a new document with no declaration: UTF-8, as chaff clean --text
        assert text.decode("utf-8") == rules.clean(page, include_pending=True, output="text")


def test_unpaired_surrogates_are_read_as_replacement_characters_with_a_warning(sevendays):
    rules, texts = sevendays
    doc = texts[0] + " broken \ud800 pair"
    with pytest.warns(UserWarning, match="1 unpaired surrogate"):
        out = rules.clean(doc, include_pending=True)
    assert out == rules.clean(texts[0] + " broken \ufffd pair", include_pending=True)
    with pytest.warns(UserWarning, match="document 1: 1 unpaired surrogate"):
        many = rules.clean_many([texts[1], doc], include_pending=True)
    assert many[1] == out


def test_rules_warn_of_keys_chaff_does_not_read(sevendays, tmp_path):
    rules, _ = sevendays
    text = rules.to_toml().replace('status = "pending"', 'stauts = "accepted"', 1)
    path = tmp_path / "typo.toml"
    path.write_text(text)
    with pytest.warns(UserWarning, match=rf"{path}:\d+:\d+: .*stauts"):
        chaff.Rules.load(path)
    with pytest.warns(UserWarning, match=r"typo\.toml:\d+:\d+: .*stauts"):
        chaff.Rules.from_toml(text, name="typo.toml")
    ws_dir = tmp_path / "ws"
    ws_dir.mkdir()
    (ws_dir / "sevendays.toml").write_text(text)
    ws = chaff.Workspace.load(ws_dir)
    with pytest.warns(UserWarning, match="stauts"):
        ws.clean_many(["a page"], sources=["sevendays"])


def test_a_source_with_an_unusable_rules_file_fails_only_its_documents(sevendays, tmp_path):
    rules, texts = sevendays
    rules.save(tmp_path / "sevendays.toml")
    (tmp_path / "broken.toml").write_text('source = "broken"\n[cutoff\n')
    ws = chaff.Workspace.load(tmp_path)
    docs = [texts[0], "broken page", texts[1], "escaping page", "no source", b"raw", None]
    sources = ["sevendays", "broken", "sevendays", "../x", None, "nobody", "sevendays"]
    with pytest.raises(chaff.BatchError) as raised:
        ws.clean_many(docs, sources=sources, include_pending=True)
    e = raised.value
    assert [i for i, _ in e.errors] == [1, 3, 4, 6]
    errors = dict(e.errors)
    assert "broken.toml:2:" in errors[1] and "source=" in errors[4]
    assert e.results[0] == rules.clean(texts[0], include_pending=True)
    assert e.results[2] == rules.clean(texts[1], include_pending=True)
    # a source without rules passes its document through as it came
    assert e.results[5] == b"raw"
    assert [e.results[i] for i in (1, 3, 4, 6)] == [None] * 4


def test_a_spark_binary_value_is_read_as_bytes(sevendays):
    rules, texts = sevendays
    data = texts[0].encode("utf-16")
    assert rules.clean(bytearray(data), include_pending=True) == rules.clean(data, include_pending=True)
