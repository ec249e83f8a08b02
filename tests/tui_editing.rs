//! Key sequences on the real application state for the editor's edits that take work: a regex checked
//! off the UI thread, decisions kept across a pattern edit, an export that says what it holds first.

mod tui_support;

use chaff::rules::Status;
use chaff::tui::state::Mode;
use ratatui::crossterm::event::Event;
use tui_support::{Fixture, press, screen, type_text};

fn selected_id(app: &chaff::tui::App) -> String {
    let s = app.session().unwrap();
    s.string(s.list.current().unwrap()).id.clone()
}

/// A regex of about 10,000 characters that matches: an alternation of many words, then the usual one.
fn long_regex() -> String {
    let words: Vec<String> = (0..1300).map(|i| format!("zq{i:05}")).collect();
    format!("(?:{}|Photo:\\s+\\w+)", words.join("|"))
}

#[test]
fn a_long_regex_is_checked_off_the_ui_thread_and_the_latest_enter_wins() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let id = selected_id(&app);
    press(&mut app, "E C-u");
    let regex = long_regex();
    assert!(regex.len() >= 10_000);
    app.handle_event(&Event::Paste(regex.clone()));
    let started = std::time::Instant::now();
    press(&mut app, "Enter");
    // a frame's budget is 16 ms; a debug build on a busy machine gets some slack
    assert!(started.elapsed().as_millis() < 50, "Enter took {:?}", started.elapsed());
    // Enter hands the check to a background thread: the editor stays open, saying so, and keys still work
    let Mode::EditRegex(e) = &app.mode else { panic!("the editor stays open while the regex is checked") };
    assert!(e.checking.is_some(), "the check runs in the background");
    assert!(app.busy());
    assert!(screen(&app).contains("checking"), "{}", screen(&app));
    // a second Enter with another regex: only the latest check is applied
    press(&mut app, "C-u");
    type_text(&mut app, r"Photo:\s+\w+");
    press(&mut app, "Enter");
    app.wait_for_miner();
    assert!(matches!(app.mode, Mode::Normal), "the check came back and closed the editor");
    let s = app.session().unwrap();
    assert_eq!(s.decisions[&id].regex, r"Photo:\s+\w+", "the latest regex wins");
    assert_eq!(s.decisions[&id].status, Status::Accepted);
    assert!(app.message.as_ref().unwrap().text.contains("documents"));
}

#[test]
fn a_refused_regex_comes_back_from_the_check_with_the_editor_open() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "E C-u");
    type_text(&mut app, r"Photo:\s+(");
    press(&mut app, "Enter");
    app.wait_for_miner();
    let Mode::EditRegex(e) = &app.mode else { panic!("a bad regex keeps the editor open") };
    assert!(e.error.is_some() && e.checking.is_none());
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    // a check still running when the editor is closed is dropped
    press(&mut app, "E C-u");
    type_text(&mut app, r"Photo:\s+\w+");
    press(&mut app, "Enter Esc");
    app.wait_for_miner();
    let s = app.session().unwrap();
    assert!(s.decisions.values().all(|r| r.regex != r"Photo:\s+\w+"), "a cancelled check decides nothing");
}

#[test]
fn after_a_pattern_edit_the_re_mined_twin_of_a_decided_rule_inherits_its_decision() {
    use chaff::rules::Action;
    use chaff::symbol::{Symbol, stable_id};
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // the first candidate with a word a new pattern can generalize
    let (row, old_id, word, symbols) = {
        let s = app.session().unwrap();
        s.list
            .rows
            .iter()
            .enumerate()
            .find_map(|(row, &i)| {
                let st = s.string(i);
                let word = st.symbols.iter().find_map(|sym| match sym {
                    Symbol::Literal(w) if w.len() > 3 && w.chars().all(|c| c.is_ascii_alphabetic()) => Some(w.clone()),
                    _ => None,
                })?;
                Some((row, st.id.clone(), word, st.symbols.clone()))
            })
            .expect("a candidate with a plain word")
    };
    for _ in 0..row {
        press(&mut app, "j");
    }
    assert_eq!(selected_id(&app), old_id);
    press(&mut app, "a c y");
    let action = app.session().unwrap().decisions[&old_id].action;
    assert_ne!(action, Action::Remove, "c gave it an action of its own");
    // a pattern that matches exactly that word: the candidate is mined again under a new id
    press(&mut app, "Tab n");
    type_text(&mut app, "word");
    press(&mut app, "Tab");
    type_text(&mut app, &word);
    press(&mut app, "Enter");
    app.wait_for_miner();
    let twin: Vec<Symbol> = symbols
        .iter()
        .map(|sym| match sym {
            Symbol::Literal(w) if *w == word => Symbol::Mutable("word".into()),
            other => other.clone(),
        })
        .collect();
    let twin = stable_id(&twin);
    let s = app.session().unwrap();
    let i = s.position(&twin).expect("the twin is mined");
    assert_eq!(s.status(i), Status::Accepted, "the twin inherits the accept");
    assert_eq!(s.rule_action(i), action, "and the action");
    assert!(!s.decisions.contains_key(&old_id), "the decision moved: no stale copy is left behind");
    press(&mut app, "w");
    let saved = chaff::rules::RulesFile::load(&fx.rules()).unwrap();
    let rule = saved.rules.iter().find(|r| r.id == twin).expect("saved");
    assert_eq!((rule.status, rule.action), (Status::Accepted, action));
    assert!(saved.rules.iter().all(|r| r.id != old_id));
}

