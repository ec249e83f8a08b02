//! Regressions of `chaff clean` and output: inputs never overwritten, names never collide, bad input skipped and reported.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Output};

use crate::run::{chaff, chaff_stdin, stderr, with_closed_stdout};

pub(crate) const TEMPLATE: &str = "Read more about it";

/// A rules file with one accepted rule that removes [`TEMPLATE`], for `tokenizer` ("text" or "html").
pub(crate) fn rules(dir: &Path, tokenizer: &str) {
    fs::write(
        dir.join("rules.toml"),
        format!(
            "source = \"x\"\ntokenizer = \"{tokenizer}\"\n[cutoff]\nauto = 50\nchosen = 50\n\n[[rule]]\nid = \"r1\"\nstatus = \"accepted\"\nregex = 'Read\\s+more\\s+about\\s+it'\n"
        ),
    )
    .unwrap();
}

/// A temp dir with `rules.toml` and `docs/` holding `n` documents, each with the template.
fn fixture(n: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    rules(dir.path(), "text");
    fs::create_dir(dir.path().join("docs")).unwrap();
    for i in 0..n {
        fs::write(dir.path().join(format!("docs/{i:03}.txt")), doc(i)).unwrap();
    }
    dir
}

pub(crate) fn doc(i: usize) -> String {
    format!("The article number {i} tells its story at length.\n{TEMPLATE}\n")
}

pub(crate) fn count_files(dir: &Path) -> usize {
    fs::read_dir(dir).map_or(0, |d| d.count())
}

#[test]
fn clean_refuses_an_out_folder_that_is_or_is_inside_an_input() {
    let dir = fixture(3);
    let p = dir.path();
    for out in ["docs", "./docs/../docs/", "docs/cleaned", "docs/new/../cleaned"] {
        let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", out], p);
        assert_eq!(o.status.code(), Some(1), "--out {out}: {}", stderr(&o));
        assert!(stderr(&o).contains("--in-place"), "says what to do: {}", stderr(&o));
        assert_eq!(fs::read_to_string(p.join("docs/001.txt")).unwrap(), doc(1), "--out {out}: the input is intact");
    }
    assert!(!p.join("docs/cleaned").exists());
    // an input file given alone, its folder as the output
    let o = chaff(&["clean", "--rules", "rules.toml", "docs/001.txt", "--out", "docs"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(p.join("docs/001.txt")).unwrap(), doc(1));
    // asked for: the documents are replaced
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--in-place"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let cleaned = fs::read_to_string(p.join("docs/001.txt")).unwrap();
    assert!(cleaned.contains("article number 1") && !cleaned.contains(TEMPLATE), "{cleaned}");
    assert_eq!(count_files(&p.join("docs")), 3, "no temporary files left");
}

#[test]
fn clean_refuses_inputs_of_the_same_name_from_two_folders() {
    let dir = fixture(2);
    let p = dir.path();
    fs::create_dir(p.join("more")).unwrap();
    fs::write(p.join("more/001.txt"), "Another article, another story.\nRead more about it\n").unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "more", "--out", "out"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("docs/001.txt and more/001.txt would both be written to out/001.txt"), "{err}");
    assert!(err.contains("separate --out folders"), "{err}");
    assert_eq!(count_files(&p.join("out")), 0, "nothing written");
    // the same file named twice is no collision
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "docs/001.txt", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(count_files(&p.join("out")), 2);
}

#[test]
fn clean_text_refuses_a_page_and_a_txt_of_the_same_stem() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    rules(p, "html");
    fs::create_dir(p.join("pages")).unwrap();
    fs::write(p.join("pages/117.html"), "<p>The page's article.</p><p>Read more about it</p>").unwrap();
    fs::write(p.join("pages/117.txt"), "The text copy's article.\n").unwrap();
    fs::write(p.join("pages/118.html"), "<p>Another article.</p>").unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "--text", "pages", "--out", "out"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("pages/117.html and pages/117.txt would both be written to out/117.txt"),
        "{}",
        stderr(&o)
    );
    assert_eq!(count_files(&p.join("out")), 0);
    let o = chaff(&["clean", "--rules", "rules.toml", "--text", "pages/117.html", "pages/118.html", "--out", "out"], p);
    assert!(o.status.success(), "one kind at a time: {}", stderr(&o));
    assert_eq!(count_files(&p.join("out")), 2);
}

