//! Key sequences on the real application state (no terminal): what the editor does, and what it must
//! see happen.

mod tui_support;

use std::time::{Duration, Instant};

use chaff::rules::{RulesFile, Status};
use chaff::tui::Settings;
use chaff::tui::state::Mode;
use chaff::tui::update::on_change;
use chaff::tui::watch::Change;
use tui_support::{Fixture, press, screen, type_text};

fn selected_id(app: &chaff::tui::App) -> String {
    let s = app.session().unwrap();
    s.string(s.list.current().unwrap()).id.clone()
}

#[test]
fn accept_changes_the_preview() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let before = screen(&app);
    let s = app.session().unwrap();
    let (removed, spans) = (s.preview.removed, s.preview.spans.clone());
    assert_eq!(removed, 0, "nothing is accepted yet");
    press(&mut app, "a");
    let s = app.session().unwrap();
    assert!(s.preview.removed > 0, "the accepted rule removes text from the previewed document");
    assert_ne!(s.preview.spans, spans);
    assert_ne!(screen(&app), before, "the accept shows on the next frame");
    // and rejecting it takes the removal back out
    press(&mut app, "r");
    assert_eq!(app.session().unwrap().preview.removed, 0);
}

#[test]
fn html_documents_are_tuned_on_the_lines_a_reader_sees() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 120, 40);
    press(&mut app, "a v");
    let s = app.session().unwrap();
    assert!(s.preview.only_cleaned);
    // the page view: the title first, a line per block, no markup
    let doc = s.document_text();
    assert!(!doc.contains("<p>") && !doc.contains("<nav>"), "{}", &doc[..200.min(doc.len())]);
    assert!(
        !s.preview.cleaned.contains('<'),
        "rendered, not markup: {}",
        &s.preview.cleaned[..200.min(s.preview.cleaned.len())]
    );
    assert!(!s.preview.cleaned.trim().is_empty());
}

#[test]
fn cluster_rules_are_listed_decided_and_saved() {
    let fx = Fixture::mixed();
    let mut app = fx.app_on("mixed_templates", 160, 48);
    let s = app.session().unwrap();
    assert!(!s.extra_strings.is_empty(), "the galleries were mined apart");
    let listed: Vec<usize> = s.list.rows.iter().copied().filter(|&i| s.string(i).cluster.is_some()).collect();
    assert!(
        !listed.is_empty(),
        "cluster strings are candidates like the others: {:?} cutoff {} in mining {}",
        s.extra_strings.iter().map(|c| c.bin).collect::<Vec<_>>(),
        s.cutoff,
        s.mining.strings.iter().filter(|m| m.cluster.is_some()).count()
    );
    let id = s.string(listed[0]).id.clone();
    // select it, accept it, save
    let row = s.list.rows.iter().position(|&i| i == listed[0]).unwrap();
    press(&mut app, "Home");
    for _ in 0..row {
        press(&mut app, "Down");
    }
    assert!(screen(&app).contains("[cluster "), "{}", screen(&app));
    press(&mut app, "a w");
    let file = RulesFile::load(&fx.rules_dir().join("mixed_templates.toml")).unwrap();
    let saved = file.rules.iter().find(|r| r.id == id).expect("saved");
    assert_eq!(saved.status, Status::Accepted);
    assert!(saved.cluster.is_some());
    let clusters = file.rules.iter().filter(|r| r.cluster.is_some()).count();
    assert_eq!(clusters, app.session().unwrap().extra_strings.len(), "every cluster rule is kept");
}

#[test]
fn cutoff_move_changes_the_candidate_list() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let s = app.session().unwrap();
    let (auto, rows) = (s.cutoff, s.list.rows.clone());
    assert_eq!(auto, s.mining.auto_cutoff);
    let mut moves = 0;
    while app.session().unwrap().list.rows == rows && moves < 100 {
        press(&mut app, "Right");
        moves += 1;
    }
    let s = app.session().unwrap();
    assert!(s.list.rows.len() < rows.len(), "raising the cutoff drops candidates");
    assert!(s.list.rows.iter().all(|&i| s.string(i).bin >= s.cutoff));
    assert!(screen(&app).contains(&format!("chosen {}%", s.cutoff)));
    press(&mut app, "0");
    let s = app.session().unwrap();
    assert_eq!((s.cutoff, &s.list.rows), (auto, &rows), "0 returns to the auto cutoff");
    // lowering it adds strings from below the auto cutoff
    for _ in 0..30 {
        press(&mut app, "Left");
    }
    assert!(app.session().unwrap().list.rows.len() > rows.len());
}

