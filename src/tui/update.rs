//! `update`: the one place where actions change the state. Background results (the miner, the file
//! watcher) come in through [`on_miner`] and [`on_change`]. Nothing here draws.

use std::fs;

use ratatui::crossterm::event::Event;
use ratatui::layout::{Position, Rect};
use tui_input::Input;
use tui_input::backend::crossterm::EventHandler;

use crate::cleaning::Cleaner;
use crate::mutable::{MutablePattern, MutableSet};
use crate::rules::{Action as RuleAction, Rule, RulesFile, Status};

use super::action::Action;
use super::journal::Journal;
use super::miner::{MineRequest, MinerEvent};
use super::session::{Pane, Session};
use super::state::{App, Detail, Field, Mode, Occurrence, Opening, PatternEdit, Screen};
use super::view;
use super::watch::Change;

pub fn update(app: &mut App, action: Action) {
    match action {
        Action::Resize { width, height } => app.size = Rect::new(0, 0, width, height),
        Action::Click { .. } | Action::ScrollUp { .. } | Action::ScrollDown { .. } => mouse(app, action),
        _ => match &app.mode {
            Mode::Normal => match &app.screen {
                Screen::Picker(_) => picker(app, action),
                Screen::Tune(_) => tune(app, action),
            },
            Mode::Help { .. } => help(app, action),
            Mode::Detail(_) => detail(app, action),
            Mode::Filter(_) | Mode::GotoDoc(_) => input(app, action),
            Mode::EditPattern(_) => pattern_edit(app, action),
            Mode::QuitPrompt => quit_prompt(app, action),
            Mode::ConflictPrompt => conflict_prompt(app, action),
            Mode::JournalPrompt(_) => journal_prompt(app, action),
        },
    }
    if matches!(app.mode, Mode::Normal)
        && let Some(s) = app.session_mut()
        && s.pending_conflict
    {
        s.pending_conflict = false;
        app.mode = Mode::ConflictPrompt;
    }
    app.relayout();
}

