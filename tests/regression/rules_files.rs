//! Regressions of rules files and `chaff mine`: decisions never lost, unknown keys warned, modes kept.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use chaff::generate::{bundled, sevendays, write_source};
use chaff::rules::{RulesFile, Status};

use crate::run::{chaff, stderr, with_closed_stdout};

/// A temp dir holding `corpora/sevendays` (40 documents) and, mined, `rules/sevendays.toml`.
pub(crate) fn mined() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    write_source(&sevendays(40, 3), &dir.path().join("corpora")).unwrap();
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let rules = dir.path().join("rules/sevendays.toml");
    (dir, rules)
}

/// Replaces the first occurrence of `from` in the file at `path`.
fn edit(path: &Path, from: &str, to: &str) {
    let text = fs::read_to_string(path).unwrap();
    assert!(text.contains(from), "{from} not in {text}");
    fs::write(path, text.replacen(from, to, 1)).unwrap();
}

/// The 1-based line of the first occurrence of `needle`.
pub(crate) fn line_of(path: &Path, needle: &str) -> usize {
    fs::read_to_string(path).unwrap().lines().position(|l| l.contains(needle)).unwrap() + 1
}

#[test]
fn mine_all_with_a_closed_stdout_writes_every_rules_file_and_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    let sources = bundled();
    for s in &sources {
        write_source(s, &dir.path().join("corpora")).unwrap();
    }
    let (status, err) = with_closed_stdout(&["mine", "--all", "corpora"], dir.path());
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for s in &sources {
        assert!(dir.path().join(format!("rules/{}.toml", s.name)).exists(), "{} not written: {err}", s.name);
    }
}

#[test]
fn stats_with_a_closed_stdout_exits_0() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&sevendays(40, 3), dir.path()).unwrap();
    for args in [&["stats", "sevendays"][..], &["stats", "sevendays", "--json"]] {
        let (status, err) = with_closed_stdout(args, dir.path());
        assert_eq!(status.code(), Some(0), "{args:?}: {err}");
    }
}

#[test]
fn remine_keeps_a_hand_edited_regex() {
    let (dir, rules) = mined();
    let file = RulesFile::load(&rules).unwrap();
    let target = file.rules.iter().find(|r| !r.tokens.is_empty()).unwrap().clone();
    let hand = format!("{}(?:\\s+extra)?", target.regex);
    let mut edited = file.clone();
    let r = edited.rules.iter_mut().find(|r| r.id == target.id).unwrap();
    r.regex = hand.clone();
    r.status = Status::Accepted;
    edited.save(&rules).unwrap();
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let again = RulesFile::load(&rules).unwrap();
    let r = again.rules.iter().find(|r| r.id == target.id).unwrap();
    assert_eq!(r.status, Status::Accepted);
    assert_eq!(r.regex, hand, "the editor's regex is kept");
}

#[test]
fn unknown_keys_in_a_rules_file_are_warned_with_line_and_column() {
    let (dir, rules) = mined();
    edit(&rules, "status = \"pending\"", "stauts = \"accepted\"");
    edit(&rules, "[cutoff]\n", "[cutoff]\nchoosen = 40\n");
    let line = line_of(&rules, "stauts");
    let before = fs::read_to_string(&rules).unwrap();
    // the library returns them to any caller
    let (_, warnings) = RulesFile::load_checked(&rules).unwrap();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    // clean reads the file as before
    let o = chaff(&["clean", "--rules", "rules/sevendays.toml", "corpora/sevendays", "--out", "out"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    // mine would drop them with the rewritten file: it names them and writes nothing
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("rules/sevendays.toml:{line}:1: unused key `rule.stauts`")), "{err}");
    assert!(err.contains("unused key `cutoff.choosen`"), "{err}");
    assert_eq!(fs::read_to_string(&rules).unwrap(), before, "nothing lost");
}