#[test]
fn invalid_mutable_regex_shows_an_error_and_starts_no_remine() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(80, 24);
    let patterns = app.session().unwrap().patterns.clone();
    press(&mut app, "Tab e End");
    type_text(&mut app, "(");
    press(&mut app, "Enter");
    let Mode::EditPattern(edit) = &app.mode else { panic!("the editor stays open") };
    let err = edit.error.clone().expect("an inline error");
    assert!(err.contains("url") && err.contains("invalid regex"), "{err}");
    assert!(screen(&app).contains("invalid regex"), "{}", screen(&app));
    let s = app.session().unwrap();
    assert!(s.job.is_none() && app.miner.latest() == 0, "no mining was requested");
    assert_eq!(s.patterns, patterns, "not applied");
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
}

#[test]
fn valid_pattern_edit_re_mines_in_the_background_and_keeps_decisions() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "a");
    let accepted = selected_id(&app);
    // add a pattern no token matches: the same strings are mined again
    press(&mut app, "Tab n");
    type_text(&mut app, "never");
    press(&mut app, "Tab");
    type_text(&mut app, "zzqq[0-9]+zz");
    press(&mut app, "Enter");
    assert!(matches!(app.mode, Mode::Normal));
    assert!(app.busy(), "re-mining in the background");
    // the UI keeps responding while it runs
    press(&mut app, "BackTab BackTab j");
    app.wait_for_miner();
    let s = app.session().unwrap();
    assert!(s.job.is_none());
    assert_eq!(s.mining.patterns.last().unwrap().name, "never");
    let i = s.position(&accepted).expect("mined again");
    assert_eq!(s.status(i), Status::Accepted, "the decision is kept");
    assert!(screen(&app).contains("re-mined"));
}

#[test]
fn latest_remine_request_wins() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    for name in ["one", "two", "three"] {
        press(&mut app, "Tab n");
        type_text(&mut app, name);
        press(&mut app, "Tab");
        type_text(&mut app, "zzqq");
        press(&mut app, "Enter BackTab");
    }
    app.wait_for_miner();
    let names: Vec<&str> = app.session().unwrap().mining.patterns.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(&names[names.len() - 3..], ["one", "two", "three"]);
}

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
fn bulk_accept_of_a_filtered_set() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "/");
    type_text(&mut app, "read more");
    press(&mut app, "Enter");
    let shown = app.session().unwrap().list.rows.len();
    assert!(shown >= 1);
    press(&mut app, "A");
    let s = app.session().unwrap();
    assert_eq!(s.count(Status::Accepted), shown);
    assert!(s.list.rows.iter().all(|&i| s.text(i).contains("read more")));
    press(&mut app, "Esc");
    assert!(app.session().unwrap().list.rows.len() > shown, "Esc clears the filter");
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
fn mouse_click_selects_a_row_and_the_wheel_scrolls() {
    use ratatui::crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let fx = Fixture::sevendays();
    // small enough that a document overflows the preview
    let mut app = fx.app(80, 24);
    let areas = chaff::tui::view::layout(app.size, false);
    let click = |kind, column, row| MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE };
    // third data row of the candidate table: border, header, rows
    app.handle_mouse(click(MouseEventKind::Down(MouseButton::Left), areas.candidates.x + 10, areas.candidates.y + 4));
    assert_eq!(app.session().unwrap().list.selected, 2);
    app.handle_mouse(click(MouseEventKind::Down(MouseButton::Left), areas.preview.x + 5, areas.preview.y + 3));
    assert_eq!(app.session().unwrap().focus, chaff::tui::session::Pane::Preview);
    app.handle_mouse(click(MouseEventKind::ScrollDown, areas.preview.x + 5, areas.preview.y + 3));
    assert!(app.session().unwrap().preview.scroll > 0);
}

#[test]
fn go_to_a_document_and_step_through_spans() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "g");
    type_text(&mut app, "0042");
    press(&mut app, "Enter");
    let s = app.session().unwrap();
    assert_eq!(s.corpus.docs[s.preview.doc].id, "0042");
    press(&mut app, "n p p ]");
    let s = app.session().unwrap();
    assert_eq!(s.preview.doc, 40);
    assert_eq!(s.preview.cursor, Some(0));
    assert!(screen(&app).contains("▸ 1/"));
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

