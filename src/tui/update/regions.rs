//! The region rules list (`G`): moving in it, deciding on a region rule with the candidates' keys (a
//! accepts, r rejects, Backspace sets back to pending, c cycles the action), each decision one step of
//! the draft's undo history; the selected rule's impact over the source asked before a decision, and its
//! lines on the previewed page shown as the preview's selection. `B` on the tuning screen opens it naming
//! a rule from the element around the preview's line (`B` again: the element around that one), measured
//! before `a` accepts it. Nothing here draws.

use std::sync::Arc;

use crate::regions::RegionImpact;
use crate::regions::impact::Under;
use crate::rules::Status;

use crate::tui::action::Action;
use crate::tui::impact::{Ask, ImpactRequest, Kind};
use crate::tui::regions::{Naming, RegionList};
use crate::tui::session::Jump;
use crate::tui::state::{App, Mode, Screen};

/// Opens the list on the first region rule, or says why there is none.
pub(super) fn open(app: &mut App) {
    let Screen::Tune(s) = &app.screen else { return };
    if s.draft.regions().is_empty() {
        let why = if s.draft.corpus.paths.is_some() {
            "no region rules: mining found no element on most pages whose text the string rules leave"
        } else {
            "no region rules: they are mined from HTML pages (this source has no page structure)"
        };
        return app.info(why);
    }
    let list = RegionList { selection_before: s.preview.selection, ..RegionList::default() };
    app.mode = Mode::Regions(list);
    select(app, 0);
}

/// `B` on the tuning screen: the list opens naming a region rule from the innermost element (with an id
/// or a class, breaking lines) around the preview's line, its impact measured; nothing is decided yet.
pub(super) fn name(app: &mut App) {
    let Some(s) = app.session() else { return };
    if s.preview.only_cleaned {
        return app.info("v shows the document again: a region is named from a line of the page");
    }
    let Some(paths) = s.draft.corpus.paths.as_deref() else {
        return app.info("a region is named from an HTML page's elements: this source has no page structure");
    };
    let Some((start, _)) = s.preview_lines().get(s.preview.line).copied() else { return };
    let doc = s.preview.doc;
    let id = s.draft.corpus.docs.get(doc).map(|d| d.id.clone()).unwrap_or_default();
    let text = s.document_text();
    let line = text.as_bytes()[..start.min(text.len())].iter().filter(|&&b| b == b'\n').count();
    let elements = paths.structure(doc, &id).map(|st| crate::regions::named_elements(&st, line)).unwrap_or_default();
    if elements.is_empty() {
        return app.info("this line sits in no block with an id or a class: no region to name from it");
    }
    let naming = Naming { elements, at: 0, action: crate::rules::Action::Remove };
    app.mode = Mode::Regions(RegionList {
        selection_before: s.preview.selection,
        naming: Some(naming),
        ..RegionList::default()
    });
    show_naming(app);
}

/// The list's keys while a region is being named: `B` the element around it, `c` its action, `a`
/// accepts it (one step to undo), a move in the list leaves the naming.
fn update_naming(app: &mut App, action: Action, mut naming: Naming) {
    match action {
        Action::NameRegion => naming.at = (naming.at + 1) % naming.elements.len(),
        Action::CycleRuleAction => naming.action = naming.action.next(),
        Action::Accept => return accept_named(app, &naming),
        Action::Close => return close(app),
        Action::Jump(k) => {
            close(app);
            return super::impact::jump(app, k);
        }
        Action::Up | Action::Down | Action::Top | Action::Bottom => {
            if let Mode::Regions(list) = &mut app.mode {
                list.naming = None;
            }
            let selected = match &app.mode {
                Mode::Regions(list) => list.selected,
                _ => 0,
            };
            return select(app, selected);
        }
        _ => return,
    }
    if let Mode::Regions(list) = &mut app.mode {
        list.naming = Some(naming);
    }
    show_naming(app);
}

