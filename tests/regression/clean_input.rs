//! Regressions of how `chaff clean` reads documents and where it writes them: bytes it could not read
//! exactly are never written over, byte order marks and UTF-16 are read, JSON Lines records come back
//! whole, and every failure names what it was about.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::clean_io::{TEMPLATE, count_files, doc, rules};
use crate::run::{chaff, chaff_stdin, stderr};

/// A temp dir with `rules.toml` (text) and an empty `docs/`.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    rules(dir.path(), "text");
    fs::create_dir(dir.path().join("docs")).unwrap();
    dir
}

#[test]
fn in_place_refuses_a_document_it_could_not_decode_exactly() {
    let dir = fixture();
    let p = dir.path();
    // UTF-8 with a stray byte: read as UTF-8, the byte replaced, so its text is not its bytes
    let broken = b"Caf\xc3\xa9 cr\xc3\xa8me \xff, the article tells its story.\nRead more about it\n".to_vec();
    fs::write(p.join("docs/a.txt"), &broken).unwrap();
    fs::write(p.join("docs/b.txt"), doc(1)).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--in-place"], p);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("docs/a.txt: not read exactly as UTF-8"), "names the file and why: {err}");
    assert!(err.contains("--out") && err.contains("--encoding"), "says what to do: {err}");
    assert_eq!(fs::read(p.join("docs/a.txt")).unwrap(), broken, "not a byte lost");
    let b = fs::read_to_string(p.join("docs/b.txt")).unwrap();
    assert!(!b.contains(TEMPLATE) && b.contains("article number 1"), "the others are cleaned: {b}");
    // into another folder the lossy text may be written, with the warning
    let o = chaff(&["clean", "--rules", "rules.toml", "docs/a.txt", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("replaced with U+FFFD"), "{}", stderr(&o));
    assert!(fs::read_to_string(p.join("out/a.txt")).unwrap().starts_with("Café crème \u{FFFD}"));
}

#[test]
fn in_place_writes_documents_in_legacy_encodings_back_in_their_encoding() {
    let dir = fixture();
    let p = dir.path();
    // windows-1252, KOI8-R and Shift_JIS bytes: none of them UTF-8, each read exactly in its encoding
    let latin1 = b"Caf\xe9 cr\xe8me, the article tells its story.\nRead more about it\n".to_vec();
    let koi8 = b"\xf7\xc5\xd3\xd4\xc9 article of the day.\nRead more about it\n".to_vec();
    let sjis = b"<p>\x93\xfa\x96\x7b\x8c\xea article.</p><p>Read more about it</p>".to_vec();
    for (name, bytes) in [("a.txt", &latin1), ("c.txt", &koi8), ("d.html", &sjis)] {
        fs::write(p.join("docs").join(name), bytes).unwrap();
    }
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--in-place"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    // text rules on a page: its markup glues the template to tags, nothing matches; written back as read
    assert_eq!(fs::read(p.join("docs/d.html")).unwrap(), sjis);
    for (name, bytes) in [("a.txt", &latin1), ("c.txt", &koi8)] {
        let out = fs::read(p.join("docs").join(name)).unwrap();
        let kept = &bytes[..bytes.windows(4).position(|w| w == b"Read").unwrap()];
        let kept = kept.trim_ascii_end();
        assert!(out.starts_with(kept), "{name}: its bytes kept: {out:?}");
        assert!(!out.windows(4).any(|w| w == b"Read"), "{name}: the template gone: {out:?}");
    }
}

#[test]
fn a_batch_with_a_page_holding_a_nul_byte_fails_at_the_end() {
    let dir = fixture();
    let p = dir.path();
    for i in 0..3 {
        fs::write(p.join(format!("docs/{i}.txt")), doc(i)).unwrap();
    }
    fs::write(p.join("docs/1.txt"), b"An article\0 with a NUL byte.\nRead more about it\n").unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "out"], p);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("docs/1.txt: binary file (NUL bytes)"), "{err}");
    assert!(err.contains("1 input(s) failed"), "{err}");
    assert_eq!(count_files(&p.join("out")), 2, "the others are cleaned");
}

