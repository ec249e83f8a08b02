//! Regressions of the tuning UI: the watcher, popups, re-mining, quitting.

#[path = "../tui_support.rs"]
pub(crate) mod tui_support;

use std::collections::BTreeSet;
use std::fs;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use chaff::rules::{RulesFile, Status};
use chaff::tui::state::Mode;
use chaff::tui::update::on_change;
use chaff::tui::watch::{self, Change, DEBOUNCE};
use chaff::tui::{App, Settings};
use tui_support::{Fixture, press, screen};

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

/// An outside edit: another editor saves the rules file while there is unsaved work here.
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

/// A text source of two templates, whose galleries (a third of the pages) have single-word lines of
/// their own: line rules of that template's cluster, below the whole source's cutoff.
fn two_templates(fx: &Fixture, pages: usize) -> std::path::PathBuf {
    let dir = fx.root().join("lined");
    fs::create_dir_all(&dir).unwrap();
    for p in 0..pages {
        let body: String = (0..6)
            .map(|l| format!("Page {p} line {l} says something different from the others {}.\n", p * 7 + l))
            .collect();
        let text = if p % 3 == 0 {
            format!(
                "Gallery Site Photo Page\nPictures of the week\nGallery\n{body}Photos:\nview{p}\nSlideshow\nNext picture set below\n"
            )
        } else {
            format!("Lined Site Home Page\nNews and more\n{body}Tags:\ntopic{p}\nReply\nLeave a reply below\n")
        };
        fs::write(dir.join(format!("{p:03}.txt")), text).unwrap();
    }
    dir
}