/// The named region accepted in the draft, with what the list measured of it (the pages it is on, its
/// first line here); the list goes on with it selected.
fn accept_named(app: &mut App, naming: &Naming) {
    let mut rule = naming.rule();
    if let (Mode::Regions(list), Some(s)) = (&app.mode, app.session()) {
        // as mining writes a candidate's: pages it is on, words the rules leave of it on a page (a mean
        // here), words on a page (the one in view), and its first line there
        if let Some(Ok(m)) = &list.measured {
            rule.df = m.pages as u64;
            rule.kept = ((m.removed_inside + m.removed_outside) / m.pages.max(1)) as u64;
        }
        rule.words = list.on_page_words as u64;
        if let Some(&(a, b)) = list.on_page.first() {
            rule.example = crate::regions::shorten(s.document_text()[a..b].lines().next().unwrap_or_default(), 120);
        }
    }
    let measured = match &app.mode {
        Mode::Regions(list) => match &list.measured {
            Some(Ok(m)) => format!(" · {}", crate::tui::view::regions::summary(m, rule.action, s_pages(app))),
            _ => String::new(),
        },
        _ => String::new(),
    };
    let Screen::Tune(s) = &mut app.screen else { return };
    match s.name_region(rule.clone()) {
        Ok(_) => {
            s.impact_file = Some(s.draft.snapshot());
            let at = s.draft.regions().iter().position(|r| r.element == rule.element).unwrap_or(0);
            if let Mode::Regions(list) = &mut app.mode {
                list.naming = None;
            }
            app.info(format!(
                "region {} named and accepted · {}{measured} (u undoes it; w saves it)",
                rule.element,
                crate::tui::view::candidates::action_name(rule.action)
            ));
            select(app, at);
        }
        Err(e) => app.error(e),
    }
}

pub(super) fn update(app: &mut App, action: Action) {
    let Mode::Regions(list) = &app.mode else { return };
    if let Some(naming) = list.naming.clone() {
        return update_naming(app, action, naming);
    }
    let selected = list.selected;
    let Some(s) = app.session() else { return };
    let n = s.draft.regions().len();
    let Some(rule) = s.draft.regions().get(selected).cloned() else { return close(app) };
    let decision = match action {
        Action::Close => return close(app),
        Action::Up => return select(app, selected.saturating_sub(1)),
        Action::Down => return select(app, (selected + 1).min(n.saturating_sub(1))),
        Action::Top => return select(app, 0),
        Action::Bottom => return select(app, n.saturating_sub(1)),
        Action::Jump(k) => {
            close(app);
            return super::impact::jump(app, k);
        }
        Action::Undo | Action::Redo => return undo_redo(app, action == Action::Undo, selected),
        Action::Accept => (Some(Status::Accepted), None),
        Action::Reject => (Some(Status::Rejected), None),
        Action::Unmark => (Some(Status::Pending), None),
        Action::CycleRuleAction => (None, Some(rule.action.next())),
        Action::NameRegion => {
            return app.info("B names a region from the preview's line: Esc, put the line cursor on it, B");
        }
        _ => return,
    };
    let Screen::Tune(s) = &mut app.screen else { return };
    let change = s.decide_region(&rule.element, decision.0, decision.1);
    if change.is_empty() {
        return;
    }
    // the impact worker cleans the pages' text without their structure, where a region rule changes
    // nothing: the status line says what the list measured, not "no document changes"
    s.impact_file = Some(s.draft.snapshot());
    let now = s.draft.region(&rule.element).cloned().unwrap_or(rule);
    let state = format!("{:?}", now.status).to_lowercase();
    let measured = match &app.mode {
        Mode::Regions(list) if now.status == Status::Accepted && decision.1.is_none() => match &list.measured {
            Some(Ok(m)) => format!(" · {}", crate::tui::view::regions::summary(m, now.action, s_pages(app))),
            _ => String::new(),
        },
        _ => String::new(),
    };
    app.info(format!(
        "region {} {state} · {}{measured} (u undoes it; w saves it)",
        now.element,
        crate::tui::view::candidates::action_name(now.action)
    ));
    // the action changed what it would do: measured again
    select(app, selected);
}