#[test]
fn a_bin_or_cutoff_over_99_is_an_error_naming_line_and_column() {
    let (dir, rules) = mined();
    let text = fs::read_to_string(&rules).unwrap();
    let chosen = text.lines().find(|l| l.starts_with("chosen = ")).unwrap().to_string();
    edit(&rules, &chosen, "chosen = 250");
    let line = line_of(&rules, "chosen = 250");
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("rules/sevendays.toml:{line}:10:")) && err.contains("0 to 99"), "{err}");
    edit(&rules, "chosen = 250", &chosen);
    let bin = fs::read_to_string(&rules).unwrap().lines().find(|l| l.starts_with("bin = ")).unwrap().to_string();
    edit(&rules, &bin, "bin = 250");
    let o = chaff(&["clean", "--rules", "rules/sevendays.toml", "corpora/sevendays", "--out", "out"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let line = line_of(&rules, "bin = 250");
    assert!(stderr(&o).contains(&format!("rules/sevendays.toml:{line}:7:")), "{}", stderr(&o));
}

#[test]
fn duplicate_rule_ids_are_an_error_naming_both_lines() {
    let (dir, rules) = mined();
    let file = RulesFile::load(&rules).unwrap();
    let (first, second) = (file.rules[0].id.clone(), file.rules[1].id.clone());
    edit(&rules, &format!("id = \"{second}\""), &format!("id = \"{first}\""));
    let lines: Vec<usize> = fs::read_to_string(&rules)
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| *l == format!("id = \"{first}\""))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(lines.len(), 2);
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("rules/sevendays.toml:{}:", lines[1])), "{err}");
    assert!(err.contains(&format!("line {}", lines[0])) && err.contains(&first), "{err}");
}

#[test]
fn a_status_that_is_not_a_string_says_which_values_are_allowed() {
    let (dir, rules) = mined();
    edit(&rules, "status = \"pending\"", "status = 5");
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("accepted") && err.contains("rejected") && err.contains("pending"), "{err}");
    assert!(!err.contains("string or table"), "{err}");
}

#[test]
fn a_bad_regex_in_the_existing_rules_file_names_the_file() {
    let (dir, rules) = mined();
    let file = RulesFile::load(&rules).unwrap();
    let mut edited = file.clone();
    edited.rules[0].regex = "(unclosed".into();
    edited.rules[0].status = Status::Accepted;
    edited.save(&rules).unwrap();
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    let line = line_of(&rules, "(unclosed");
    assert!(err.contains(&format!("rules/sevendays.toml:{line}:")), "{err}");
}

#[test]
fn an_empty_or_path_like_source_name_is_refused() {
    let (dir, _) = mined();
    for name in ["", "../x", "a/b", "."] {
        let o = chaff(&["mine", "corpora/sevendays", "--source", name, "--rules-dir", "out"], dir.path());
        assert_eq!(o.status.code(), Some(1), "{name:?}");
        assert!(stderr(&o).contains("source name"), "{name:?}: {}", stderr(&o));
    }
    assert!(!dir.path().join("out").exists() || fs::read_dir(dir.path().join("out")).unwrap().count() == 0);
    assert!(!dir.path().join("x.toml").exists());
}

#[test]
fn a_rules_dir_that_is_a_file_fails_before_mining() {
    let (dir, _) = mined();
    fs::write(dir.path().join("plain"), "").unwrap();
    let o = chaff(&["mine", "corpora/sevendays", "--rules-dir", "plain"], dir.path());
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty(), "nothing mined");
    assert!(stderr(&o).contains("plain") && stderr(&o).contains("not a folder"), "{}", stderr(&o));
}

#[test]
fn a_bad_mutable_pattern_name_is_not_called_an_invalid_regex() {
    use chaff::mutable::{MutablePattern, MutableSet};
    let err = MutableSet::new(vec![MutablePattern::new("my date", r"\d+")]).unwrap_err().to_string();
    assert!(!err.contains("invalid regex"), "{err}");
    assert!(err.contains("name") && err.contains("letters"), "{err}");
}

#[test]
fn mine_all_skips_a_source_of_one_document_and_fails_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpora");
    write_source(&sevendays(40, 3), &root).unwrap();
    fs::create_dir_all(root.join("lonely")).unwrap();
    fs::write(root.join("lonely/one.txt"), "a single document").unwrap();
    let o = chaff(&["mine", "--all", "corpora"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("lonely"), "{}", stderr(&o));
    assert!(dir.path().join("rules/sevendays.toml").exists(), "the good source is written");
}

