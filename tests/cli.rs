//! The real binary on temporary fixtures: mine, stats, clean (files, JSON Lines, one document on stdin),
//! and bad input of every kind — each a clear one-line error or warning, never a panic.

use std::fs;
use std::path::Path;
use std::process::Output;

use chaff::generate::{html_news, sevendays, write_source};

// the regression suite's way of running the binary, shared
#[path = "regression/run.rs"]
#[allow(dead_code)]
mod run;

use run::{chaff, stderr};

fn chaff_stdin(args: &[&str], dir: &Path, input: &str) -> Output {
    run::chaff_stdin(args, dir, input.as_bytes())
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// A temp dir holding `sevendays/` (40 documents) and an accepted rules file for it.
fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    write_source(&sevendays(40, 3), dir.path()).unwrap();
    dir
}

fn accept_all(path: &Path) {
    let text = fs::read_to_string(path).unwrap();
    fs::write(path, text.replace("status = \"pending\"", "status = \"accepted\"")).unwrap();
}

#[test]
fn mine_writes_the_rules_file_and_prints_the_summary() {
    let dir = fixture();
    let o = chaff(&["mine", "sevendays"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("sevendays: 40 documents"), "{out}");
    assert!(out.contains("auto cutoff"), "{out}");
    assert!(out.contains("Permanent link | no responses"), "{out}");
    let rules = fs::read_to_string(dir.path().join("rules/sevendays.toml")).unwrap();
    assert!(rules.contains("[[rule]]") && rules.contains("status = \"pending\""), "{rules}");

    let o = chaff(&["mine", "sevendays", "--json"], dir.path());
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["documents"], 40);
    assert_eq!(v["histogram"].as_array().unwrap().len(), 100);
    assert!(v["candidates"].as_u64().unwrap() >= 3);
}

#[test]
fn re_mining_keeps_decisions() {
    let dir = fixture();
    assert!(chaff(&["mine", "sevendays"], dir.path()).status.success());
    let path = dir.path().join("rules/sevendays.toml");
    let text = fs::read_to_string(&path).unwrap();
    let rejected = text.matches("status = \"rejected\"").count();
    let first = text.find("status = \"pending\"").unwrap();
    fs::write(&path, format!("{}status = \"rejected\"{}", &text[..first], &text[first + 18..])).unwrap();
    assert!(chaff(&["mine", "sevendays"], dir.path()).status.success());
    let again = fs::read_to_string(&path).unwrap();
    assert_eq!(again.matches("status = \"rejected\"").count(), rejected + 1, "the editor's rejection stays: {again}");
}

