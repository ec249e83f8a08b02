//! What background work reports: the miner's stages and results, the file watcher's changes.

use std::fs;

use crate::tui::journal::Journal;
use crate::tui::miner::MinerEvent;
use crate::tui::session::Session;
use crate::tui::state::{App, Mode, Screen};
use crate::tui::watch::Change;

/// A miner event. Returns whether the state changed.
pub fn on_miner(app: &mut App, event: MinerEvent) -> bool {
    if !app.is_current(&event) {
        return false;
    }
    match event {
        MinerEvent::Stage { stage, .. } => {
            match &mut app.screen {
                Screen::Tune(s) => {
                    if let Some(j) = &mut s.job {
                        j.stage = Some(stage);
                    }
                }
                Screen::Picker(p) => {
                    if let Some(o) = &mut p.opening {
                        o.stage = Some(stage);
                    }
                }
            }
            true
        }
        MinerEvent::Done { result, .. } => {
            match &mut app.screen {
                Screen::Tune(s) => {
                    let reason = s.job.take().map(|j| j.reason).unwrap_or_default();
                    match result {
                        Ok(mined) => {
                            let secs = mined.elapsed.as_secs_f64();
                            s.apply_mined(*mined);
                            // the measures of dialogs and the last impact are of the mining before
                            s.jumps.clear();
                            if matches!(
                                app.mode,
                                Mode::Detail(_)
                                    | Mode::MarkPrompt(_)
                                    | Mode::ActionPrompt(_)
                                    | Mode::CutoffPrompt(_)
                                    | Mode::Stages { .. }
                            ) {
                                app.mode = Mode::Normal;
                            }
                            let Some(s) = app.session() else { return true };
                            // a pattern edit is weighed once its re-mine is in: said here, one key from undone
                            let undo = match s.history.last() {
                                Some(crate::draft::history::Step::Patterns { .. }) => " (u undoes the pattern edit)",
                                _ => "",
                            };
                            // accepted rules of a deleted pattern stay in force as they were: said, not hidden
                            let kept = match s.accepted_without_pattern() {
                                0 => String::new(),
                                n => format!(
                                    "; {n} accepted rule(s) name a deleted pattern: kept as they match, listed [stale]"
                                ),
                            };
                            let text = format!(
                                "re-mined ({reason}) in {secs:.2} s: {} candidates at the auto cutoff {}%; decisions kept{kept}{undo}",
                                s.mining.candidates(s.mining.auto_cutoff).count(),
                                s.mining.auto_cutoff
                            );
                            app.info(text);
                            // what the new mining (and a pattern edit it catches up with) changed over the
                            // source, said with it
                            super::impact::after_change(app, true);
                        }
                        Err(e) => app.error(format!("re-mining failed: {e}")),
                    }
                }
                Screen::Picker(p) => {
                    let Some(opening) = p.opening.take() else { return true };
                    match result {
                        Ok(mined) => {
                            let opened = *opening.opened;
                            let journal = Journal::new(&opened.spec.rules, app.settings.journal);
                            let session = Session::new(opened, mined.mining, Some(mined.ready), journal);
                            super::picker::opened(app, session);
                        }
                        Err(e) => app.error(format!("mining failed: {e}")),
                    }
                }
            }
            true
        }
    }
}

/// A file watcher report.
pub fn on_change(app: &mut App, change: Change) {
    let Screen::Tune(s) = &mut app.screen else { return };
    match change {
        Change::Corpus => {
            // a report with every document as it was (read, not written) mines nothing
            if s.watch.as_mut().is_some_and(|w| !w.corpus_changed()) {
                return;
            }
            app.remine("documents changed on disk", true);
            app.info("documents were added or changed in the corpus folder: re-mining in the background");
        }
        Change::Rules => rules_changed(app),
    }
}

/// The rules file may have changed on disk: reload it (nothing unsaved here), or ask (once: a popup
/// already open, or one that will open when the current one closes, covers it).
pub(super) fn rules_changed(app: &mut App) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let text = fs::read_to_string(&s.spec.rules).ok();
    if text == s.disk_text {
        return; // our own save, or nothing new
    }
    if text.is_none() {
        s.disk_text = None;
        app.info("the rules file was removed on disk; w writes it again");
    } else if !s.dirty {
        super::prompts::reload_from_disk(app, "the rules file changed on disk: reloaded");
    } else if matches!(app.mode, Mode::Normal) {
        app.mode = Mode::ConflictPrompt;
    } else if !matches!(app.mode, Mode::ConflictPrompt) {
        // asked when the popup closes, if the file still differs then
        s.pending_conflict = true;
    }
}