#[test]
fn strings_that_are_candidates_in_many_sources_start_rejected_as_idioms() {
    let fx = Fixture::sevendays();
    fx.other_sources_share_the_candidates();
    let app = fx.app(120, 40);
    let s = app.session().unwrap();
    let idioms: Vec<usize> = s.list.rows.iter().copied().filter(|&i| s.string(i).idiom).collect();
    assert!(!idioms.is_empty());
    assert!(idioms.iter().all(|&i| s.status(i) == Status::Rejected), "idioms start rejected");
    assert!(screen(&app).contains("[idiom]"));
}

#[test]
fn line_rules_are_listed_and_kept_on_save() {
    // a source whose pages share single-word lines ("Reply", "Tags:"): `chaff mine` makes them rules,
    // and the editor sees them and does not lose them by saving
    let fx = Fixture { dir: tempfile::tempdir().unwrap() };
    let dir = fx.root().join("lined");
    std::fs::create_dir_all(&dir).unwrap();
    for p in 0..12 {
        let body: String = (0..6)
            .map(|l| format!("Page {p} line {l} says something different from the others {}.\n", p * 7 + l))
            .collect();
        let text = format!("Lined Site Home Page\nNews and more\n{body}Tags:\ntopic{p}\nReply\nLeave a reply below\n");
        std::fs::write(dir.join(format!("{p}.txt")), text).unwrap();
    }
    let mut app = fx.app_on("lined", 160, 48);
    let s = app.session().unwrap();
    let lines: Vec<String> =
        s.extra_strings.iter().filter(|e| e.symbols.is_empty()).map(|e| e.example.clone()).collect();
    assert!(lines.contains(&"Tags:".to_string()) && lines.contains(&"Reply".to_string()), "{lines:?}");
    assert!(screen(&app).contains("Tags:"), "listed:\n{}", screen(&app));
    press(&mut app, "w");
    let file = RulesFile::load(&fx.rules_dir().join("lined.toml")).unwrap();
    let saved: Vec<&str> = file.rules.iter().filter_map(|r| r.id.strip_prefix("line:")).collect();
    assert!(saved.contains(&"Tags:") && saved.contains(&"Reply"), "{saved:?}");
}

#[test]
fn a_pending_suggested_cut_previews_as_the_cut_it_would_be() {
    use chaff::cleaning::SpanKind;
    use chaff::tui::document::Mark;
    let fx = Fixture::sevendays();
    let app = fx.app(120, 40);
    let s = app.session().unwrap();
    let text = s.document_text();
    let cut = s.preview.spans.iter().find(|p| p.mark == Mark::Pending(SpanKind::CutAfter));
    let cut = cut.expect("the footer string is suggested as a cut-after, and pending");
    assert_eq!(text[cut.end..].trim(), "", "a pending cut-after reaches the document's end");
    assert!(
        text[cut.start..cut.end].split_whitespace().count() > 10,
        "it takes the page-specific tail, not only its own words: {:?}",
        &text[cut.start..cut.end]
    );
}

#[test]
fn the_new_coverage_sort_lists_what_each_string_adds() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "s s");
    assert!(screen(&app).contains("sort new coverage"), "{}", screen(&app));
    let s = app.session().unwrap();
    let adds: Vec<u64> = s.list.rows.iter().map(|&i| s.string(i).adds).collect();
    assert!(adds.windows(2).all(|w| w[0] >= w[1]), "rows by new coverage, largest first: {adds:?}");
    assert!(adds[0] > 0);
    // a string that only repeats a part of a larger one adds less than it covers
    assert!(s.list.rows.iter().any(|&i| s.string(i).adds < s.string(i).coverage / 2), "{adds:?}");
}

