//! Regressions of the tuning UI's writers: two editors on one source, `chaff mine` under an editor, the
//! journal, re-mining, saving and exporting. No editor's decision may be lost.

// the UI tests' support, as `tui` includes it (one copy each keeps the modules independent)
#[allow(clippy::duplicate_mod)]
#[path = "../tui_support.rs"]
mod tui_support;

use std::fs;
use std::path::Path;
use std::process::Command;

use chaff::rules::{RulesFile, Status};
use chaff::tui::state::Mode;
use chaff::tui::update::on_change;
use chaff::tui::watch::Change;
use chaff::tui::{App, Settings};
use tui_support::{Fixture, press};

fn selected_id(app: &App) -> String {
    let s = app.session().unwrap();
    s.string(s.list.current().unwrap()).id.clone()
}

fn status_on_disk(path: &Path, id: &str) -> Status {
    let file = RulesFile::load(path).unwrap();
    file.rules.iter().find(|r| r.id == id).map_or(Status::Pending, |r| r.status)
}

fn message(app: &App) -> String {
    app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default()
}

#[test]
fn keep_mine_after_another_editor_saved_keeps_their_decisions_too() {
    let fx = Fixture::sevendays();
    let mut a = fx.app(120, 40);
    press(&mut a, "w");
    let mut b = fx.app(120, 40);
    // A accepts two rules and saves
    press(&mut a, "j a");
    let first = selected_id(&a);
    press(&mut a, "j a");
    let second = selected_id(&a);
    press(&mut a, "w");
    // B, with decisions of its own (one on A's first rule), is told and keeps its own
    press(&mut b, "j r j j j a");
    let own = selected_id(&b);
    assert!(own != first && own != second);
    on_change(&mut b, Change::Rules);
    assert!(matches!(b.mode, Mode::ConflictPrompt));
    press(&mut b, "k");
    press(&mut b, "w");
    assert_eq!(status_on_disk(&fx.rules(), &second), Status::Accepted, "A's accept is lost: {}", message(&b));
    assert_eq!(status_on_disk(&fx.rules(), &own), Status::Accepted, "B's own accept is saved");
    assert_eq!(status_on_disk(&fx.rules(), &first), Status::Rejected, "where both decided, B's (mine) wins");
}

#[test]
fn keep_mine_after_chaff_mine_changed_the_settings_takes_those_settings() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w j a");
    let own = selected_id(&app);
    let out = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .arg("mine")
        .arg(fx.corpus())
        .arg("--rules-dir")
        .arg(fx.rules_dir())
        .args(["--short-runs", "7", "--islands", "2", "--merge-gap", "5"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    on_change(&mut app, Change::Rules);
    assert!(matches!(app.mode, Mode::ConflictPrompt));
    press(&mut app, "k w");
    let saved = RulesFile::load(&fx.rules()).unwrap();
    assert_eq!(
        (saved.clean.short_runs.words, saved.clean.islands.words, saved.merge_gap),
        (7, 2, 5),
        "{}",
        message(&app)
    );
    assert_eq!(status_on_disk(&fx.rules(), &own), Status::Accepted);
    // a stage turned off here, a threshold changed by `mine`, saved without the popup: both kept
    press(&mut app, "S Down Down Space Esc");
    let off = RulesFile::load(&fx.rules()).unwrap().clean.off.len();
    let out = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .arg("mine")
        .arg(fx.corpus())
        .arg("--rules-dir")
        .arg(fx.rules_dir())
        .args(["--short-runs", "9"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules()).unwrap();
    assert_eq!(saved.clean.short_runs.words, 9, "{}", message(&app));
    assert_ne!(saved.clean.off.len(), off, "the stage switched here is saved");
}

#[test]
fn a_journal_torn_mid_character_is_offered_with_every_whole_record() {
    let fx = Fixture::sevendays();
    let journaled = Settings { watch: false, journal: true };
    let mut app = fx.app_with(journaled, 120, 40);
    press(&mut app, "w j a j a");
    let second = selected_id(&app);
    // a kill while writing a multi-byte character: the record ends inside "é"
    let path = chaff::tui::journal::Journal::path_for(&fx.rules());
    let mut bytes = fs::read(&path).unwrap();
    assert!(bytes.ends_with(b"\n"));
    bytes.extend_from_slice(b"{\"t\":\"decide\",\"rule\":{\"id\":\"caf\xc3");
    fs::write(&path, bytes).unwrap();
    drop(app);
    let mut app = fx.app_with(journaled, 120, 40);
    assert!(matches!(app.mode, Mode::JournalPrompt(_)), "the journal is offered: {}", message(&app));
    press(&mut app, "r");
    let s = app.session().unwrap();
    assert_eq!(s.status(s.position(&second).unwrap()), Status::Accepted, "the whole records are restored");
    assert_eq!(s.count(Status::Accepted), 2);
    // and work goes on: the next decision is journaled after the torn tail, readable
    press(&mut app, "j a");
    let third = selected_id(&app);
    drop(app);
    let mut app = fx.app_with(journaled, 120, 40);
    press(&mut app, "r");
    let s = app.session().unwrap();
    assert_eq!(s.status(s.position(&third).unwrap()), Status::Accepted);
}

/// `sample-corpora/html_news` copied to `to` (its pages alone).
fn copy_html_news(to: &Path) {
    fs::create_dir_all(to).unwrap();
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-corpora/html_news");
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "html") {
            fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
        }
    }
}

