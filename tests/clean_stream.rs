//! `chaff clean` streams its documents through a bounded window: the real binary on more documents than
//! the window holds, of uneven sizes, so later ones finish before earlier ones. Outputs, explanations
//! and errors still come in input order, each document cleaned as it is alone.

use std::fs;
use std::path::Path;

use chaff::generate::{sevendays, write_source};

#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, stderr};

/// A temp dir holding `sevendays/` (40 documents) and their rules, pending ones included when cleaning.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_source(&sevendays(40, 3), dir.path()).unwrap();
    assert!(chaff(&["mine", "sevendays"], dir.path()).status.success());
    dir
}

const RULES: [&str; 4] = ["clean", "--rules", "rules/sevendays.toml", "--include-pending"];

/// The fixture's documents (not their template truth), in order.
fn documents(dir: &Path) -> Vec<String> {
    let mut paths: Vec<_> = fs::read_dir(dir.join("sevendays"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths.iter().map(|p| fs::read_to_string(p).unwrap()).collect()
}

/// Record `i`'s text: a document of the source, some repeated many times so its cleaning takes longer.
fn text(docs: &[String], i: usize) -> String {
    docs[i % docs.len()].repeat(if i.is_multiple_of(9) { 60 } else { 1 })
}

#[test]
fn json_lines_past_the_window_come_out_in_input_order_each_as_cleaned_alone() {
    let dir = fixture();
    let docs = documents(dir.path());
    let n = 240;
    let mut input = String::new();
    for i in 0..n {
        if i % 50 == 7 {
            input.push_str("not json\n");
        }
        input.push_str(&serde_json::json!({ "id": i, "text": text(&docs, i) }).to_string());
        input.push('\n');
    }
    let args = [&RULES[..], &["--explain"]].concat();
    let o = run::chaff_stdin(&args, dir.path(), input.as_bytes());
    assert_eq!(o.status.code(), Some(1), "bad lines fail the run at its end");
    let out: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let ids: Vec<u64> = out.iter().map(|v| v["id"].as_u64().unwrap()).collect();
    assert_eq!(ids, (0..n as u64).collect::<Vec<_>>());
    // the bad lines named in input order: line 8, then 8 + 51, …
    let named: Vec<usize> = stderr(&o)
        .lines()
        .filter(|l| l.contains("bad JSON Lines record"))
        .map(|l| l.split(':').nth(3).unwrap().parse().unwrap())
        .collect();
    assert_eq!(named, vec![8, 59, 110, 161, 212]);
    // a few records again, each alone: the same line
    for i in [0, 1, 9, 239] {
        let record = serde_json::json!({ "id": i, "text": text(&docs, i) }).to_string();
        let alone = run::chaff_stdin(&args, dir.path(), record.as_bytes());
        let alone: serde_json::Value = serde_json::from_slice(&alone.stdout).unwrap();
        assert_eq!(alone, out[i], "record {i}");
    }
}

#[test]
fn files_past_the_window_are_explained_and_reported_in_input_order() {
    let dir = fixture();
    let docs = documents(dir.path());
    let input = dir.path().join("many");
    fs::create_dir(&input).unwrap();
    let n = 120;
    for i in 0..n {
        let name = input.join(format!("{i:04}.txt"));
        if i % 25 == 3 {
            fs::write(name, b"binary\0file").unwrap();
        } else {
            fs::write(name, text(&docs, i)).unwrap();
        }
    }
    let o = chaff(&[&RULES[..], &["many", "--out", "out", "--explain"]].concat(), dir.path());
    assert_eq!(o.status.code(), Some(1), "the binary files fail the run at its end: {}", stderr(&o));
    let err = stderr(&o);
    let named: Vec<&str> = err.lines().filter(|l| l.contains("binary file")).collect();
    let expected: Vec<String> = (0..n).filter(|i| i % 25 == 3).map(|i| format!("{i:04}.txt")).collect();
    assert_eq!(named.len(), expected.len(), "{err}");
    for (line, name) in named.iter().zip(&expected) {
        assert!(line.contains(name.as_str()), "{line} names {name}: errors in input order");
    }
    // the explanation's lines grouped by file, the files in input order
    let explained = String::from_utf8_lossy(&o.stdout).into_owned();
    let mut files: Vec<&str> = explained.lines().map(|l| l.split('\t').next().unwrap()).collect();
    files.dedup();
    let mut sorted = files.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(files, sorted, "each file's lines together, in input order");
    assert!(files.len() > 100, "{} files explained", files.len());
    assert_eq!(fs::read_dir(dir.path().join("out")).unwrap().count(), n - expected.len());
}

#[test]
fn a_reader_gone_from_stdout_does_not_hide_the_lines_that_failed_before() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("rules.toml"),
        "source = \"x\"\n[cutoff]\nauto = 50\nchosen = 50\n\n[[rule]]\nid = \"r1\"\nstatus = \"accepted\"\nregex = 'Read\\s+more'\n",
    )
    .unwrap();
    // `… | chaff clean --rules R | head -0`: stdout closed before anything is written
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["clean", "--rules", "rules.toml"])
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"{\"id\": 1, \"text\": oops}\n{\"id\": 2, \"text\": \"a Read more\"}\n").unwrap();
    drop(stdin);
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(err.contains("stdin:1:"), "the bad line is named: {err}");
    assert!(!err.contains("Broken pipe"), "a closed pipe is no error: {err}");
    assert_eq!(o.status.code(), Some(1), "{err}");
}