#[cfg(target_os = "linux")]
#[test]
fn mine_all_skips_an_unreadable_file_mines_the_rest_and_fails_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpora");
    write_source(&sevendays(40, 3), &root).unwrap();
    write_source(&sevendays(30, 4), &dir.path().join("more")).unwrap();
    fs::rename(dir.path().join("more/sevendays"), root.join("other")).unwrap();
    // a regular file whose read fails (EIO), even for root
    std::os::unix::fs::symlink("/proc/self/mem", root.join("other/bad.txt")).unwrap();
    let o = chaff(&["mine", "--all", "corpora"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("bad.txt"), "{}", stderr(&o));
    assert!(dir.path().join("rules/sevendays.toml").exists(), "the good source is written");
    let other = RulesFile::load(&dir.path().join("rules/other.toml")).expect("the source is mined without the file");
    assert_eq!(other.documents, 30, "every readable document is mined");
}

/// A concurrent writer (an editor in the UI, another `mine`) saved a decision after this writer read the
/// file: the save merges it instead of replacing the file.
#[test]
fn a_save_keeps_decisions_saved_on_disk_since_the_file_was_read() {
    use chaff::merge::{Prefer, save_merged};
    let (_dir, rules) = mined();
    let base_text = fs::read_to_string(&rules).unwrap();
    let base = RulesFile::parse(&base_text, &rules).unwrap();
    // ours: what a mine computed from `base` (here: the same rules, a new chosen cutoff)
    let mut ours = base.clone();
    ours.rules[1].status = Status::Rejected;
    // theirs: an editor accepted the first rule meanwhile
    let mut theirs = base.clone();
    theirs.rules[0].status = Status::Accepted;
    theirs.save(&rules).unwrap();
    for prefer in [Prefer::Disk, Prefer::Ours] {
        let saved = save_merged(&rules, ours.clone(), Some(&base_text), prefer).unwrap();
        assert!(saved.report.to_string().contains(&base.rules[0].id), "{}", saved.report);
        let on_disk = RulesFile::load(&rules).unwrap();
        assert_eq!(on_disk.rules[0].status, Status::Accepted, "their decision survives");
        assert_eq!(on_disk.rules[1].status, Status::Rejected, "ours too");
        theirs.save(&rules).unwrap();
    }
}

/// The tuning UI saves over a file a `mine` (or another editor) wrote since the UI read it.
#[test]
fn ui_save_keeps_decisions_a_concurrent_writer_saved() {
    use chaff::tui::{Settings, TuneOptions};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let (dir, rules) = mined();
    let opts = TuneOptions {
        corpus: dir.path().join("corpora/sevendays"),
        rules: None,
        rules_dir: dir.path().join("rules"),
        preset: None,
    };
    let mut app = chaff::tui::open(&opts, Settings { watch: false, journal: false }).unwrap();
    app.resize(120, 40);
    let press =
        |app: &mut chaff::tui::App, c: char| app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
    // the editor accepts the second candidate of the list, unsaved
    press(&mut app, 'j');
    press(&mut app, 'a');
    let s = app.session().unwrap();
    let ours = s.decisions.values().find(|r| r.status == Status::Accepted).expect("accepted").id.clone();
    // meanwhile a writer rejects another rule and saves
    let mut theirs = RulesFile::load(&rules).unwrap();
    let i = theirs.rules.iter().position(|r| r.id != ours && r.status == Status::Pending).unwrap();
    theirs.rules[i].status = Status::Rejected;
    let their_id = theirs.rules[i].id.clone();
    theirs.save(&rules).unwrap();
    press(&mut app, 'w');
    let on_disk = RulesFile::load(&rules).unwrap();
    let status = |id: &str| on_disk.rules.iter().find(|r| r.id == id).map(|r| r.status);
    assert_eq!(status(&ours), Some(Status::Accepted), "the editor's decision is saved");
    assert_eq!(status(&their_id), Some(Status::Rejected), "the concurrent writer's decision survives");
    let s = app.session().unwrap();
    assert_eq!(s.status(s.position(&their_id).unwrap()), Status::Rejected, "the UI shows it");
}

