//! Golden snapshots of `chaff clean` output: each bundled sample source is mined with the defaults and
//! its first documents cleaned with the automatic rules, as text, as cleaned HTML, as the text a reader
//! sees (`--text`) and with every removal explained (`--explain`). A change to the cleaner that moves any
//! byte of this output shows here; a meant change is reviewed and the snapshot accepted.

use std::fs;
use std::path::{Path, PathBuf};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, stderr};

/// Documents of each source cleaned for the snapshot.
const DOCUMENTS: usize = 3;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora")
}

/// The first documents of a sample source (sorted by name), as paths.
fn first_documents(source: &str) -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = fs::read_dir(samples().join(source))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt" || e == "html"))
        .collect();
    docs.sort();
    docs.truncate(DOCUMENTS);
    docs
}

/// Mines `source` into a temp rules folder and returns (temp dir, rules file).
fn mined(source: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = samples().join(source);
    let o = chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "mine {source}: {}", stderr(&o));
    let rules = dir.path().join("rules").join(format!("{source}.toml"));
    assert!(rules.exists());
    (dir, rules)
}

/// The cleaned output of `source`'s first documents, each under a header naming it.
fn cleaned(source: &str, extra: &[&str]) -> String {
    let (dir, rules) = mined(source);
    let mut out = String::new();
    for doc in first_documents(source) {
        let name = doc.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&doc).unwrap();
        let record = serde_json::json!({ "id": name, "text": text }).to_string();
        let mut args = vec!["clean", "--rules", rules.to_str().unwrap(), "--include-pending"];
        args.extend_from_slice(extra);
        let o = run::chaff_stdin(&args, dir.path(), record.as_bytes());
        assert!(o.status.success(), "clean {source}/{name}: {}", stderr(&o));
        let line: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        out.push_str(&format!("=== {name}\n{}\n", line["text"].as_str().unwrap()));
        if let Some(spans) = line.get("spans") {
            for s in spans.as_array().unwrap() {
                let (start, end) = (s["start"].as_u64().unwrap() as usize, s["end"].as_u64().unwrap() as usize);
                let shown: String = text[start..end].chars().take(60).collect();
                // a range that keeps tags inside it lists the pieces it took
                let pieces =
                    s.get("taken").map_or(String::new(), |t| format!(" ({} pieces)", t.as_array().unwrap().len()));
                out.push_str(&format!("--- {start}..{end}{pieces} {} {} {shown:?}\n", s["kind"], s["rules"]));
            }
        }
    }
    out
}

macro_rules! golden {
    ($name:ident, $source:literal, $($arg:literal),*) => {
        #[test]
        fn $name() {
            insta::assert_snapshot!(cleaned($source, &[$($arg),*]));
        }
    };
}

golden!(sevendays_text, "sevendays",);
golden!(sevendays_explained, "sevendays", "--explain");
golden!(comments_text, "comments",);
golden!(comments_explained, "comments", "--explain");
golden!(optional_parts_text, "optional_parts",);
golden!(mixed_templates_text, "mixed_templates",);
golden!(html_news_html, "html_news",);
golden!(html_news_read_text, "html_news", "--text");
golden!(html_news_keep_tags, "html_news", "--keep-tags");
golden!(html_news_explained, "html_news", "--explain");

/// FNV-1a, 64 bits: a stable hash of an output, so a page's snapshot line moves when any byte does.
fn hash(bytes: &[u8]) -> String {
    let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3));
    format!("{h:016x}")
}

/// Every file under `dir`, sorted, as paths relative to it.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p.strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// The modes a source's pages are cleaned in: the output's flags.
fn modes(html: bool) -> &'static [&'static [&'static str]] {
    if html {
        &[&[], &["--text"], &["--keep-tags"], &["--explain"], &["--explain", "--text"], &["--explain", "--keep-tags"]]
    } else {
        &[&[], &["--explain"]]
    }
}

