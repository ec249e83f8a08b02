"""chaff.Workspace: documents routed to their source's rules by source or URL, equal to
`chaff clean --rules-dir`; and a WARC written by warcio read by `chaff clean --rules-dir`."""

import gzip
import io
import json
import pickle
import subprocess
import sys

import pytest

import chaff


@pytest.fixture(scope="module")
def crawl(chaff_bin, tmp_path_factory):
    """A generated crawl of 4 sites × 10 pages and the rules `chaff mine --all` writes for it."""
    d = tmp_path_factory.mktemp("crawl")
    subprocess.run([chaff_bin, "generate", "--crawl", "4", "--pages", "10", "--out", d], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(
        [chaff_bin, "mine", "--all", d / "crawl.warc.gz", "--rules-dir", d / "rules"],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return d


def routed_cli(chaff_bin, crawl, *args):
    out = subprocess.run(
        [chaff_bin, "clean", "--rules-dir", crawl / "rules", *args, crawl / "crawl.jsonl"],
        check=True,
        capture_output=True,
    ).stdout
    return [json.loads(line) for line in out.decode().splitlines()]


def test_workspace_routes_by_url_exactly_as_the_cli(chaff_bin, crawl):
    records = [json.loads(line) for line in (crawl / "crawl.jsonl").read_text().splitlines()]
    ws = chaff.Workspace.load(crawl / "rules")
    assert len(ws.sources) == 4
    for output, flags in (("text", ["--text"]), ("cleaned", [])):
        cli = routed_cli(chaff_bin, crawl, "--include-pending", *flags)
        texts = ws.clean_many(
            [r["text"] for r in records], urls=[r["url"] for r in records], include_pending=True, output=output
        )
        assert texts == [r["text"] for r in cli]
        one = ws.clean(records[0]["text"], url=records[0]["url"], include_pending=True, output=output)
        assert one == cli[0]["text"]
        assert texts[0] != records[0]["text"]


def test_a_source_named_wins_and_unknown_sources_pass_or_skip(crawl):
    ws = chaff.Workspace.load(crawl / "rules")
    page = (crawl / "crawl.jsonl").read_text().splitlines()[0]
    rec = json.loads(page)
    source = ws.source_of(url=rec["url"])
    assert source == rec["url"].split("/")[2].removeprefix("www.")
    by_source = ws.clean(rec["text"], source=source, include_pending=True)
    assert by_source == ws.clean(rec["text"], url=rec["url"], include_pending=True)
    assert ws.clean("Some page.", url="https://nobody.example.org/x") == "Some page."
    assert ws.clean("Some page.", url="https://nobody.example.org/x", unknown="skip") is None
    assert ws.clean_many(["a", "b"], sources=[source, "nobody.org"], unknown="skip")[1] is None
    with pytest.raises(chaff.ChaffError, match="source= .* or url="):
        ws.clean("no source")
    with pytest.raises(chaff.ChaffError, match="2 items for 1 docs"):
        ws.clean_many(["x"], urls=["https://a.example/", "https://b.example/"])


def test_a_workspace_pickles_as_its_folder(crawl):
    ws = chaff.Workspace.load(crawl / "rules", group="domain")
    back = pickle.loads(pickle.dumps(ws))
    assert back.source_of(url="https://a.example.co.uk/") == "example.co.uk"
    assert back.sources == ws.sources


def test_a_missing_folder_is_an_error_naming_it(tmp_path):
    with pytest.raises(chaff.ChaffError, match="not a folder of rules files"):
        chaff.Workspace.load(tmp_path / "nope")


def test_a_warc_written_by_warcio_is_read_by_chaff_clean(chaff_bin, tmp_path):
    """warcio (the WARC library of Common Crawl's users) writes the file: gzip members, a warcinfo,
    a request, responses with a charset in their headers, a redirect and an image."""
    try:
        import warcio  # noqa: F401
    except ImportError:
        # CI installs it here; a machine without the registry skips
        got = subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", "warcio"], capture_output=True
        )
        if got.returncode != 0:
            pytest.skip(f"warcio is not installed and pip could not install it: {got.stderr.decode()[-200:]}")
    from warcio.statusandheaders import StatusAndHeaders
    from warcio.warcwriter import WARCWriter

    pages = {
        "https://news.example.com/a": ("utf-8", "<html><body><p>Grüße from A.</p></body></html>"),
        "https://news.example.com/b": ("windows-1251", "<html><body><p>Привет из B.</p></body></html>"),
    }
    path = tmp_path / "warcio.warc.gz"
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)
        w.write_record(w.create_warcinfo_record("warcio.warc.gz", {"software": "warcio"}))
        ids = {}
        for url, (charset, html) in pages.items():
            req = StatusAndHeaders("GET / HTTP/1.1", [("Host", "news.example.com")], is_http_request=True)
            w.write_record(w.create_warc_record(url, "request", http_headers=req))
            body = html.encode(charset)
            headers = StatusAndHeaders("200 OK", [("Content-Type", f"text/html; charset={charset}")], protocol="HTTP/1.1")
            rec = w.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=headers)
            ids[url] = rec.rec_headers.get_header("WARC-Record-ID").strip("<>")
            w.write_record(rec)
        moved = StatusAndHeaders("301 Moved", [("Location", "https://news.example.com/a")], protocol="HTTP/1.1")
        w.write_record(w.create_warc_record("http://news.example.com/", "response", payload=io.BytesIO(b""), http_headers=moved))
        img = StatusAndHeaders("200 OK", [("Content-Type", "image/png")], protocol="HTTP/1.1")
        w.write_record(w.create_warc_record("https://news.example.com/i.png", "response", payload=io.BytesIO(b"\x89PNG"), http_headers=img))
    with gzip.open(path) as g:
        assert g.read(5) == b"WARC/"
    rules = tmp_path / "rules"
    rules.mkdir()
    run = subprocess.run([chaff_bin, "clean", "--rules-dir", rules, path], capture_output=True)
    assert run.returncode == 0, run.stderr.decode()
    out = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert [r["url"] for r in out] == list(pages)
    for r in out:
        assert r["id"] == ids[r["url"]]
        assert r["source"] == "news.example.com"
        assert r["text"] == pages[r["url"]][1]
        assert r["removed_bytes"] == 0
    assert "2 document(s) of 1 source(s) without rules passed through" in run.stderr.decode()
    assert "held no page" in run.stderr.decode()
