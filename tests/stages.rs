//! The cleaner's stages switched by name, the same name everywhere: a rules file's `[clean] off`, `chaff
//! clean --off` and `chaff mine --off`, each with the effect of the others, and a misspelt name an error
//! that names the stages.

use chaff::clean_settings::Stage;
use std::fs;
use std::path::{Path, PathBuf};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, chaff_stdin, stderr};

fn comments() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora/comments")
}

/// A temp dir with the `comments` sample mined into `rules/comments.toml` (with `extra` flags).
fn mined(extra: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let corpus = comments();
    let mut args = vec!["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"];
    args.extend_from_slice(extra);
    let o = chaff(&args, dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let rules = dir.path().join("rules/comments.toml");
    (dir, rules)
}

/// The cleaned JSON Lines of the source's first documents.
fn clean(dir: &Path, rules: &Path, extra: &[&str]) -> String {
    let mut input = String::new();
    for n in 1..=3 {
        let text = fs::read_to_string(comments().join(format!("000{n}.txt"))).unwrap();
        input.push_str(&serde_json::json!({ "id": n, "text": text }).to_string());
        input.push('\n');
    }
    let mut args = vec!["clean", "--rules", rules.to_str().unwrap(), "--include-pending"];
    args.extend_from_slice(extra);
    let o = chaff_stdin(&args, dir, input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn a_stage_turned_off_by_flag_or_by_rules_file_has_the_same_effect() {
    let (dir, rules) = mined(&[]);
    let all = clean(dir.path(), &rules, &[]);
    let flag = clean(dir.path(), &rules, &["--off", "cuts"]);
    assert_ne!(all, flag, "the comments sample's footer cut takes the comment thread");
    let mut text = fs::read_to_string(&rules).unwrap();
    text.push_str("\n[clean]\noff = [\"cuts\"]\n");
    fs::write(&rules, text).unwrap();
    assert_eq!(clean(dir.path(), &rules, &[]), flag);
    // mine --off writes the same table
    let (dir, rules) = mined(&["--off", "cuts"]);
    assert!(fs::read_to_string(&rules).unwrap().contains("[clean]\noff = [\"cuts\"]"));
    assert_eq!(clean(dir.path(), &rules, &[]), flag);
}

#[test]
fn an_unknown_stage_in_a_rules_file_is_an_error_naming_its_line_and_the_stages() {
    let (dir, rules) = mined(&[]);
    let mut text = fs::read_to_string(&rules).unwrap();
    let line = text.lines().count() + 3;
    text.push_str("\n[clean]\noff = [\"reprint\"]\n");
    fs::write(&rules, text).unwrap();
    let o = chaff_stdin(&["clean", "--rules", rules.to_str().unwrap()], dir.path(), b"");
    let err = stderr(&o);
    assert!(!o.status.success());
    assert!(err.contains(&format!("comments.toml:{line}:")), "{err}");
    assert!(err.contains("reprint") && err.contains("reprints") && err.contains("short-runs"), "{err}");
}

#[test]
fn an_unknown_stage_on_the_command_line_lists_the_stages() {
    let (dir, rules) = mined(&[]);
    let o = chaff_stdin(&["clean", "--rules", rules.to_str().unwrap(), "--off", "cut"], dir.path(), b"");
    let err = stderr(&o);
    assert!(!o.status.success() && err.contains("invalid value 'cut'") && err.contains("cuts"), "{err}");
    assert!(Stage::ALL.iter().all(|s| err.contains(s.name())), "every stage is listed: {err}");
}

#[test]
fn an_empty_stage_name_in_off_is_a_usage_error_naming_where_it_stands() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = comments();
    let corpus = corpus.to_str().unwrap();
    for (list, place) in [
        ("cuts,", "the stage name after `cuts,` is empty"),
        (",cuts", "the stage name before `,cuts` is empty"),
        ("cuts,,islands", "the stage name after `cuts,` is empty"),
        ("", "no stage name is given"),
    ] {
        for command in [&["clean", "--rules", "rules/x.toml"][..], &["mine", corpus, "--rules-dir", "rules"]] {
            let o = chaff(&[command, &["--off", list]].concat(), dir.path());
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{command:?} {list:?}: {err}");
            assert!(err.contains(&format!("invalid value '{list}' for '--off <STAGE>': {place}")), "{err}");
            assert!(Stage::ALL.iter().all(|s| err.contains(s.name())), "every stage is listed: {err}");
        }
    }
    assert!(!dir.path().join("rules").exists(), "nothing is mined");
    // repeated and comma-separated still add up
    let (dir, rules) = mined(&[]);
    assert_eq!(
        clean(dir.path(), &rules, &["--off", "cuts", "--off", "islands,specks"]),
        clean(dir.path(), &rules, &["--off", "cuts,islands,specks"])
    );
}

#[test]
fn off_help_lists_every_stage_with_its_doc() {
    let dir = tempfile::tempdir().unwrap();
    for command in ["clean", "mine", "eval"] {
        let o = chaff_stdin(&[command, "--help"], dir.path(), b"");
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        for s in Stage::ALL {
            assert!(
                out.contains(&format!("- {}:", s.name())) && out.contains(s.doc()),
                "{command} --help lacks {}",
                s.name()
            );
        }
    }
}

#[test]
fn explain_lists_what_a_stage_gave_back_with_the_rules_it_overruled() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora/html_news");
    let o = chaff(&["mine", corpus.to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let rules = dir.path().join("rules/html_news.toml");
    let mut input = String::new();
    for entry in fs::read_dir(&corpus).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "html") {
            let text = fs::read_to_string(&path).unwrap();
            input.push_str(&serde_json::json!({ "id": path.display().to_string(), "text": text }).to_string());
            input.push('\n');
        }
    }
    let args = ["clean", "--rules", rules.to_str().unwrap(), "--include-pending", "--explain"];
    let o = chaff_stdin(&args, dir.path(), input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let kept: Vec<serde_json::Value> = String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .flat_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["spans"].as_array().unwrap().clone()
        })
        .filter(|s| s["kind"] == "kept")
        .collect();
    let by = |stage: &str| kept.iter().filter(|s| s["stages"] == serde_json::json!([stage])).count();
    assert!(by("headline") > 0, "the sample's headlines are given back on some pages");
    // a cut string ("«number» Related") whose match opens on an article's last sentence: the filter
    // trims the sentence's end off it, and the cut starts after it
    assert!(by("sentence-tails") > 0, "where a filter left a cut's match in place, it says so");
    assert_eq!(by("headline") + by("sentence-tails"), kept.len(), "{kept:?}");
    for s in &kept {
        assert!(!s["rules"].as_array().unwrap().is_empty(), "the rule it overruled is named: {s}");
    }
}