#[test]
fn a_stage_turned_off_in_the_stages_popup_changes_the_preview_is_undone_and_saved() {
    use chaff::clean_settings::Stage;
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    // accept every candidate shown: the islands and cuts of the automatic rules then act
    press(&mut app, "A");
    let before = app.session().unwrap().preview.spans.clone();
    let cuts = Stage::ALL.iter().position(|s| *s == Stage::Cuts).unwrap();
    press(&mut app, "S");
    assert!(matches!(app.mode, Mode::Stages { .. }));
    assert!(screen(&app).contains("Cleaning stages of this source"));
    for _ in 0..cuts {
        press(&mut app, "Down");
    }
    press(&mut app, "Enter Esc");
    let s = app.session().unwrap();
    assert!(!s.stage_on(Stage::Cuts) && s.dirty);
    let off = s.preview.spans.clone();
    assert_ne!(off, before, "without its cuts the preview removes less");
    press(&mut app, "u");
    assert!(app.session().unwrap().stage_on(Stage::Cuts), "undo turns it on again");
    assert_eq!(app.session().unwrap().preview.spans, before);
    press(&mut app, "C-r w");
    assert_eq!(app.session().unwrap().preview.spans, off);
    let saved = RulesFile::load(&fx.rules()).unwrap();
    assert!(saved.clean.off.contains(&Stage::Cuts), "saved as [clean] off: {:?}", saved.clean.off);
    assert!(!saved.clean_settings().on(Stage::Cuts));
}

#[test]
fn the_explain_list_names_every_rule_and_enter_on_a_stage_turns_it_off() {
    use chaff::tui::state::ExplainItem;
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "A ]");
    press(&mut app, "e");
    let Mode::Explain(x) = &app.mode else { panic!("the explain list opens") };
    let rules = x.items.iter().filter(|i| matches!(i, ExplainItem::Rule { .. })).count();
    assert!(rules >= 1, "{:?}", x.items);
    let shown = screen(&app);
    assert!(shown.contains("Why this span") && shown.contains("rule "), "{shown}");
    // a stage in the list: Enter turns it off for the source
    if let Some(k) = x.items.iter().position(|i| matches!(i, ExplainItem::Stage(_))) {
        let ExplainItem::Stage(stage) = x.items[k] else { unreachable!() };
        for _ in 0..k {
            press(&mut app, "Down");
        }
        press(&mut app, "Enter");
        assert!(!app.session().unwrap().stage_on(stage));
    } else {
        // on a rule: Enter selects it in the candidate list
        press(&mut app, "Enter");
        assert!(matches!(app.mode, Mode::Normal));
    }
}

#[test]
fn keep_from_the_preview_protects_the_span_and_is_saved_as_a_keep_rule() {
    use chaff::rules::Action;
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "a ]");
    let s = app.session().unwrap();
    let span = s.preview.spans[s.preview.cursor.unwrap()].clone();
    let removed = s.preview.removed;
    press(&mut app, "Tab Tab K y");
    let s = app.session().unwrap();
    assert!(s.preview.removed < removed, "the kept text is no longer removed");
    assert!(!s.preview.spans.iter().any(|p| p.start <= span.start && span.end <= p.end && p.mark == span.mark));
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules()).unwrap();
    assert!(saved.rules.iter().any(|r| r.action == Action::Keep && r.status == Status::Accepted));
    press(&mut app, "u");
    assert_eq!(app.session().unwrap().preview.removed, removed, "undo takes the keep rule back");
}

#[test]
fn the_cleaned_preview_is_what_chaff_clean_of_the_export_writes() {
    use chaff::cleaning::Cleaner;
    use chaff::page::Page;
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "a j a v x y");
    let s = app.session().unwrap();
    let export = s.spec.export.clone();
    let file = RulesFile::load(&export).unwrap();
    let cleaner = Cleaner::new(&file, false).unwrap();
    let doc = s.document_text();
    assert_eq!(s.preview.cleaned, cleaner.clean_page(Page::for_rules(doc, &file)).text());
    assert!(screen(&app).contains("as exported"), "{}", screen(&app));
}

#[test]
fn reset_asks_then_takes_every_decision_back_to_the_automatic_rules_and_undo_restores_them() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let automatic = app.session().unwrap().counts();
    press(&mut app, "a j a j r");
    let decided = app.session().unwrap().counts();
    assert_ne!(decided, automatic);
    press(&mut app, "Z");
    assert!(matches!(app.mode, Mode::ResetPrompt) && screen(&app).contains("Reset to the automatic rules"));
    press(&mut app, "n");
    assert_eq!(app.session().unwrap().counts(), decided, "n keeps the decisions");
    press(&mut app, "Z y");
    assert_eq!(app.session().unwrap().counts(), automatic);
    assert!(!app.session().unwrap().dirty, "the automatic rules are what was opened");
    press(&mut app, "u");
    assert_eq!(app.session().unwrap().counts(), decided, "one step undoes the reset");
}

