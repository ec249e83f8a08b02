//! Regressions of the tuning UI: the watcher, popups, re-mining, quitting.

#[path = "../tui_support.rs"]
mod tui_support;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

use chaff::rules::{RulesFile, Status};
use chaff::tui::state::Mode;
use chaff::tui::update::on_change;
use chaff::tui::watch::{self, Change, DEBOUNCE};
use chaff::tui::{App, Settings};
use tui_support::{Fixture, press};

/// Long enough for the watcher to have reported anything it saw: several debounce periods.
const SETTLE: Duration = Duration::from_millis(1500);
/// The most a test waits for something that must happen.
const PATIENCE: Duration = Duration::from_secs(20);

fn read_every_file(dir: &Path) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        // what `cat`, `cp` and `chaff clean` do to a document
        let text = fs::read(&path).unwrap();
        assert!(!text.is_empty());
    }
}

/// Ticks the app for `time`, applying what the miner and the watcher report.
fn tick_for(app: &mut App, time: Duration) {
    let end = Instant::now() + time;
    while Instant::now() < end {
        app.tick();
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Ticks until `done` holds (at most [`PATIENCE`]).
fn tick_until(app: &mut App, done: impl Fn(&App) -> bool) {
    let end = Instant::now() + PATIENCE;
    while !done(app) && Instant::now() < end {
        app.tick();
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn selected_id(app: &App) -> String {
    let s = app.session().unwrap();
    s.string(s.list.current().unwrap()).id.clone()
}

#[test]
fn reading_the_corpus_files_is_no_change_to_the_watcher() {
    let fx = Fixture::sevendays();
    let w = watch::start(&fx.rules(), &fx.corpus()).unwrap();
    read_every_file(&fx.corpus());
    std::thread::sleep(SETTLE);
    let seen: Vec<Change> = w.changes.try_iter().collect();
    assert_eq!(seen, [], "reading documents reported a change");
    // writing one is a change
    let path = fx.corpus().join("0001.txt");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{text}\nOne more line.\n")).unwrap();
    let got = w.changes.recv_timeout(PATIENCE);
    assert_eq!(got, Ok(Change::Corpus), "the watcher saw the document written");
    assert!(DEBOUNCE < SETTLE);
}

#[test]
fn reading_the_corpus_does_not_re_mine() {
    let fx = Fixture::sevendays();
    let mut app = fx.app_with(Settings { watch: true, journal: false }, 120, 40);
    read_every_file(&fx.corpus());
    tick_for(&mut app, SETTLE);
    assert_eq!(app.miner.latest(), 0, "no mining was requested for documents only read");
    assert!(!app.busy());
    // a document written is mined, once: the miner's own reading of the documents starts no other
    let path = fx.corpus().join("0002.txt");
    let text = fs::read_to_string(&path).unwrap();
    fs::write(&path, format!("{text}\nOne more line.\n")).unwrap();
    tick_until(&mut app, |a| a.miner.latest() > 0);
    assert_eq!(app.miner.latest(), 1, "the written document was mined");
    app.wait_for_miner();
    read_every_file(&fx.corpus());
    tick_for(&mut app, SETTLE);
    app.wait_for_miner();
    assert_eq!(app.miner.latest(), 1, "re-mining (reading every document) started another mining");
}

/// The outside edit of issue: another editor saves the rules file while there is unsaved work here.
fn their_edit(fx: &Fixture) -> String {
    let mut theirs = RulesFile::load(&fx.rules()).unwrap();
    theirs.rules[0].status = Status::Rejected;
    theirs.save(&fx.rules()).unwrap();
    theirs.rules[0].id.clone()
}

#[test]
fn one_outside_edit_asks_once_and_the_next_key_acts() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w j a");
    let mine = selected_id(&app);
    their_edit(&fx);
    // the watcher may report one edit more than once (the file read after the first report, say)
    on_change(&mut app, Change::Rules);
    assert!(matches!(app.mode, Mode::ConflictPrompt));
    on_change(&mut app, Change::Rules);
    press(&mut app, "k");
    assert!(matches!(app.mode, Mode::Normal), "one edit, one popup");
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules()).unwrap();
    let rule = saved.rules.iter().find(|r| r.id == mine).unwrap();
    assert_eq!(rule.status, Status::Accepted, "w after the popup saved");
    assert!(!app.session().unwrap().dirty);
}

#[test]
fn one_outside_edit_seen_by_the_watcher_asks_once() {
    let fx = Fixture::sevendays();
    let mut app = fx.app_with(Settings { watch: true, journal: false }, 120, 40);
    press(&mut app, "w j a");
    let mine = selected_id(&app);
    their_edit(&fx);
    tick_until(&mut app, |a| matches!(a.mode, Mode::ConflictPrompt));
    assert!(matches!(app.mode, Mode::ConflictPrompt), "the watcher saw the edit");
    // the editor reads the popup for a while
    tick_for(&mut app, SETTLE);
    press(&mut app, "k");
    tick_for(&mut app, SETTLE);
    assert!(matches!(app.mode, Mode::Normal), "one edit, one popup");
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules()).unwrap();
    assert_eq!(saved.rules.iter().find(|r| r.id == mine).unwrap().status, Status::Accepted, "w saved");
    // and our own save is no news
    tick_for(&mut app, SETTLE);
    assert!(matches!(app.mode, Mode::Normal));
}

