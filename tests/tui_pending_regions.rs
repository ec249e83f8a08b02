//! Pending region rules in the tuning UI's preview, on the real application state: before a decision a
//! region rule's lines are marked pending (named by the rule), accepted they are removed, rejected they
//! are unmarked; with pending shown, the cleaned text is what `chaff clean --include-pending` writes.

mod tui_support;

use std::path::PathBuf;

use chaff::cleaning::Cleaner;
use chaff::cleaning::SpanKind;
use chaff::page::Page;
use chaff::rules::{Action, RulesFile, Status};
use chaff::tui::App;
use chaff::tui::document::{Mark, PreviewSpan};
use chaff::tui::session::Pane;
use chaff::tui::state::{ExplainItem, Mode};
use tui_support::{Fixture, press, settle};

/// The file of the page the corpus names `id`.
fn page(fx: &Fixture, id: &str) -> PathBuf {
    let path = fx.corpus().join(id);
    if path.exists() { path } else { fx.corpus().join(format!("{id}.html")) }
}

const COMMENTS: &str = "div#reactions";
const RULE: &str = "region:div#reactions";

/// Opens the region list on `element` (the preview then selects the rule's lines on the shown page).
fn select(app: &mut App, element: &str) {
    press(app, "G");
    for _ in 0..app.session().unwrap().draft.regions().len() {
        let Mode::Regions(list) = &app.mode else { panic!("the region list is open") };
        if app.session().unwrap().draft.regions()[list.selected].element == element {
            return;
        }
        press(app, "j");
    }
    panic!("{element} is listed");
}

/// The comment thread's lines on the shown page, as the region list selects them.
fn comment_lines(app: &mut App) -> (usize, usize) {
    select(app, COMMENTS);
    let (start, end) = app.session().unwrap().preview.selection.expect("the rule's lines are selected");
    press(app, "Esc");
    let s = app.session().unwrap();
    assert!(s.document_text()[start..end].contains("com0x"), "the thread: {}", &s.document_text()[start..end]);
    (start, end)
}

/// The preview's spans that meet `range`.
fn spans_over(app: &App, (start, end): (usize, usize)) -> Vec<PreviewSpan> {
    let s = app.session().unwrap();
    s.preview.spans.iter().filter(|p| p.start < end && start < p.end).cloned().collect()
}

/// Whether the preview's spans are sorted and disjoint, as drawing and `]`/`[` read them.
fn disjoint(app: &App) -> bool {
    app.session().unwrap().preview.spans.windows(2).all(|w| w[0].end <= w[1].start)
}

/// Whether every word of `range` lies in a span of `spans` that `ok` accepts.
fn covered(text: &str, (start, end): (usize, usize), spans: &[PreviewSpan], ok: impl Fn(&PreviewSpan) -> bool) -> bool {
    let words = text[start..end].split_whitespace().map(|w| w.as_ptr() as usize - text.as_ptr() as usize);
    words.into_iter().all(|at| spans.iter().any(|p| p.start <= at && at < p.end && ok(p)))
}

#[test]
fn a_pending_region_rules_lines_show_pending_then_accepted_or_unmarked() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    let region = app.session().unwrap().draft.region(COMMENTS).expect("mined").clone();
    assert_eq!(region.status, Status::Pending);
    let lines = comment_lines(&mut app);
    // before a decision: pending, named by the region rule, and counted as pending
    let spans = spans_over(&app, lines);
    let s = app.session().unwrap();
    let text = s.document_text();
    let pending = |p: &PreviewSpan| matches!(p.mark, Mark::Pending(_)) && p.rules.iter().any(|r| r == RULE);
    assert!(covered(text, lines, &spans, pending), "the thread is marked pending by {RULE}: {spans:?}");
    assert!(disjoint(&app), "{:?}", s.preview.spans);
    let region_bytes: usize = spans.iter().filter(|p| pending(p)).map(|p| p.end - p.start).sum();
    assert!(s.preview.pending >= region_bytes && region_bytes > 0, "{} pending bytes", s.preview.pending);
    assert!(s.preview.cleaned.contains("com0x"), "pending is not removed from the text as exported");
    // accepted: removed by the accepted rules
    select(&mut app, COMMENTS);
    press(&mut app, "a Esc");
    settle(&mut app);
    let spans = spans_over(&app, lines);
    let accepted = |p: &PreviewSpan| matches!(p.mark, Mark::Accepted(_)) && p.rules.iter().any(|r| r == RULE);
    let text = app.session().unwrap().document_text();
    assert!(covered(text, lines, &spans, accepted), "accepted: {spans:?}");
    assert!(!spans.iter().any(|p| matches!(p.mark, Mark::Pending(_))), "nothing of it pending: {spans:?}");
    // rejected: unmarked
    select(&mut app, COMMENTS);
    press(&mut app, "r Esc");
    settle(&mut app);
    assert_eq!(app.session().unwrap().draft.region(COMMENTS).unwrap().status, Status::Rejected);
    assert_eq!(spans_over(&app, lines), [], "rejected: the thread is left alone");
}

