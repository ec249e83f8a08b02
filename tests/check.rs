//! `chaff check` on the real binary: a source whose template changed halfway drifts and exits 3; new
//! pages in the old template exit 0; bad input is a one-line error.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use chaff::generate::{GeneratedDoc, redesigned};

fn chaff(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaff")).args(args).current_dir(dir).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Writes `docs` into `dir/name/` as `<id>.txt`.
fn write_docs(dir: &Path, name: &str, docs: &[GeneratedDoc]) {
    let folder = dir.join(name);
    fs::create_dir_all(&folder).unwrap();
    for d in docs {
        fs::write(folder.join(format!("{}.txt", d.id)), &d.text).unwrap();
    }
}

/// A temp dir with `mined/` (the first 30 pages of a 120-page source whose template changes at page 60),
/// its rules in `rules/ledger.toml`, and the rest of its pages: `old/` (pages 31-60, the old template),
/// `new/` (61-120) and `later/` (31-120: the redesign halfway through).
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let source = redesigned(120, 11);
    write_docs(dir.path(), "mined", &source.docs[..30]);
    write_docs(dir.path(), "old", &source.docs[30..60]);
    write_docs(dir.path(), "new", &source.docs[60..]);
    write_docs(dir.path(), "later", &source.docs[30..]);
    let o = chaff(&["mine", "mined", "--source", "ledger", "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", text(&o.stderr));
    dir
}

fn check_json(dir: &Path, docs: &str) -> (Option<i32>, serde_json::Value) {
    let o = chaff(&["check", "--rules", "rules/ledger.toml", "--include-pending", "--json", docs], dir);
    (o.status.code(), serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("{e}: {}", text(&o.stderr))))
}

#[test]
fn a_template_changed_halfway_drifts_and_exits_3() {
    let dir = fixture();
    let o = chaff(&["check", "--rules", "rules/ledger.toml", "--include-pending", "later"], dir.path());
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(3), "{out}{}", text(&o.stderr));
    let verdict = out.lines().last().unwrap();
    assert!(verdict.starts_with("DRIFT: ledger: "), "{verdict}");
    let (code, v) = check_json(dir.path(), "later");
    assert_eq!(code, Some(3));
    let drift = v["drift"].as_f64().unwrap();
    // 60 of the 90 later pages are redesigned: two thirds of the header and footer are gone (phrases of
    // the articles, mined too, still match)
    assert!((0.3..0.85).contains(&drift), "drift {drift}");
    assert_eq!(v["drifted"], true);
    assert_eq!(v["documents_now"], 90);
    assert_eq!(v["documents_then"], 30);
}

#[test]
fn rules_that_match_no_new_page_are_listed_as_stopped() {
    let dir = fixture();
    let (code, v) = check_json(dir.path(), "new");
    assert_eq!(code, Some(3));
    let rules = v["rules"].as_array().unwrap();
    let stopped = v["stopped"].as_array().unwrap();
    assert!(!stopped.is_empty());
    // the header and footer strings: each was on every mined page and is on no new one
    let full: Vec<_> = rules
        .iter()
        .filter(|r| r["then"].as_f64().unwrap() >= 0.99 && r["bytes_then"].as_f64().unwrap() >= 50.0)
        .collect();
    assert!(!full.is_empty());
    assert!(full.iter().all(|r| r["stopped"] == true && r["now"].as_f64().unwrap() == 0.0), "{full:?}");
}

#[test]
fn new_pages_in_the_same_template_exit_0() {
    let dir = fixture();
    let o = chaff(&["check", "--rules", "rules/ledger.toml", "--include-pending", "old"], dir.path());
    let out = text(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}{}", text(&o.stderr));
    assert!(out.lines().last().unwrap().starts_with("ok: ledger: drift "), "{out}");
    let (_, v) = check_json(dir.path(), "old");
    assert!(v["drift"].as_f64().unwrap() < 0.1, "{v}");
    assert!(v["stopped"].as_array().unwrap().is_empty(), "{v}");
    assert!(v["removed_now"].as_f64().unwrap() > 0.05, "cleaning removes the template: {v}");
}

#[test]
fn max_drift_sets_the_threshold() {
    let dir = fixture();
    let o = chaff(
        &["check", "--rules", "rules/ledger.toml", "--include-pending", "--max-drift", "0.95", "later"],
        dir.path(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stdout));
    let o =
        chaff(&["check", "--rules", "rules/ledger.toml", "--include-pending", "--max-drift", "2", "later"], dir.path());
    assert_eq!(o.status.code(), Some(2), "a usage error");
    assert!(text(&o.stderr).contains("--max-drift 2: give a share between 0 and 1"), "{}", text(&o.stderr));
}

#[test]
fn bad_input_is_a_one_line_error() {
    let dir = fixture();
    // the mined rules are pending: without --include-pending there is nothing to check
    let o = chaff(&["check", "--rules", "rules/ledger.toml", "old"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let err = text(&o.stderr);
    assert!(err.contains("no accepted rules") && err.contains("--include-pending"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    fs::write(dir.path().join("bad.toml"), "source = \"x\"\n[cutoff]\nauto = 5\nchosen = \"high\"\n").unwrap();
    let o = chaff(&["check", "--rules", "bad.toml", "old"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(text(&o.stderr).starts_with("chaff: error: bad.toml:4:10:"), "{}", text(&o.stderr));
}
