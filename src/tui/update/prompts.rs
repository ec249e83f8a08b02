//! Answers to prompts: quit with unsaved decisions, a rules file changed on disk, a journal of unsaved
//! work from an earlier session.

use std::fs;

use crate::rules::RulesFile;

use crate::tui::action::Action;
use crate::tui::state::{App, ExportPlan, Mode, Screen};

pub(super) fn quit_prompt(app: &mut App, action: Action) {
    match action {
        Action::SaveAndQuit => {
            super::save(app, false);
            if app.session().is_some_and(|s| !s.dirty) {
                super::picker::leave_source(app);
            } else {
                app.mode = Mode::Normal;
            }
        }
        Action::QuitWithoutSaving => {
            if let Some(s) = app.session_mut() {
                s.journal.remove();
            }
            super::picker::leave_source(app);
        }
        Action::Close => app.mode = Mode::Normal,
        _ => {}
    }
}

pub(super) fn conflict_prompt(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    match action {
        Action::KeepMine => {
            app.mode = Mode::Normal;
            // theirs is merged in now (yours win where both decided): a save then drops nothing of theirs
            match s.keep_mine() {
                Ok((report, remine)) => {
                    let text = match report {
                        None => "kept your decisions; the rules file is gone from disk: w writes it again".to_string(),
                        Some(r) if r.is_empty() => "kept your decisions (unsaved: w saves)".to_string(),
                        Some(r) => format!("kept your decisions where both decided; {r} (unsaved: w saves)"),
                    };
                    if remine {
                        app.remine("rules file changed", false);
                    }
                    app.info(text);
                }
                Err(e) => app
                    .error(format!("the rules file changed on disk but is unusable ({e}); kept yours: w replaces it")),
            }
        }
        Action::TakeTheirs => {
            app.mode = Mode::Normal;
            reload_from_disk(app, "took the rules file from disk; your unsaved decisions were dropped");
        }
        _ => {}
    }
}

pub(super) fn journal_prompt(app: &mut App, action: Action) {
    let replay = match (&mut app.mode, action) {
        (Mode::JournalPrompt(r), Action::RestoreJournal) => std::mem::take(r),
        (Mode::JournalPrompt(_), Action::DiscardJournal) => {
            app.mode = Mode::Normal;
            if let Some(s) = app.session_mut() {
                s.journal.remove();
            }
            app.info("discarded the unsaved work of the earlier session");
            return;
        }
        _ => return,
    };
    app.mode = Mode::Normal;
    let summary = replay.summary();
    let Some(s) = app.session_mut() else { return };
    let remine = s.apply_replay(replay);
    if remine {
        app.remine("restored patterns", false);
    }
    app.info(format!("restored {summary} (unsaved: w saves)"));
}

pub(super) fn reload_from_disk(app: &mut App, done: &str) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let path = s.spec.rules.clone();
    let text = match fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => return app.error(format!("{}: {e}", path.display())),
    };
    match RulesFile::parse(&text, &path) {
        Ok(file) => {
            if s.reload(&file, text) {
                app.remine("rules file changed", false);
            }
            app.info(done.to_string());
        }
        Err(e) => {
            s.disk_text = Some(text);
            app.error(format!("the rules file changed on disk but is unusable ({e}); keeping yours"));
        }
    }
}

pub(super) fn reset_prompt(app: &mut App, action: Action) {
    match action {
        Action::Submit => {
            app.mode = Mode::Normal;
            let Some(s) = app.session_mut() else { return };
            let n = s.reset_to_automatic();
            app.info(format!("back to the automatic rules: {n} decision(s) changed (u undoes it)"));
        }
        Action::Close => app.mode = Mode::Normal,
        _ => {}
    }
}

/// `x`: asks first, saying what the export will hold (see [`ExportPlan`]): the accepted rules, or, with
/// none accepted (an export `chaff clean` would change nothing with), the automatic rules instead.
pub(super) fn export(app: &mut App) {
    let Some(s) = app.session() else { return };
    let (accepted, rejected, pending) = s.counts();
    app.mode = Mode::ExportPrompt(ExportPlan { accepted, pending, rejected });
}

pub(super) fn export_prompt(app: &mut App, action: Action) {
    let Mode::ExportPrompt(plan) = app.mode else { return };
    match action {
        Action::Submit => {
            app.mode = Mode::Normal;
            let Some(s) = app.session() else { return };
            let what = if plan.automatic() { "automatic" } else { "accepted" };
            match s.export(plan.automatic()) {
                Ok((path, n)) => app.info(format!(
                    "exported {n} {what} rule(s) to {} ({} rejected left out: `chaff clean` applies only these)",
                    path.display(),
                    plan.rejected
                )),
                Err(e) => app.error(format!("export failed: {e}")),
            }
        }
        Action::Close => {
            app.mode = Mode::Normal;
            app.info("export cancelled: nothing was written");
        }
        _ => {}
    }
}

/// `u` / `Ctrl-r`: takes the last step back (or again), saying which step it was; a pattern edit taken
/// back or again mines the source with the patterns it leaves.
pub(super) fn undo(app: &mut App, redo: bool) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let done = if redo { s.redo() } else { s.undo() };
    let Some((what, remine)) = done else {
        return app.info(if redo { "nothing to redo" } else { "nothing to undo" });
    };
    if remine {
        app.remine(if redo { "pattern edit redone" } else { "pattern edit undone" }, false);
    }
    app.info(if redo { format!("redid {what}") } else { format!("undid {what} (Ctrl-r redoes it)") });
}
