//! Actions on the tuning screen with no popup open: cutoff, decisions, marks, filter, sort, panes,
//! the preview's document and cursor, patterns, save and export.

use tui_input::Input;

use crate::cleaning::Cleaner;
use crate::rules::{Action as RuleAction, Rule, Status};

use crate::tui::action::Action;
use crate::tui::session::{Pane, Session};
use crate::tui::state::{App, Detail, Field, Mode, Occurrence, PatternEdit, Screen};

pub(super) fn tune(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    // a warning is confirmed by its key again right after it, not by one pressed later
    let armed = s.armed.take();
    match action {
        Action::Quit => {
            if s.dirty {
                app.mode = Mode::QuitPrompt;
            } else {
                app.quit = true;
            }
        }
        Action::Help => app.mode = Mode::Help { scroll: 0 },
        Action::Save => super::save(app, armed == Some(Action::Save)),
        Action::Export => super::prompts::export(app, armed == Some(Action::Export)),
        Action::Undo | Action::Redo => super::prompts::undo(app, action == Action::Redo),
        Action::FocusNext => s.focus = s.focus.next(),
        Action::FocusPrev => s.focus = s.focus.prev(),
        Action::CutoffDown | Action::CutoffUp | Action::CutoffAuto => {
            let target = match action {
                Action::CutoffDown => s.cutoff_step_down(),
                Action::CutoffUp => s.cutoff_step_up(),
                _ => s.mining.auto_cutoff,
            };
            let moved = s.set_cutoff(target);
            let text = if moved || action == Action::CutoffAuto {
                format!("cutoff {}% (auto {}%): {} candidates", s.cutoff, s.mining.auto_cutoff, s.list.rows.len())
            } else if action == Action::CutoffDown {
                format!("the cutoff cannot go below {}%: the miner kept no strings below it", s.cutoff)
            } else {
                "the cutoff is at its highest (99%)".to_string()
            };
            app.info(text);
        }
        Action::NextDoc => {
            let d = s.preview.doc + 1;
            s.show_document(d);
        }
        Action::PrevDoc => {
            let d = s.preview.doc.saturating_sub(1);
            s.show_document(d);
        }
        Action::GotoDoc => app.mode = Mode::GotoDoc(Input::default()),
        Action::ToggleCleaned => {
            s.preview.only_cleaned = !s.preview.only_cleaned;
            s.preview.scroll = 0;
            s.preview.cursor = None;
        }
        Action::TogglePending => {
            s.preview.with_pending = !s.preview.with_pending;
            s.refresh_preview();
            let with_pending = s.preview.with_pending;
            app.info(if with_pending {
                "the cleaned text is of the accepted and pending rules: not what is exported (+ again: accepted only)"
            } else {
                "the cleaned text is of the accepted rules: what `chaff clean` of the export writes"
            });
        }
        Action::NextSpan => s.step_span(true),
        Action::PrevSpan => s.step_span(false),
        Action::Up | Action::Down | Action::PageUp | Action::PageDown | Action::Top | Action::Bottom => {
            let page = s.page as isize;
            let delta = match action {
                Action::Up => -1,
                Action::Down => 1,
                Action::PageUp => -page,
                Action::PageDown => page,
                Action::Top => isize::MIN / 2,
                _ => isize::MAX / 2,
            };
            move_in_pane(s, delta);
        }
        Action::Accept => decide_selected(s, Some(Status::Accepted), None),
        Action::Reject => decide_selected(s, Some(Status::Rejected), None),
        Action::Unmark => decide_selected(s, Some(Status::Pending), None),
        Action::CycleRuleAction => {
            if let Some(i) = s.list.current() {
                let next = super::next_rule_action(s.rule_action(i));
                s.decide(&[i], None, Some(next));
            }
        }
        Action::ToggleMark => {
            if let Some(i) = s.list.current() {
                let id = s.string(i).id.clone();
                if !s.list.marks.remove(&id) {
                    s.list.marks.insert(id);
                }
                s.list.step(1);
                s.list.scroll_into_view(s.page);
            }
        }
        Action::MarkShown => {
            let ids: Vec<String> = s.list.rows.iter().map(|&i| s.string(i).id.clone()).collect();
            let n = ids.len();
            s.list.marks.extend(ids);
            app.info(format!("{n} candidate(s) marked"));
        }
        Action::ClearMarks => {
            s.list.marks.clear();
            s.list.filter.clear();
            s.refresh_list();
        }
        Action::BulkAccept | Action::BulkReject | Action::BulkPending => {
            let (status, word) = match action {
                Action::BulkAccept => (Status::Accepted, "accepted"),
                Action::BulkReject => (Status::Rejected, "rejected"),
                _ => (Status::Pending, "set back to pending"),
            };
            // Only what the list shows: marks hidden by the filter are not touched. With nothing marked,
            // idioms (flagged across sources, rejected from the start) are left alone: mark them to decide them.
            let (targets, which): (Vec<usize>, &str) = if s.list.marks.is_empty() {
                // nor, accepting, the rules rejected (by the editor or the automatic rules): mark them to
                // accept them
                let spare = |i: usize| status == Status::Accepted && s.status(i) == Status::Rejected;
                let shown = s.list.rows.iter().copied().filter(|&i| !s.string(i).idiom && !spare(i)).collect();
                (shown, if s.list.filter.is_empty() { "shown" } else { "filtered" })
            } else {
                let shown = s.list.rows.iter().copied().filter(|&i| s.list.marks.contains(&s.string(i).id)).collect();
                (shown, "marked and shown")
            };
            let n = s.decide(&targets, Some(status), None);
            s.list.marks.clear();
            app.info(format!("{n} of {} {which} candidate(s) {word}", targets.len()));
        }
        Action::Filter => app.mode = Mode::Filter(Input::new(s.list.filter.clone())),
        Action::PendingOnly => {
            s.list.pending_only = !s.list.pending_only;
            s.refresh_list();
            let text = if s.list.pending_only {
                format!("{} pending candidate(s) shown (P shows all)", s.list.rows.len())
            } else {
                format!("all {} candidates shown", s.list.rows.len())
            };
            app.info(text);
        }
        Action::CycleSort => {
            s.list.sort = s.list.sort.next();
            s.refresh_list();
            let text = format!("sorted by {}", s.list.sort.name());
            app.info(text);
        }
        Action::OpenDetail => {
            if let Some(i) = s.list.current() {
                let occurrences = occurrences(s, i, 5);
                app.mode = Mode::Detail(Detail { string: i, scroll: 0, occurrences });
            }
        }
        Action::EditPattern => {
            if let Some(p) = s.patterns.get(s.pattern_selected) {
                let edit = PatternEdit {
                    index: Some(s.pattern_selected),
                    name: Input::new(p.name.clone()),
                    regex: Input::new(p.regex.clone()),
                    field: Field::Regex,
                    error: None,
                };
                app.mode = Mode::EditPattern(edit);
            }
        }
        Action::AddPattern => {
            let edit = PatternEdit {
                index: None,
                name: Input::default(),
                regex: Input::default(),
                field: Field::Name,
                error: Some("a pattern needs a name and a regex".into()),
            };
            app.mode = Mode::EditPattern(edit);
        }
        Action::DeletePattern if s.pattern_selected < s.patterns.len() => {
            let mut patterns = s.patterns.clone();
            let gone = patterns.remove(s.pattern_selected);
            s.set_patterns(patterns);
            app.remine(&format!("pattern `{}` deleted", gone.name), false);
            app.info(format!("pattern `{}` deleted: re-mining", gone.name));
        }
        Action::ShowSpanRule => show_span_rule(app),
        Action::OpenExplain => super::explain::open(app),
        Action::KeepSpan => super::explain::keep_cursor_span(app),
        Action::OpenStages => app.mode = Mode::Stages { selected: 0 },
        Action::ResetToAutomatic => app.mode = Mode::ResetPrompt,
        Action::MarkLine => super::explain::mark_line(app),
        Action::Select => {
            s.toggle_selection();
            if s.preview.selection.is_some() {
                app.info(
                    "selecting: j/k extend by a line, >/< by a word; T marks it as template, K keeps it, V drops it",
                );
            }
        }
        Action::SelectWordForward => s.extend_selection_word(true),
        Action::SelectWordBack => s.extend_selection_word(false),
        Action::EditRegex => super::regex_edit::open(app),
        Action::TrimFront | Action::TrimBack => {
            let Some(i) = s.list.current() else { return };
            let total = s.corpus.docs.len();
            match s.trim_candidate(i, action == Action::TrimFront) {
                Ok((text, docs)) => app
                    .info(format!("trimmed to `{text}`: accepted, matching {docs} of {total} documents (u undoes it)")),
                Err(e) => app.error(e),
            }
        }
        _ => {}
    }
}

