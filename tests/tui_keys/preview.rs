//! Key sequences in the preview: the cleaned view, marking a line or a selection as template, keeping a
//! span, and what the preview shows being what `chaff clean` of the export writes.

use chaff::rules::{RulesFile, Status};
use chaff::tui::state::Mode;

use crate::tui_support::{Fixture, press, screen};

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