#[test]
fn in_place_text_refuses_to_replace_a_file_that_is_not_an_input() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    rules(p, "html");
    fs::create_dir(p.join("site")).unwrap();
    fs::write(p.join("site/117.html"), "<p>The page's article.</p><p>Read more about it</p>").unwrap();
    fs::write(p.join("site/117.txt"), "An editor's notes, no input.\n").unwrap();
    fs::write(p.join("site/118.html"), "<p>Another article.</p><p>Read more about it</p>").unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "--text", "--in-place", "site/117.html", "site/118.html"], p);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("site/117.txt"), "names the file: {err}");
    assert!(err.contains("not an input"), "{err}");
    assert_eq!(fs::read_to_string(p.join("site/117.txt")).unwrap(), "An editor's notes, no input.\n");
    assert!(!p.join("site/118.txt").exists(), "nothing written");
    // the same pages into a folder of their own are fine
    let o = chaff(&["clean", "--rules", "rules.toml", "--text", "site/117.html", "site/118.html", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    // and a page over itself is what --in-place is for, named through a symbolic link too
    std::os::unix::fs::symlink("118.html", p.join("site/link.html")).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "--in-place", "site/117.html", "site/link.html"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!fs::read_to_string(p.join("site/117.html")).unwrap().contains(TEMPLATE));
}

fn utf16(text: &str, big_endian: bool) -> Vec<u8> {
    let mut out = if big_endian { vec![0xFE, 0xFF] } else { vec![0xFF, 0xFE] };
    for u in text.encode_utf16() {
        out.extend_from_slice(&if big_endian { u.to_be_bytes() } else { u.to_le_bytes() });
    }
    out
}

#[test]
fn utf16_pages_with_a_byte_order_mark_are_read_and_written_back_in_utf16() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    rules(p, "html");
    fs::create_dir(p.join("site")).unwrap();
    let page = "<title>Ünïcode 𝄞</title><p>The article, at length.</p><p>Read more about it</p>";
    let (le, be) = (utf16(page, false), utf16(page, true));
    fs::write(p.join("site/le.html"), &le).unwrap();
    fs::write(p.join("site/be.html"), &be).unwrap();
    fs::create_dir(p.join("utf8")).unwrap();
    fs::write(p.join("utf8/page.html"), page).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "site", "utf8", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let expected = fs::read_to_string(p.join("out/page.html")).unwrap();
    assert!(!expected.contains(TEMPLATE) && expected.contains("The article"), "{expected}");
    for (name, big_endian) in [("le.html", false), ("be.html", true)] {
        let written = fs::read(p.join("out").join(name)).unwrap();
        assert_eq!(written, utf16(&expected, big_endian), "{name}: cleaned as UTF-8 is, in its own encoding");
    }
    let o = chaff(&["clean", "--rules", "rules.toml", "site", "--in-place", "--explain"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read(p.join("site/be.html")).unwrap(), utf16(&expected, true));
    // the explained span is the file's bytes: the template's UTF-16 range
    let out = String::from_utf8(o.stdout).unwrap();
    let line = out.lines().find(|l| l.starts_with("site/le.html")).expect("explained");
    let range: Vec<usize> = line.split('\t').nth(1).unwrap().split("..").map(|n| n.parse().unwrap()).collect();
    let before = utf16(&page[..page.find("Read").unwrap()], false).len();
    assert_eq!(range[0], before, "{line}");
    assert_eq!(range[1] - range[0], 2 * TEMPLATE.len(), "{line}");
    // an unpaired surrogate is not read exactly: not rewritten in place
    let mut broken = utf16("<p>An article ", false);
    broken.extend_from_slice(&[0x00, 0xD8]);
    broken.extend_from_slice(&utf16("and more.</p><p>Read more about it</p>", false)[2..]);
    fs::write(p.join("site/broken.html"), &broken).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "site/broken.html", "--in-place"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("site/broken.html: not read exactly as UTF-16"), "{}", stderr(&o));
    assert_eq!(fs::read(p.join("site/broken.html")).unwrap(), broken);
}

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora")
}

