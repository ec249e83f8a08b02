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