/// `u` / `C-r` in the list: the draft's last step taken back or again, as on the tuning screen.
fn undo_redo(app: &mut App, undo: bool, selected: usize) {
    super::prompts::undo(app, !undo);
    let Screen::Tune(s) = &mut app.screen else { return };
    let step = if undo { s.draft.history.undone() } else { s.draft.history.last() };
    if matches!(step, Some(crate::draft::history::Step::Region { .. })) {
        // as after a decision here: the worker's "no document changes" would not be what happened
        s.impact_file = Some(s.draft.snapshot());
    }
    select(app, selected);
}

/// Selects region rule `i`: its lines on the previewed page become the preview's selection (the cursor
/// on the first), and its impact over the source is asked for.
fn select(app: &mut App, i: usize) {
    let Some(rule) = app.session().and_then(|s| s.draft.regions().get(i).cloned()) else { return };
    show(app, rule);
    if let Mode::Regions(list) = &mut app.mode {
        list.selected = i;
    }
}

/// Shows the region being named as [`select`] shows a rule of the list.
fn show_naming(app: &mut App) {
    let Mode::Regions(RegionList { naming: Some(naming), .. }) = &app.mode else { return };
    let rule = naming.rule();
    show(app, rule);
}

/// `rule`'s lines on the previewed page as the preview's selection, and its impact over the source asked.
fn show(app: &mut App, rule: crate::rules::region::RegionRule) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let on_page = match s.draft.corpus.paths.as_deref() {
        Some(paths) => {
            let doc = s.preview.doc;
            let id = s.draft.corpus.docs.get(doc).map(|d| d.id.clone()).unwrap_or_default();
            Under::new(paths, &rule.element).ranges(s.document_text(), doc, &id)
        }
        None => Vec::new(),
    };
    let text = s.document_text();
    let words = on_page.iter().map(|&(a, b)| text[a..b].split_whitespace().count()).sum();
    match on_page.first() {
        Some(&(start, end)) => {
            s.preview.only_cleaned = false;
            s.preview.selection = Some((start, end));
            let lines = s.preview_lines();
            let line = lines.partition_point(|&(_, e)| e < start);
            super::tune::cursor_to_line(s, line);
        }
        None => s.preview.selection = None,
    }
    let current = s.draft.snapshot();
    let request = ImpactRequest {
        corpus: Arc::clone(&s.draft.corpus),
        include_pending: s.preview.with_pending,
        ask: Ask::Region {
            rules: current,
            rule: crate::rules::region::RegionRule { status: Status::Accepted, ..rule },
        },
    };
    let asked = app.impact.request(request);
    if let Mode::Regions(list) = &mut app.mode {
        list.asked = asked;
        list.measured = None;
        list.on_page = on_page;
        list.on_page_words = words;
    }
}

fn close(app: &mut App) {
    let before = match &app.mode {
        Mode::Regions(list) => list.selection_before,
        _ => None,
    };
    app.mode = Mode::Normal;
    app.impact.cancel(Kind::Options);
    if let Some(s) = app.session_mut() {
        s.preview.selection = before;
    }
}

/// The impact worker's answer for the list: shown when it is for the rule selected now (a later request
/// wins); the pages it changes most become the digits' jumps.
pub(super) fn on_measured(app: &mut App, generation: u64, measured: Result<RegionImpact, String>) -> bool {
    let Mode::Regions(list) = &mut app.mode else { return false };
    if list.asked != generation {
        return false;
    }
    let jumps: Vec<Jump> = match &measured {
        Ok(m) => m.most_changed.iter().take(super::JUMPS).map(|&(doc, at, _)| Jump { doc, at }).collect(),
        Err(_) => Vec::new(),
    };
    list.measured = Some(measured);
    if let Some(s) = app.session_mut() {
        s.jumps = jumps;
    }
    true
}

fn s_pages(app: &App) -> usize {
    app.session().map_or(0, |s| s.draft.corpus.docs.len())
}
