//! `chaff test --rules FILE CORPUS`: verified pages as continuous integration for a rules file. Exit 0
//! when every verified page gets its verified text, 1 with a word diff when one does not, 2 on bad input.

use std::path::{Path, PathBuf};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use chaff::rules::{RulesFile, Status};
use run::{chaff, stderr};

fn sevendays() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora/sevendays")
}

/// A temp folder with `rules/sevendays.toml` mined from the sample source.
fn mined() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let o = chaff(&["mine", sevendays().to_str().unwrap(), "--rules-dir", "rules"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

fn test(dir: &Path, rules: &str, extra: &[&str]) -> std::process::Output {
    let corpus = sevendays();
    let mut args = vec!["test", "--rules", rules, "--include-pending"];
    args.extend_from_slice(extra);
    args.push(corpus.to_str().unwrap());
    chaff(&args, dir)
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Runs started together, while a writer holds the verified file's lock, each read the file before any
/// wrote it: every page each accepted is kept.
#[test]
fn pages_accepted_by_concurrent_runs_are_all_kept() {
    let dir = mined();
    let lock_path = dir.path().join("rules/.sevendays.verified.toml.lock");
    let lock = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&lock_path).unwrap();
    lock.lock().unwrap();
    let corpus = sevendays();
    let ids = ["0001", "0002", "0003", "0004"];
    let runs: Vec<std::process::Child> = ids
        .iter()
        .map(|id| {
            std::process::Command::new(env!("CARGO_BIN_EXE_chaff"))
                .args(["test", "--rules", "rules/sevendays.toml", "--include-pending", "--accept", id])
                .arg(&corpus)
                .current_dir(dir.path())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    drop(lock);
    for run in runs {
        let o = run.wait_with_output().unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let verified = chaff::verified::Verified::load(&dir.path().join("rules/sevendays.verified.toml")).unwrap();
    let mut kept: Vec<&str> = verified.pages.iter().map(|p| p.id.as_str()).collect();
    kept.sort();
    assert_eq!(kept, ids);
}

#[test]
fn pages_accepted_as_verified_pass_with_the_same_rules() {
    let dir = mined();
    let o = test(dir.path(), "rules/sevendays.toml", &["--accept", "0002,0018"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("2 of 2 verified page(s) pass"), "{}", stdout(&o));
    let saved = std::fs::read_to_string(dir.path().join("rules/sevendays.verified.toml")).unwrap();
    assert!(saved.contains("id = \"0002\"") && saved.contains("format = 1"), "{saved}");
    let o = test(dir.path(), "rules/sevendays.toml", &[]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

#[test]
fn a_rules_change_that_alters_a_verified_page_fails_with_a_word_diff() {
    let dir = mined();
    assert_eq!(test(dir.path(), "rules/sevendays.toml", &["--accept", "0018"]).status.code(), Some(0));
    // the same rules, the idiom `of the` (which mining rejects) accepted: the verified page kept it
    let mut file = RulesFile::load(&dir.path().join("rules/sevendays.toml")).unwrap();
    file.rules.iter_mut().find(|r| r.tokens == ["of", "the"]).unwrap().status = Status::Accepted;
    file.save(&dir.path().join("rules/new.toml")).unwrap();
    let o = test(dir.path(), "rules/new.toml", &["--verified", "rules/sevendays.verified.toml"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("FAIL 0018: the rules remove "), "{out}");
    assert!(out.contains("- …Rosa Hollis, founder [-of the-] land registry, believes…"), "{out}");
    assert!(out.contains("0 of 1 verified page(s) pass, 1 fail"), "{out}");
}

#[test]
fn a_verified_page_missing_from_the_corpus_is_bad_input() {
    let dir = mined();
    assert_eq!(test(dir.path(), "rules/sevendays.toml", &["--accept", "0018"]).status.code(), Some(0));
    let path = dir.path().join("rules/sevendays.verified.toml");
    let text = std::fs::read_to_string(&path).unwrap().replace("id = \"0018\"", "id = \"9999\"");
    std::fs::write(&path, text).unwrap();
    let o = test(dir.path(), "rules/sevendays.toml", &[]);
    assert_eq!(o.status.code(), Some(2), "{}{}", stdout(&o), stderr(&o));
    assert!(stderr(&o).contains("verified page 9999 is not in"), "{}", stderr(&o));
}

#[test]
fn an_empty_id_in_accept_is_a_usage_error_naming_where_it_stands_and_writes_nothing() {
    let dir = mined();
    let verified = dir.path().join("rules/sevendays.verified.toml");
    for (list, place) in [
        ("0002,", "the id after `0002,` is empty"),
        ("0002,,0018", "the id after `0002,` is empty"),
        (",0002", "the id before `,0002` is empty"),
    ] {
        let o = test(dir.path(), "rules/sevendays.toml", &["--accept", list]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains(&format!("invalid value '{list}' for '--accept <IDS>': {place}")),
            "{}",
            stderr(&o)
        );
        assert!(!verified.exists(), "{list:?}: nothing is written");
    }
    // repeated and comma-separated still add up
    let o = test(dir.path(), "rules/sevendays.toml", &["--accept", "0002", "--accept", "0018,0003"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let (file, _) = chaff::verified::Verified::load_checked(&verified).unwrap();
    let mut ids: Vec<&str> = file.pages.iter().map(|p| p.id.as_str()).collect();
    ids.sort_unstable();
    assert_eq!(ids, ["0002", "0003", "0018"]);
}

#[test]
fn a_malformed_verified_file_and_an_unknown_id_are_bad_input_and_write_nothing() {
    let dir = mined();
    let o = test(dir.path(), "rules/sevendays.toml", &["--accept", "0018,nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no document with id nope"), "{}", stderr(&o));
    assert!(!dir.path().join("rules/sevendays.verified.toml").exists());
    std::fs::write(dir.path().join("rules/sevendays.verified.toml"), "source = \"s\"\n[[page]]\nid = 3\n").unwrap();
    let o = test(dir.path(), "rules/sevendays.toml", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("rules/sevendays.verified.toml:3:"), "{}", stderr(&o));
    // no verified pages at all says how to make some
    std::fs::remove_file(dir.path().join("rules/sevendays.verified.toml")).unwrap();
    let o = test(dir.path(), "rules/sevendays.toml", &[]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no verified pages"), "{}", stderr(&o));
}

#[test]
fn an_unknown_key_in_a_verified_file_is_warned_with_line_and_column_and_not_dropped_by_accepting() {
    let dir = mined();
    assert_eq!(test(dir.path(), "rules/sevendays.toml", &["--accept", "0018"]).status.code(), Some(0));
    let path = dir.path().join("rules/sevendays.verified.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let text = text.replacen("[[page]]\n", "[[page]]\nnote = \"checked by hand\"\n", 1).replacen(
        "format = 1\n",
        "format = 1\nsourse = \"x\"\n",
        1,
    );
    std::fs::write(&path, &text).unwrap();
    let line = |needle: &str| text.lines().position(|l| l.starts_with(needle)).unwrap() + 1;
    let o = test(dir.path(), "rules/sevendays.toml", &[]);
    assert_eq!(o.status.code(), Some(0), "a warning fails nothing: {}", stderr(&o));
    let err = stderr(&o);
    let page = format!("rules/sevendays.verified.toml:{}:1: unused key `page.note`", line("note"));
    let top = format!("rules/sevendays.verified.toml:{}:1: unused key `sourse`", line("sourse"));
    assert!(err.contains(&page) && err.contains(&top), "{err}");
    // accepting would write the file without them: refused, as `chaff mine` refuses a rules file's
    let o = test(dir.path(), "rules/sevendays.toml", &["--accept", "0002"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("2 unused key(s) (above); accepting would drop them"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "nothing written");
}

/// Two documents of one id: accepting them all would verify one page in the other's place.
#[test]
fn accept_all_refuses_ids_shared_by_two_documents() {
    let dir = mined();
    let mut lines = String::new();
    let mut pages: Vec<PathBuf> = std::fs::read_dir(sevendays()).unwrap().map(|e| e.unwrap().path()).collect();
    pages.retain(|p| p.extension().is_some_and(|x| x == "txt"));
    pages.sort();
    for (i, path) in pages.iter().enumerate() {
        let text = std::fs::read_to_string(path).unwrap();
        // the first two records share an id
        let id = if i < 2 { "same".to_string() } else { format!("d{i}") };
        lines.push_str(&serde_json::json!({ "id": id, "text": text }).to_string());
        lines.push('\n');
    }
    std::fs::write(dir.path().join("pages.jsonl"), lines).unwrap();
    let o = chaff(&["test", "--rules", "rules/sevendays.toml", "--accept-all", "pages.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("pages.jsonl: id(s) same name more than one document"), "{}", stderr(&o));
    assert!(!dir.path().join("rules/sevendays.verified.toml").exists(), "nothing written");
    // a page whose id is its own is still accepted
    let o = chaff(&["test", "--rules", "rules/sevendays.toml", "--accept", "d3", "pages.jsonl"], dir.path());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[cfg(target_os = "linux")]
#[test]
fn accept_all_refuses_file_names_read_as_one_id() {
    use std::os::unix::ffi::OsStrExt;
    let dir = mined();
    let corpus = dir.path().join("pages");
    std::fs::create_dir(&corpus).unwrap();
    for entry in std::fs::read_dir(sevendays()).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, corpus.join(path.file_name().unwrap())).unwrap();
    }
    let one = std::fs::read(sevendays().join("0001.txt")).unwrap();
    for name in [&b"bad\xff.txt"[..], b"bad\xfe.txt"] {
        std::fs::write(corpus.join(std::ffi::OsStr::from_bytes(name)), &one).unwrap();
    }
    let o = chaff(&["test", "--rules", "rules/sevendays.toml", "--accept-all", "pages"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad\u{fffd} name more than one document"), "{}", stderr(&o));
    assert!(!dir.path().join("rules/sevendays.verified.toml").exists(), "nothing written");
}