#[test]
fn a_page_changed_while_tuning_an_html_source_is_re_mined_on_the_page_views() {
    let fx = Fixture::empty();
    let corpus = fx.root().join("html_news");
    copy_html_news(&corpus);
    let mut app = fx.app_on("html_news", 160, 48);
    let before = {
        let s = app.session().unwrap();
        assert!(!s.document_text().contains("<!DOCTYPE"), "opened on the page views");
        (s.mining.input, s.mining.tokenizer, s.mining.candidates(s.mining.auto_cutoff).count())
    };
    let page = corpus.join("0001.html");
    let mut text = fs::read_to_string(&page).unwrap();
    text.push_str("<p>x</p>\n");
    fs::write(&page, text).unwrap();
    on_change(&mut app, Change::Corpus);
    app.wait_for_miner();
    let s = app.session().unwrap();
    assert!(!s.document_text().contains("<!DOCTYPE"), "re-mined as raw markup: {}", &s.document_text()[..80]);
    assert_eq!((s.mining.input, s.mining.tokenizer), (before.0, before.1));
    for i in s.list.rows.iter().copied() {
        let t = s.text(i);
        assert!(!t.contains("<style") && !t.contains("<script"), "a markup candidate: {t}");
    }
    let after = s.mining.candidates(s.mining.auto_cutoff).count();
    assert!(after <= before.2 * 2, "candidates {} -> {after}", before.2);
    press(&mut app, "w");
    let saved = fs::read_to_string(fx.rules_dir().join("html_news.toml")).unwrap();
    assert!(saved.contains("input = \"html\""), "saved without the input kind");
}

#[test]
fn a_rules_file_of_another_source_is_named_at_open_and_saved_over_only_when_confirmed() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w");
    // another source's rules file, given with --rules
    let other = fx.rules_dir().join("wapo.toml");
    let mut file = RulesFile::load(&fx.rules()).unwrap();
    file.source = "wapo".into();
    file.save(&other).unwrap();
    let text = fs::read_to_string(&other).unwrap();
    let opts = chaff::tui::TuneOptions { rules: Some(other.clone()), ..fx.options(&fx.corpus()) };
    let mut app = chaff::tui::open(&opts, Settings { watch: false, journal: false }).unwrap();
    let told = message(&app);
    assert!(told.contains("`wapo`") && told.contains("`sevendays`") && told.contains("--rules"), "{told}");
    press(&mut app, "j a w");
    assert_eq!(fs::read_to_string(&other).unwrap(), text, "w rewrote the other source's file at once");
    assert!(message(&app).contains("`wapo`") && message(&app).contains("w again"), "{}", message(&app));
    // a key between is no confirmation
    press(&mut app, "j w");
    assert_eq!(fs::read_to_string(&other).unwrap(), text);
    press(&mut app, "w");
    let saved = RulesFile::load(&other).unwrap();
    assert_eq!(saved.source, "wapo", "confirmed, it stays that source's file");
    assert!(saved.rules.iter().any(|r| r.status == Status::Accepted));
}

#[test]
fn an_export_without_accepted_rules_asks_first_and_bulk_accept_spares_rejected_rules() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let export = app.session().unwrap().spec.export.clone();
    press(&mut app, "x");
    assert!(!export.exists(), "an export of nothing was written without a word");
    let told = tui_support::screen(&app);
    assert!(told.contains("Nothing accepted") && told.contains("automatic rules instead"), "{told}");
    press(&mut app, "Esc");
    assert!(!export.exists(), "cancelled: nothing written");
    // a key between the two is no confirmation
    press(&mut app, "x j");
    assert!(!export.exists());
    press(&mut app, "Esc");
    // bulk accept with nothing marked leaves the rejected rules rejected
    press(&mut app, "r");
    let rejected = selected_id(&app);
    press(&mut app, "A");
    let s = app.session().unwrap();
    assert_eq!(s.status(s.position(&rejected).unwrap()), Status::Rejected, "A accepted a rejected rule");
    assert!(s.count(Status::Accepted) > 0);
    // marked, it is accepted: asked for
    press(&mut app, "Space A");
    let s = app.session().unwrap();
    assert_eq!(s.status(s.position(&rejected).unwrap()), Status::Accepted, "a marked rejected rule is accepted");
    press(&mut app, "x y");
    let n = RulesFile::load(&export).unwrap().rules.len();
    assert!(n > 0 && message(&app).contains(&format!("exported {n} accepted rule(s)")), "{}", message(&app));
}