#[test]
fn stats_writes_nothing() {
    let dir = fixture();
    let o = chaff(&["stats", "sevendays", "--top", "3"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("top candidates"));
    assert!(!dir.path().join("rules").exists());
}

#[test]
fn clean_files_to_a_folder_and_explain() {
    let dir = fixture();
    assert!(chaff(&["mine", "sevendays"], dir.path()).status.success());
    accept_all(&dir.path().join("rules/sevendays.toml"));
    let o =
        chaff(&["clean", "--rules", "rules/sevendays.toml", "sevendays", "--out", "clean", "--explain"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let cleaned = fs::read_to_string(dir.path().join("clean/0001.txt")).unwrap();
    assert!(!cleaned.contains("Permanent link") && !cleaned.contains("Please login"), "{cleaned}");
    let explain = stdout(&o);
    // the template goes by cuts here (the idioms that were removed inside the article start rejected)
    let named = |l: &str| l.contains("0001.txt") && (l.contains("removed") || l.contains("cut-")) && l.contains("\tr");
    assert!(explain.lines().any(named), "{explain}");
}

#[test]
fn clean_json_lines_from_stdin_to_stdout() {
    let dir = fixture();
    assert!(chaff(&["mine", "sevendays"], dir.path()).status.success());
    accept_all(&dir.path().join("rules/sevendays.toml"));
    let input = "{\"id\": \"a\", \"text\": \"# Permanent link | no responses | Published on: Friday, 2nd March, 2007 Our body text here is long enough not to be an island. Please login to leave a reply\"}\n\
                 not json\n\
                 {\"id\": 7, \"text\": \"plain\"}\n";
    let o = chaff_stdin(&["clean", "--rules", "rules/sevendays.toml", "--explain"], dir.path(), input);
    assert_eq!(o.status.code(), Some(1), "a bad line fails the run at the end");
    let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 2, "the good lines still come out");
    assert_eq!(lines[0]["text"], "Our body text here is long enough not to be an island.");
    assert!(!lines[0]["spans"].as_array().unwrap().is_empty());
    assert_eq!(lines[1]["id"], 7, "a numeric id comes back as the number it was");
    assert!(stderr(&o).contains("stdin:2:2: bad JSON Lines record: expected ident ("), "{}", stderr(&o));
}

#[test]
fn plain_text_on_stdin_is_refused_once_with_the_way_to_clean_it() {
    let dir = fixture();
    assert!(chaff(&["mine", "sevendays"], dir.path()).status.success());
    accept_all(&dir.path().join("rules/sevendays.toml"));
    let page = "Home | News\nThe harbour opened on Monday.\nContact us\n".repeat(20);
    let o = chaff_stdin(&["clean", "--rules", "rules/sevendays.toml"], dir.path(), &page);
    assert!(!o.status.success() && o.stdout.is_empty());
    let err = stderr(&o);
    assert_eq!(err.matches("error").count(), 1, "one error, not one a line: {err}");
    assert!(err.contains("stdin:1:1: not JSON Lines") && err.contains("give `-` as the INPUT"), "{err}");
}

#[test]
fn a_dash_cleans_one_document_from_stdin_to_stdout_as_its_file_is_cleaned() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&html_news(30, 5), dir.path()).unwrap();
    assert!(chaff(&["mine", "html_news"], dir.path()).status.success());
    for output in ["--text", "--keep-tags"] {
        let rules = ["--rules", "rules/html_news.toml", "--include-pending", output];
        let out = format!("out{output}");
        let o = chaff(&[&["clean", "html_news", "--out", &out][..], &rules].concat(), dir.path());
        assert!(o.status.success(), "{}", stderr(&o));
        let written = if output == "--text" { "0003.txt" } else { "0003.html" };
        let want = fs::read(dir.path().join(&out).join(written)).unwrap();
        let page = fs::read(dir.path().join("html_news/0003.html")).unwrap();
        let o = run::chaff_stdin(&[&["clean"][..], &rules, &["-"]].concat(), dir.path(), &page);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(o.stdout.len() < page.len(), "the template went");
        assert_eq!(String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&want), "{output}");
    }
    let o = run::chaff_stdin(&["clean", "--rules", "rules/html_news.toml", "-", "html_news"], dir.path(), b"");
    assert!(stderr(&o).contains("`-` reads one document on stdin") && !o.status.success(), "{}", stderr(&o));
}

