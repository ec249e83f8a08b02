//! `update`: the one place where actions change the state, one file per part of the screen. Background
//! results (the miner, the file watcher) come in through [`on_miner`] and [`on_change`]. Nothing here
//! draws.

mod background;
mod explain;
mod impact;
mod mouse;
mod picker;
mod popups;
mod prompts;
mod regex_edit;
mod regions;
mod tune;
mod what_if;

pub use background::{on_change, on_miner};
pub use impact::{JUMPS, on_impact};

/// A source opened: the impact worker cleans its pages with its rules now, so the first decision's impact
/// takes only what it changes.
pub fn source_opened(app: &mut App) {
    impact::after_change(app, false);
}
pub use regex_edit::on_regex_checked;

thread_local! {
    /// How many times a pattern being edited was checked on this thread: tests bound an edit's work by it.
    static VALIDATIONS: Cell<usize> = const { Cell::new(0) };
}

/// How many times a pattern being edited has been checked on this thread.
pub fn validations() -> usize {
    VALIDATIONS.with(Cell::get)
}

/// Checks the pattern being edited (it compiles every pattern: not a cost to pay per pasted character).
/// Returns the edited list when it is valid and differs from `patterns`: the edit to weigh.
fn validate(
    edit: &mut super::state::PatternEdit,
    patterns: &[crate::mutable::MutablePattern],
) -> Option<Vec<crate::mutable::MutablePattern>> {
    VALIDATIONS.with(|v| v.set(v.get() + 1));
    match popups::validate(edit, patterns) {
        Ok(list) => {
            edit.error = None;
            (list != patterns).then_some(list)
        }
        Err(e) => {
            edit.error = Some(e);
            None
        }
    }
}
pub use tune::occurrences;

use std::cell::Cell;

use ratatui::crossterm::event::Event;
use ratatui::layout::Rect;
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

use crate::rules::{Action as RuleAction, Status};

use super::action::Action;
use super::state::{App, Field, Mode, Screen};

pub fn update(app: &mut App, action: Action) {
    // a message about a state this action changes is stale: it goes, unless the action says something
    let (message, revision) = (app.message.take(), app.session().map(|s| s.revision));
    let mode = std::mem::discriminant(&app.mode);
    match action {
        _ if app.mode.is_prompt() && super::view::prompt::scrolls(action) => scroll_prompt(app, action),
        Action::Resize { width, height } => app.size = Rect::new(0, 0, width, height),
        Action::Click { .. } | Action::Drag { .. } | Action::ScrollUp { .. } | Action::ScrollDown { .. } => {
            mouse::mouse(app, action)
        }
        _ => match &app.mode {
            Mode::Normal => match &app.screen {
                Screen::Picker(_) => picker::picker(app, action),
                Screen::Tune(_) => tune::tune(app, action),
            },
            Mode::Help { .. } => popups::help(app, action),
            Mode::Detail(_) => popups::detail(app, action),
            Mode::Explain(_) => explain::explain(app, action),
            Mode::Stages { .. } => what_if::stages(app, action),
            Mode::CutoffPrompt(_) => what_if::cutoff_prompt(app, action),
            Mode::Regions(_) => regions::update(app, action),
            Mode::Filter(_) if matches!(app.screen, Screen::Picker(_)) => picker::filter_input(app, action),
            Mode::Filter(_) | Mode::GotoDoc(_) => popups::input(app, action),
            Mode::Search(_) => tune::search_input(app, action),
            Mode::EditPattern(_) => popups::pattern_edit(app, action),
            Mode::QuitPrompt => prompts::quit_prompt(app, action),
            Mode::ResetPrompt => prompts::reset_prompt(app, action),
            Mode::ExportPrompt(_) => prompts::export_prompt(app, action),
            Mode::MarkPrompt(_) => explain::mark_prompt(app, action),
            Mode::ActionPrompt(_) => impact::action_prompt(app, action),
            Mode::EditRegex(_) => regex_edit::update(app, action),
            Mode::ConflictPrompt => prompts::conflict_prompt(app, action),
            Mode::JournalPrompt(_) => prompts::journal_prompt(app, action),
        },
    }
    if std::mem::discriminant(&app.mode) != mode {
        // another dialog (or none): it shows from its top
        app.dialog_scroll = 0;
    }
    let changed = app.session().map(|s| s.revision) != revision;
    if changed {
        // the rules may have changed: what it did over the whole source is measured, and said when known
        impact::after_change(app, true);
    }
    if app.message.is_none() && !changed {
        app.message = message;
    }
    if matches!(app.mode, Mode::Normal)
        && let Some(s) = app.session_mut()
        && s.pending_conflict
    {
        // judged again now: the file may be back as it was, or the work saved meanwhile
        s.pending_conflict = false;
        background::rules_changed(app);
    }
    app.relayout();
}