#[test]
fn export_says_what_it_holds_before_writing_and_offers_the_automatic_rules_when_nothing_is_accepted() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let export = app.session().unwrap().spec.export.clone();
    // nothing accepted: the prompt offers the automatic rules; Esc writes nothing
    press(&mut app, "x");
    assert!(matches!(app.mode, Mode::ExportPrompt(_)), "x asks first");
    assert!(!export.exists(), "nothing is written before the answer");
    let shown = screen(&app);
    assert!(shown.contains("Nothing accepted") && shown.contains("automatic"), "{shown}");
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal) && !export.exists(), "cancelled: nothing written");
    // y exports the automatic rules: the pending ones at or above the cutoff, accepted in the export
    let pending = app.session().unwrap().count(Status::Pending);
    press(&mut app, "x y");
    let file = chaff::rules::RulesFile::load(&export).unwrap();
    assert!(!file.rules.is_empty() && file.rules.len() <= pending, "{} of {pending}", file.rules.len());
    assert!(file.rules.iter().all(|r| r.status == Status::Accepted));
    std::fs::remove_file(&export).unwrap();
    // with accepted rules, the prompt counts them before anything is written
    press(&mut app, "a j a x");
    assert!(!export.exists());
    assert!(screen(&app).contains("Export 2 accepted rule(s)"), "{}", screen(&app));
    press(&mut app, "Enter");
    assert_eq!(chaff::rules::RulesFile::load(&export).unwrap().rules.len(), 2);
    assert!(app.message.as_ref().unwrap().text.contains("exported 2 accepted rule(s)"));
}

#[test]
fn a_source_open_in_another_live_process_is_refused_and_a_killed_ones_lock_is_taken_over() {
    let fx = Fixture::sevendays();
    let settings = chaff::tui::Settings { watch: false, journal: true };
    // another process holds the source
    let mut other = std::process::Command::new("sleep").arg("60").spawn().unwrap();
    let lock = chaff::tui::journal::OpenLock::path_for(&fx.rules());
    std::fs::create_dir_all(fx.rules_dir()).unwrap();
    std::fs::write(&lock, format!("{}\n", other.id())).unwrap();
    let refused = chaff::tui::open(&fx.options(&fx.corpus()), settings).err().expect("the source is refused");
    let text = format!("{refused:#}");
    assert!(text.contains(&format!("process {}", other.id())) && text.contains("close it there first"), "{text}");
    // killed: its lock is stale, and the source opens
    other.kill().unwrap();
    other.wait().unwrap();
    let app = fx.app_with(settings, 120, 40);
    assert_eq!(std::fs::read_to_string(&lock).unwrap().trim(), std::process::id().to_string());
    drop(app);
    assert!(!lock.exists(), "closing the source lets it go");
}

#[test]
fn decisions_restored_from_the_journal_are_each_one_step_to_undo() {
    let fx = Fixture::sevendays();
    let settings = chaff::tui::Settings { watch: false, journal: true };
    let mut app = fx.app_with(settings, 120, 40);
    let accepted = |app: &chaff::tui::App| app.session().unwrap().count(Status::Accepted);
    let before = accepted(&app);
    press(&mut app, "a j a");
    assert_eq!(accepted(&app), before + 2);
    drop(app); // killed: nothing saved
    let mut app = fx.app_with(settings, 120, 40);
    assert!(matches!(app.mode, Mode::JournalPrompt(_)), "unsaved work is offered back");
    press(&mut app, "r");
    assert_eq!(accepted(&app), before + 2);
    press(&mut app, "u");
    assert_eq!(accepted(&app), before + 1, "{:?}", app.message);
    press(&mut app, "u");
    assert_eq!(accepted(&app), before);
    assert!(!app.session().unwrap().dirty, "back at the rules as saved");
}