#[test]
fn undo_names_the_step_it_took_back_undoes_pattern_edits_and_no_stale_message_stays() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let cutoff = |app: &App| app.session().unwrap().cutoff;
    let from = cutoff(&app);
    press(&mut app, "Right");
    let to = cutoff(&app);
    assert_ne!(from, to);
    press(&mut app, "u");
    assert_eq!(cutoff(&app), from);
    let told = message(&app);
    assert!(told.contains(&format!("{from}% → {to}%")), "undo names the move it took back: {told}");
    press(&mut app, "C-r");
    assert_eq!(cutoff(&app), to);
    assert!(message(&app).contains(&format!("{from}% → {to}%")), "{}", message(&app));
    // a pattern edit is a step: undone, the pattern is back and the source is mined again
    let patterns = app.session().unwrap().patterns.clone();
    press(&mut app, "Tab d");
    app.wait_for_miner();
    assert_eq!(app.session().unwrap().patterns.len() + 1, patterns.len());
    let minings = app.miner.latest();
    press(&mut app, "BackTab u");
    assert_eq!(app.session().unwrap().patterns, patterns, "u undoes the pattern edit: {}", message(&app));
    assert!(app.miner.latest() > minings, "the restored patterns are mined");
    app.wait_for_miner();
    // a message about a state that changed since goes
    press(&mut app, "w");
    assert!(message(&app).starts_with("saved"), "{}", message(&app));
    press(&mut app, "j a");
    assert!(!message(&app).starts_with("saved"), "stale: {}", message(&app));
    // and a key that changes nothing leaves it
    press(&mut app, "w j");
    assert!(message(&app).starts_with("saved"), "{}", message(&app));
}

#[test]
fn w_while_another_process_holds_the_lock_answers_at_once_and_can_be_retried() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w j a");
    let own = selected_id(&app);
    // another writer holds the lock for a while (a process that hung, say)
    let held = chaff::merge::lock(&fx.rules()).unwrap();
    let holder = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_secs(4));
        drop(held);
    });
    let started = std::time::Instant::now();
    press(&mut app, "w");
    assert!(started.elapsed().as_secs_f64() < 2.0, "w waited {:?} for the lock", started.elapsed());
    assert_eq!(status_on_disk(&fx.rules(), &own), Status::Pending, "saved under another's lock");
    let told = message(&app);
    assert!(told.contains("lock") && told.contains("w again"), "{told}");
    assert!(app.session().unwrap().dirty, "the work is still unsaved");
    holder.join().unwrap();
    press(&mut app, "w");
    assert_eq!(status_on_disk(&fx.rules(), &own), Status::Accepted, "saved once the lock is free");
}

#[test]
fn another_sources_rules_file_shows_no_document_frequency_past_100_percent() {
    let fx = Fixture::sevendays();
    // a bigger source's file: its counts are of 150 documents, this corpus has 120
    let other = fx.dir.path().join("other");
    chaff::generate::write_source(&chaff::generate::sevendays(150, 7), &other).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .arg("mine")
        .arg(other.join("sevendays"))
        .args(["--source", "wapo", "--rules-dir"])
        .arg(fx.rules_dir())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let opts = chaff::tui::TuneOptions { rules: Some(fx.rules_dir().join("wapo.toml")), ..fx.options(&fx.corpus()) };
    let mut app = chaff::tui::open(&opts, Settings { watch: false, journal: false }).unwrap();
    app.resize(160, 48);
    tui_support::settle(&mut app);
    let shown = tui_support::screen(&app);
    let percents: Vec<u64> = shown
        .split(|c: char| !c.is_ascii_digit() && c != '%')
        .filter_map(|w| w.strip_suffix('%').and_then(|n| n.parse().ok()))
        .collect();
    assert!(percents.iter().all(|&p| p <= 100), "{percents:?}\n{shown}");
    let s = app.session().unwrap();
    assert!(!s.list.rows.is_empty(), "the candidates are listed:\n{shown}");
}
