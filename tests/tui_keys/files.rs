//! Key sequences around the files the editor works on: saving, exporting, quitting with unsaved work, the
//! crash journal, and rules or documents changed on disk by someone else.

use std::time::{Duration, Instant};

use chaff::rules::{RulesFile, Status};
use chaff::tui::Settings;
use chaff::tui::state::Mode;
use chaff::tui::update::on_change;
use chaff::tui::watch::Change;

use crate::selected_id;
use crate::tui_support::{Fixture, press, screen};

#[test]
fn quit_with_unsaved_work_asks() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    press(&mut app, "q");
    assert!(app.quit, "nothing unsaved: q quits at once");
    let mut app = fx.app(80, 24);
    press(&mut app, "a q");
    assert!(!app.quit);
    assert!(matches!(app.mode, Mode::QuitPrompt));
    assert!(screen(&app).contains("unsaved changes"), "{}", screen(&app));
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal) && !app.quit);
    press(&mut app, "q w");
    assert!(app.quit, "w in the prompt saves, then quits");
    assert!(fx.rules().exists());
}

#[test]
fn save_writes_the_accepted_rule() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "Right 0 a");
    let id = selected_id(&app);
    press(&mut app, "w");
    let file = RulesFile::load(&fx.rules()).unwrap();
    let rule = file.rules.iter().find(|r| r.id == id).expect("the rule is saved");
    assert_eq!(rule.status, Status::Accepted);
    assert!(file.rules.iter().filter(|r| r.id != id).all(|r| r.status != Status::Accepted));
    assert!(!app.session().unwrap().dirty);
    assert!(screen(&app).contains("saved"));
    // and it opens again with the decision
    let app = fx.app(120, 40);
    let s = app.session().unwrap();
    assert_eq!(s.status(s.position(&id).unwrap()), Status::Accepted);
}

#[test]
fn export_writes_only_the_accepted_rules() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "a j r x y");
    let path = fx.rules_dir().join("sevendays.accepted.toml");
    let file = RulesFile::load(&path).unwrap();
    assert_eq!(file.rules.len(), 1);
    assert_eq!(file.rules[0].status, Status::Accepted);
    // the batch cleaner reads it
    let cleaner = chaff::cleaning::Cleaner::new(&file, false).unwrap();
    assert_eq!(cleaner.len(), 1);
}

#[test]
fn journal_restores_decisions_after_a_crash() {
    let fx = Fixture::sevendays();
    let settings = Settings { watch: false, journal: true };
    let mut app = fx.app_with(settings, 120, 40);
    press(&mut app, "j a Right");
    let id = selected_id(&app);
    let cutoff = app.session().unwrap().cutoff;
    drop(app); // killed: nothing saved
    assert!(!fx.rules().exists());
    let mut app = fx.app_with(settings, 120, 40);
    assert!(matches!(app.mode, Mode::JournalPrompt(_)), "unsaved work is offered back");
    assert!(screen(&app).contains("Unsaved work found"));
    press(&mut app, "r");
    let s = app.session().unwrap();
    assert_eq!(s.status(s.position(&id).unwrap()), Status::Accepted);
    assert_eq!(s.cutoff, cutoff);
    assert!(s.dirty);
    // saving clears the journal
    press(&mut app, "w");
    let app = fx.app_with(settings, 120, 40);
    assert!(matches!(app.mode, Mode::Normal));
}

#[test]
fn external_change_with_unsaved_work_asks() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w j a");
    // someone else rejects the first candidate and saves
    let mut theirs = RulesFile::load(&fx.rules()).unwrap();
    theirs.rules[0].status = Status::Rejected;
    let their_id = theirs.rules[0].id.clone();
    theirs.save(&fx.rules()).unwrap();
    on_change(&mut app, Change::Rules);
    assert!(matches!(app.mode, Mode::ConflictPrompt), "asks instead of overwriting");
    assert!(screen(&app).contains("changed on disk"));
    press(&mut app, "k");
    assert!(app.session().unwrap().dirty, "keep mine: still unsaved");
    assert_eq!(RulesFile::load(&fx.rules()).unwrap().rules[0].status, Status::Rejected, "nothing overwritten");
    // the same file again is not news
    on_change(&mut app, Change::Rules);
    assert!(matches!(app.mode, Mode::Normal));
    theirs.rules[1].status = Status::Accepted;
    theirs.save(&fx.rules()).unwrap();
    on_change(&mut app, Change::Rules);
    press(&mut app, "t");
    let s = app.session().unwrap();
    assert!(!s.dirty);
    assert_eq!(s.status(s.position(&their_id).unwrap()), Status::Rejected, "took theirs");
}

#[test]
fn external_change_without_unsaved_work_reloads() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w");
    on_change(&mut app, Change::Rules);
    assert!(matches!(app.mode, Mode::Normal), "our own save is no change");
    let mut theirs = RulesFile::load(&fx.rules()).unwrap();
    theirs.rules[0].status = Status::Accepted;
    theirs.save(&fx.rules()).unwrap();
    on_change(&mut app, Change::Rules);
    assert!(matches!(app.mode, Mode::Normal));
    let s = app.session().unwrap();
    assert_eq!(s.count(Status::Accepted), 1);
    assert!(screen(&app).contains("reloaded"));
}

#[test]
fn the_watcher_reports_an_outside_change() {
    let fx = Fixture::sevendays();
    let mut app = fx.app_with(Settings { watch: true, journal: false }, 120, 40);
    press(&mut app, "w a");
    let mut theirs = RulesFile::load(&fx.rules()).unwrap();
    theirs.rules[1].status = Status::Rejected;
    theirs.save(&fx.rules()).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while !matches!(app.mode, Mode::ConflictPrompt) && Instant::now() < deadline {
        app.tick();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(matches!(app.mode, Mode::ConflictPrompt), "notify saw the rules file change");
}

#[test]
fn documents_added_to_the_corpus_are_mined_again() {
    let fx = Fixture::sevendays();
    let mut app = fx.app_with(Settings { watch: true, journal: false }, 120, 40);
    let first = std::fs::read_to_string(fx.corpus().join("0001.txt")).unwrap();
    std::fs::write(fx.corpus().join("0121.txt"), first).unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    while app.session().unwrap().corpus.docs.len() == 120 && Instant::now() < deadline {
        app.tick();
        app.wait_for_miner();
        std::thread::sleep(Duration::from_millis(50));
    }
    assert_eq!(app.session().unwrap().corpus.docs.len(), 121, "notify saw the new document; it was mined");
    assert!(screen(&app).contains("re-mined (documents changed on disk)"), "{}", screen(&app));
}