/// `chaff mine` into a rules folder of its own: the rules file it writes.
fn chaff_mine(corpus: &Path, rules_dir: &Path) -> RulesFile {
    let out = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .arg("mine")
        .arg(corpus)
        .arg("--rules-dir")
        .arg(rules_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    RulesFile::load(&rules_dir.join("lined.toml")).unwrap()
}

fn ids(file: &RulesFile) -> BTreeSet<String> {
    file.rules.iter().map(|r| r.id.clone()).collect()
}

#[test]
fn re_mining_makes_the_rules_of_a_fresh_mine_cluster_line_rules_included() {
    let fx = Fixture::empty();
    let corpus = two_templates(&fx, 16);
    let mut app = fx.app_on("lined", 160, 48);
    let opened = app.session().unwrap().rules_file();
    let cluster_lines =
        |f: &RulesFile| f.rules.iter().filter(|r| r.cluster.is_some() && r.id.starts_with("line:")).count();
    assert!(cluster_lines(&opened) > 0, "the fixture has line rules of a cluster");
    // the editor accepts one of them
    let s = app.session_mut().unwrap();
    let gallery = s.position("line:Gallery").expect("a line rule of the galleries' cluster");
    assert!(s.string(gallery).cluster.is_some());
    s.decide(&[gallery], Some(Status::Accepted), None);
    // two more pages arrive
    two_templates(&fx, 18);
    on_change(&mut app, Change::Corpus);
    app.wait_for_miner();
    let s = app.session().unwrap();
    assert_eq!(s.corpus.docs.len(), 18);
    let fresh = chaff_mine(&corpus, &fx.dir.path().join("fresh"));
    assert!(cluster_lines(&fresh) > 0);
    assert_eq!(ids(&s.rules_file()), ids(&fresh), "the UI's re-mine makes the rules `chaff mine` makes");
    let gallery = s.position("line:Gallery").unwrap();
    assert_eq!(s.status(gallery), Status::Accepted, "the decision is kept");
    // and the status bar counts them: the one accepted here, the rejected ones, and the pending ones
    // the cutoff keeps (the accepted one among them in the fresh file)
    let kept = |r: &&chaff::rules::Rule| r.status != Status::Pending || r.bin >= fresh.cutoff.chosen;
    let count = |st: Status| fresh.rules.iter().filter(kept).filter(|r| r.status == st).count();
    assert!(fresh.rules.iter().filter(kept).any(|r| r.id == "line:Gallery" && r.status == Status::Pending));
    let shown = format!("✓ 1 ✗ {} · {}", count(Status::Rejected), count(Status::Pending) - 1);
    assert!(screen(&app).contains(&shown), "status bar shows `{shown}`:\n{}", screen(&app));
    let n = fresh.rules.iter().filter(|r| r.bin >= fresh.cutoff.auto).count();
    assert!(screen(&app).contains(&format!("{n} candidates")), "{}", screen(&app));
}

/// A text source whose pages from `from` on close with a comments notice and links: a footer string
/// that only pages from there on carry.
fn news_pages(fx: &Fixture, from: usize, to: usize) -> std::path::PathBuf {
    let dir = fx.root().join("news");
    fs::create_dir_all(&dir).unwrap();
    let words: Vec<&str> = "council budget parks schools roads residents taxes libraries plans city mayor vote water \
        bridge market police hospital river station park"
        .split_whitespace()
        .collect();
    for p in from..to {
        // the article's words, scattered: no two pages share a line of it
        let word = |l: usize, i: usize| {
            let x = (p * 1000 + l * 37 + i) * 2_654_435_761 % (1 << 32);
            words[(x >> 16) % words.len()]
        };
        let body: String = (0..5)
            .map(|l| {
                let line: Vec<&str> = (0..14).map(|i| word(l, i)).collect();
                format!("The {} on line {l} of story {p}.\n", line.join(" "))
            })
            .collect();
        let footer = if p >= 12 {
            format!("Comments are closed for this story on our site\nMore from the news desk today\nLink {p} one\n")
        } else {
            String::new()
        };
        let text = format!("Daily News Home Page\nNews Sports Weather Opinion\nStory {p} of the day\n{body}{footer}");
        fs::write(dir.join(format!("{p:03}.txt")), text).unwrap();
    }
    dir
}

#[test]
fn re_mining_suggests_the_frame_cuts_chaff_mine_suggests() {
    let fx = Fixture::empty();
    let corpus = news_pages(&fx, 0, 12);
    let mut app = fx.app_on("news", 160, 48);
    press(&mut app, "w");
    // `chaff mine` of the grown source, with the rules file the editor saved beside it
    let mine_dir = fx.dir.path().join("mine");
    fs::create_dir_all(&mine_dir).unwrap();
    fs::copy(fx.rules_dir().join("news.toml"), mine_dir.join("news.toml")).unwrap();
    news_pages(&fx, 12, 24);
    on_change(&mut app, Change::Corpus);
    app.wait_for_miner();
    let s = app.session().unwrap();
    assert_eq!(s.corpus.docs.len(), 24);
    let out = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .arg("mine")
        .arg(&corpus)
        .arg("--rules-dir")
        .arg(&mine_dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let mined = RulesFile::load(&mine_dir.join("news.toml")).unwrap();
    let cuts = |f: &RulesFile| -> BTreeSet<(String, String)> {
        f.rules.iter().filter(|r| r.action.is_cut()).map(|r| (r.id.clone(), format!("{:?}", r.action))).collect()
    };
    let footer = |f: &RulesFile| f.rules.iter().any(|r| r.action.is_cut() && r.tokens.iter().any(|t| t == "Comments"));
    assert!(footer(&mined), "the fixture's new pages give `chaff mine` a footer string: {:?}", cuts(&mined));
    assert_eq!(cuts(&s.rules_file()), cuts(&mined), "the UI's re-mine suggests the cuts `chaff mine` suggests");
}

#[test]
fn moving_the_cutoff_back_leaves_nothing_unsaved() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "Right");
    assert!(app.session().unwrap().dirty);
    assert!(screen(&app).contains("unsaved"));
    press(&mut app, "Left");
    assert!(!app.session().unwrap().dirty, "the state is the one on disk again");
    assert!(!screen(&app).contains("unsaved"), "{}", screen(&app));
    // the same for a decision taken back, and after a save
    press(&mut app, "a u");
    assert!(!app.session().unwrap().dirty);
    press(&mut app, "a w Right Left");
    assert!(!app.session().unwrap().dirty);
    press(&mut app, "q");
    assert!(app.quit, "nothing unsaved: q quits at once");
}

#[test]
fn a_second_q_never_discards_unsaved_work() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    press(&mut app, "a q");
    assert!(matches!(app.mode, Mode::QuitPrompt));
    let popup = screen(&app);
    assert!(popup.contains("d") && popup.contains("Discard") && popup.contains("Stay"), "{popup}");
    press(&mut app, "q");
    assert!(!app.quit, "q q quit without saving");
    assert!(matches!(app.mode, Mode::Normal), "the second q stays");
    assert!(app.session().unwrap().dirty, "the work is still here");
    // d discards, as the popup says
    press(&mut app, "q d");
    assert!(app.quit);
    assert!(!fx.rules().exists(), "nothing was saved");
}