/// `chaff mine` reads the rules file, mines, and saves: an editor's decision saved while it mined
/// survives. The test holds the rules file's lock, so the save waits for it (and says so on stderr)
/// after the mine has read the file; the editor then saves and lets go.
#[test]
fn mine_keeps_decisions_saved_on_disk_while_it_ran() {
    use std::io::{BufRead, BufReader};
    let (dir, rules) = mined();
    let lock = hold_lock(&dir.path().join("rules/.sevendays.toml.lock"), "chaff tune");
    let mut child = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["mine", "corpora/sevendays"])
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // stderr read up to the waiting message, the rest kept for the end
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut seen = String::new();
    let mut line = String::new();
    while err.read_line(&mut line).unwrap() > 0 {
        seen.push_str(&line);
        if line.contains("waiting for the lock") {
            break;
        }
        line.clear();
    }
    assert!(seen.contains("waiting for the lock"), "mine never waited for the rules file's lock: {seen}");
    // the editor accepts a rule and saves, then lets go
    let mut theirs = RulesFile::load(&rules).unwrap();
    let i = theirs.rules.iter().position(|r| r.status == Status::Pending).unwrap();
    theirs.rules[i].status = Status::Accepted;
    let id = theirs.rules[i].id.clone();
    theirs.save(&rules).unwrap();
    drop(lock);
    std::io::Read::read_to_string(&mut err, &mut seen).unwrap();
    let status = child.wait().unwrap();
    assert!(status.success(), "{seen}");
    let after = RulesFile::load(&rules).unwrap();
    assert_eq!(after.rules.iter().find(|r| r.id == id).map(|r| r.status), Some(Status::Accepted));
    assert!(seen.contains("changed on disk since it was read; merged"), "{seen}");
}

/// Takes the lock at `path` as a writer does, naming this process (its pid) with `command`.
fn hold_lock(path: &Path, command: &str) -> fs::File {
    use std::io::Write;
    let mut lock = fs::OpenOptions::new().create(true).truncate(false).write(true).open(path).unwrap();
    lock.lock().unwrap();
    lock.set_len(0).unwrap();
    writeln!(lock, "{} {command}", std::process::id()).unwrap();
    lock
}

#[test]
fn a_lock_held_by_a_live_process_is_waited_on_with_a_message_and_a_bound() {
    let (dir, _) = mined();
    let _lock = hold_lock(&dir.path().join("rules/.sevendays.toml.lock"), "chaff tune");
    let holder = format!("held by pid {} (chaff tune)", std::process::id());
    for args in [&["mine", "corpora/sevendays"][..], &["mine", "--all", "corpora"]] {
        let o = chaff(&[args, &["--lock-timeout", "1"]].concat(), dir.path());
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(&format!("waiting for the lock on rules/sevendays.toml {holder}")), "{args:?}: {err}");
        assert!(err.contains("nothing was written") && err.contains("--lock-timeout"), "{args:?}: {err}");
    }
}

