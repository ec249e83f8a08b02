//! What an editor action would do, before she takes it: a cutoff weighed (`C`: moved with ←/→, measured
//! as it moves, taken with Enter) and the stage highlighted in the stages list (measured as the selection
//! moves, turned on or off with Enter), and a mutable pattern as it is edited (the rules as they stand,
//! matched with the edited pattern, once the edit is valid; Enter applies it and re-mines). The draft
//! says what the rules would be ([`Draft::if_taken`]), the impact worker measures them off the UI thread,
//! the latest request winning; Esc leaves the rules, the cutoff, the stages and the undo history as they
//! were. Nothing here draws.
//!
//! [`Draft::if_taken`]: crate::draft::Draft::if_taken

use crate::clean_settings::Stage;
use crate::draft::Act;

use crate::tui::action::Action;
use crate::tui::impact::Ask;
use crate::tui::state::{App, CutoffAsk, Measure, Mode, Screen};

use super::impact::{close_dialog, jump, request};

/// Asks the impact worker what `act` would do to the rules as they stand. The measure to put in the
/// dialog: its request's generation, or why the action cannot be weighed.
fn ask(app: &mut App, act: &Act) -> Measure {
    let Screen::Tune(s) = &mut app.screen else { return Measure::default() };
    match s.draft.if_taken(act) {
        Ok(after) => {
            let r = request(s, Ask::WhatIf { rules: s.draft.snapshot(), after });
            Measure { asked: app.impact.request(r), ..Measure::default() }
        }
        Err(e) => Measure { error: Some(e), ..Measure::default() },
    }
}

/// `C`: the cutoff dialog, at the chosen cutoff; ←/→ weigh another.
pub(super) fn open_cutoff(app: &mut App) {
    let Some(s) = app.session() else { return };
    let pending_was = s.preview.with_pending;
    app.mode = Mode::CutoffPrompt(CutoffAsk { target: s.cutoff, measure: Measure::default(), pending_was });
    measure_cutoff(app);
}

fn measure_cutoff(app: &mut App) {
    let Mode::CutoffPrompt(c) = &app.mode else { return };
    let measure = ask(app, &Act::Cutoff(c.target));
    if let Mode::CutoffPrompt(c) = &mut app.mode {
        c.measure = measure;
    }
}

/// The cutoff dialog: ←/→/0 weigh another cutoff, `+` counts the pending rules (a cutoff changes which
/// are in force) or not, Enter takes the one weighed, a digit shows a document it changes most, Esc leaves
/// the cutoff as it is.
pub(super) fn cutoff_prompt(app: &mut App, action: Action) {
    let (Screen::Tune(s), Mode::CutoffPrompt(c)) = (&mut app.screen, &mut app.mode) else { return };
    let target = match action {
        Action::CutoffDown => s.cutoff_below(c.target),
        Action::CutoffUp => s.cutoff_above(c.target),
        Action::CutoffAuto => s.mining.auto_cutoff,
        Action::TogglePending => {
            // the baseline counts the pending rules, or not, as the preview does: measured again
            super::tune::tune(app, action);
            return measure_cutoff(app);
        }
        Action::Submit => {
            let target = c.target;
            app.mode = Mode::Normal;
            s.set_cutoff(target);
            let text = format!(
                "cutoff {}% (auto {}%): {} candidates (u undoes it)",
                s.cutoff,
                s.mining.auto_cutoff,
                s.list.rows.len()
            );
            return app.info(text);
        }
        Action::Close => {
            // Esc leaves everything as it was, the preview's `+` too
            let toggled = s.preview.with_pending != c.pending_was;
            close_dialog(app);
            if toggled {
                super::tune::tune(app, Action::TogglePending);
            }
            return;
        }
        Action::Jump(n) => {
            close_dialog(app);
            return jump(app, n);
        }
        _ => return,
    };
    if target != c.target {
        c.target = target;
        measure_cutoff(app);
    }
}

/// Weighs a pattern edit as it is typed, once it is valid and changes the list (`edited`); else the
/// editor measures nothing.
pub(super) fn weigh_patterns(app: &mut App, edited: Option<Vec<crate::mutable::MutablePattern>>) {
    let measure = match edited {
        Some(list) => ask(app, &Act::Patterns(list)),
        None => Measure::default(),
    };
    if let Mode::EditPattern(edit) = &mut app.mode {
        edit.measure = measure;
    }
}

/// `S`: the stages list, the first stage highlighted and weighed.
pub(super) fn open_stages(app: &mut App) {
    app.mode = Mode::Stages { selected: 0, measure: Measure::default() };
    measure_stage(app);
}

/// Weighs turning the highlighted stage on or off.
fn measure_stage(app: &mut App) {
    let (Some(s), Mode::Stages { selected, .. }) = (app.session(), &app.mode) else { return };
    let stage = Stage::ALL[*selected];
    let act = Act::Stage { stage, on: !s.stage_on(stage) };
    let measure = ask(app, &act);
    if let Mode::Stages { measure: m, .. } = &mut app.mode {
        *m = measure;
    }
}

/// The stages list: ↑/↓ highlight (and weigh) a stage, Enter turns it on or off, a digit shows a document
/// the highlighted stage's turn changes most, Esc closes.
pub(super) fn stages(app: &mut App, action: Action) {
    let (Screen::Tune(s), Mode::Stages { selected, .. }) = (&mut app.screen, &mut app.mode) else { return };
    match action {
        Action::Close => close_dialog(app),
        Action::Up | Action::Down => {
            let was = *selected;
            *selected = match action {
                Action::Up => selected.saturating_sub(1),
                _ => (*selected + 1).min(Stage::ALL.len() - 1),
            };
            if *selected != was {
                measure_stage(app);
            }
        }
        Action::ToggleStage => {
            let stage = Stage::ALL[*selected];
            let on = !s.stage_on(stage);
            s.set_stage(stage, on);
            app.info(format!("stage {stage} {} for this source (u undoes it)", if on { "on" } else { "off" }));
            // what turning it back would do
            measure_stage(app);
        }
        Action::Jump(n) => {
            close_dialog(app);
            jump(app, n);
        }
        _ => {}
    }
}
