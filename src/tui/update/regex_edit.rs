//! Editing a candidate's regex in place: the way a line that differs on every page ("Photo: A.
//! Writer/Reuters") becomes a rule. Enter checks the regex (the regex crate's error stays on screen and the
//! editor open), says on how many documents it matches, and accepts the candidate with it.

use tui_input::Input;

use crate::tui::action::Action;
use crate::tui::state::{App, Mode, RegexEdit, Screen};

/// Opens the editor on the selected candidate's regex.
pub(super) fn open(app: &mut App) {
    let Some(s) = app.session() else { return };
    let Some(i) = s.list.current() else {
        app.info("no candidate selected");
        return;
    };
    let regex = s.current_rule(i).regex;
    app.mode = Mode::EditRegex(RegexEdit { string: i, input: Input::new(regex), error: None });
}

pub(super) fn update(app: &mut App, action: Action) {
    let Mode::EditRegex(edit) = &mut app.mode else { return };
    match action {
        Action::Close => app.mode = Mode::Normal,
        Action::Submit => {
            let (i, regex) = (edit.string, edit.input.value().to_string());
            let Screen::Tune(s) = &mut app.screen else { return };
            match s.set_regex(i, &regex) {
                Ok(documents) => {
                    let total = s.corpus.docs.len();
                    app.mode = Mode::Normal;
                    app.info(format!(
                        "regex set and accepted: it matches {documents} of {total} documents (u undoes it)"
                    ));
                }
                Err(e) => {
                    if let Mode::EditRegex(edit) = &mut app.mode {
                        edit.error = Some(e);
                    }
                }
            }
        }
        _ => {}
    }
}