#[test]
fn invalid_utf8_on_stdin_is_replaced_and_named_and_stops_nothing() {
    let dir = fixture(0);
    let mut input = Vec::new();
    for i in 1..=1200 {
        let text = if i == 3 { b"caf\xe9 Read more about it".to_vec() } else { format!("doc {i}").into_bytes() };
        input.extend_from_slice(format!("{{\"id\": \"d{i}\", \"text\": \"").as_bytes());
        input.extend_from_slice(&text);
        input.extend_from_slice(b"\"}\n");
    }
    let o = chaff_stdin(&["clean", "--rules", "rules.toml"], dir.path(), &input);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("stdin:3: 1 invalid UTF-8 sequence(s) replaced"), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 1200, "every line comes out");
    let third: serde_json::Value = serde_json::from_str(out.lines().nth(2).unwrap()).unwrap();
    assert_eq!(third["text"].as_str().unwrap().trim_end(), "caf\u{FFFD}", "decoded, cleaned");
}

#[test]
fn numeric_ids_come_back_as_written() {
    let dir = fixture(0);
    let ids = ["42", "1e2", "-0", "12345678901234567890123", "12345678901234567890124", "\"s\\u0041\"", "0.10"];
    let input: String = ids.iter().map(|id| format!("{{\"text\": \"a\", \"id\": {id}}}\n")).collect();
    let o = chaff_stdin(&["clean", "--rules", "rules.toml"], dir.path(), input.as_bytes());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).unwrap();
    let echoed: Vec<&str> =
        out.lines().map(|l| l.split("\"id\":").nth(1).unwrap().split(",\"removed_bytes\"").next().unwrap()).collect();
    assert_eq!(echoed, ids);
}

