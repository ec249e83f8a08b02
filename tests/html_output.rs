//! Cleaned HTML read back as a browser reads it: the page `chaff clean` writes by default must parse as a
//! page whose visible text is the cleaned text (`--text`), on the sample corpora and on real sites.

use std::fs;
use std::path::{Path, PathBuf};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use chaff::view::PageView;
use run::{chaff, stderr};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora")
}

fn shared() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpora")
}

fn words(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Copies the `.html` pages of `site` (at most `limit`) into a folder of their own: real sites hold
/// `.txt` copies beside them, which `chaff` would read too.
fn pages_of(site: &Path, limit: usize, into: &Path) {
    fs::create_dir_all(into).unwrap();
    let mut pages: Vec<PathBuf> = fs::read_dir(site)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    pages.sort();
    for p in pages.into_iter().take(limit) {
        fs::copy(&p, into.join(p.file_name().unwrap())).unwrap();
    }
}

/// Mines the pages in `pages`, cleans them by default and with `--text`, and returns the pages whose
/// cleaned HTML, read back, does not show the `--text` output (whitespace aside), and how many there are.
fn unreadable(pages: &Path) -> (Vec<String>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let o = chaff(&["mine", pages.to_str().unwrap(), "--source", "site", "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "mine {}: {}", pages.display(), stderr(&o));
    let rules = dir.path().join("rules/site.toml");
    let (html, text) = (dir.path().join("html"), dir.path().join("text"));
    for (out, extra) in [(&html, None), (&text, Some("--text"))] {
        let mut args = vec!["clean", "--rules", rules.to_str().unwrap(), "--include-pending"];
        args.extend(extra);
        args.extend([pages.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        let o = chaff(&args, dir.path());
        assert!(o.status.success(), "clean {}: {}", pages.display(), stderr(&o));
    }
    let mut bad = Vec::new();
    let mut n = 0;
    for e in fs::read_dir(&html).unwrap() {
        let path = e.unwrap().path();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let cleaned = fs::read_to_string(&path).unwrap();
        let want = fs::read_to_string(text.join(format!("{stem}.txt"))).unwrap();
        n += 1;
        let seen = PageView::of_html(&cleaned);
        if words(seen.text()) != words(&want) {
            bad.push(format!("{}/{stem}: shows {:?}…, want {:?}…", pages.display(), cut(seen.text()), cut(&want)));
        }
    }
    (bad, n)
}

fn cut(s: &str) -> String {
    words(s).chars().take(120).collect()
}

#[test]
fn cleaned_html_reads_back_as_the_cleaned_text_on_the_sample_pages() {
    let (bad, n) = unreadable(&samples().join("html_news"));
    assert!(n >= 60, "{n} pages");
    assert!(bad.is_empty(), "{} of {n} pages do not read back as their text:\n{}", bad.len(), bad.join("\n"));
}

#[test]
fn cleaned_html_reads_back_as_the_cleaned_text_on_real_sites() {
    let root = shared();
    if !root.exists() {
        eprintln!("skipped: {} is absent", root.display());
        return;
    }
    // every site of both datasets, every page of each
    let mut sites: Vec<PathBuf> = ["dragnet", "cleanportaleval"]
        .iter()
        .filter_map(|d| fs::read_dir(root.join(d)).ok())
        .flat_map(|entries| entries.map(|e| e.unwrap().path()))
        .filter(|p| p.is_dir())
        .collect();
    sites.sort();
    let dir = tempfile::tempdir().unwrap();
    let (mut bad, mut n) = (Vec::new(), 0);
    for from in sites {
        let site = from.strip_prefix(&root).unwrap().to_string_lossy().into_owned();
        let pages = dir.path().join(site.replace('/', "_"));
        pages_of(&from, 30, &pages);
        let (b, k) = unreadable(&pages);
        bad.extend(b);
        n += k;
    }
    assert!(n >= 400, "{n} pages");
    assert!(bad.is_empty(), "{} of {n} pages do not read back as their text:\n{}", bad.len(), bad.join("\n"));
}
