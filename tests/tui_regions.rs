//! The region rules list (`G`) on the real application state: listed with their pages and words,
//! decided with the candidates' keys, undone and redone, measured over the source before a decision,
//! shown on the previewed page (its lines selected; once accepted, removed as `chaff clean` removes them,
//! reached with `]`/`[` and explained with `e`), and saved in the rules file.

mod tui_support;

use std::path::Path;

use chaff::clean_settings::Stage;
use chaff::rules::{Action, RulesFile, Status};
use chaff::tui::document::Mark;
use chaff::tui::state::{ExplainItem, Mode};
use chaff::tui::{App, Settings};
use tui_support::{Fixture, press, screen, settle};

fn region(app: &App, element: &str) -> (Status, Action) {
    let r = app.session().unwrap().draft.region(element).unwrap_or_else(|| panic!("region {element}"));
    (r.status, r.action)
}

fn selected_element(app: &App) -> String {
    let Mode::Regions(list) = &app.mode else { panic!("the region list is open") };
    app.session().unwrap().draft.regions()[list.selected].element.clone()
}

/// Moves the list's selection to `element`.
fn select(app: &mut App, element: &str) {
    press(app, "G");
    for _ in 0..app.session().unwrap().draft.regions().len() {
        if selected_element(app) == element {
            return;
        }
        press(app, "j");
    }
    panic!("{element} is listed");
}

fn saved(path: &Path, element: &str) -> (Status, Action) {
    let file = RulesFile::load(path).unwrap();
    let r = file.regions.iter().find(|r| r.element == element).unwrap_or_else(|| panic!("{element} saved"));
    (r.status, r.action)
}

#[test]
fn the_region_list_shows_each_rule_and_what_it_would_do_over_the_source() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    let elements: Vec<String> = app.session().unwrap().draft.regions().iter().map(|r| r.element.clone()).collect();
    assert!(elements.iter().any(|e| e == "ul.story-links"), "mined: {elements:?}");
    select(&mut app, "ul.story-links");
    let Mode::Regions(list) = &app.mode else { panic!("open") };
    let measured = list.measured.clone().expect("measured before a decision").unwrap();
    assert_eq!((measured.pages, measured.changed), (12, 12), "{measured:?}");
    assert!(measured.removed_inside + measured.removed_outside >= 12 * 20, "{measured:?}");
    let text = screen(&app);
    assert!(text.contains("Region rules:") && text.contains("ul.story-links"), "{text}");
    assert!(text.contains("on 12 of 12 pages"), "the impact is shown: {text}");
    // the rule's lines on the previewed page are selected there
    let s = app.session().unwrap();
    let (start, end) = s.preview.selection.expect("the region's lines are selected in the preview");
    let doc = s.document_text();
    assert!(doc[start..end].contains("rel0x"), "the strip: {}", &doc[start..end]);
    assert!(!doc[start..end].contains("art0x"), "not the article: {}", &doc[start..end]);
    // the digits show the pages it changes most; closing gives the preview's selection back
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    assert_eq!(app.session().unwrap().preview.selection, None);
}

#[test]
fn a_r_backspace_and_c_decide_a_region_rule_and_undo_redo_and_save_keep_it() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    select(&mut app, "ul.story-links");
    assert_eq!(region(&app, "ul.story-links"), (Status::Pending, Action::Remove));
    press(&mut app, "a");
    assert_eq!(region(&app, "ul.story-links"), (Status::Accepted, Action::Remove));
    assert!(app.session().unwrap().draft.dirty);
    let status = screen(&app);
    assert!(status.contains("region ul.story-links accepted · remove · removes 300 words"), "{status}");
    assert!(!status.contains("no document"), "the status line says what the list measured: {status}");
    press(&mut app, "c");
    assert_eq!(region(&app, "ul.story-links"), (Status::Accepted, Action::CutBefore));
    press(&mut app, "r");
    assert_eq!(region(&app, "ul.story-links").0, Status::Rejected);
    press(&mut app, "Backspace");
    assert_eq!(region(&app, "ul.story-links").0, Status::Pending);
    // undo and redo in the list itself
    press(&mut app, "u");
    assert_eq!(region(&app, "ul.story-links").0, Status::Rejected);
    assert!(screen(&app).contains("undid a decision on region ul.story-links"), "{}", screen(&app));
    press(&mut app, "C-r");
    assert_eq!(region(&app, "ul.story-links").0, Status::Pending);
    press(&mut app, "a Esc");
    // undo and redo are the draft's, from the tuning screen
    press(&mut app, "u");
    assert_eq!(region(&app, "ul.story-links"), (Status::Pending, Action::CutBefore));
    press(&mut app, "C-r");
    assert_eq!(region(&app, "ul.story-links"), (Status::Accepted, Action::CutBefore));
    press(&mut app, "w");
    assert!(!app.session().unwrap().draft.dirty);
    assert_eq!(saved(&fx.rules(), "ul.story-links"), (Status::Accepted, Action::CutBefore));
    // opened again, the decision is there
    let app = fx.app(140, 40);
    assert_eq!(region(&app, "ul.story-links"), (Status::Accepted, Action::CutBefore));
}