/// `dir/plain/html_news` and `dir/bom/html_news`: the sample HTML pages, without and with a byte order mark.
fn pages_with_and_without_bom(dir: &Path) {
    for kind in ["plain", "bom"] {
        fs::create_dir_all(dir.join(kind).join("html_news")).unwrap();
    }
    for e in fs::read_dir(samples().join("html_news")).unwrap() {
        let path = e.unwrap().path();
        if path.extension().is_none_or(|x| x != "html") {
            continue;
        }
        let bytes = fs::read(&path).unwrap();
        let name = path.file_name().unwrap();
        fs::write(dir.join("plain/html_news").join(name), &bytes).unwrap();
        fs::write(dir.join("bom/html_news").join(name), [b"\xEF\xBB\xBF".as_slice(), &bytes].concat()).unwrap();
    }
}

/// The sorted (name, bytes) of a folder's files.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let path = e.unwrap().path();
            (path.file_name().unwrap().to_string_lossy().into_owned(), fs::read(&path).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[test]
fn a_utf8_byte_order_mark_changes_nothing_that_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    pages_with_and_without_bom(p);
    for kind in ["plain", "bom"] {
        let o = chaff(&["mine", &format!("{kind}/html_news"), "--rules-dir", &format!("rules-{kind}")], p);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(
        fs::read_to_string(p.join("rules-bom/html_news.toml")).unwrap(),
        fs::read_to_string(p.join("rules-plain/html_news.toml")).unwrap(),
        "mining reads past the byte order mark"
    );
    let rules = "rules-plain/html_news.toml";
    for flag in ["--text", "--keep-tags", "--explain"] {
        let mut explained = Vec::new();
        for kind in ["plain", "bom"] {
            let out = format!("out-{kind}{flag}");
            let o = chaff(
                &["clean", "--rules", rules, "--include-pending", flag, &format!("{kind}/html_news"), "--out", &out],
                p,
            );
            assert!(o.status.success(), "{}", stderr(&o));
            explained.push(String::from_utf8(o.stdout).unwrap());
        }
        let (plain, bom) = (files(&p.join(format!("out-plain{flag}"))), files(&p.join(format!("out-bom{flag}"))));
        assert_eq!(plain.len(), 60);
        for ((name, a), (_, b)) in plain.iter().zip(&bom) {
            assert!(b.starts_with(b"\xEF\xBB\xBF"), "{flag} {name}: the output keeps the byte order mark");
            assert!(a[..] == b[3..], "{flag} {name}: the same output as without it");
        }
        if flag == "--explain" {
            // offsets are the file's bytes: each 3 further on
            let shifted: Vec<String> = explained[0]
                .lines()
                .map(|l| {
                    let f: Vec<&str> = l.splitn(3, '\t').collect();
                    // a range, or the pieces it took, comma-separated
                    let pieces: Vec<String> = f[1]
                        .split(',')
                        .map(|piece| {
                            let r: Vec<usize> = piece.split("..").map(|n| n.parse().unwrap()).collect();
                            format!("{}..{}", r[0] + 3, r[1] + 3)
                        })
                        .collect();
                    format!("{}\t{}\t{}", f[0].replace("plain", "bom"), pieces.join(","), f[2])
                })
                .collect();
            assert!(!shifted.is_empty());
            assert_eq!(explained[1].lines().collect::<Vec<_>>(), shifted);
        }
    }
    // a JSON Lines record's text with a byte order mark: the same, the mark kept, offsets after it
    let page = fs::read_to_string(p.join("plain/html_news/0001.html")).unwrap();
    let input = format!(
        "{}\n{}\n",
        serde_json::json!({"id": 1, "text": page}),
        serde_json::json!({"id": 1, "text": format!("\u{FEFF}{page}")})
    );
    let o = chaff_stdin(&["clean", "--rules", rules, "--include-pending", "--explain"], p, input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out: Vec<serde_json::Value> =
        String::from_utf8(o.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let text = |i: usize| out[i]["text"].as_str().unwrap().to_string();
    assert_eq!(text(1), format!("\u{FEFF}{}", text(0)));
    let spans = |i: usize| out[i]["spans"].as_array().unwrap().clone();
    assert!(!spans(0).is_empty());
    for (a, b) in spans(0).iter().zip(&spans(1)) {
        assert_eq!(a["start"].as_u64().unwrap() + 3, b["start"].as_u64().unwrap());
        assert_eq!(a["end"].as_u64().unwrap() + 3, b["end"].as_u64().unwrap());
    }
}

#[test]
fn json_lines_fields_besides_id_and_text_come_back_as_read() {
    let dir = fixture();
    let input = concat!(
        "{\"url\": \"https://example.org/a?b=1\", \"id\": 7, \"meta\": {\"tags\": [\"x\", 2.50], \"n\": null},",
        " \"text\": \"The article. Read more about it\", \"fetched\": 1.7e9, \"source\": \"s\\u00e9\"}\n",
        "{\"text\": \"Only text. Read more about it\", \"id\": \"b\", \"removed_bytes\": 3}\n"
    );
    let o = chaff_stdin(&["clean", "--rules", "rules.toml"], dir.path(), input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "{\"url\":\"https://example.org/a?b=1\",\"id\":7,\"meta\":{\"tags\": [\"x\", 2.50], \"n\": null},\"text\":\"The article.\",\"fetched\":1.7e9,\"source\":\"s\\u00e9\",\"removed_bytes\":19}"
    );
    assert_eq!(lines[1], "{\"text\":\"Only text.\",\"id\":\"b\",\"removed_bytes\":19}", "a stale count is replaced");
}

#[test]
fn a_lone_surrogate_escape_in_json_lines_text_is_replaced_and_named() {
    let dir = fixture();
    let input = "{\"id\": 1, \"text\": \"ok\"}\n{\"id\": 2, \"text\": \"a \\ud800 b \\udc00\\ud83d\\ude00 Read more about it\"}\n";
    let o = chaff_stdin(&["clean", "--rules", "rules.toml"], dir.path(), input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("stdin:2: 2 lone surrogate escape(s)"), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let second: serde_json::Value = serde_json::from_str(out.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["text"], "a \u{FFFD} b \u{FFFD}\u{1F600}");
    // a .jsonl corpus reads the same
    let line = "{\"id\": 1, \"text\": \"Permanent link \\ud800 here and the body\"}\n";
    fs::write(dir.path().join("c.jsonl"), line.repeat(3)).unwrap();
    let o = chaff(&["stats", "c.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn a_full_disk_on_stdout_names_what_was_being_written() {
    let dir = fixture();
    let p = dir.path();
    let run = |args: &[&str], input: &[u8]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
            .args(args)
            .current_dir(p)
            .stdin(Stdio::piped())
            .stdout(fs::File::create("/dev/full").unwrap())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(input).unwrap();
        child.wait_with_output().unwrap()
    };
    let o = run(&["clean", "--rules", "rules.toml"], b"{\"id\": 1, \"text\": \"a\"}\n");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("writing the cleaned JSON Lines to stdout: No space left on device"), "{}", stderr(&o));
    fs::write(p.join("docs/a.txt"), doc(1)).unwrap();
    let o = run(&["clean", "--rules", "rules.toml", "docs", "--out", "out", "--explain"], b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("writing the explanation to stdout: No space left on device"), "{}", stderr(&o));
}

#[test]
fn explain_offsets_of_a_document_with_invalid_utf8_are_the_files_bytes() {
    let dir = fixture();
    let p = dir.path();
    let bytes = b"Caf\xe9 \xff\xfe\xfd cr\xe8me\nRead more about it\n\xc3 Read more about it\nThe article tells its story at length, here.\nRead more about it";
    fs::write(p.join("docs/a.txt"), bytes).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "out", "--explain"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let mut templates = 0;
    for line in out.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let r: Vec<usize> = f[1].split("..").map(|n| n.parse().unwrap()).collect();
        assert!(r[0] <= r[1] && r[1] <= bytes.len(), "within the file: {line}");
        let covered = String::from_utf8_lossy(&bytes[r[0]..r[1]]);
        let flat = covered.split_whitespace().collect::<Vec<_>>().join(" ");
        assert_eq!(flat, f[5], "the span covers exactly the bytes shown: {line}");
        // a removed span takes the whitespace that joined it to the text before it
        templates += usize::from(covered.trim() == TEMPLATE);
    }
    assert_eq!(templates, 3, "{out}");
}
