//! Key sequences on the real application state (no terminal): what the editor does, and what it must
//! see happen. The preview's keys are in `preview.rs`, those about files on disk in `files.rs`.

mod files;
mod preview;
#[path = "../tui_support.rs"]
mod tui_support;

use chaff::rules::{RulesFile, Status};
use chaff::tui::state::Mode;
use tui_support::{Fixture, press, screen, type_text};

pub(crate) fn selected_id(app: &chaff::tui::App) -> String {
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
    let fx = Fixture::empty();
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
fn turning_off_a_safety_net_in_the_stages_popup_warns_that_these_pages_cannot_show_its_worth() {
    use chaff::clean_settings::Stage;
    let fx = Fixture::sevendays();
    let mut app = fx.app(200, 40);
    let warning = "its worth is on pages whose template was not mined";
    press(&mut app, "S");
    let cuts = Stage::ALL.iter().position(|s| *s == Stage::Cuts).unwrap();
    let islands = Stage::ALL.iter().position(|s| *s == Stage::Islands).unwrap();
    for _ in 0..cuts {
        press(&mut app, "Down");
    }
    assert!(!screen(&app).contains(warning), "cuts remove what rules matched");
    for _ in cuts..islands {
        press(&mut app, "Down");
    }
    assert!(app.session().unwrap().stage_on(Stage::Islands));
    assert!(screen(&app).contains(warning), "{}", screen(&app));
    // turned off, turning it back on is no such decision
    press(&mut app, "Enter");
    assert!(!screen(&app).contains(warning));
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