#[test]
fn a_source_without_region_rules_says_why_and_opens_nothing() {
    let fx = Fixture::sevendays();
    let mut app = fx.app(120, 40);
    press(&mut app, "G");
    assert!(matches!(app.mode, Mode::Normal));
    assert!(screen(&app).contains("no region rules"), "{}", screen(&app));
}

#[test]
fn the_region_list_snapshot() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    select(&mut app, "ul.story-links");
    insta::assert_snapshot!(screen(&app));
}

#[test]
fn a_region_decision_not_saved_is_offered_back_after_a_crash() {
    let fx = Fixture::regions();
    let settings = Settings { watch: false, journal: true };
    let mut app = fx.app_with(settings, 140, 40);
    select(&mut app, "div#reactions");
    press(&mut app, "a c");
    assert_eq!(region(&app, "div#reactions"), (Status::Accepted, Action::CutBefore));
    drop(app); // killed: nothing saved
    let mut app = fx.app_with(settings, 140, 40);
    let Mode::JournalPrompt(replay) = &app.mode else { panic!("unsaved work is offered back") };
    assert!(replay.summary().contains("1 region rule decision(s)"), "{}", replay.summary());
    press(&mut app, "r");
    assert_eq!(region(&app, "div#reactions"), (Status::Accepted, Action::CutBefore));
    assert!(app.session().unwrap().draft.dirty, "the decision is back, unsaved");
}

/// The preview's span under the cursor: its text, mark and rules.
fn cursor_span(app: &App) -> Option<(String, Mark, Vec<String>)> {
    let s = app.session().unwrap();
    let span = s.preview.spans.get(s.preview.cursor?)?;
    Some((s.document_text()[span.start..span.end].to_string(), span.mark, span.rules.clone()))
}

#[test]
fn an_accepted_region_rules_lines_are_removed_in_the_preview_and_explained_as_the_rule() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    select(&mut app, "ul.story-links");
    let (start, end) = app.session().unwrap().preview.selection.expect("the region's lines");
    let removed_before = app.session().unwrap().preview.removed;
    press(&mut app, "a Esc");
    settle(&mut app);
    let s = app.session().unwrap();
    let doc = s.document_text();
    assert!(doc[start..end].contains("rel0x"), "the strip: {}", &doc[start..end]);
    // every line under the element is inside one removed span of the accepted rules
    let covering = s.preview.spans.iter().find(|p| p.start <= start && end <= p.end);
    let span = covering.unwrap_or_else(|| panic!("the region's lines are removed: {:?}", s.preview.spans));
    assert!(matches!(span.mark, Mark::Accepted(_)), "{span:?}");
    assert!(span.rules.iter().any(|r| r == "region:ul.story-links"), "{span:?}");
    assert!(s.preview.removed >= removed_before + (end - start), "the removed share counts them");
    assert!(!s.preview.cleaned.contains("rel0x"), "the cleaned text leaves them out: {}", s.preview.cleaned);
    // `]` reaches the span, `[` comes back to it, `e` names the region rule and its stage
    let mut found = false;
    for _ in 0..s.preview.spans.len() * 2 + 2 {
        press(&mut app, "]");
        if cursor_span(&app).is_some_and(|(text, _, _)| text.contains("rel0x")) {
            found = true;
            break;
        }
    }
    assert!(found, "] stops on the region's span");
    let (text, _, rules) = cursor_span(&app).unwrap();
    press(&mut app, "]");
    if app.session().unwrap().preview.cursor.is_some() || app.session().unwrap().preview.kept.is_some() {
        press(&mut app, "[");
    }
    assert_eq!(cursor_span(&app).map(|(t, _, r)| (t, r)), Some((text, rules)), "[ comes back to it");
    press(&mut app, "e");
    let Mode::Explain(x) = &app.mode else { panic!("e opens the explain list") };
    assert!(!x.kept, "a removed span is explained");
    assert!(
        x.items.iter().any(|i| matches!(i, ExplainItem::Rule { id, .. } if id == "region:ul.story-links")),
        "{:?}",
        x.items
    );
    assert!(x.items.contains(&ExplainItem::Stage(Stage::Regions)), "{:?}", x.items);
    // Enter on the region rule says where it is decided: it is not a candidate of the list
    while let Mode::Explain(x) = &app.mode
        && !matches!(&x.items[x.selected], ExplainItem::Rule { id, .. } if id.starts_with("region:"))
    {
        press(&mut app, "j");
    }
    press(&mut app, "Enter");
    assert!(screen(&app).contains("region:ul.story-links is a region rule: G lists them"), "{}", screen(&app));
    // rejected, the lines come back
    select(&mut app, "ul.story-links");
    press(&mut app, "r Esc");
    settle(&mut app);
    let s = app.session().unwrap();
    assert!(!s.preview.spans.iter().any(|p| p.start <= start && end <= p.end), "rejected: kept");
}

