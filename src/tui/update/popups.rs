//! Actions inside popups and inputs: help, candidate detail, the filter and go-to inputs, the pattern
//! editor (whose regex is checked on every key, and applied only when valid).

use crate::mutable::{MutablePattern, MutableSet};
use crate::rules::Status;

use crate::tui::action::Action;
use crate::tui::state::{App, Field, Mode, PatternEdit, Screen};
use crate::tui::view;

pub(super) fn help(app: &mut App, action: Action) {
    let Mode::Help { scroll } = &mut app.mode else { return };
    let (lines, page) = view::help::line_count(app.size);
    let max = lines.saturating_sub(page.max(1));
    let page = page as isize;
    let delta = match action {
        Action::Close => {
            app.mode = Mode::Normal;
            return;
        }
        Action::Up => -1,
        Action::Down => 1,
        Action::PageUp => -page,
        Action::PageDown => page,
        _ => 0,
    };
    *scroll = ((*scroll as isize + delta).max(0) as usize).min(max);
}

pub(super) fn detail(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let Mode::Detail(d) = &mut app.mode else { return };
    let i = d.string;
    match action {
        Action::Close => super::impact::close_dialog(app),
        Action::Up | Action::Down | Action::PageUp | Action::PageDown => {
            // within what the screen leaves of it: a key back up always moves it
            let max = view::detail::max_scroll(s, d, app.size);
            let at = d.scroll.min(max);
            d.scroll = match action {
                Action::Up => at.saturating_sub(1),
                Action::Down => at + 1,
                Action::PageUp => at.saturating_sub(10),
                _ => at + 10,
            }
            .min(max);
        }
        Action::Accept | Action::Reject | Action::Unmark | Action::CycleRuleAction => {
            let (status, rule_action) = match action {
                Action::Accept => (Some(Status::Accepted), None),
                Action::Reject => (Some(Status::Rejected), None),
                Action::Unmark => (Some(Status::Pending), None),
                _ => (None, Some(super::next_rule_action(s.rule_action(i)))),
            };
            let text = super::tune::short(s.text(i));
            let word = match action {
                Action::Accept => Some("accepted"),
                Action::Reject => Some("rejected"),
                Action::Unmark => Some("back to pending:"),
                _ => None,
            };
            // said as the list says it: the status line adds its impact, and undo names the same rule
            if s.decide(&[i], status, rule_action) > 0
                && let Some(word) = word
            {
                app.info(format!("{word} `{text}`"));
            }
            // the choices are of the decision before: measured again from this one
            super::impact::refresh_detail(app);
        }
        Action::Jump(n) => {
            super::impact::close_dialog(app);
            super::impact::jump(app, n);
        }
        _ => {}
    }
}

pub(super) fn input(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    match (&app.mode, action) {
        (Mode::Filter(_), Action::Submit) => app.mode = Mode::Normal,
        (Mode::Filter(_), Action::Close) => {
            s.list.filter.clear();
            s.refresh_list();
            app.mode = Mode::Normal;
        }
        (Mode::GotoDoc(input), Action::Submit) => {
            let wanted = input.value().trim().to_string();
            let docs = &s.corpus.docs;
            let found = docs
                .iter()
                .position(|d| d.id == wanted)
                .or_else(|| wanted.parse::<usize>().ok().filter(|&n| n >= 1 && n <= docs.len()).map(|n| n - 1))
                .or_else(|| docs.iter().position(|d| d.id.contains(&wanted)));
            app.mode = Mode::Normal;
            let n = s.corpus.docs.len();
            match found {
                Some(d) => s.show_document(d),
                None => app.error(format!("no document `{wanted}` (give its id, or its number 1–{n})")),
            }
        }
        (Mode::GotoDoc(_), Action::Close) => app.mode = Mode::Normal,
        _ => {}
    }
}

/// The pattern list with the edit applied, or the error that keeps it from being applied.
pub(super) fn validate(edit: &PatternEdit, patterns: &[MutablePattern]) -> Result<Vec<MutablePattern>, String> {
    let p = MutablePattern::new(edit.name.value().trim(), edit.regex.value());
    if p.regex.is_empty() {
        return Err(format!("mutable pattern `{}`: a pattern needs a regex", p.name));
    }
    p.validate().map_err(|e| e.to_string())?;
    let mut list = patterns.to_vec();
    match edit.index {
        Some(i) if i < list.len() => list[i] = p,
        _ => list.push(p),
    }
    MutableSet::new(list.clone()).map_err(|e| e.to_string())?;
    Ok(list)
}

pub(super) fn pattern_edit(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let Mode::EditPattern(edit) = &mut app.mode else { return };
    match action {
        Action::Close => app.mode = Mode::Normal,
        Action::SwitchField => {
            edit.field = if edit.field == Field::Name { Field::Regex } else { Field::Name };
        }
        Action::Submit => match validate(edit, &s.patterns) {
            Err(e) => {
                // not applied, nothing mined: the error stays inline until fixed
                edit.error = Some(e);
            }
            Ok(list) if list == s.patterns => app.mode = Mode::Normal,
            Ok(list) => {
                let name = edit.name.value().trim().to_string();
                if let Some(i) = edit.index {
                    s.pattern_selected = i;
                } else {
                    s.pattern_selected = list.len() - 1;
                }
                s.set_patterns(list);
                app.mode = Mode::Normal;
                app.remine(&format!("pattern `{name}` changed"), false);
                app.info(format!("pattern `{name}` applied: re-mining in the background"));
            }
        },
        _ => {}
    }
}