/// Every page of `source` (a folder of `.txt` or `.html` pages under `work`) mined with the defaults and
/// cleaned folder to folder in every mode, then as JSON Lines on stdin: a line per page and mode with the
/// hash of its output (and of its `--explain` lines).
fn hashed(work: &Path, source: &str, html: bool) -> String {
    let o = chaff(&["mine", source, "--rules-dir", "rules"], work);
    assert!(o.status.success(), "mine {source}: {}", stderr(&o));
    let rules = format!("rules/{source}.toml");
    let mut out = String::new();
    for flags in modes(html) {
        let mode = if flags.is_empty() { "plain".to_string() } else { flags.join(" ") };
        let dest = format!("out-{source}");
        let _ = fs::remove_dir_all(work.join(&dest));
        let mut args = vec!["clean", "--rules", &rules, "--include-pending", source, "--out", &dest];
        args.extend_from_slice(flags);
        let o = chaff(&args, work);
        assert!(o.status.success(), "clean {source} {mode}: {}", stderr(&o));
        // the explain lines of each page, by the path that opens them
        let mut explained: std::collections::BTreeMap<String, Vec<u8>> = Default::default();
        for line in o.stdout.split_inclusive(|&b| b == b'\n') {
            let path = line.split(|&b| b == b'\t').next().unwrap();
            explained.entry(String::from_utf8_lossy(path).into_owned()).or_default().extend_from_slice(line);
        }
        for file in files_under(&work.join(&dest)) {
            let bytes = fs::read(work.join(&dest).join(&file)).unwrap();
            out.push_str(&format!("{source}/{} {mode} {}\n", file.display(), hash(&bytes)));
        }
        for (path, lines) in explained {
            out.push_str(&format!("{path} {mode} explain {}\n", hash(&lines)));
        }
    }
    // JSON Lines on stdin: each record's cleaned line, explained
    let mut records = String::new();
    for file in files_under(&work.join(source)) {
        let text = String::from_utf8_lossy(&fs::read(work.join(source).join(&file)).unwrap()).into_owned();
        records.push_str(&serde_json::json!({ "id": file.display().to_string(), "text": text }).to_string());
        records.push('\n');
    }
    for flags in [&[][..], &["--explain"][..]] {
        let mode = if flags.is_empty() { "jsonl".to_string() } else { format!("jsonl {}", flags.join(" ")) };
        let mut args = vec!["clean", "--rules", &rules, "--include-pending"];
        args.extend_from_slice(flags);
        let o = run::chaff_stdin(&args, work, records.as_bytes());
        assert!(o.status.success(), "clean {source} {mode}: {}", stderr(&o));
        for line in o.stdout.split_inclusive(|&b| b == b'\n') {
            let v: serde_json::Value = serde_json::from_slice(line).unwrap();
            out.push_str(&format!("{source}/{} {mode} {}\n", v["id"].as_str().unwrap(), hash(line)));
        }
    }
    out
}

/// Copies the pages of `from` whose names end in `ext` (not the gold pages) into `to`.
fn copy_pages(from: &Path, to: &Path, ext: &str) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if name.ends_with(ext) && !name.ends_with(".gold.txt") {
            fs::copy(&p, to.join(&name)).unwrap();
        }
    }
}

/// Every page of every sample source, in every mode, hashed.
#[test]
fn every_sample_page_in_every_mode() {
    let work = tempfile::tempdir().unwrap();
    let mut out = String::new();
    for source in ["comments", "html_news", "mixed_templates", "optional_parts", "sevendays"] {
        let html = source == "html_news";
        copy_pages(&samples().join(source), &work.path().join(source), if html { ".html" } else { ".txt" });
        out.push_str(&hashed(work.path(), source, html));
    }
    insta::assert_snapshot!(out);
}

/// The rules files `chaff mine --all sample-corpora` writes (the idiom filter across sources on).
#[test]
fn mine_all_sample_rules_files() {
    let work = tempfile::tempdir().unwrap();
    let o = chaff(&["mine", "--all", samples().to_str().unwrap(), "--rules-dir", "rules"], work.path());
    assert!(o.status.success(), "mine --all: {}", stderr(&o));
    for source in ["comments", "html_news", "mixed_templates", "optional_parts", "sevendays"] {
        let text = fs::read_to_string(work.path().join("rules").join(format!("{source}.toml"))).unwrap();
        insta::assert_snapshot!(format!("mine_all_{source}"), text);
    }
}

/// The shared corpora's pages (absent on a fresh clone: skipped), each site mined on its HTML pages and on
/// its text pages, every page cleaned in every mode, hashed.
fn shared_dataset(dataset: &str) -> Option<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora").join(dataset);
    if !root.is_dir() {
        eprintln!("skipped: {} is absent", root.display());
        return None;
    }
    let mut sites: Vec<PathBuf> =
        fs::read_dir(&root).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()).collect();
    sites.sort();
    let mut out = String::new();
    for site in sites {
        let name = site.file_name().unwrap().to_string_lossy().into_owned();
        for (ext, html) in [(".html", true), (".txt", false)] {
            let work = tempfile::tempdir().unwrap();
            let source = format!("{name}{}", if html { "" } else { "-txt" });
            copy_pages(&site, &work.path().join(&source), ext);
            out.push_str(&hashed(work.path(), &source, html));
        }
    }
    Some(out)
}

// a quarter of an hour in a debug build: CI runs it with `--release -- --ignored`
#[test]
#[ignore]
fn shared_dragnet_pages_in_every_mode() {
    if let Some(out) = shared_dataset("dragnet") {
        insta::assert_snapshot!(out);
    }
}

// a quarter of an hour in a debug build: CI runs it with `--release -- --ignored`
#[test]
#[ignore]
fn shared_cleanportaleval_pages_in_every_mode() {
    if let Some(out) = shared_dataset("cleanportaleval") {
        insta::assert_snapshot!(out);
    }
}