#[test]
fn the_ui_warns_of_an_unknown_key_in_the_verified_pages() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w");
    let verified = fx.rules().with_file_name("sevendays.verified.toml");
    std::fs::write(&verified, "format = 1\nsource = \"sevendays\"\nsourse = \"x\"\n").unwrap();
    let app = fx.app(120, 40);
    let message = app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default();
    assert!(message.contains("sevendays.verified.toml:3:1: unused key `sourse`"), "{message}");
}

#[test]
fn the_ui_warns_of_a_misspelled_key_and_says_what_a_save_merged() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w");
    let text = std::fs::read_to_string(fx.rules()).unwrap();
    std::fs::write(fx.rules(), text.replacen("status = \"pending\"", "stauts = \"accepted\"", 1)).unwrap();
    let app = fx.app(120, 40);
    let message = app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default();
    assert!(message.contains("unused key") && message.contains("stauts"), "{message}");

    // a decision saved by another writer since the UI read the file is merged, and the UI says so
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w j a");
    their_edit(&fx);
    press(&mut app, "w");
    let message = app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default();
    assert!(message.contains("merged"), "{message}");
}

#[test]
fn each_cutoff_step_changes_the_candidates_and_h_l_act_only_in_the_candidates_pane() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let rows = |app: &App| app.session().unwrap().list.rows.len();
    let cutoff = |app: &App| app.session().unwrap().cutoff;
    let mut seen = vec![rows(&app)];
    while cutoff(&app) < 99 && seen.len() < 12 {
        press(&mut app, "Right");
        seen.push(rows(&app));
    }
    for pair in seen.windows(2) {
        assert!(pair[1] < pair[0] || cutoff(&app) == 99, "a step that changed no candidate: {seen:?}");
    }
    press(&mut app, "0");
    let auto = cutoff(&app);
    press(&mut app, "Tab Tab l h");
    assert_eq!(cutoff(&app), auto, "h and l in the preview pane leave the cutoff");
}

#[test]
fn undo_and_redo_take_back_decisions_and_cutoff_moves_and_backspace_sets_pending() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let id = selected_id(&app);
    let status = |app: &App, id: &str| {
        let s = app.session().unwrap();
        s.status(s.position(id).unwrap())
    };
    let before = status(&app, &id);
    press(&mut app, "a");
    assert_eq!(status(&app, &id), Status::Accepted);
    press(&mut app, "u");
    assert_eq!(status(&app, &id), before, "u undoes the decision");
    assert!(!app.session().unwrap().dirty);
    press(&mut app, "C-r");
    assert_eq!(status(&app, &id), Status::Accepted, "Ctrl-r redoes it");
    press(&mut app, "Backspace");
    assert_eq!(status(&app, &id), Status::Pending, "Backspace sets it back to pending");
    let cutoff = app.session().unwrap().cutoff;
    press(&mut app, "Right C-z");
    assert_eq!(app.session().unwrap().cutoff, cutoff, "Ctrl-z undoes a cutoff move");
    // a bulk accept is one step
    press(&mut app, "A");
    let accepted = app.session().unwrap().count(Status::Accepted);
    assert!(accepted > 1);
    press(&mut app, "u");
    assert_eq!(app.session().unwrap().count(Status::Accepted), 0, "one u takes the whole bulk back");
    // saved: the undone decisions are not on disk
    press(&mut app, "w");
    assert!(RulesFile::load(&fx.rules()).unwrap().rules.iter().all(|r| r.status != Status::Accepted));
}

#[test]
fn bulk_accept_with_nothing_marked_leaves_idioms_and_rules_the_filter_hides() {
    let fx = Fixture::sevendays();
    fx.other_sources_share_the_candidates();
    let mut app = fx.app(120, 40);
    let idioms: Vec<String> = {
        let s = app.session().unwrap();
        s.list.rows.iter().filter(|&&i| s.string(i).idiom).map(|&i| s.string(i).id.clone()).collect()
    };
    assert!(!idioms.is_empty(), "the fixture has idioms");
    press(&mut app, "A");
    let s = app.session().unwrap();
    for id in &idioms {
        assert_eq!(s.status(s.position(id).unwrap()), Status::Rejected, "an idiom was accepted in bulk");
    }
    // a mark the filter hides is not touched
    let mut app = fx.app(120, 40);
    let first = selected_id(&app);
    press(&mut app, "Space / z z z z Enter A");
    let s = app.session().unwrap();
    assert_ne!(s.status(s.position(&first).unwrap()), Status::Accepted, "a hidden mark was accepted");
}