#[test]
fn the_pending_only_filter_is_named_in_the_list_title_and_its_empty_list_says_so() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "P");
    let shown = screen(&app);
    assert!(shown.contains("· pending only"), "{shown}");
    // every candidate decided: the filter, not the cutoff, empties the list
    press(&mut app, "A");
    let s = app.session().unwrap();
    assert!(s.list.rows.is_empty(), "no pending candidate is left");
    let shown = screen(&app);
    assert!(shown.contains("No pending candidate at or above"), "{shown}");
    assert!(!shown.contains("← lowers the cutoff"), "{shown}");
    press(&mut app, "P");
    assert!(!screen(&app).contains("· pending only"));
    assert!(!app.session().unwrap().list.rows.is_empty(), "P shows the decided ones again");
}

#[test]
fn an_accepted_rule_below_the_cutoff_stays_in_the_list_as_it_stays_in_force() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // the last candidate, the one nearest the cutoff, accepted; then the cutoff raised above it
    press(&mut app, "End a");
    let id = selected_id(&app);
    let s = app.session().unwrap();
    let i = s.list.current().unwrap();
    let bin = s.draft.mining.strings[i].bin;
    for _ in 0..20 {
        if app.session().unwrap().cutoff > bin {
            break;
        }
        press(&mut app, "Right");
    }
    let s = app.session().unwrap();
    assert!(s.cutoff > bin, "the cutoff is above the rule: {} > {bin}", s.cutoff);
    assert_eq!(s.status(i), Status::Accepted);
    assert!(s.list.rows.contains(&i), "accepted, in force, listed: {id}");
    assert!(s.rules_file().export_accepted().rules.iter().any(|r| r.id == id), "and exported");
    // a pending string below the cutoff is not listed
    assert!(
        s.list.rows.iter().all(|&r| s.draft.mining.strings[r].bin >= s.cutoff || s.status(r) == Status::Accepted),
        "only what is in force is listed below the cutoff"
    );
}

/// Selects the listed candidate whose text is `text`.
fn select_text(app: &mut chaff::tui::App, text: &str) {
    let s = app.session().unwrap();
    let pos = s.list.rows.iter().position(|&i| s.text(i) == text).unwrap_or_else(|| panic!("`{text}` is listed"));
    press(app, "Home");
    for _ in 0..pos {
        press(app, "j");
    }
    assert_eq!(app.session().unwrap().text(app.session().unwrap().list.current().unwrap()), text);
}

/// What the editor sees of the rules: every listed row with its status and action, every decision, the
/// patterns and whether the work is unsaved.
fn rules_state(app: &chaff::tui::App) -> (Vec<String>, Vec<String>, Vec<String>, bool) {
    let s = app.session().unwrap();
    let rows = s
        .list
        .rows
        .iter()
        .map(|&i| format!("{} {:?} {:?} {}", s.string(i).id, s.status(i), s.rule_action(i), s.text(i)))
        .collect();
    let mut decided: Vec<String> =
        s.decisions.values().map(|r| format!("{} {:?} {:?} {}", r.id, r.status, r.action, r.regex)).collect();
    decided.sort();
    let patterns = s.patterns.iter().map(|p| p.name.clone()).collect();
    (rows, decided, patterns, s.dirty)
}

/// Deletes the mutable pattern `name` (the patterns pane's `d`) and waits for the mining it asks for.
fn delete_pattern(app: &mut chaff::tui::App, name: &str) {
    let at = app.session().unwrap().patterns.iter().position(|p| p.name == name).unwrap();
    press(app, "Tab");
    for _ in 0..at {
        press(app, "Down");
    }
    press(app, "d BackTab");
    app.wait_for_miner();
}

/// Accepts the two sevendays rules whose strings hold the `month` pattern.
fn accept_the_rules_naming_month(app: &mut chaff::tui::App) {
    for text in ["«month» «number»", "«by» «month»"] {
        select_text(app, text);
        press(app, "a");
    }
}

