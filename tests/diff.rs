//! `chaff diff --rules OLD --rules NEW CORPUS`: a rules change reviewed as a code change. Golden output
//! on a sample source (the idioms `of the` and `«number» The`, which mining rejects, accepted by an
//! editor), its JSON, and bad input.

use std::path::{Path, PathBuf};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use chaff::rules::{RulesFile, Status};
use run::{chaff, stderr};

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora")
}

/// Mines `source` into a temp folder's `rules/`, writes `rules/new.toml` with the rules whose tokens are
/// in `accept` accepted, and returns the folder.
fn old_and_new(source: &str, accept: &[&[&str]]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let corpus = samples().join(source);
    let o = chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "mine {source}: {}", stderr(&o));
    let old = dir.path().join("rules").join(format!("{source}.toml"));
    let mut file = RulesFile::load(&old).unwrap();
    for tokens in accept {
        let r = file.rules.iter_mut().find(|r| r.tokens == *tokens).unwrap_or_else(|| panic!("no rule {tokens:?}"));
        assert_eq!(r.status, Status::Rejected, "{tokens:?}: an idiom mining rejects");
        r.status = Status::Accepted;
    }
    file.save(&dir.path().join("rules/new.toml")).unwrap();
    dir
}

fn diff(dir: &Path, source: &str, extra: &[&str]) -> std::process::Output {
    let corpus = samples().join(source);
    let old = format!("rules/{source}.toml");
    let mut args = vec!["diff", "--rules", &old, "--rules", "rules/new.toml", "--include-pending"];
    args.extend_from_slice(extra);
    args.push(corpus.to_str().unwrap());
    chaff(&args, dir)
}

const IDIOMS: &[&[&str]] = &[&["of", "the"], &["«number»", "The"]];

#[test]
fn accepting_two_idioms_takes_their_words_from_the_articles_golden() {
    let dir = old_and_new("sevendays", IDIOMS);
    let o = diff(dir.path(), "sevendays", &["--top", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    insta::assert_snapshot!(String::from_utf8(o.stdout).unwrap());
}

#[test]
fn diff_json_counts_each_changed_document_and_its_words() {
    let dir = old_and_new("sevendays", IDIOMS);
    let o = diff(dir.path(), "sevendays", &["--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let changed = v["changed"].as_array().unwrap();
    assert_eq!(changed.len() as u64, v["changed_documents"].as_u64().unwrap());
    assert!(changed.len() > 100 && v["documents"] == 120, "{v}");
    assert_eq!(v["given_back_inside"], 0);
    let removed: u64 = changed.iter().map(|d| d["removed_inside"].as_u64().unwrap()).sum();
    assert!(removed > 400, "{v}");
    assert_eq!(removed, v["removed_inside"].as_u64().unwrap());
    // each run's text is what the rule took
    let first = &changed[0]["removed"][0]["text"];
    assert!(first.as_str().unwrap().contains("of the") || first.as_str().unwrap().contains("The"), "{first}");
    let rules = v["rules"].as_array().unwrap();
    assert_eq!(rules.len(), 2, "{rules:?}");
    assert!(rules.iter().all(|r| r["was"] == "off" && r["is"] == "remove"), "{rules:?}");
    assert!(rules.iter().all(|r| r["evidence"]["generic"] == true), "{rules:?}");
}

#[test]
fn the_same_rules_change_nothing() {
    let dir = old_and_new("comments", &[]);
    let o = diff(dir.path(), "comments", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(out.contains(": 0 of 60 documents change"), "{out}");
    assert!(!out.contains("==="), "{out}");
}

#[test]
fn diff_with_one_rules_file_says_it_takes_two() {
    let dir = old_and_new("comments", &[]);
    let corpus = samples().join("comments");
    let o = chaff(&["diff", "--rules", "rules/new.toml", corpus.to_str().unwrap()], dir.path());
    assert_eq!(o.status.code(), Some(2), "a usage error");
    assert!(stderr(&o).contains("two rules files, --rules OLD.toml --rules NEW.toml"), "{}", stderr(&o));
}

#[test]
fn an_accepted_region_rule_shows_in_the_diff() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("blocks");
    std::fs::create_dir(&corpus).unwrap();
    for i in 0..12 {
        std::fs::write(corpus.join(format!("p{i:02}.html")), chaff::generate::block_page(i)).unwrap();
    }
    let o = chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "mine: {}", stderr(&o));
    // before: the region candidates rejected, the comments stay; after: the comments' rule accepted
    let mut file = RulesFile::load(&dir.path().join("rules/blocks.toml")).unwrap();
    file.regions.iter_mut().for_each(|r| r.status = Status::Rejected);
    file.save(&dir.path().join("rules/old.toml")).unwrap();
    let region =
        file.regions.iter_mut().find(|r| r.element == "div#reactions").expect("the reactions mined as a region");
    region.status = Status::Accepted;
    file.save(&dir.path().join("rules/new.toml")).unwrap();
    let args = [
        "diff",
        "--rules",
        "rules/old.toml",
        "--rules",
        "rules/new.toml",
        "--include-pending",
        "--json",
        corpus.to_str().unwrap(),
    ];
    let o = chaff(&args, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let changed = v["changed"].as_array().unwrap();
    assert_eq!(changed.len(), 12, "every page loses its comments: {v}");
    for d in changed {
        let removed: Vec<&str> = d["removed"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|r| r["text"].as_str().unwrap().split_whitespace())
            .collect();
        assert!(!removed.is_empty() && removed.iter().all(|w| w.starts_with("com")), "{removed:?}");
    }
    assert_eq!(v["given_back_inside"], 0);
}

#[test]
fn the_first_rule_accepted_says_which_words_are_the_stages_it_starts() {
    // nothing accepted, the pending rules not counted: no rule in force, no stage runs
    let dir = tempfile::tempdir().unwrap();
    let corpus = samples().join("html_news");
    let o = chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let mut file = RulesFile::load(&dir.path().join("rules/html_news.toml")).unwrap();
    let r = file.rules.iter_mut().find(|r| r.status == Status::Pending).unwrap();
    r.status = Status::Accepted;
    file.save(&dir.path().join("rules/new.toml")).unwrap();
    let args = ["diff", "--rules", "rules/html_news.toml", "--rules", "rules/new.toml"];
    let o = chaff(&[&args[..], &[corpus.to_str().unwrap()]].concat(), dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert!(
        out.lines().next().unwrap().contains("no rule was in force, and the cleaning stages start: they -"),
        "{out}"
    );
    let o = chaff(&[&args[..], &["--json", corpus.to_str().unwrap()]].concat(), dir.path());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let split = &v["stages_start"];
    assert!(split["stages"]["removed_outside"].as_u64().unwrap() > 0, "{v}");
    assert!(split["change"]["documents"].as_u64().is_some(), "{v}");
    // a change made with a rule in force has none
    let o = chaff(
        &["diff", "--rules", "rules/new.toml", "--rules", "rules/new.toml", "--json", corpus.to_str().unwrap()],
        dir.path(),
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v.get("stages_start").is_none(), "{v}");
}