#[test]
fn trimming_a_candidate_accepts_the_shorter_string_in_its_place_and_is_undone_in_one_step() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let id = selected_id(&app);
    let s = app.session().unwrap();
    let tokens = s.string(s.list.current().unwrap()).symbols.len();
    let removed = s.preview.removed;
    press(&mut app, ")");
    let s = app.session().unwrap();
    let trimmed: Vec<&chaff::rules::Rule> =
        s.decisions.values().filter(|r| r.id != id && r.status == Status::Accepted).collect();
    assert_eq!(trimmed.len(), 1, "the trim is an accepted rule");
    assert_eq!(trimmed[0].tokens.len(), tokens - 1);
    assert_eq!(s.decisions[&id].status, Status::Rejected, "the candidate gives way to it");
    assert!(s.preview.removed > removed, "the trimmed rule cleans the preview");
    // a second trim replaces the first
    press(&mut app, "(");
    let s = app.session().unwrap();
    let accepted: Vec<usize> =
        s.decisions.values().filter(|r| r.status == Status::Accepted).map(|r| r.tokens.len()).collect();
    assert_eq!(accepted, vec![tokens - 2]);
    press(&mut app, "u u");
    let s = app.session().unwrap();
    assert!(s.decisions.is_empty() || s.decisions.values().all(|r| r.status != Status::Accepted));
    assert_eq!(s.preview.removed, removed);
}

#[test]
fn marking_a_preview_line_as_template_shows_its_documents_first_then_removes_it() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 120, 40);
    let removed = app.session().unwrap().preview.removed;
    // down to a paragraph of the article: nothing removes it yet
    press(&mut app, "Tab Tab j j j j j j j j T");
    let Mode::MarkPrompt(m) = &app.mode else { panic!("a prompt shows the rule first") };
    let (start, end, documents) = (m.start, m.end, m.documents);
    assert!(documents.is_some_and(|d| d >= 1) && screen(&app).contains("Mark as template?"));
    press(&mut app, "y");
    let s = app.session().unwrap();
    assert!(
        s.preview.removed >= removed + (end - start) / 2,
        "the line is removed now: {removed} -> {} ({start}..{end} {:?})",
        s.preview.removed,
        &s.document_text()[start..end]
    );
    let added: Vec<&chaff::rules::Rule> = s.decisions.values().filter(|r| r.status == Status::Accepted).collect();
    assert_eq!(added.len(), 1);
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules_dir().join("html_news.toml")).unwrap();
    assert!(saved.rules.iter().any(|r| r.id == added_id(&app)));
}

fn added_id(app: &chaff::tui::App) -> String {
    let s = app.session().unwrap();
    s.decisions.values().find(|r| r.status == Status::Accepted).unwrap().id.clone()
}

#[test]
fn the_cleaned_view_shows_accepted_rules_or_accepted_and_pending_and_says_which() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(160, 40);
    press(&mut app, "v");
    let exported = app.session().unwrap().preview.cleaned.clone();
    assert!(screen(&app).contains("Cleaned as exported") && screen(&app).contains("preview ✓ │"));
    press(&mut app, "+");
    let s = app.session().unwrap();
    assert!(s.preview.pending > 0, "the fixture has pending candidates above the cutoff");
    assert!(s.preview.cleaned.len() < exported.len(), "pending rules remove more");
    assert!(screen(&app).contains("Cleaned with pending (not exported)"), "{}", screen(&app));
    assert!(screen(&app).contains("preview ✓+·"));
    press(&mut app, "+");
    assert_eq!(app.session().unwrap().preview.cleaned, exported);
}

