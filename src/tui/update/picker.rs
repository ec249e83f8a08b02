//! The sources table: moving, sorting, filtering, the review queue, opening a source (mined in the
//! background first), and coming back to the table from it.

use std::time::SystemTime;

use ratatui::crossterm::event::Event;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

use crate::review::Review;
use crate::tui::action::Action;
use crate::tui::miner::{MineRequest, Prepare};
use crate::tui::ready::CleanSettings;
use crate::tui::session::Session;
use crate::tui::source::Idioms;
use crate::tui::state::{App, Mode, Opening, Screen};
use crate::tui::view::picker::list_area;
use crate::tui::workspace::{Picker, page};

pub(super) fn picker(app: &mut App, action: Action) {
    let page = page(list_area(app.size));
    let Screen::Picker(p) = &mut app.screen else { return };
    match action {
        Action::Quit => app.quit = true,
        Action::Help => app.mode = Mode::Help { scroll: 0 },
        Action::Up => p.step(-1, page),
        Action::Down => p.step(1, page),
        Action::PageUp => p.step(-(page as isize), page),
        Action::PageDown => p.step(page as isize, page),
        Action::Top => p.step(isize::MIN / 2, page),
        Action::Bottom => p.step(isize::MAX / 2, page),
        Action::CycleSort => {
            p.sort = p.sort.next();
            p.refresh();
            p.scroll_into_view(page);
            let text = format!("sorted by {}", p.sort.label());
            app.info(text);
        }
        Action::Filter => app.mode = Mode::Filter(Input::new(p.filter.clone())),
        Action::OpenSource => open_selected(app),
        Action::NextToReview => next_to_review(app),
        _ => {}
    }
}

/// "3 sources left to review", of the sources shown.
fn left(p: &Picker) -> String {
    match p.left_to_review() {
        0 => "no source left to review".to_string(),
        1 => "1 source left to review".to_string(),
        n => format!("{n} sources left to review"),
    }
}

/// `n`: the next source after the cursor that is unreviewed or drifted, opened.
fn next_to_review(app: &mut App) {
    let page = page(list_area(app.size));
    let Screen::Picker(p) = &mut app.screen else { return };
    if p.opening.is_some() {
        return;
    }
    let Some(at) = p.next_to_review() else {
        let text = if p.filter.is_empty() {
            "every source is reviewed and none drifted: the queue is empty".to_string()
        } else {
            "every source shown is reviewed and none drifted (Esc in the filter shows them all)".to_string()
        };
        return app.info(text);
    };
    p.selected = at;
    p.scroll_into_view(page);
    let left = left(p);
    open_selected(app);
    if let Some(m) = app.message.as_mut().filter(|m| !m.error) {
        m.text = format!("{}; {left}", m.text);
    }
}

/// The filter's input: Enter keeps the filter, Esc drops it.
pub(super) fn filter_input(app: &mut App, action: Action) {
    let page = page(list_area(app.size));
    let Screen::Picker(p) = &mut app.screen else { return };
    match action {
        Action::Submit => app.mode = Mode::Normal,
        Action::Close => {
            p.filter.clear();
            p.refresh();
            p.scroll_into_view(page);
            app.mode = Mode::Normal;
        }
        _ => return,
    }
    let text = format!("{} of {} sources shown; {}", p.shown.len(), p.rows.len(), left(p));
    app.info(text);
}

/// A key typed into the table's filter (or `text`, a paste). Returns whether the table took it.
pub(super) fn edit_filter(app: &mut App, event: Option<&Event>, text: Option<&str>) -> bool {
    let page = page(list_area(app.size));
    let (Screen::Picker(p), Mode::Filter(input)) = (&mut app.screen, &mut app.mode) else { return false };
    let changed = match (event, text) {
        (Some(e), _) => input.handle_event(e).is_some(),
        (None, Some(t)) => {
            super::insert(input, t);
            true
        }
        _ => false,
    };
    if changed {
        p.filter = input.value().to_string();
        p.offset = 0;
        p.refresh();
        p.scroll_into_view(page);
    }
    true
}

pub(super) fn open_selected(app: &mut App) {
    let Screen::Picker(p) = &mut app.screen else { return };
    if p.opening.is_some() {
        return;
    }
    let Some(i) = p.selected_row() else { return };
    let index = p.idioms_for(i);
    let rules_dir = &app.rules_dir;
    let idioms = |own: &std::path::Path, previous: Option<&crate::rules::RulesFile>| match index {
        Some(others) => Idioms::from_counts(previous, others),
        None => Idioms::load(rules_dir, own, previous),
    };
    match crate::tui::workspace::open_row(&p.rows[i], app.rules_override.as_deref(), rules_dir, app.preset, idioms) {
        Ok(opened) => {
            let settings = opened.previous.as_ref().map_or(CleanSettings::default(), |p| p.clean_settings());
            let request = MineRequest {
                corpus: std::sync::Arc::new(opened.corpus.clone()),
                config: opened.config.clone(),
                reload: None,
                prepare: Prepare { idioms: opened.idioms.clone(), settings, previous: None },
            };
            let generation = app.miner.request(request);
            let name = opened.spec.name.clone();
            p.opening =
                Some(Opening { generation, stage: None, started: std::time::Instant::now(), opened: Box::new(opened) });
            app.info(format!("mining {name}…"));
        }
        Err(e) => app.error(format!("{e:#}")),
    }
}

/// The source mined for the table opens; the table waits behind it for `q`.
pub(super) fn opened(app: &mut App, session: Session) {
    let table = std::mem::replace(&mut app.screen, Screen::Tune(Box::new(session)));
    if let Screen::Picker(p) = table {
        app.workspace = Some(p);
    }
    app.after_open();
}

/// `q` in a source (after its unsaved work is saved or discarded): back to the sources table it was
/// opened from, its row read again; without one, quits.
pub(super) fn leave_source(app: &mut App) {
    app.mode = Mode::Normal;
    let Some(mut table) = app.workspace.take() else {
        app.quit = true;
        return;
    };
    let name = app.session().map(|s| s.spec.name.clone()).unwrap_or_default();
    table.rescan(&name);
    let left = left(&table);
    app.screen = Screen::Picker(table);
    app.info(format!("back from {name}; {left} (n opens the next)"));
}

/// `D` in a source: marks it reviewed, as its rules stand, and saves them with the review.
pub(super) fn mark_reviewed(app: &mut App) {
    let Some(s) = app.session_mut() else { return };
    let before = s.header.review.clone();
    let drift = s.drift.as_ref().map(|d| d.drift);
    s.header.review = Some(Review::of(&s.rules_file(), SystemTime::now(), drift));
    super::save(app, false);
    let failed = app.message.as_ref().is_some_and(|m| m.error);
    let Some(s) = app.session_mut() else { return };
    if s.dirty || failed {
        // not saved: the review waits for a save that works, and says nothing until then
        s.header.review = before;
        return;
    }
    let name = s.spec.name.clone();
    let summary = crate::tui::workspace::scan::Summary {
        verified: Some(s.draft.verified.pages.len()),
        ..crate::tui::workspace::scan::Summary::of(&s.rules_file())
    };
    let left = match app.workspace.as_mut() {
        Some(table) => {
            if let Some(row) = table.rows.iter_mut().find(|r| r.name == name) {
                row.rules = Some(crate::tui::workspace::scan::RulesInfo::Rules(summary));
            }
            format!("; {} (q back to the table, n there opens the next)", left(table))
        }
        None => String::new(),
    };
    app.info(format!("{name} marked reviewed, its rules saved{left}"));
}