#[test]
fn a_byte_order_mark_before_json_lines_is_skipped() {
    let dir = fixture(0);
    let o = chaff_stdin(&["clean", "--rules", "rules.toml"], dir.path(), b"\xEF\xBB\xBF{\"id\": 1, \"text\": \"a\"}\n");
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(String::from_utf8(o.stdout).unwrap().lines().count(), 1);
    let line = "{\"id\": 1, \"text\": \"Permanent link here and the body\"}\n";
    fs::write(dir.path().join("c.jsonl"), format!("\u{FEFF}{line}{line}{line}")).unwrap();
    let o = chaff(&["stats", "c.jsonl"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn generate_with_stdout_closed_exits_0_and_writes_every_file() {
    let dir = tempfile::tempdir().unwrap();
    let o = chaff(&["generate", "--out", "all"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let expected: usize = fs::read_dir(dir.path().join("all")).unwrap().map(|s| count_files(&s.unwrap().path())).sum();
    let (status, err) = with_closed_stdout(&["generate", "--out", "closed"], dir.path());
    assert_eq!(status.code(), Some(0), "{err}");
    let written: usize =
        fs::read_dir(dir.path().join("closed")).unwrap().map(|s| count_files(&s.unwrap().path())).sum();
    assert_eq!(written, expected);
}

fn mode(path: &Path) -> u32 {
    fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// `chaff ARGS` under `umask`.
fn chaff_umask(umask: &str, args: &str, dir: &Path) -> Output {
    let cmd = format!("umask {umask} && exec '{}' {args}", env!("CARGO_BIN_EXE_chaff"));
    Command::new("sh").args(["-c", &cmd]).current_dir(dir).output().unwrap()
}

#[test]
fn written_files_follow_the_umask_and_keep_their_mode() {
    let dir = fixture(2);
    let p = dir.path();
    let o = chaff_umask("022", "clean --rules rules.toml docs --out out", p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(mode(&p.join("out/000.txt")), 0o644, "a new file: 0666 less the umask");
    fs::set_permissions(p.join("out/001.txt"), fs::Permissions::from_mode(0o664)).unwrap();
    let o = chaff_umask("077", "clean --rules rules.toml docs --out out", p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(mode(&p.join("out/001.txt")), 0o664, "a replaced file keeps its mode");
    assert_eq!(mode(&p.join("out/000.txt")), 0o644);
    // rules files too
    for i in 0..3 {
        fs::write(p.join(format!("docs/1{i}.txt")), doc(i)).unwrap();
    }
    let o = chaff_umask("027", "mine docs --rules-dir mined", p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(mode(&p.join("mined/docs.toml")), 0o640);
}

fn host_name() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    name.trim().chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect()
}

#[test]
fn stale_temp_files_of_killed_writers_are_removed() {
    let dir = fixture(2);
    let p = dir.path();
    fs::create_dir(p.join("out")).unwrap();
    // pid 2^22 + 1 is above Linux's pid_max ceiling: that writer is gone
    let dead = p.join(format!("out/.chaff-{}-4194305-aB3dE9.tmp", host_name()));
    let live = p.join(format!("out/.chaff-{}-{}-aB3dE9.tmp", host_name(), std::process::id()));
    let other_host = p.join("out/.chaff-elsewhere-4194305-aB3dE9.tmp");
    let old_unnamed = p.join("out/.chaff-Xy12Zw.tmp");
    let young_unnamed = p.join("out/.chaff-Ab34Cd.tmp");
    for f in [&dead, &live, &other_host, &old_unnamed, &young_unnamed] {
        fs::write(f, "x".repeat(1000)).unwrap();
    }
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    fs::File::options().write(true).open(&old_unnamed).unwrap().set_modified(two_hours_ago).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!dead.exists(), "its writer is gone");
    assert!(!old_unnamed.exists(), "older than any write takes");
    assert!(live.exists() && other_host.exists() && young_unnamed.exists(), "a writer may still be at work");
    // rules files are written the same way
    fs::write(&dead, "x").unwrap();
    fs::rename(&dead, p.join("docs").join(dead.file_name().unwrap())).unwrap();
    fs::write(p.join("docs/002.txt"), doc(2)).unwrap();
    assert!(chaff(&["mine", "docs", "--rules-dir", "docs"], p).status.success());
    assert!(!p.join("docs").join(dead.file_name().unwrap()).exists());
}

#[test]
fn clean_skips_a_missing_input_cleans_the_rest_and_fails_at_the_end() {
    let dir = fixture(3);
    let o = chaff(&["clean", "--rules", "rules.toml", "nowhere", "docs", "nothing.txt", "--out", "out"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("nowhere: No such file") && err.contains("nothing.txt: No such file"), "{err}");
    assert!(err.contains("2 input(s) failed"), "{err}");
    assert_eq!(count_files(&dir.path().join("out")), 3, "the rest is cleaned");
}

#[test]
fn a_symlink_loop_in_a_corpus_folder_is_reported() {
    let dir = fixture(3);
    let p = dir.path();
    std::os::unix::fs::symlink("loop.txt", p.join("docs/loop.txt")).unwrap();
    let o = chaff(&["stats", "docs"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("loop.txt: cannot be read, skipped: "), "{}", stderr(&o));
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "out"], p);
    assert_eq!(o.status.code(), Some(1), "an input not cleaned fails the run: {}", stderr(&o));
    assert!(stderr(&o).contains("loop.txt: cannot be read"), "{}", stderr(&o));
    assert_eq!(count_files(&p.join("out")), 3);
}

#[test]
fn a_folder_of_binary_files_says_why_it_has_no_documents() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("bin")).unwrap();
    for i in 0..3 {
        fs::write(dir.path().join(format!("bin/{i}.txt")), b"\x00\x01 data").unwrap();
    }
    let o = chaff(&["mine", "bin"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no documents found: 3 file(s) skipped, the first: "), "{}", stderr(&o));
    assert!(stderr(&o).contains("0.txt: binary file (NUL bytes)"), "{}", stderr(&o));
}

#[test]
fn pages_in_two_forms_are_read_once_in_their_html_form_and_the_skipped_form_named() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("both")).unwrap();
    for i in 0..4 {
        fs::write(dir.path().join(format!("both/{i}.html")), format!("<p>{}</p>", doc(i))).unwrap();
        fs::write(dir.path().join(format!("both/{i}.txt")), doc(i)).unwrap();
        // gold files beside the pages neither count as documents nor make the folder a text source
        fs::write(dir.path().join(format!("both/{i}.gold.txt")), doc(i)).unwrap();
    }
    let o = chaff(&["stats", "both"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("both: 4 page(s) come in two forms (e.g. 0.html and 0.txt)"), "{err}");
    assert!(err.contains("HTML before text"), "{err}");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.starts_with("both: 4 documents"), "each page once, not twice: {out}");
    let o = chaff(&["mine", "both"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let rules = fs::read_to_string(dir.path().join("rules/both.toml")).unwrap();
    assert!(rules.contains("input = \"html\""), "the HTML form is mined as HTML: {rules}");
}

#[test]
fn mine_all_says_once_that_its_folders_hold_pages_in_two_forms() {
    let dir = tempfile::tempdir().unwrap();
    for site in ["a", "b", "c"] {
        fs::create_dir_all(dir.path().join(format!("root/{site}"))).unwrap();
        for i in 0..4 {
            fs::write(dir.path().join(format!("root/{site}/{i}.html")), format!("<p>{}</p>", doc(i))).unwrap();
            fs::write(dir.path().join(format!("root/{site}/{i}.txt")), doc(i)).unwrap();
        }
    }
    let o = chaff(&["mine", "--all", "root"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(err.lines().filter(|l| l.contains("two forms")).count(), 1, "one warning for the three folders: {err}");
    assert!(err.contains("3 source folders hold pages in two forms (12 pages); the first: "), "{err}");
    assert!(err.contains("0.html and 0.txt"), "{err}");
}

#[test]
fn clean_in_place_writes_through_a_symbolic_link_to_its_target() {
    let dir = fixture(2);
    let p = dir.path();
    fs::create_dir(p.join("elsewhere")).unwrap();
    fs::write(p.join("elsewhere/target.txt"), doc(7)).unwrap();
    fs::set_permissions(p.join("elsewhere/target.txt"), fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("../elsewhere/target.txt", p.join("docs/link.txt")).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--in-place"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(fs::symlink_metadata(p.join("docs/link.txt")).unwrap().file_type().is_symlink(), "still a link");
    let target = fs::read_to_string(p.join("elsewhere/target.txt")).unwrap();
    assert!(target.contains("article number 7") && !target.contains(TEMPLATE), "the target is cleaned: {target}");
    assert_eq!(mode(&p.join("elsewhere/target.txt")), 0o640, "the target keeps its mode");
    assert_eq!(count_files(&p.join("elsewhere")), 1, "no temporary files left");
}

#[test]
fn clean_into_a_folder_writes_a_link_to_another_document_under_its_own_name() {
    let dir = fixture(2);
    let p = dir.path();
    std::os::unix::fs::symlink("000.txt", p.join("docs/link.txt")).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("cleaned 3 document(s)"), "{}", stderr(&o));
    let link = fs::read_to_string(p.join("out/link.txt")).unwrap();
    assert_eq!(link, fs::read_to_string(p.join("out/000.txt")).unwrap(), "the link's document, cleaned");
    assert!(link.contains("article number 0") && !link.contains(TEMPLATE), "{link}");
    assert_eq!(count_files(&p.join("out")), 3);
}

#[cfg(target_os = "linux")]
#[test]
fn an_out_folder_no_file_can_be_written_into_fails_once_before_any_work() {
    let dir = fixture(3);
    let p = dir.path();
    fs::write(p.join("plain"), "").unwrap();
    // a folder even root cannot create files in, and one under a file
    for out in ["/proc/self", "plain/out"] {
        let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", out], p);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{out}: {err}");
        assert_eq!(err.matches("chaff: error").count(), 1, "one error: {err}");
        assert!(err.contains(out) && err.contains("output folder"), "names the folder: {err}");
        assert!(!err.contains(".tmp"), "no temporary file named: {err}");
    }
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "/proc/self"], p);
    assert!(stderr(&o).contains("choose another --out"), "{}", stderr(&o));
    // with each source's rules, from a folder of sources
    fs::create_dir(p.join("rules")).unwrap();
    fs::copy(p.join("rules.toml"), p.join("rules/docs.toml")).unwrap();
    fs::create_dir(p.join("sources")).unwrap();
    fs::rename(p.join("docs"), p.join("sources/docs")).unwrap();
    let o = chaff(&["clean", "--rules-dir", "rules", "sources", "--out", "/proc/self"], p);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("chaff: error").count(), 1, "one error: {err}");
    assert!(err.contains("choose another --out") && !err.contains(".tmp"), "{err}");
}

#[test]
fn usage_errors_of_clean_diff_and_check_exit_2() {
    let dir = fixture(2);
    let p = dir.path();
    fs::copy(p.join("rules.toml"), p.join("other.toml")).unwrap();
    for args in [
        &["clean", "--rules", "rules.toml", "docs"][..],
        &["clean", "--rules", "rules.toml", "-", "docs/000.txt"],
        &["clean", "--rules", "rules.toml", "-", "--out", "out"],
        &["clean", "--rules", "rules.toml", "--out", "out"],
        &["diff", "--rules", "rules.toml", "docs"],
        &["check", "--rules", "rules.toml", "--max-drift", "1.5", "docs"],
    ] {
        let o = chaff(args, p);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("chaff: error: "), "{args:?}: {}", stderr(&o));
    }
    assert!(!p.join("out").exists());
}

#[test]
fn clean_with_each_sources_rules_counts_only_the_documents_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::create_dir(p.join("rules")).unwrap();
    rules(p, "text");
    fs::rename(p.join("rules.toml"), p.join("rules/x.toml")).unwrap();
    let mut lines = String::new();
    // two ids that name one file, and two of their own
    for (i, id) in ["a:1", "a_1", "b", "c"].iter().enumerate() {
        lines.push_str(&format!("{{\"id\": \"{id}\", \"source\": \"x\", \"text\": {:?}}}\n", doc(i)));
    }
    fs::write(p.join("crawl.jsonl"), lines).unwrap();
    let o = chaff(&["clean", "--rules-dir", "rules", "crawl.jsonl", "--out", "out"], p);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(count_files(&p.join("out/x")), 2, "{err}");
    assert!(err.contains("cleaned 2 document(s) of 1 source(s)"), "{err}");
}

#[test]
fn ids_that_become_one_file_name_are_both_named_and_neither_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    let mut lines = String::new();
    for (i, id) in ["a:1", "b", "a_1", "a 1"].iter().enumerate() {
        lines.push_str(&format!("{{\"id\": \"{id}\", \"source\": \"x\", \"text\": {:?}}}\n", doc(i)));
    }
    fs::write(p.join("crawl.jsonl"), lines).unwrap();
    fs::create_dir(p.join("rules")).unwrap();
    let o = chaff(&["clean", "--rules-dir", "rules", "crawl.jsonl", "--out", "out"], p);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "documents \"a:1\" and \"a_1\" of source `x` would both be written to out/x/a_1.txt: both skipped"
        ),
        "{err}"
    );
    assert!(err.contains("document \"a 1\" of source `x` would be written to out/x/a_1.txt, as others were"), "{err}");
    assert!(!p.join("out/x/a_1.txt").exists(), "neither is kept: one could not be told from the other");
    assert!(p.join("out/x/b.txt").exists());
    assert!(err.contains("1 document(s) of 1 source(s) without rules passed through"), "{err}");
    assert!(err.contains("3 document(s), record(s) or input(s) failed"), "{err}");
}

#[test]
fn a_source_name_that_is_a_path_writes_nothing_outside_the_output_folder() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("work");
    fs::create_dir_all(p.join("rules")).unwrap();
    let lines =
        "{\"id\": 1, \"source\": \"../escaped\", \"text\": \"a\"}\n{\"id\": 2, \"source\": \"ok\", \"text\": \"b\"}\n";
    fs::write(p.join("crawl.jsonl"), lines).unwrap();
    for out in [&["--out", "out"][..], &[]] {
        let o = chaff(&[&["clean", "--rules-dir", "rules", "crawl.jsonl"][..], out].concat(), &p);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("document 1: \"../escaped\" is not a usable source name"), "{err}");
    }
    assert!(!dir.path().join("escaped").exists() && !p.join("escaped").exists());
    assert!(p.join("out/ok/2.txt").exists());
}