#[test]
fn clean_html_as_text_or_with_its_tags_kept() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&html_news(30, 5), dir.path()).unwrap();
    assert!(chaff(&["mine", "html_news"], dir.path()).status.success());
    let rules = ["--rules", "rules/html_news.toml", "--include-pending"];
    let o = chaff(&[&["clean", "html_news", "--out", "html"][..], &rules].concat(), dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(dir.path().join("html/0001.html").exists(), "without --text: the cleaned HTML, under its name");

    let o = chaff(&[&["clean", "html_news", "--out", "text", "--text"][..], &rules].concat(), dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let text = fs::read_to_string(dir.path().join("text/0001.txt")).unwrap();
    assert!(!text.contains('<') && !text.contains("The Harbour Gazette"), "no markup, no masthead: {text}");
    let page = fs::read_to_string(dir.path().join("html_news/0001.html")).unwrap();
    let first = page.split("<p>").nth(1).and_then(|p| p.split('.').next()).unwrap();
    assert!(text.contains(first), "the article's first sentence, first word too ({first:?}): {text}");

    // JSON Lines the same
    let record = serde_json::json!({ "id": "p", "text": page }).to_string();
    let o = chaff_stdin(&[&["clean", "--text"][..], &rules].concat(), dir.path(), &record);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["text"].as_str().unwrap(), text);

    // --keep-tags: the page's markup whole, the template's text gone
    let o = chaff(&[&["clean", "html_news", "--out", "tags", "--keep-tags"][..], &rules].concat(), dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let kept = fs::read_to_string(dir.path().join("tags/0001.html")).unwrap();
    let tags = |html: &str| html.matches('<').count();
    assert_eq!(tags(&kept), tags(&page), "every tag stays");
    assert!(!kept.contains("The Harbour Gazette") && kept.contains(first), "{kept}");
    let o = chaff(&[&["clean", "html_news", "--out", "x", "--keep-tags", "--text"][..], &rules].concat(), dir.path());
    assert_eq!(o.status.code(), Some(2), "one output or the other: {}", stderr(&o));
}

#[test]
fn bad_corpora_give_one_line_errors() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    // empty
    fs::create_dir(p.join("empty")).unwrap();
    let o = chaff(&["mine", "empty"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("empty: no documents found"), "{}", stderr(&o));
    assert_eq!(stderr(&o).trim().lines().count(), 1);
    // one document
    fs::create_dir(p.join("one")).unwrap();
    fs::write(p.join("one/a.txt"), "just one").unwrap();
    let o = chaff(&["mine", "one"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("at least two documents"), "{}", stderr(&o));
    // missing
    for command in [&["mine"][..], &["stats"], &["mine", "--all"]] {
        let o = chaff(&[command, &["nowhere"]].concat(), p);
        assert_eq!(o.status.code(), Some(1));
        assert!(stderr(&o).contains("nowhere: no such corpus (give a folder of"), "{command:?}: {}", stderr(&o));
    }
    // bad JSONL line
    fs::write(p.join("c.jsonl"), "{\"id\":1,\"text\":\"a b\"}\n{\"id\":2,\"text\":\"a b\"\n").unwrap();
    let o = chaff(&["mine", "c.jsonl"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("c.jsonl:2:"), "{}", stderr(&o));
}

#[test]
fn binary_and_invalid_utf8_files_warn_and_are_not_lost() {
    let dir = fixture();
    let p = dir.path();
    fs::write(p.join("sevendays/zz-binary.txt"), b"\x00\x01\x02 data").unwrap();
    // windows-1252 is read in its encoding; UTF-8 with a stray byte has the byte replaced, and says so
    fs::write(p.join("sevendays/zz-latin1.txt"), b"caf\xe9 and more read more").unwrap();
    fs::write(p.join("sevendays/zz-stray.txt"), b"caf\xc3\xa9 na\xc3\xafve \xff and more read more").unwrap();
    let o = chaff(&["mine", "sevendays"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("zz-binary.txt: binary file (NUL bytes), skipped"), "{err}");
    assert!(!err.contains("zz-latin1.txt"), "{err}");
    assert!(err.contains("zz-stray.txt: 1 invalid UTF-8 sequence(s) replaced"), "{err}");
    assert!(stdout(&o).contains("42 documents"), "{}", stdout(&o));
}

#[test]
fn bad_rules_files_name_file_line_and_column() {
    let dir = fixture();
    let p = dir.path();
    fs::write(p.join("bad.toml"), "source = \"x\"\n[cutoff]\nauto = 5\nchosen = oops\n").unwrap();
    let o = chaff(&["clean", "--rules", "bad.toml"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("bad.toml:4:10"), "{}", stderr(&o));
    fs::write(
        p.join("badre.toml"),
        "source = \"x\"\n[cutoff]\nauto = 5\nchosen = 5\n[[rule]]\nid = \"r1\"\nstatus = \"accepted\"\nregex = \"(oops\"\n",
    )
    .unwrap();
    let o = chaff(&["clean", "--rules", "badre.toml"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("rule r1: invalid regex"), "{}", stderr(&o));
    // a rules file that is not there says where rules files come from
    let o = chaff(&["clean", "--rules", "rules/missing.toml"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("rules/missing.toml: no such file; `chaff mine"), "{}", stderr(&o));
    // the patterns file beside the rules files is not one of them
    fs::write(p.join("patterns.toml"), "[[pattern]]\nname = \"n\"\nregex = '\\d+'\n").unwrap();
    let o = chaff(&["clean", "--rules", "patterns.toml"], p);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("patterns.toml:1:1: a mutable patterns file, not a source's rules file"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn usage_errors_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(chaff(&["mine"], dir.path()).status.code(), Some(2));
    assert_eq!(chaff(&["frobnicate"], dir.path()).status.code(), Some(2));
    assert_eq!(chaff(&["mine", "x", "--preset", "pdf"], dir.path()).status.code(), Some(2));
}

#[test]
fn mine_all_flags_idioms_found_in_many_sources_and_rejects_them() {
    let dir = tempfile::tempdir().unwrap();
    for source in chaff::generate::bundled() {
        write_source(&source, &dir.path().join("corpora")).unwrap();
    }
    let o = chaff(&["mine", "--all", "corpora"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("flagged as idioms across 5 sources"), "{}", stdout(&o));
    let rules = fs::read_to_string(dir.path().join("rules/sevendays.toml")).unwrap();
    let of_the = rules.split("[[rule]]").find(|r| r.contains("tokens = [\"of\", \"the\"]")).expect("mined");
    assert!(of_the.contains("idiom = true") && of_the.contains("status = \"rejected\""), "{of_the}");
    // the template itself is not an idiom
    let head = rules.split("[[rule]]").find(|r| r.contains("\"Permanent\"")).unwrap();
    assert!(head.contains("status = \"pending\"") && !head.contains("idiom"), "{head}");
}

#[test]
fn an_invalid_mutable_pattern_in_a_rules_file_is_named() {
    let dir = fixture();
    fs::create_dir_all(dir.path().join("rules")).unwrap();
    fs::write(
        dir.path().join("rules/sevendays.toml"),
        "source = \"sevendays\"\n[cutoff]\nauto = 50\nchosen = 50\n[[mutable]]\nname = \"when\"\nregex = \"(Mon|Tue\"\n",
    )
    .unwrap();
    let o = chaff(&["mine", "sevendays"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("mutable pattern `when`: invalid regex"), "{}", stderr(&o));
}

#[test]
fn clean_with_and_without_frame_cuts() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&chaff::generate::comments(40, 5), dir.path()).unwrap();
    let comments_left = |rules: &str| {
        let o = chaff(&["clean", "--rules", rules, "--include-pending", "comments", "--out", "out"], dir.path());
        assert!(o.status.success(), "{}", stderr(&o));
        fs::read_dir(dir.path().join("out"))
            .unwrap()
            .filter(|e| fs::read_to_string(e.as_ref().unwrap().path()).unwrap().contains(" says: "))
            .count()
    };
    let o = chaff(&["mine", "comments", "--rules-dir", "cuts"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let rules = fs::read_to_string(dir.path().join("cuts/comments.toml")).unwrap();
    assert!(rules.contains("action = \"cut-after\""), "{rules}");
    let with_cuts = comments_left("cuts/comments.toml");
    let o = chaff(&["mine", "comments", "--rules-dir", "plain", "--no-cuts"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!fs::read_to_string(dir.path().join("plain/comments.toml")).unwrap().contains("action ="));
    fs::remove_dir_all(dir.path().join("out")).unwrap();
    let without = comments_left("plain/comments.toml");
    assert!(with_cuts < without, "pages keeping comments: {with_cuts} with cuts, {without} without");
    // pages with "1 response" (singular) keep their one comment: that footer string is another one
    assert!(with_cuts * 3 <= without, "{with_cuts} of {without}");
}

/// A rules file of two accepted cut strings, `menu` (cut-before "Menu Home") and `footer` (cut-after "Leave
/// a reply").
const CUT_RULES: &str = "format = 3\nsource = \"docs\"\ntokenizer = \"text\"\n[cutoff]\nauto = 50\nchosen = 50\n\
    [[rule]]\nid = \"menu\"\nstatus = \"accepted\"\naction = \"cut-before\"\nregex = 'Menu\\s+Home'\n\
    [[rule]]\nid = \"footer\"\nstatus = \"accepted\"\naction = \"cut-after\"\nregex = 'Leave\\s+a\\s+reply'\n";

#[test]
fn explain_names_a_cut_string_that_cut_nothing_where_it_matched() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(p.join("rules.toml"), CUT_RULES).unwrap();
    fs::create_dir(p.join("docs")).unwrap();
    // the header string stands below the article: it cuts nothing, and stays
    let doc = "News\nThe council met on Monday to discuss the long delayed plans for the harbour front.\n\
               The mayor said the work would start in the spring and last for two full years at least.\n\
               Menu Home\nBob says hi\n";
    fs::write(p.join("docs/a.txt"), doc).unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "out", "--explain"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(p.join("out/a.txt")).unwrap(), doc);
    let at = doc.find("Menu Home").unwrap();
    let line = format!("docs/a.txt\t{at}..{}\tkept\tmenu\tcuts\tMenu Home", at + "Menu Home".len());
    assert_eq!(stdout(&o).trim_end(), line);
}

#[test]
fn cleaning_an_empty_folder_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(p.join("rules.toml"), CUT_RULES).unwrap();
    fs::create_dir_all(p.join("empty")).unwrap();
    fs::write(p.join("empty/notes.md"), "not a document").unwrap();
    for dest in [&["--out", "out"][..], &["--in-place"]] {
        let o = chaff(&[&["clean", "--rules", "rules.toml", "empty"][..], dest].concat(), p);
        assert_eq!(o.status.code(), Some(1), "{dest:?}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("empty: no documents found (expected .txt or .html files); skipped"),
            "{}",
            stderr(&o)
        );
    }
    // a folder of sources says how those are cleaned; a folder with documents beside it is still cleaned
    fs::create_dir_all(p.join("sources/docs")).unwrap();
    fs::write(p.join("sources/docs/a.txt"), "Menu Home\nNews").unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "sources", "sources/docs", "--out", "out"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("sources: no documents found (expected .txt or .html files): its folders are not read"),
        "{}",
        stderr(&o)
    );
    assert!(p.join("out/a.txt").exists());
}

#[test]
fn a_rules_folder_given_twice_to_tune_is_a_usage_error_in_one_clean_line() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("corpora")).unwrap();
    let o = chaff(&["tune", "a", "--corpus", "corpora", "--rules-dir", "b"], dir.path());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("with --corpus, give it once, as `chaff tune RULES_DIR --corpus DIR`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_empty_entry_in_any_comma_separated_list_is_a_usage_error_naming_where_it_stands() {
    let dir = tempfile::tempdir().unwrap();
    // each list option (`--off` has its own test), a command line it is valid on, and a valid entry
    for (command, option, noun, entry) in [
        (&["test", "--rules", "x.toml", "corpus"][..], "--accept <IDS>", "id", "0002"),
        (&["bench"], "--sizes <SIZES>", "size", "10"),
        (&["eval", "root"], "--method <METHOD>", "method", "chaff"),
    ] {
        for (list, place) in [
            (format!("{entry},"), format!("the {noun} after `{entry},` is empty")),
            (format!(",{entry}"), format!("the {noun} before `,{entry}` is empty")),
            (format!("{entry},,{entry}"), format!("the {noun} after `{entry},` is empty")),
            (String::new(), format!("no {noun} is given")),
        ] {
            let o = chaff(&[command, &[&option[..option.find(' ').unwrap()], &list]].concat(), dir.path());
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{command:?} {list:?}: {err}");
            assert!(err.contains(&format!("invalid value '{list}' for '{option}': {place}")), "{err}");
        }
    }
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing is written");
}

#[test]
fn a_folder_inside_an_input_folder_is_named_as_not_cleaned() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(
        p.join("rules.toml"),
        "source = \"x\"\ntokenizer = \"text\"\n[cutoff]\nauto = 50\nchosen = 50\n\n[[rule]]\nid = \"r1\"\n\
         status = \"accepted\"\nregex = 'Read\\s+more'\n",
    )
    .unwrap();
    fs::create_dir_all(p.join("docs/older")).unwrap();
    fs::write(p.join("docs/1.txt"), "Article 1.\nRead more\n").unwrap();
    fs::write(p.join("docs/older/2.txt"), "Article 2.\nRead more\n").unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "docs", "--out", "out"], p);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(p.join("out/1.txt").exists());
    let err = stderr(&o);
    assert!(err.contains("docs/older: a folder inside the input folder docs: its documents are not cleaned"), "{err}");
}

/// Runs the binary with its stderr closed before it writes anything (`chaff … 2>&1 | head`, the reader
/// gone): its exit status and stdout.
fn with_closed_stderr(args: &[&str], dir: &Path) -> (Option<i32>, String) {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(args)
        .current_dir(dir)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let o = child.wait_with_output().unwrap();
    (o.status.code(), stdout(&o))
}

#[test]
fn a_closed_stderr_neither_stops_a_batch_nor_panics() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(
        p.join("rules.toml"),
        "source = \"x\"\ntokenizer = \"text\"\n[cutoff]\nauto = 50\nchosen = 50\n\n[[rule]]\nid = \"r1\"\n\
         status = \"accepted\"\nregex = 'Read\\s+more'\n",
    )
    .unwrap();
    fs::create_dir_all(p.join("docs")).unwrap();
    fs::create_dir_all(p.join("rules")).unwrap();
    fs::copy(p.join("rules.toml"), p.join("rules/x.toml")).unwrap();
    // a bad document first: its error is the first thing written to the closed stderr
    fs::write(p.join("docs/0.txt"), "binary\0file").unwrap();
    for i in 1..4 {
        fs::write(p.join(format!("docs/{i}.txt")), format!("Article {i}.\nRead more\n")).unwrap();
    }
    let (code, _) = with_closed_stderr(&["clean", "--rules", "rules.toml", "docs", "--out", "out"], p);
    assert_eq!(code, Some(1), "the bad document fails the run, nothing panics");
    assert_eq!(fs::read_dir(p.join("out")).unwrap().count(), 3, "the rest is cleaned");
    // each document routed to its source's rules
    let (code, _) = with_closed_stderr(&["clean", "--rules-dir", "rules", "docs", "--out", "routed"], p);
    assert_eq!(code, Some(1));
    assert_eq!(fs::read_dir(p.join("routed/docs")).unwrap().count(), 3);
}

#[test]
fn a_json_lines_or_warc_file_given_with_rules_is_refused_not_cut_as_one_document() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    fs::write(
        p.join("rules.toml"),
        "source = \"x\"\ntokenizer = \"text\"\n[cutoff]\nauto = 50\nchosen = 50\n\n[[rule]]\nid = \"r1\"\n\
         status = \"accepted\"\naction = \"cut-before\"\nregex = 'Read\\s+more'\n",
    )
    .unwrap();
    // cut as one text, its first record's `{"id": 1, "text": "` would go with the header
    fs::write(p.join("c.jsonl"), "{\"id\": 1, \"text\": \"Read more\\nArticle.\"}\n").unwrap();
    fs::write(p.join("c.warc.gz"), b"\x1f\x8b").unwrap();
    fs::write(p.join("1.txt"), "Read more\nArticle 1.\n").unwrap();
    let o = chaff(&["clean", "--rules", "rules.toml", "c.jsonl", "c.warc.gz", "1.txt", "--out", "out"], p);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("c.jsonl: JSON Lines") && err.contains("< c.jsonl"), "says how: {err}");
    assert!(err.contains("c.warc.gz: a WARC crawl") && err.contains("--rules-dir"), "says how: {err}");
    assert!(!p.join("out/c.jsonl").exists() && !p.join("out/c.warc.gz").exists());
    assert_eq!(fs::read_to_string(p.join("out/1.txt")).unwrap().trim(), "Article 1.", "the rest is cleaned");
}