#[test]
fn deleting_a_pattern_keeps_the_accepted_rules_that_name_it_listed_and_in_force() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    accept_the_rules_naming_month(&mut app);
    let ids: Vec<String> = {
        let s = app.session().unwrap();
        s.decisions.values().filter(|r| r.status == Status::Accepted).map(|r| r.id.clone()).collect()
    };
    let removed = app.session().unwrap().removed_share().0;
    delete_pattern(&mut app, "month");
    let said = app.message.as_ref().map(|m| m.text.clone()).unwrap_or_default();
    assert!(said.contains("2 accepted rule(s) name a deleted pattern: kept as they match"), "{said}");
    let s = app.session().unwrap();
    assert!(s.mining.patterns.iter().all(|p| p.name != "month"), "mined again without it");
    for id in &ids {
        let i = s.position(id).expect("still a rule");
        assert_eq!(s.status(i), Status::Accepted, "{id} keeps its decision, not narrowed to a twin");
        assert!(s.list.rows.contains(&i), "{id} is listed while in force");
    }
    assert_eq!(s.decisions.values().filter(|r| r.status == Status::Accepted).count(), ids.len(), "no twin accepted");
    assert_eq!(s.removed_share().0, removed, "they remove what they removed before");
    let shown = screen(&app);
    assert!(shown.contains("[stale] «month» «number»"), "{shown}");
    // saved as they are: their regexes match what they matched
    press(&mut app, "w");
    let saved = chaff::rules::RulesFile::load(&fx.rules()).unwrap();
    for id in &ids {
        let rule = saved.rules.iter().find(|r| &r.id == id).expect("saved");
        assert_eq!(rule.status, Status::Accepted);
    }
    assert_eq!(saved.rules.iter().filter(|r| r.status == Status::Accepted).count(), ids.len());
}

#[test]
fn deleting_a_pattern_and_undoing_it_leaves_the_rules_as_they_were() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    accept_the_rules_naming_month(&mut app);
    let before = rules_state(&app);
    delete_pattern(&mut app, "month");
    assert_ne!(rules_state(&app), before, "the deletion changed the rules");
    press(&mut app, "u");
    app.wait_for_miner();
    assert_eq!(rules_state(&app), before, "undone, the list and the decisions are as before the deletion");
    // and again: redo and undo land on the same states
    press(&mut app, "C-r");
    app.wait_for_miner();
    let deleted = rules_state(&app);
    press(&mut app, "u");
    app.wait_for_miner();
    assert_eq!(rules_state(&app), before);
    press(&mut app, "C-r");
    app.wait_for_miner();
    assert_eq!(rules_state(&app), deleted);
}

#[test]
fn a_pattern_deleted_and_undone_on_a_saved_source_leaves_nothing_unsaved() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "w");
    let before = rules_state(&app);
    assert!(!before.3);
    delete_pattern(&mut app, "month");
    press(&mut app, "u");
    app.wait_for_miner();
    assert_eq!(rules_state(&app), before, "back as saved: the suggestions the deletion's mining took are gone");
}

#[test]
fn a_regex_set_with_e_shows_in_the_detail_and_its_confirmation_says_what_it_changes_over_the_source() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    select_text(&mut app, "read more");
    press(&mut app, "E C-u");
    type_text(&mut app, r"read\s+more\b");
    press(&mut app, "Enter");
    app.wait_for_miner();
    assert!(matches!(app.mode, Mode::Normal));
    let said = app.message.as_ref().unwrap().text.clone();
    assert!(said.starts_with("regex set and accepted: it matches"), "{said}");
    assert!(said.contains("docs change: −"), "the impact over the source, as after any decision: {said}");
    press(&mut app, "Enter");
    let shown = screen(&app);
    assert!(shown.contains(r"read\s+more\b (edited)"), "the detail shows the regex in force: {shown}");
}

#[test]
fn a_trimmed_rule_is_listed_with_the_statistics_of_the_trimmed_string_over_the_source() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    select_text(&mut app, "read more «weekday» «ordinal» «month» read more");
    press(&mut app, ")");
    let s = app.session().unwrap();
    let (i, rule) = s
        .decisions
        .values()
        .find(|r| r.tokens.join(" ") == "read more «weekday» «ordinal» «month» read")
        .map(|r| (s.position(&r.id).unwrap(), r.clone()))
        .expect("the trimmed rule");
    assert!(s.list.is_editors(i), "a string the mining did not find: its statistics are counted for it");
    let m = s.string(i);
    let docs = chaff::editing::documents_matching(&m.symbols, &s.corpus.docs, s.mining.tokenizer, &s.ready.mutable);
    assert!(docs > 0);
    assert_eq!(m.df, docs as u64, "df over the source");
    assert!(m.tf >= m.df && m.coverage > 0 && m.bin > 0, "{m:?}");
    assert_eq!((rule.df, rule.tf), (m.df, m.tf), "the rule carries them, so undo, redo and the saved file do");
    let said = app.message.as_ref().unwrap().text.clone();
    assert!(said.contains(&format!("matching {docs} of 120 documents")), "{said}");
    let row = screen(&app).lines().find(|l| l.contains("[mine] read more «weekday»")).map(str::to_string);
    let row = row.expect("listed as the editor's rule");
    assert!(!row.contains("  0% "), "df shown: {row}");
    // undone and redone, it is the same rule with the same statistics
    press(&mut app, "u C-r");
    let s = app.session().unwrap();
    assert_eq!(s.decisions[&rule.id], rule);
}