pub(super) fn decide_selected(s: &mut Session, status: Option<Status>, action: Option<RuleAction>) {
    if let Some(i) = s.list.current() {
        s.decide(&[i], status, action);
    }
}

pub(super) fn move_in_pane(s: &mut Session, delta: isize) {
    match s.focus {
        Pane::Candidates => {
            s.list.step(delta);
            s.list.scroll_into_view(s.page);
        }
        Pane::Patterns => {
            let n = s.patterns.len().saturating_sub(1) as isize;
            s.pattern_selected = (s.pattern_selected as isize + delta).clamp(0, n.max(0)) as usize;
        }
        Pane::Preview if s.preview.selection.is_some() => s.extend_selection_lines(delta.signum()),
        Pane::Preview => s.scroll_preview(delta),
    }
}

/// Occurrences of a mined string with their context, from the first documents holding it.
pub fn occurrences(s: &Session, i: usize, max: usize) -> Vec<Occurrence> {
    const CONTEXT: usize = 60;
    let rule = Rule::from_mined(s.string(i));
    let Ok(cleaner) = Cleaner::from_rules(s.mining.tokenizer, &s.mining.patterns, [&rule], 0) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for doc in &s.corpus.docs {
        let Some(m) = cleaner.matches(&doc.text).into_iter().next() else { continue };
        let t = &doc.text;
        let a = t.floor_char_boundary(m.start.saturating_sub(CONTEXT));
        let b = t.ceil_char_boundary((m.end + CONTEXT).min(t.len()));
        out.push(Occurrence {
            doc: doc.id.clone(),
            before: t[a..m.start].to_string(),
            matched: t[m.start..m.end].to_string(),
            after: t[m.end..b].to_string(),
        });
        if out.len() >= max {
            break;
        }
    }
    out
}

pub(super) fn show_span_rule(app: &mut App) {
    let Some(s) = app.session_mut() else { return };
    let Some(span) = s.preview.cursor.and_then(|c| s.preview.spans.get(c)) else {
        app.info("no span under the cursor: ] and [ move it between removed spans");
        return;
    };
    let Some(id) = span.rules.first().cloned() else { return };
    match s.position(&id).and_then(|i| s.list.rows.iter().position(|&r| r == i)) {
        Some(pos) => {
            s.list.select(pos);
            s.list.scroll_into_view(s.page);
            s.focus = Pane::Candidates;
        }
        None => app.info(format!("rule {id} is not in the list (below the cutoff, filtered out, or stale)")),
    }
}