/// Puts the preview's line cursor on the first line holding `text`.
fn line_cursor_on(app: &mut App, text: &str) {
    let s = app.session_mut().unwrap();
    let doc = s.document_text().to_string();
    let line = s.preview_lines().iter().position(|&(a, b)| doc[a..b].contains(text));
    s.preview.line = line.unwrap_or_else(|| panic!("a line holds {text}"));
    s.preview.cursor = None;
    s.preview.kept = None;
}

#[test]
fn b_names_a_region_from_the_elements_around_the_line_measured_before_a_accepts_it() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    assert!(app.session().unwrap().draft.region("li.reaction").is_none(), "mining proposes the thread, not a comment");
    line_cursor_on(&mut app, "com1x");
    press(&mut app, "B");
    let naming = |app: &App| match &app.mode {
        Mode::Regions(list) => list.naming.as_ref().map(|n| (n.rule().element, n.rule().action)),
        _ => panic!("the region list is open"),
    };
    assert_eq!(naming(&app), Some(("li.reaction".to_string(), Action::Remove)), "the innermost element first");
    let Mode::Regions(list) = &app.mode else { unreachable!() };
    let measured = list.measured.clone().expect("measured before a decision").unwrap();
    assert_eq!(measured.changed, 12, "every page has comments: {measured:?}");
    let (start, end) = app.session().unwrap().preview.selection.expect("its lines are selected");
    assert!(app.session().unwrap().document_text()[start..end].contains("com0x"));
    let text = screen(&app);
    assert!(text.contains("naming from this line") && text.contains("li.reaction"), "{text}");
    assert!(text.contains("on 12 of 12 pages"), "the impact is shown: {text}");
    // B goes outward, then round; c sets the action; nothing is decided yet
    press(&mut app, "B");
    assert_eq!(naming(&app).unwrap().0, "div#reactions");
    press(&mut app, "B c");
    assert_eq!(naming(&app), Some(("li.reaction".to_string(), Action::CutBefore)));
    assert!(app.session().unwrap().draft.region("li.reaction").is_none());
    assert!(!app.session().unwrap().draft.dirty, "nothing decided while naming");
    // a move in the list leaves the naming for the rules mining proposed; B names again
    press(&mut app, "j");
    assert_eq!(naming(&app), None);
    press(&mut app, "Esc");
    line_cursor_on(&mut app, "com1x");
    press(&mut app, "B");
    assert_eq!(naming(&app).unwrap().0, "li.reaction");
    // Esc leaves everything as it was
    press(&mut app, "Esc");
    assert!(matches!(app.mode, Mode::Normal));
    assert!(app.session().unwrap().draft.region("li.reaction").is_none() && !app.session().unwrap().draft.dirty);
    // a accepts it: one step to undo, saved with the rules
    press(&mut app, "B a");
    assert_eq!(region(&app, "li.reaction"), (Status::Accepted, Action::Remove));
    assert!(screen(&app).contains("region li.reaction named and accepted"), "{}", screen(&app));
    let named = app.session().unwrap().draft.region("li.reaction").unwrap().clone();
    assert_eq!(named.df, 12, "the pages it is on, as measured: {named:?}");
    assert!(named.example.contains("com0x") && named.words == 27, "{named:?}");
    press(&mut app, "Esc u");
    assert!(app.session().unwrap().draft.region("li.reaction").is_none(), "undo takes it away");
    press(&mut app, "C-r w");
    assert_eq!(saved(&fx.rules(), "li.reaction"), (Status::Accepted, Action::Remove));
    let app = fx.app(140, 40);
    assert_eq!(region(&app, "li.reaction"), (Status::Accepted, Action::Remove), "opened again, still named");
}

#[test]
fn a_region_named_and_not_saved_is_offered_back_after_a_crash_and_one_undone_is_not() {
    let fx = Fixture::regions();
    let settings = Settings { watch: false, journal: true };
    let mut app = fx.app_with(settings, 140, 40);
    line_cursor_on(&mut app, "com1x");
    press(&mut app, "B a");
    assert_eq!(region(&app, "li.reaction"), (Status::Accepted, Action::Remove));
    drop(app); // killed: nothing saved
    let mut app = fx.app_with(settings, 140, 40);
    assert!(matches!(app.mode, Mode::JournalPrompt(_)), "unsaved work is offered back");
    press(&mut app, "r");
    assert_eq!(region(&app, "li.reaction"), (Status::Accepted, Action::Remove), "named again from the journal");
    press(&mut app, "u");
    assert!(app.session().unwrap().draft.region("li.reaction").is_none());
    drop(app);
    let mut app = fx.app_with(settings, 140, 40);
    if matches!(app.mode, Mode::JournalPrompt(_)) {
        press(&mut app, "r");
    }
    assert!(app.session().unwrap().draft.region("li.reaction").is_none(), "the undone naming stays undone");
}

#[test]
fn the_region_naming_snapshot() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    line_cursor_on(&mut app, "com1x");
    press(&mut app, "B");
    insta::assert_snapshot!(screen(&app));
}