#[test]
fn with_pending_shown_the_preview_cleans_a_page_as_clean_include_pending_does() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    press(&mut app, "+");
    settle(&mut app);
    assert!(app.session().unwrap().preview.with_pending);
    // saved as it stands: the rules file `chaff clean --include-pending` would read
    press(&mut app, "w");
    let file = RulesFile::load(&fx.rules()).unwrap();
    assert!(file.regions.iter().any(|r| r.element == COMMENTS && r.status == Status::Pending), "{:?}", file.regions);
    let cleaner = Cleaner::new(&file, true).unwrap();
    let docs = app.session().unwrap().draft.corpus.docs.len();
    for doc in [0, docs / 2, docs - 1] {
        app.session_mut().unwrap().show_document(doc);
        settle(&mut app);
        let s = app.session().unwrap();
        let id = &s.draft.corpus.docs[doc].id;
        let raw = std::fs::read_to_string(page(&fx, id)).unwrap();
        let expected = cleaner.clean_page(Page::for_rules(&raw, &file)).text();
        assert!(!expected.contains("com0x"), "the pending region rule removes the thread: {expected}");
        assert_eq!(s.preview.cleaned, expected, "page {id}");
        let string = |p: &PreviewSpan| matches!(p.mark, Mark::Pending(_)) && !p.rules[0].starts_with("region:");
        assert!(s.preview.spans.iter().any(string), "pending strings too: {:?}", s.preview.spans);
    }
}

/// What `chaff clean --include-pending` writes of the shown page, with the rules as saved now.
fn include_pending(fx: &Fixture, app: &mut App) -> String {
    press(app, "w");
    let file = RulesFile::load(&fx.rules()).unwrap();
    let s = app.session().unwrap();
    let raw = std::fs::read_to_string(page(fx, &s.draft.corpus.docs[s.preview.doc].id)).unwrap();
    Cleaner::new(&file, true).unwrap().clean_page(Page::for_rules(&raw, &file)).text()
}

#[test]
fn a_pending_region_rule_that_cuts_shows_its_cut_pending_and_explains_it_as_the_rule() {
    let fx = Fixture::regions();
    let mut app = fx.app(140, 40);
    let lines = comment_lines(&mut app);
    // its action changed, still pending: the page from the thread on would be cut
    select(&mut app, COMMENTS);
    while app.session().unwrap().draft.region(COMMENTS).unwrap().action != Action::CutAfter {
        press(&mut app, "c");
    }
    press(&mut app, "Esc");
    settle(&mut app);
    assert_eq!(app.session().unwrap().draft.region(COMMENTS).unwrap().status, Status::Pending);
    let spans = spans_over(&app, lines);
    let cut = |p: &PreviewSpan| p.mark == Mark::Pending(SpanKind::CutAfter) && p.rules.iter().any(|r| r == RULE);
    let text = app.session().unwrap().document_text();
    assert!(covered(text, lines, &spans, cut), "a pending cut: {spans:?}");
    assert!(disjoint(&app), "{:?}", app.session().unwrap().preview.spans);
    // `]` reaches it and `e` names the region rule with its action
    let n = app.session().unwrap().preview.spans.len();
    for _ in 0..n * 2 + 2 {
        press(&mut app, "]");
        let s = app.session().unwrap();
        if s.preview.cursor.and_then(|c| s.preview.spans.get(c)).is_some_and(cut) {
            break;
        }
    }
    // `o` says where it is decided: it is no candidate of the list
    press(&mut app, "Tab Tab");
    assert_eq!(app.session().unwrap().focus, Pane::Preview);
    press(&mut app, "o");
    let screen = tui_support::screen(&app);
    assert!(screen.contains("region:div#reactions is a region rule: G lists them"), "{screen}");
    assert_eq!(app.session().unwrap().focus, Pane::Preview);
    press(&mut app, "e");
    let Mode::Explain(x) = &app.mode else { panic!("e opens the explain list") };
    assert!(!x.accepted, "a pending span is explained");
    let named = ExplainItem::Rule { id: RULE.to_string(), action: Action::CutAfter };
    assert!(x.items.contains(&named), "{:?}", x.items);
    press(&mut app, "Esc");
    // with pending shown, the cut is made as `chaff clean --include-pending` makes it
    press(&mut app, "+");
    settle(&mut app);
    let expected = include_pending(&fx, &mut app);
    assert!(!expected.contains("com0x") && expected.contains("art0x"), "{expected}");
    assert_eq!(app.session().unwrap().preview.cleaned, expected);
}