#[test]
fn a_rules_file_that_is_a_symbolic_link_is_written_through_to_its_target() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, rules) = mined();
    let target = dir.path().join("shared/sevendays.toml");
    fs::create_dir_all(target.parent().unwrap()).unwrap();
    fs::rename(&rules, &target).unwrap();
    fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
    std::os::unix::fs::symlink("../shared/sevendays.toml", &rules).unwrap();
    // an editor's decision saved through the link, then a mine through it
    let mut file = RulesFile::load(&rules).unwrap();
    file.rules[0].status = Status::Rejected;
    let id = file.rules[0].id.clone();
    file.save(&rules).unwrap();
    let o = chaff(&["mine", "corpora/sevendays"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(fs::symlink_metadata(&rules).unwrap().file_type().is_symlink(), "the link stays a link");
    let on_target = RulesFile::load(&target).unwrap();
    assert_eq!(on_target.rules.iter().find(|r| r.id == id).map(|r| r.status), Some(Status::Rejected));
    assert_eq!(fs::metadata(&target).unwrap().permissions().mode() & 0o777, 0o640, "the target keeps its mode");
    assert_eq!(
        fs::read_dir(dir.path().join("rules"))
            .unwrap()
            .filter(|e| { e.as_ref().unwrap().file_name().to_string_lossy().ends_with(".tmp") })
            .count(),
        0
    );
}

#[test]
fn a_mutable_pattern_that_escapes_its_group_is_refused_with_its_line_and_column() {
    let (dir, rules) = mined();
    let text = fs::read_to_string(&rules).unwrap();
    let patterns = &text[text.find("[[mutable]]").expect("the file holds its patterns")..];
    let first = patterns.lines().find(|l| l.starts_with("regex = ")).unwrap().to_string();
    edit(&rules, &first, "regex = 'a)|(.'");
    let line = line_of(&rules, "regex = 'a)|(.'");
    let err = RulesFile::load(&rules).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}:{line}:9:", rules.display())), "{err}");
    assert!(err.contains("a pattern must be a regex on its own"), "{err}");
    let o = chaff(&["clean", "--rules", "rules/sevendays.toml", "corpora/sevendays", "--out", "out"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!dir.path().join("out").exists());
}

#[test]
fn another_sources_rules_file_is_not_mined_over() {
    let (dir, rules) = mined();
    fs::rename(&rules, dir.path().join("rules/comments.toml")).unwrap();
    fs::rename(dir.path().join("corpora/sevendays"), dir.path().join("corpora/comments")).unwrap();
    let before = fs::read_to_string(dir.path().join("rules/comments.toml")).unwrap();
    let o = chaff(&["mine", "corpora/comments"], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("`sevendays`") && err.contains("`comments`") && err.contains("--take-over"), "{err}");
    assert_eq!(fs::read_to_string(dir.path().join("rules/comments.toml")).unwrap(), before, "nothing lost");
    let o = chaff(&["mine", "corpora/comments", "--take-over"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(RulesFile::load(&dir.path().join("rules/comments.toml")).unwrap().source, "comments");
}

#[test]
fn format_zero_is_refused_naming_its_line() {
    let (_dir, rules) = mined();
    edit(&rules, "format = 3", "format = 0");
    let line = line_of(&rules, "format = 0");
    let err = RulesFile::load(&rules).unwrap_err().to_string();
    assert!(err.starts_with(&format!("{}:{line}:10:", rules.display())) && err.contains("format = 3"), "{err}");
}

#[test]
fn clean_warns_of_rules_made_for_another_kind_of_document_or_another_source() {
    let dir = tempfile::tempdir().unwrap();
    let sources = bundled();
    for s in &sources {
        write_source(s, &dir.path().join("corpora")).unwrap();
    }
    let o = chaff(&["mine", "--all", "corpora"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let o = chaff(
        &["clean", "--rules", "rules/html_news.toml", "--include-pending", "corpora/sevendays", "--out", "a"],
        dir.path(),
    );
    let err = stderr(&o);
    assert!(err.contains("rules for HTML pages") && err.contains(".txt document(s)"), "{err}");
    assert!(err.contains("source `html_news`") && err.contains("(source `sevendays`)"), "{err}");
    let o = chaff(
        &["clean", "--rules", "rules/sevendays.toml", "--include-pending", "corpora/html_news", "--out", "b"],
        dir.path(),
    );
    assert!(stderr(&o).contains("rules for plain text") && stderr(&o).contains(".html page(s)"), "{}", stderr(&o));
    // its own rules: no word
    let o = chaff(
        &["clean", "--rules", "rules/sevendays.toml", "--include-pending", "corpora/sevendays", "--out", "c"],
        dir.path(),
    );
    assert!(!stderr(&o).contains("warning"), "{}", stderr(&o));
}

#[test]
fn text_rules_on_pages_say_that_text_output_does_not_apply() {
    let (dir, _) = mined();
    let p = dir.path();
    fs::create_dir(p.join("pages")).unwrap();
    fs::write(p.join("pages/1.html"), "<p>The article.</p><p>Read more about it</p>").unwrap();
    for flag in ["--text", "--keep-tags"] {
        let out = format!("out{flag}");
        let o = chaff(&["clean", "--rules", "rules/sevendays.toml", flag, "pages", "--out", &out], p);
        assert!(o.status.success(), "{}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains(&format!("{flag} does not apply")), "{flag} ignored without a word: {err}");
        assert!(p.join(&out).join("1.html").exists(), "written whole, as the warning says");
    }
    let o = chaff(&["clean", "--rules", "rules/sevendays.toml", "pages", "--out", "plain"], p);
    assert!(stderr(&o).contains("rules for plain text") && !stderr(&o).contains("does not apply"), "{}", stderr(&o));
}

#[test]
fn a_source_name_too_long_for_a_file_name_is_refused_before_mining() {
    let (dir, _) = mined();
    let name = "n".repeat(250);
    fs::rename(dir.path().join("corpora/sevendays"), dir.path().join("corpora").join(&name)).unwrap();
    let o = chaff(&["mine", &format!("corpora/{name}")], dir.path());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "nothing mined");
    assert!(stderr(&o).contains("250 bytes long") && stderr(&o).contains("--source NAME"), "{}", stderr(&o));
    let o = chaff(&["mine", &format!("corpora/{name}"), "--source", &"n".repeat(241)], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn clean_warns_of_a_misspelled_key_with_line_and_column() {
    let (dir, rules) = mined();
    edit(&rules, "status = \"pending\"", "stauts = \"accepted\"");
    let line = line_of(&rules, "stauts");
    let o = chaff(&["clean", "--rules", "rules/sevendays.toml", "corpora/sevendays", "--out", "out"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains(&format!("rules/sevendays.toml:{line}:")) && err.contains("stauts"), "{err}");
}

#[test]
fn mine_all_warns_of_a_symlink_loop_among_its_sources() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&sevendays(20, 3), &dir.path().join("corpora")).unwrap();
    std::os::unix::fs::symlink("loop", dir.path().join("corpora/loop")).unwrap();
    let o = chaff(&["mine", "--all", "corpora"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("corpora/loop: cannot be read"), "{}", stderr(&o));
}

#[test]
fn remining_without_flags_keeps_the_rules_files_mining_settings() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&sevendays(40, 3), dir.path()).unwrap();
    let rules = dir.path().join("rules/sevendays.toml");
    let ids = |path: &Path| -> Vec<String> {
        let mut ids: Vec<String> = RulesFile::load(path).unwrap().rules.into_iter().map(|r| r.id).collect();
        ids.sort();
        ids
    };
    let o = chaff(&["mine", "sevendays", "--min-tokens", "3"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    let first = ids(&rules);
    assert_eq!(RulesFile::load(&rules).unwrap().mining.min_tokens, 3);
    // no flags: the file's [mining] table, not the defaults
    let o = chaff(&["mine", "sevendays"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(RulesFile::load(&rules).unwrap().mining.min_tokens, 3);
    assert_eq!(ids(&rules), first, "re-mining reproduces the same strings");
    // a flag given still overrides the file
    let o = chaff(&["mine", "sevendays", "--min-tokens", "2"], dir.path());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(RulesFile::load(&rules).unwrap().mining.min_tokens, 2);
}

/// `name` in `root`: a folder of `docs` sevendays documents (seeded by `seed`), named by raw bytes.
#[cfg(target_os = "linux")]
fn source_folder_named(root: &Path, name: &[u8], docs: usize, seed: u64) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    let scratch = tempfile::tempdir().unwrap();
    write_source(&sevendays(docs, seed), scratch.path()).unwrap();
    let to = root.join(std::ffi::OsStr::from_bytes(name));
    fs::create_dir_all(root).unwrap();
    fs::rename(scratch.path().join("sevendays"), &to).unwrap();
    to
}

#[cfg(target_os = "linux")]
#[test]
fn a_folder_name_that_is_not_utf8_is_refused_as_a_source_name() {
    let dir = tempfile::tempdir().unwrap();
    let folder = source_folder_named(&dir.path().join("corpora"), b"bad\xffone", 20, 3);
    let mine = |extra: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_chaff"));
        command.arg("mine").arg(&folder).args(["--rules-dir", "out"]).args(extra);
        command.current_dir(dir.path()).output().unwrap()
    };
    let o = mine(&[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("not UTF-8") && stderr(&o).contains("--source NAME"), "{}", stderr(&o));
    assert!(!dir.path().join("out/source.toml").exists(), "nothing written under a stand-in name");
    let named = mine(&["--source", "named"]);
    assert!(named.status.success(), "{}", stderr(&named));
    assert!(dir.path().join("out/named.toml").exists());
}

#[cfg(target_os = "linux")]
#[test]
fn the_library_refusing_a_folder_name_that_is_not_utf8_names_no_command_line_option() {
    let dir = tempfile::tempdir().unwrap();
    let folder = source_folder_named(&dir.path().join("corpora"), b"bad\xffone", 20, 3);
    let library = chaff::corpus::source_name_checked(&folder).unwrap_err().to_string();
    assert!(library.contains("not UTF-8") && !library.contains("--"), "{library}");
}

#[cfg(target_os = "linux")]
#[test]
fn the_tuning_ui_refuses_a_folder_name_that_is_not_utf8_as_a_source_name() {
    let dir = tempfile::tempdir().unwrap();
    let folder = source_folder_named(&dir.path().join("corpora"), b"bad\xfeone", 20, 3);
    let rules_dir = dir.path().join("rules");
    let Err(err) = chaff::tui::source::open(&folder, None, &rules_dir, None) else { panic!("refused") };
    let err = err.to_string();
    assert!(err.contains("not UTF-8") && err.contains("rename"), "{err}");
    assert!(!rules_dir.join("source.toml").exists() && !rules_dir.join(".source.toml.open").exists());
    // with a rules file named, its name does not matter
    let named = rules_dir.join("named.toml");
    assert!(chaff::tui::source::open(&folder, Some(&named), &rules_dir, None).is_ok());
}

#[cfg(target_os = "linux")]
#[test]
fn two_sources_named_alike_are_not_mined_into_one_rules_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("corpora");
    source_folder_named(&root, b"source", 20, 3);
    source_folder_named(&root, b"bad\xffone", 25, 4);
    source_folder_named(&root, b"bad\xfetwo", 30, 5);
    source_folder_named(&root, b"wire", 35, 6);
    // a link to a folder is a source of the folder's name
    std::os::unix::fs::symlink("wire", root.join("alias")).unwrap();
    source_folder_named(&root, b"sevendays", 40, 7);
    let o = chaff(&["mine", "--all", "corpora"], dir.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("bad\u{fffd}one") && err.contains("bad\u{fffd}two"), "each unnamed folder reported: {err}");
    assert!(err.contains("alias") && err.contains("corpora/wire"), "both folders named `wire` reported: {err}");
    let source = RulesFile::load(&dir.path().join("rules/source.toml")).unwrap();
    assert_eq!(source.documents, 20, "`source.toml` holds the folder `source` alone");
    assert!(!dir.path().join("rules/wire.toml").exists(), "neither folder named `wire` is mined");
    assert_eq!(RulesFile::load(&dir.path().join("rules/sevendays.toml")).unwrap().documents, 40, "the rest is mined");
}

#[test]
fn mining_settings_out_of_range_are_usage_errors_naming_the_range() {
    let (dir, rules) = mined();
    let before = fs::read_to_string(&rules).unwrap();
    for (flag, value, says) in [
        ("--cutoff", "150", "0..=99"),
        ("--cut-share", "2", "over 0 and at most 1"),
        ("--cut-share", "nan", "over 0 and at most 1"),
        ("--cut-share", "0", "over 0 and at most 1"),
        ("--min-tokens", "0", "1.."),
        ("--min-df", "0", "1.."),
        ("--max-tf-per-df", "0", "over 0"),
    ] {
        let o = chaff(&["mine", "corpora/sevendays", flag, value], dir.path());
        assert_eq!(o.status.code(), Some(2), "{flag} {value}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{flag} {value}: {}", stderr(&o));
    }
    assert_eq!(fs::read_to_string(&rules).unwrap(), before, "nothing written");
}

#[cfg(target_os = "linux")]
#[test]
fn mine_counts_every_file_it_skipped_in_its_closing_error() {
    let dir = tempfile::tempdir().unwrap();
    write_source(&sevendays(20, 3), dir.path()).unwrap();
    fs::write(dir.path().join("sevendays/binary.txt"), b"a\0b").unwrap();
    std::os::unix::fs::symlink("gone.txt", dir.path().join("sevendays/dangling.txt")).unwrap();
    let o = chaff(&["mine", "sevendays"], dir.path());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert_eq!(err.matches("skipped").count(), 3, "two warnings and the closing error: {err}");
    assert!(err.contains("1 document(s) could not be read and 1 binary file(s) were not text"), "{err}");
}

/// The engine's refusal of a source name is the library's (Python's, the UI's): it names no option of the
/// command line; `chaff mine`, which took the name from a folder, says how to give another.
#[cfg(target_os = "linux")]
#[test]
fn a_folder_whose_name_is_no_source_name_is_refused_saying_how_to_name_one_and_the_library_names_no_option() {
    let dir = tempfile::tempdir().unwrap();
    let folder = source_folder_named(&dir.path().join("corpora"), b"a:b", 20, 3);
    let o = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .arg("mine")
        .arg(&folder)
        .args(["--rules-dir", "out"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(said.contains("\"a:b\" is not a usable source name") && said.contains("--source NAME"), "{said}");
    let library = chaff::rules::check_source_name("a:b").unwrap_err().to_string();
    assert!(library.contains("not a usable source name") && !library.contains("--"), "{library}");
}