#[test]
fn a_selected_span_is_marked_as_template_with_its_document_count_first() {
    let fx = Fixture::html();
    let mut app = fx.app_on("html_news", 120, 40);
    // down to a paragraph of the article, select its first three words
    press(&mut app, "Tab Tab j j j j j j j j V");
    let s = app.session().unwrap();
    let (line_start, _) = s.preview.selected().expect("V selects the top line");
    press(&mut app, "Esc");
    press(&mut app, "V");
    assert!(app.session().unwrap().preview.selected().is_none(), "V again drops the selection");
    press(&mut app, "V");
    // from the whole line down to its first three words: > and < move the selection's end
    let s = app.session_mut().unwrap();
    s.preview.selection = Some((line_start, line_start));
    press(&mut app, "> > > > <");
    let s = app.session().unwrap();
    let (start, end) = s.preview.selected().unwrap();
    let selected = s.document_text()[start..end].to_string();
    assert_eq!(selected.split_whitespace().count(), 3, "{selected:?}");
    assert!(screen(&app).contains("selected 3 word(s)"));
    press(&mut app, "T");
    let Mode::MarkPrompt(m) = &app.mode else { panic!("a prompt shows the rule first") };
    assert_eq!((m.start, m.end), (start, end), "the selection, not the top line");
    assert!(m.documents.is_some_and(|d| d >= 1));
    let removed = app.session().unwrap().preview.removed;
    press(&mut app, "y");
    let s = app.session().unwrap();
    assert!(s.preview.selection.is_none());
    assert!(s.preview.removed >= removed + selected.trim().len(), "the selection is removed now");
    let rule = s.decisions.values().find(|r| r.status == Status::Accepted).unwrap().clone();
    assert_eq!(rule.tokens.len(), 3);
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules_dir().join("html_news.toml")).unwrap();
    assert!(saved.rules.iter().any(|r| r.id == rule.id && r.status == Status::Accepted));
    press(&mut app, "u");
    assert_eq!(app.session().unwrap().preview.removed, removed, "one step undoes it");
}

#[test]
fn a_mouse_drag_selects_text_and_k_keeps_it() {
    use ratatui::crossterm::event::{KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let areas = chaff::tui::view::layout(app.size, false);
    let mouse = |kind, column, row| MouseEvent { kind, column, row, modifiers: KeyModifiers::NONE };
    // the preview's first content line, from its first column to its tenth
    let (x, y) = (areas.preview.x + 1, areas.preview.y + 1);
    app.handle_mouse(mouse(MouseEventKind::Down(MouseButton::Left), x, y));
    app.handle_mouse(mouse(MouseEventKind::Drag(MouseButton::Left), x + 9, y));
    let s = app.session().unwrap();
    let (start, end) = s.preview.selected().expect("the drag selects");
    // ten columns, widened to whole words: a rule holds whole tokens
    let text = s.document_text();
    assert!(text[start..end].chars().count() >= 10, "{:?}", &text[start..end]);
    assert!(text[end..].chars().next().is_none_or(char::is_whitespace), "{:?}", &text[start..end]);
    press(&mut app, "K y");
    let s = app.session().unwrap();
    let kept = s.decisions.values().find(|r| r.action == chaff::rules::Action::Keep).expect("a keep rule");
    assert_eq!(kept.status, Status::Accepted);
    assert!(s.preview.selection.is_none());
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules()).unwrap();
    assert!(saved.rules.iter().any(|r| r.action == chaff::rules::Action::Keep));
}

#[test]
fn a_candidates_regex_is_edited_in_place_refused_while_invalid() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    let id = selected_id(&app);
    press(&mut app, "E");
    let Mode::EditRegex(e) = &app.mode else { panic!("E opens the regex editor") };
    let before = e.input.value().to_string();
    assert_eq!(before, app.session().unwrap().current_rule(app.session().unwrap().list.current().unwrap()).regex);
    press(&mut app, "C-u");
    type_text(&mut app, r"Photo:\s+(");
    press(&mut app, "Enter");
    app.wait_for_miner();
    let Mode::EditRegex(e) = &app.mode else { panic!("a bad regex keeps the editor open") };
    assert!(e.error.is_some());
    assert!(screen(&app).contains("✗"), "{}", screen(&app));
    press(&mut app, "Backspace");
    type_text(&mut app, r"\w+");
    press(&mut app, "Enter");
    app.wait_for_miner();
    assert!(matches!(app.mode, Mode::Normal));
    let s = app.session().unwrap();
    assert_eq!(s.decisions[&id].regex, r"Photo:\s+\w+");
    assert_eq!(s.decisions[&id].status, Status::Accepted);
    assert!(app.message.as_ref().unwrap().text.contains("documents"));
    press(&mut app, "w");
    let saved = RulesFile::load(&fx.rules()).unwrap();
    assert_eq!(saved.rules.iter().find(|r| r.id == id).unwrap().regex, r"Photo:\s+\w+");
    press(&mut app, "u");
    assert_ne!(app.session().unwrap().decisions.get(&id).map(|r| r.regex.as_str()), Some(r"Photo:\s+\w+"));
}