#[test]
fn the_pending_only_filter_lists_what_is_left_to_decide() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let all = app.session().unwrap().list.rows.len();
    let pending = |app: &App| {
        let s = app.session().unwrap();
        s.list.rows.iter().filter(|&&i| s.status(i) == Status::Pending).count()
    };
    press(&mut app, "a j r");
    let left = pending(&app);
    press(&mut app, "P");
    let s = app.session().unwrap();
    assert_eq!(s.list.rows.len(), left, "only the pending candidates are listed");
    assert!(left < all && left > 0);
    press(&mut app, "a");
    assert_eq!(app.session().unwrap().list.rows.len(), left - 1, "a decision takes its row away");
    press(&mut app, "P");
    assert_eq!(app.session().unwrap().list.rows.len(), all);
}

/// The UI opened on newer pages of a source whose template changed says so, and a candidate's detail shows
/// how much it matched when mined and now.
#[test]
fn opened_on_a_redesigned_corpus_the_ui_shows_the_drift_per_rule() {
    use chaff::generate::{GeneratedSource, redesigned};
    let dir = tempfile::tempdir().unwrap();
    let source = redesigned(80, 11);
    let part = |name: &str, docs: &[chaff::generate::GeneratedDoc]| {
        let s = GeneratedSource { name: name.into(), extension: source.extension, docs: docs.to_vec() };
        chaff::generate::write_source(&s, dir.path()).unwrap();
        dir.path().join(name)
    };
    let old = part("old", &source.docs[..40]);
    let new = part("new", &source.docs[40..]);
    let rules = dir.path().join("rules/old.toml");
    let o = Command::new(env!("CARGO_BIN_EXE_chaff"))
        .args(["mine", old.to_str().unwrap(), "--rules-dir", dir.path().join("rules").to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut file = RulesFile::load(&rules).unwrap();
    for r in &mut file.rules {
        r.status = Status::Accepted;
    }
    file.save(&rules).unwrap();
    let opts = chaff::tui::TuneOptions {
        corpus: new,
        rules: Some(rules.clone()),
        rules_dir: dir.path().join("rules"),
        preset: None,
    };
    let mut app = chaff::tui::open(&opts, Settings { watch: false, journal: false }).unwrap();
    app.resize(160, 48);
    let message = app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default();
    assert!(message.contains("the template changed"), "{message}");
    let drift = app.session().unwrap().drift.clone().expect("a drift against the rules file");
    let stopped = drift.stopped().next().expect("a rule that stopped matching").id.clone();
    // a rule that stopped matching is no candidate of the new pages; one that still matches is listed
    let shown = app.session().unwrap().list.rows.iter().copied().find(|&i| {
        let s = app.session().unwrap();
        drift.rules.iter().any(|r| r.id == s.string(i).id)
    });
    assert!(!stopped.is_empty());
    let i = shown.expect("a rule of the file that is a candidate of the new pages too");
    let pos = app.session().unwrap().list.rows.iter().position(|&r| r == i).unwrap();
    app.session_mut().unwrap().list.select(pos);
    press(&mut app, "Enter");
    assert!(screen(&app).contains("when mined"), "{}", screen(&app));
}

#[test]
fn undoing_a_trim_takes_back_its_token_count_too() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let s = app.session().unwrap();
    let tokens = s.string(s.list.current().unwrap()).symbols.len();
    let accepted = |app: &App| -> Vec<usize> {
        let s = app.session().unwrap();
        s.decisions.values().filter(|r| r.status == Status::Accepted).map(|r| r.tokens.len()).collect()
    };
    press(&mut app, ") )");
    assert_eq!(accepted(&app), [tokens - 2]);
    press(&mut app, "u");
    assert_eq!(accepted(&app), [tokens - 1], "undo takes back the second trim");
    // the next trim goes on from the trim the editor sees, one token shorter, not from the undone one
    press(&mut app, ")");
    assert_eq!(accepted(&app), [tokens - 2]);
    press(&mut app, "u u");
    assert!(accepted(&app).is_empty());
    press(&mut app, ")");
    assert_eq!(accepted(&app), [tokens - 1], "after undoing every trim, a trim starts from the candidate");
    press(&mut app, "u C-r");
    assert_eq!(accepted(&app), [tokens - 1], "redo takes the trim again");
    press(&mut app, ")");
    assert_eq!(accepted(&app), [tokens - 2]);
}