/// Scrolls the open prompt's body, within what the screen leaves of it.
fn scroll_prompt(app: &mut App, action: Action) {
    let max = super::view::prompt::max_scroll(app, app.size);
    let page = (app.size.height as usize / 2).max(1);
    let at = app.dialog_scroll.min(max);
    app.dialog_scroll = match action {
        Action::Up => at.saturating_sub(1),
        Action::Down => at + 1,
        Action::PageUp => at.saturating_sub(page),
        _ => at + page,
    }
    .min(max);
}

/// Keys no binding claims: they edit the text input of the current mode, if any.
pub fn edit_text(app: &mut App, event: &Event) {
    if picker::edit_filter(app, Some(event), None) {
        return;
    }
    let Screen::Tune(s) = &mut app.screen else { return };
    match &mut app.mode {
        Mode::Filter(input) => {
            let changed = input.handle_event(event).is_some();
            if changed {
                s.list.filter = input.value().to_string();
                s.list.selected = 0;
                s.list.offset = 0;
                s.refresh_list();
            }
        }
        Mode::GotoDoc(input) | Mode::Search(input) => {
            input.handle_event(event);
        }
        Mode::EditRegex(edit) => {
            // an edit clears the error of the regex refused before it
            let edited = edit.input.handle_event(event).is_some();
            edit.error = edit.error.take().filter(|_| !edited);
        }
        Mode::EditPattern(edit) => {
            let field = match edit.field {
                Field::Name => &mut edit.name,
                Field::Regex => &mut edit.regex,
            };
            if field.handle_event(event).is_some() {
                let edited = validate(edit, &s.patterns);
                what_if::weigh_patterns(app, edited);
            }
        }
        _ => {}
    }
}

/// `text` typed at `input`'s cursor in one edit.
fn insert(input: &mut Input, text: &str) {
    let value = input.value();
    let cursor = input.cursor();
    let at = value.char_indices().nth(cursor).map_or(value.len(), |(i, _)| i);
    let mut joined = String::with_capacity(value.len() + text.len());
    joined.push_str(&value[..at]);
    joined.push_str(text);
    joined.push_str(&value[at..]);
    *input = Input::new(joined).with_cursor(cursor + text.chars().count());
}

/// A paste (the terminal's bracketed paste): one edit of the current text input, checked and applied
/// once, not once per character. The inputs are one line: line breaks become spaces.
pub fn paste(app: &mut App, text: &str) {
    let text: String = text.chars().map(|c| if c == '\n' || c == '\r' { ' ' } else { c }).collect();
    if picker::edit_filter(app, None, Some(&text)) {
        return app.relayout();
    }
    let Screen::Tune(s) = &mut app.screen else { return };
    match &mut app.mode {
        Mode::Filter(input) => {
            insert(input, &text);
            s.list.filter = input.value().to_string();
            s.list.selected = 0;
            s.list.offset = 0;
            s.refresh_list();
        }
        Mode::GotoDoc(input) | Mode::Search(input) => insert(input, &text),
        Mode::EditRegex(edit) => {
            insert(&mut edit.input, &text);
            edit.error = None;
        }
        Mode::EditPattern(edit) => {
            let field = match edit.field {
                Field::Name => &mut edit.name,
                Field::Regex => &mut edit.regex,
            };
            insert(field, &text);
            let edited = validate(edit, &s.patterns);
            what_if::weigh_patterns(app, edited);
        }
        _ => {}
    }
    app.relayout();
}

/// `w`; `confirmed`: pressed again right after a warning that asked.
pub(super) fn save(app: &mut App, confirmed: bool) {
    let Some(s) = app.session_mut() else { return };
    if let Some(note) = s.foreign_note().filter(|_| !s.foreign_confirmed) {
        if !confirmed {
            s.armed = Some(Action::Save);
            return app.error(format!("not saved: {note}; w again saves"));
        }
        s.foreign_confirmed = true;
    }
    let counts = (s.count(Status::Accepted), s.count(Status::Rejected), s.count(Status::Pending));
    match s.save() {
        Ok((_, Some(merged))) => {
            s.mark_saved();
            // another writer saved meanwhile: say what was taken from it, not a plain "saved"
            app.info(merged)
        }
        Ok((path, None)) => {
            s.mark_saved();
            app.info(format!(
                "saved {} ({} accepted, {} rejected, {} pending)",
                path.display(),
                counts.0,
                counts.1,
                counts.2
            ))
        }
        Err(e) => app.error(format!("save failed: {e}")),
    }
}

pub(super) fn next_rule_action(a: RuleAction) -> RuleAction {
    a.next()
}
