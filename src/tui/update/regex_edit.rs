//! Editing a candidate's regex in place: the way a line that differs on every page ("Photo: A.
//! Writer/Reuters") becomes a rule. Enter has the regex checked in the background (compiled and counted
//! over the documents: a pasted regex of thousands of characters must not stall a frame); the regex crate's
//! error comes back on screen with the editor open, or the candidate is accepted with it and the editor
//! says on how many documents it matches.

use tui_input::Input;

use crate::rules::Status;
use crate::tui::action::Action;
use crate::tui::regex_check::{CheckRequest, Checked};
use crate::tui::state::{App, Mode, RegexEdit, Screen};

/// Opens the editor on the selected candidate's regex.
pub(super) fn open(app: &mut App) {
    let Some(s) = app.session() else { return };
    let Some(i) = s.list.current() else {
        app.info("no candidate selected");
        return;
    };
    let regex = s.current_rule(i).regex;
    app.mode = Mode::EditRegex(RegexEdit { string: i, input: Input::new(regex), error: None, checking: None });
}

pub(super) fn update(app: &mut App, action: Action) {
    let Mode::EditRegex(edit) = &mut app.mode else { return };
    match action {
        Action::Close => {
            app.checker.cancel();
            app.mode = Mode::Normal;
        }
        Action::Submit => {
            let (i, regex) = (edit.string, edit.input.value().to_string());
            let Screen::Tune(s) = &app.screen else { return };
            let mut rule = s.current_rule(i);
            rule.regex = regex;
            rule.status = Status::Accepted;
            let request = CheckRequest {
                rule,
                tokenizer: s.mining.tokenizer,
                patterns: s.patterns.clone(),
                corpus: s.corpus.clone(),
            };
            let generation = app.checker.request(request);
            if let Mode::EditRegex(edit) = &mut app.mode {
                edit.checking = Some(generation);
                edit.error = None;
            }
        }
        _ => {}
    }
}

/// A regex check came back. Returns whether the state changed.
pub fn on_regex_checked(app: &mut App, checked: Checked) -> bool {
    let Mode::EditRegex(edit) = &mut app.mode else { return false };
    if edit.checking != Some(checked.generation) || !app.checker.is_latest(checked.generation) {
        return false;
    }
    edit.checking = None;
    match checked.result {
        Ok((rule, documents)) => {
            let Screen::Tune(s) = &mut app.screen else { return true };
            s.set_regex(rule);
            let total = s.corpus.docs.len();
            app.mode = Mode::Normal;
            app.info(format!("regex set and accepted: it matches {documents} of {total} documents (u undoes it)"));
            // the check came back outside a key's update: what the rule does over the source is asked here,
            // and the status line adds it as it does to every decision
            super::impact::after_change(app, true);
        }
        Err(e) => edit.error = Some(e),
    }
    app.relayout();
    true
}
