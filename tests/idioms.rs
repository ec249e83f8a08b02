//! A source mined alone removes its whole template and no article word: each sample source, mined on
//! its own (`chaff mine <source>`, no other source to compare with) and cleaned with its automatic rules
//! (`chaff clean --include-pending`), against the template spans the generator injected
//! (`*.template.json`): span precision 1 (no article word removed) and recall of the template at least
//! 0.95 in-sample; held out, precision 1 too and recall no further below than measured. And the README's
//! stdin example prints the article whole.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, chaff_stdin, stderr};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// Span counts per (protocol, source), each source mined alone: template characters removed, characters
/// removed, template characters.
fn span_counts() -> BTreeMap<(String, String), (u64, u64, u64)> {
    let samples = root().join("sample-corpora");
    let o = chaff(&["eval", samples.to_str().unwrap(), "--protocol", "both", "--no-idioms", "--json"], &root());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let mut sites = BTreeMap::new();
    for run in v["evaluations"][0]["runs"].as_array().unwrap() {
        let protocol = run["protocol"].as_str().unwrap().to_string();
        for p in run["pages"].as_array().unwrap() {
            let s = &p["spans"][0];
            let x: &mut (u64, u64, u64) =
                sites.entry((protocol.clone(), p["site"].as_str().unwrap().to_string())).or_default();
            x.0 += s["hit"].as_u64().unwrap();
            x.1 += s["removed"].as_u64().unwrap();
            x.2 += s["template"].as_u64().unwrap();
        }
    }
    sites
}

#[test]
fn a_sample_source_mined_alone_removes_its_whole_template_and_no_article_word() {
    let sites = span_counts();
    assert_eq!(sites.len(), 10, "five sources, two protocols: {sites:?}");
    let mut failed = Vec::new();
    for ((protocol, site), (hit, removed, template)) in &sites {
        let precision = *hit as f64 / (*removed).max(1) as f64;
        let recall = *hit as f64 / (*template).max(1) as f64;
        eprintln!("{protocol} {site}: span precision {precision:.4}, recall {recall:.4}");
        // no article word removed, on the pages mined and on the others; at least 0.95 of the template
        // in-sample. Held out, the shortfall measured: html_news keeps more of the byline under each
        // page's headline ("By «name», «section» desk", template to the generator, the article's to the
        // `title` and `datelines` stages)
        let min_recall = if protocol == "held-out" { 0.94 } else { 0.95 };
        let min_precision = 1.0;
        if precision < min_precision || recall < min_recall {
            failed
                .push(format!("{protocol} {site}: precision {precision:.4} ({hit} of {removed}), recall {recall:.4}"));
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}

#[test]
fn the_readme_stdin_example_prints_the_article_whole() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = root().join("sample-corpora/sevendays");
    let o = chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // the record and the output the README shows, read from it: an edit there is checked here
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let (_, rest) = readme.split_once("# or JSON Lines on stdin to stdout: prints ").expect("the stdin example");
    let mut lines = rest.lines();
    let printed = lines.next().unwrap();
    let echo = lines.next().unwrap();
    let record = echo.strip_prefix("echo '").and_then(|e| e.strip_suffix("' \\")).expect("echo '<record>' \\");
    let o =
        chaff_stdin(&["clean", "--rules", "rules/sevendays.toml", "--include-pending"], dir.path(), record.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), printed, "the README says it prints this");
    assert!(printed.contains("\"text\":\"The article.\""), "the article whole: {printed}");
}