fn tune(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    match action {
        Action::Quit => {
            if s.dirty {
                app.mode = Mode::QuitPrompt;
            } else {
                app.quit = true;
            }
        }
        Action::Help => app.mode = Mode::Help { scroll: 0 },
        Action::Save => save(app),
        Action::Export => match s.export() {
            Ok((path, n)) => app.info(format!("exported {n} accepted rule(s) to {}", path.display())),
            Err(e) => app.error(format!("export failed: {e}")),
        },
        Action::FocusNext => s.focus = s.focus.next(),
        Action::FocusPrev => s.focus = s.focus.prev(),
        Action::CutoffDown | Action::CutoffUp | Action::CutoffAuto => {
            let target = match action {
                Action::CutoffDown => s.cutoff.saturating_sub(1),
                Action::CutoffUp => s.cutoff.saturating_add(1),
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
                let next = next_rule_action(s.rule_action(i));
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
            let (targets, which): (Vec<usize>, &str) = if s.list.marks.is_empty() {
                (s.list.rows.clone(), if s.list.filter.is_empty() { "shown" } else { "filtered" })
            } else {
                (s.list.marks.iter().filter_map(|id| s.position(id)).collect(), "marked")
            };
            let n = s.decide(&targets, Some(status), None);
            s.list.marks.clear();
            app.info(format!("{n} of {} {which} candidate(s) {word}", targets.len()));
        }
        Action::Filter => app.mode = Mode::Filter(Input::new(s.list.filter.clone())),
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
        _ => {}
    }
}

fn next_rule_action(a: RuleAction) -> RuleAction {
    match a {
        RuleAction::Remove => RuleAction::CutBefore,
        RuleAction::CutBefore => RuleAction::CutAfter,
        RuleAction::CutAfter => RuleAction::Remove,
    }
}

fn decide_selected(s: &mut Session, status: Option<Status>, action: Option<RuleAction>) {
    if let Some(i) = s.list.current() {
        s.decide(&[i], status, action);
    }
}

fn move_in_pane(s: &mut Session, delta: isize) {
    match s.focus {
        Pane::Candidates => {
            s.list.step(delta);
            s.list.scroll_into_view(s.page);
        }
        Pane::Patterns => {
            let n = s.patterns.len().saturating_sub(1) as isize;
            s.pattern_selected = (s.pattern_selected as isize + delta).clamp(0, n.max(0)) as usize;
        }
        Pane::Preview => s.scroll_preview(delta),
    }
}

fn save(app: &mut App) {
    let Some(s) = app.session_mut() else { return };
    let counts = (s.count(Status::Accepted), s.count(Status::Rejected), s.count(Status::Pending));
    match s.save() {
        Ok(path) => app.info(format!(
            "saved {} ({} accepted, {} rejected, {} pending)",
            path.display(),
            counts.0,
            counts.1,
            counts.2
        )),
        Err(e) => app.error(format!("save failed: {e}")),
    }
}

/// Occurrences of a mined string with their context, from the first documents holding it.
pub fn occurrences(s: &Session, i: usize, max: usize) -> Vec<Occurrence> {
    const CONTEXT: usize = 60;
    let rule = Rule::from_mined(s.string(i));
    let Ok(cleaner) = Cleaner::from_rules(s.mining.tokenizer, &s.mining.patterns, [&rule], 0) else { return Vec::new() };
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

fn show_span_rule(app: &mut App) {
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

fn help(app: &mut App, action: Action) {
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

fn detail(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let Mode::Detail(d) = &mut app.mode else { return };
    let i = d.string;
    match action {
        Action::Close => app.mode = Mode::Normal,
        Action::Up => d.scroll = d.scroll.saturating_sub(1),
        Action::Down => d.scroll += 1,
        Action::PageUp => d.scroll = d.scroll.saturating_sub(10),
        Action::PageDown => d.scroll += 10,
        Action::Accept => {
            s.decide(&[i], Some(Status::Accepted), None);
        }
        Action::Reject => {
            s.decide(&[i], Some(Status::Rejected), None);
        }
        Action::Unmark => {
            s.decide(&[i], Some(Status::Pending), None);
        }
        Action::CycleRuleAction => {
            let next = next_rule_action(s.rule_action(i));
            s.decide(&[i], None, Some(next));
        }
        _ => {}
    }
}

fn input(app: &mut App, action: Action) {
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

/// Keys no binding claims: they edit the text input of the current mode, if any.
pub fn edit_text(app: &mut App, event: &Event) {
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
        Mode::GotoDoc(input) => {
            input.handle_event(event);
        }
        Mode::EditPattern(edit) => {
            let field = match edit.field {
                Field::Name => &mut edit.name,
                Field::Regex => &mut edit.regex,
            };
            if field.handle_event(event).is_some() {
                edit.error = validate(edit, &s.patterns).err();
            }
        }
        _ => {}
    }
}

/// The pattern list with the edit applied, or the error that keeps it from being applied.
fn validate(edit: &PatternEdit, patterns: &[MutablePattern]) -> Result<Vec<MutablePattern>, String> {
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

fn pattern_edit(app: &mut App, action: Action) {
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

fn quit_prompt(app: &mut App, action: Action) {
    match action {
        Action::SaveAndQuit => {
            save(app);
            if app.session().is_some_and(|s| !s.dirty) {
                app.quit = true;
            } else {
                app.mode = Mode::Normal;
            }
        }
        Action::QuitWithoutSaving => {
            if let Some(s) = app.session_mut() {
                s.journal.remove();
            }
            app.quit = true;
        }
        Action::Close => app.mode = Mode::Normal,
        _ => {}
    }
}

fn conflict_prompt(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    match action {
        Action::KeepMine => {
            // what is on disk now has been seen; the next save replaces it
            s.disk_text = fs::read_to_string(&s.spec.rules).ok();
            app.mode = Mode::Normal;
            app.info("kept your decisions; the next save (w) replaces the rules file on disk");
        }
        Action::TakeTheirs => {
            app.mode = Mode::Normal;
            reload_from_disk(app, "took the rules file from disk; your unsaved decisions were dropped");
        }
        _ => {}
    }
}

fn journal_prompt(app: &mut App, action: Action) {
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

fn reload_from_disk(app: &mut App, done: &str) {
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

fn picker(app: &mut App, action: Action) {
    let Screen::Picker(p) = &mut app.screen else { return };
    match action {
        Action::Quit => app.quit = true,
        Action::Help => app.mode = Mode::Help { scroll: 0 },
        Action::Up => p.selected = p.selected.saturating_sub(1),
        Action::Down => p.selected = (p.selected + 1).min(p.entries.len().saturating_sub(1)),
        Action::OpenSource => open_selected(app),
        _ => {}
    }
}

fn open_selected(app: &mut App) {
    let Screen::Picker(p) = &mut app.screen else { return };
    if p.opening.is_some() {
        return;
    }
    let Some(entry) = p.entries.get(p.selected) else { return };
    match super::source::open(&entry.path, app.rules_override.as_deref(), &app.rules_dir, app.preset) {
        Ok(opened) => {
            let request =
                MineRequest { corpus: std::sync::Arc::new(opened.corpus.clone()), config: opened.config.clone(), reload: None };
            let generation = app.miner.request(request);
            let name = opened.spec.name.clone();
            p.opening = Some(Opening { generation, stage: None, started: std::time::Instant::now(), opened: Box::new(opened) });
            app.info(format!("mining {name}…"));
        }
        Err(e) => app.error(format!("{e:#}")),
    }
}

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
                            if matches!(app.mode, Mode::Detail(_)) {
                                app.mode = Mode::Normal;
                            }
                            let Some(s) = app.session() else { return true };
                            let text = format!(
                                "re-mined ({reason}) in {secs:.2} s: {} candidates at the auto cutoff {}%; decisions kept",
                                s.mining.candidates(s.mining.auto_cutoff).count(),
                                s.mining.auto_cutoff
                            );
                            app.info(text);
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
                            let session = Session::new(opened, mined.mining, journal);
                            app.screen = Screen::Tune(Box::new(session));
                            app.after_open();
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
            app.remine("documents changed on disk", true);
            app.info("documents were added or changed in the corpus folder: re-mining in the background");
        }
        Change::Rules => {
            let text = fs::read_to_string(&s.spec.rules).ok();
            if text == s.disk_text {
                return; // our own save, or nothing new
            }
            let Some(text) = text else {
                s.disk_text = None;
                app.info("the rules file was removed on disk; w writes it again");
                return;
            };
            if !s.dirty {
                reload_from_disk(app, "the rules file changed on disk: reloaded");
            } else if matches!(app.mode, Mode::Normal) {
                app.mode = Mode::ConflictPrompt;
            } else {
                s.pending_conflict = true;
            }
            let _ = text;
        }
    }
}

fn mouse(app: &mut App, action: Action) {
    let (column, row, delta) = match action {
        Action::Click { column, row } => (column, row, 0),
        Action::ScrollUp { column, row } => (column, row, -3),
        Action::ScrollDown { column, row } => (column, row, 3),
        _ => return,
    };
    let at = Position::new(column, row);
    match &mut app.mode {
        Mode::Help { .. } => {
            if delta != 0 {
                help(app, if delta < 0 { Action::Up } else { Action::Down });
            }
            return;
        }
        Mode::Detail(d) => {
            d.scroll = (d.scroll as isize + delta).max(0) as usize;
            return;
        }
        Mode::Normal => {}
        _ => return,
    }
    let areas = view::layout(app.size, false);
    match &mut app.screen {
        Screen::Picker(p) => {
            let list = view::picker::list_area(app.size);
            if list.contains(at) && row > list.y {
                let i = (row - list.y - 1) as usize;
                if delta == 0 && i < p.entries.len() {
                    p.selected = i;
                }
            }
            if delta != 0 {
                p.selected = (p.selected as isize + delta.signum()).clamp(0, p.entries.len().saturating_sub(1) as isize) as usize;
            }
        }
        Screen::Tune(s) => {
            if areas.candidates.contains(at) {
                s.focus = Pane::Candidates;
                if delta != 0 {
                    s.list.step(delta);
                } else if row >= areas.candidates.y + 2 {
                    let pos = s.list.offset + (row - areas.candidates.y - 2) as usize;
                    if pos < s.list.rows.len() {
                        s.list.select(pos);
                    }
                }
                s.list.scroll_into_view(s.page);
            } else if areas.patterns.contains(at) {
                s.focus = Pane::Patterns;
                if delta != 0 {
                    move_in_pane(s, delta.signum());
                } else if row >= areas.patterns.y + 2 {
                    let pos = (row - areas.patterns.y - 2) as usize + view::patterns::offset(s, areas.patterns);
                    if pos < s.patterns.len() {
                        s.pattern_selected = pos;
                    }
                }
            } else if areas.preview.contains(at) {
                s.focus = Pane::Preview;
                if delta != 0 {
                    s.scroll_preview(delta);
                } else if let Some(pos) = view::preview::byte_at(s, areas.preview, at) {
                    s.preview.cursor = s.preview.spans.iter().position(|sp| sp.start <= pos && pos < sp.end);
                }
            } else if areas.histogram.contains(at)
                && let Some(bin) = view::histogram::bin_at(areas.histogram, column)
            {
                s.set_cutoff(bin);
                let text = format!("cutoff {}% (auto {}%): {} candidates", s.cutoff, s.mining.auto_cutoff, s.list.rows.len());
                app.info(text);
            }
        }
    }
}
