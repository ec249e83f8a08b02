//! `chaff eval` as a command: tables, JSON, floors and bad input, on generated corpora in a temp dir.

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use chaff::generate::{optional_parts, sevendays, write_source};

fn chaff(args: &[&str], dir: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_chaff")).args(args).current_dir(dir).output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let set = dir.path().join("set");
    write_source(&sevendays(20, 5), &set).unwrap();
    write_source(&optional_parts(20, 5), &set).unwrap();
    dir
}

#[test]
fn prints_a_table_per_site_and_overall() {
    let dir = fixture();
    let out = chaff(&["eval", "set", "--method", "chaff,df-lines"], dir.path());
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for needle in
        ["set: chaff, input txt", "set: df-lines", "sevendays", "optional_parts", "overall", "held-out 10-fold"]
    {
        assert!(stdout.contains(needle), "missing {needle:?} in\n{stdout}");
    }
    assert!(stdout.contains("span P"), "injected templates are scored by span:\n{stdout}");
}

#[test]
fn json_has_every_page() {
    let dir = fixture();
    let out = chaff(&["eval", "set", "--json", "--protocol", "held-out", "--oracle-editor"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let e = &v["evaluations"][0];
    assert_eq!(e["models"].as_array().unwrap().len(), 5);
    let run = &e["runs"][0];
    assert_eq!(run["protocol"], "held-out");
    assert_eq!(run["pages"].as_array().unwrap().len(), 40);
    let f1 = run["overall"]["scores"][0]["f1"].as_f64().unwrap();
    assert!(f1 > 0.5 && f1 <= 1.0, "{f1}");
}

#[test]
fn fail_below_automatic_checks_every_site_of_the_oracle_editor_and_says_so() {
    let dir = fixture();
    let out = chaff(
        &["eval", "set", "--protocol", "held-out", "--folds", "4", "--oracle-editor", "--fail-below-automatic"],
        dir.path(),
    );
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("oracle editor: no site below its automatic figure (tolerance 0.001)"), "{stderr}");
    // the check reads the oracle editor's checkpoints: without them there is nothing to check
    let out = chaff(&["eval", "set", "--fail-below-automatic"], dir.path());
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--oracle-editor"), "{}", text(&out.stderr));
}

#[test]
fn few_pages_scores_each_page_once_per_fold_it_did_not_learn_from() {
    let dir = fixture();
    let out = chaff(&["eval", "set", "--json", "--protocol", "few-pages", "--folds", "4"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let run = &v["evaluations"][0]["runs"][0];
    assert_eq!(run["protocol"], "few-pages");
    // the 40 pages of `json_has_every_page`, each cleaned by the models of three folds
    assert_eq!(run["pages"].as_array().unwrap().len(), 120);
    let out = chaff(&["eval", "set", "--protocol", "few-pages", "--folds", "4"], dir.path());
    assert!(text(&out.stdout).contains("few-pages 4-fold"), "{}", text(&out.stdout));
}

#[test]
fn floors_fail_the_run_with_a_message() {
    let dir = fixture();
    fs::write(dir.path().join("floors.toml"), "tolerance = 0.02\n[set.txt]\nin-sample = 1.5\nheld-out = 0.1\n")
        .unwrap();
    let out = chaff(&["eval", "set", "--floors", "floors.toml"], dir.path());
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("floor FAILED: set txt in-sample"), "{stderr}");
    assert!(stderr.contains("floor ok: set txt held-out"), "{stderr}");
    fs::write(dir.path().join("floors.toml"), "[set.txt]\nin-sample = 0.1\n").unwrap();
    let out = chaff(&["eval", "set", "--floors", "floors.toml", "--protocol", "in-sample"], dir.path());
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn bad_input_is_one_clear_line() {
    let dir = fixture();
    let out = chaff(&["eval", "missing"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("missing: no such folder"), "{}", text(&out.stderr));
    let out = chaff(&["eval", "set", "--method", "nope"], dir.path());
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(text(&out.stderr).contains("invalid value 'nope' for '--method"), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("table-chunks, alignment, gibson"), "the methods are listed");
    let empty = dir.path().join("empty/site");
    fs::create_dir_all(&empty).unwrap();
    fs::write(empty.join("a.txt"), "no gold beside it").unwrap();
    let out = chaff(&["eval", "empty"], dir.path());
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no pages with a gold"), "{}", text(&out.stderr));
}
