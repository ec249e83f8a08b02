//! Actions on the tuning screen with no popup open: cutoff, decisions, marks, filter, sort, panes,
//! the preview's document and cursor, patterns, save and export.

use tui_input::Input;

use crate::cleaning::Cleaner;
use crate::rules::{Action as RuleAction, Rule, Status};

use crate::tui::action::Action;
use crate::tui::session::{Pane, Session};
use crate::tui::state::{App, Field, Measure, Mode, Occurrence, PatternEdit, Screen};

pub(super) fn tune(app: &mut App, action: Action) {
    let Screen::Tune(s) = &mut app.screen else { return };
    // a warning is confirmed by its key again right after it, not by one pressed later
    let armed = s.armed.take();
    match action {
        Action::Quit => {
            if s.dirty {
                app.mode = Mode::QuitPrompt;
            } else {
                super::picker::leave_source(app);
            }
        }
        Action::MarkReviewed => super::picker::mark_reviewed(app),
        Action::Help => app.mode = Mode::Help { scroll: 0 },
        Action::Save => super::save(app, armed == Some(Action::Save)),
        Action::Export => super::prompts::export(app),
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
        Action::NextDoc | Action::PrevDoc => {
            let d = if action == Action::NextDoc { s.preview.doc + 1 } else { s.preview.doc.saturating_sub(1) };
            if d != s.preview.doc {
                s.preview.line = 0;
                s.preview.kept = None;
            }
            s.show_document(d);
        }
        Action::Search => app.mode = Mode::Search(Input::new(s.preview.search.clone().unwrap_or_default())),
        // n/N find the search again; with nothing searched, n shows the next document as elsewhere
        Action::SearchNext if s.preview.search.as_ref().is_none_or(|q| q.is_empty()) => {
            update_tune_again(app, Action::NextDoc)
        }
        Action::SearchNext => search_step(app, true, false),
        Action::SearchPrev => search_step(app, false, false),
        Action::GotoDoc => app.mode = Mode::GotoDoc(Input::default()),
        Action::ToggleCleaned => {
            // the line cursor stays where it was (clamped), not back at the top
            s.preview.only_cleaned = !s.preview.only_cleaned;
            s.preview.cursor = None;
            s.preview.kept = None;
            s.preview.selection = None;
            let line = s.preview.line;
            cursor_to_line(s, line);
        }
        Action::TogglePending => {
            s.preview.with_pending = !s.preview.with_pending;
            s.refresh_preview();
            let with_pending = s.preview.with_pending;
            // impacts now count the rules the cleaned text does
            super::impact::warm(app);
            app.info(if with_pending {
                "the cleaned text is of the accepted and pending rules: not what is exported (+ again: accepted only)"
            } else {
                "the cleaned text is of the accepted rules: what `chaff clean` of the export writes"
            });
        }
        Action::NextSpan => step_stop(s, true),
        Action::PrevSpan => step_stop(s, false),
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
        Action::Accept | Action::Reject | Action::Unmark => {
            let (status, word) = match action {
                Action::Accept => (Status::Accepted, "accepted"),
                Action::Reject => (Status::Rejected, "rejected"),
                _ => (Status::Pending, "back to pending:"),
            };
            let Some(i) = s.list.current() else { return };
            let before = s.revision;
            let text = short(s.text(i));
            decide_selected(s, Some(status), None);
            if s.revision != before {
                // the status line adds what it changed over the source, once measured
                app.info(format!("{word} `{text}`"));
            }
        }
        Action::CycleRuleAction => {
            if let Some(i) = s.list.current() {
                let next = super::next_rule_action(s.rule_action(i));
                if next.is_cut() {
                    // a cut takes everything before or after it on every page it matches: asked first
                    super::impact::open_action(app, i, next);
                } else {
                    s.decide(&[i], None, Some(next));
                }
            }
        }
        Action::Jump(n) => super::impact::jump(app, n),
        Action::Back => super::impact::back(app),
        Action::ToggleVerified => super::impact::toggle_verified(app),
        Action::ToggleMark => {
            if let Some(i) = s.list.current() {
                let id = s.string(i).id.clone();
                if s.list.just_marked.take().as_ref() == Some(&id) {
                    // the last row, marked by the Space before: the selection could not move on, and a
                    // Space meant for the next row must not take the mark back
                    app.info("the last candidate is marked (Space again unmarks it)");
                    return;
                }
                let marked = !s.list.marks.remove(&id);
                if marked {
                    s.list.marks.insert(id.clone());
                }
                let at = s.list.selected;
                s.list.step(1);
                if marked && s.list.selected == at {
                    s.list.just_marked = Some(id);
                }
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
            if targets.iter().any(|&i| s.list.is_editors(i)) {
                s.refresh_list();
            }
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
        Action::EditorOnly => {
            s.list.editor_only = !s.list.editor_only;
            s.refresh_list();
            let text = if s.list.editor_only {
                format!("{} rule(s) made by the editor or stale shown (M shows all)", s.list.rows.len())
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
                super::impact::open_detail(app, i);
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
                    measure: Measure::default(),
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
                measure: Measure::default(),
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
        Action::OpenStages => super::what_if::open_stages(app),
        Action::WeighCutoff => super::what_if::open_cutoff(app),
        Action::OpenRegions => super::regions::open(app),
        Action::NameRegion => super::regions::name(app),
        Action::ResetToAutomatic => app.mode = Mode::ResetPrompt,
        Action::MarkLine => super::explain::mark_line(app),
        Action::Select => {
            toggle_selection(s);
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

/// A candidate's text, cut short for the status line.
pub(super) fn short(text: &str) -> String {
    const MAX: usize = 28;
    if text.chars().count() <= MAX {
        return crate::tui::view::printable(text);
    }
    let cut: String = text.chars().take(MAX - 1).collect();
    crate::tui::view::printable(&format!("{cut}…"))
}

fn update_tune_again(app: &mut App, action: Action) {
    tune(app, action);
}

pub(super) fn decide_selected(s: &mut Session, status: Option<Status>, action: Option<RuleAction>) {
    if let Some(i) = s.list.current() {
        s.decide(&[i], status, action);
        if s.list.is_editors(i) {
            // an editor's rule set back to pending is no rule: it leaves the list
            s.refresh_list();
        }
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
        Pane::Preview => {
            let line = (s.preview.line as isize).saturating_add(delta).max(0) as usize;
            cursor_to_line(s, line);
        }
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
    if id.starts_with(crate::rules::region::REGION_PREFIX) {
        // not a candidate of the list: the message says where it is decided
        return super::explain::select_rule(app, &id);
    }
    match s.position(&id).and_then(|i| s.list.rows.iter().position(|&r| r == i)) {
        Some(pos) => {
            s.list.select(pos);
            s.list.scroll_into_view(s.page);
            s.focus = Pane::Candidates;
        }
        None => app.info(format!("rule {id} is not in the list (below the cutoff, filtered out, or stale)")),
    }
}

/// Puts the preview's line cursor on visual line `line` (clamped), scrolling to keep it in view; the span
/// cursor follows it to the line's first span.
pub(crate) fn cursor_to_line(s: &mut Session, line: usize) {
    let lines = s.preview_lines();
    let line = line.min(lines.len().saturating_sub(1));
    s.preview.line = line;
    s.preview.kept = None;
    if !s.preview.only_cleaned {
        s.preview.cursor = lines.get(line).and_then(|&(a, b)| {
            let i = s.preview.spans.partition_point(|sp| sp.end <= a);
            s.preview.spans.get(i).filter(|sp| sp.start < b.max(a + 1)).map(|_| i)
        });
    }
    scroll_to_line(s, line);
}

/// Scrolls the preview so visual line `line` shows, and puts the line cursor there.
fn scroll_to_line(s: &mut Session, line: usize) {
    let h = s.preview_height.max(1);
    s.preview.line = line;
    if line < s.preview.scroll {
        s.preview.scroll = line;
    } else if line >= s.preview.scroll + h {
        s.preview.scroll = line + 1 - h;
    }
    s.clamp_preview_scroll();
}

/// The byte range the preview's cursor is on: its span, its kept block, else its line.
pub(crate) fn cursor_range(s: &Session) -> Option<(usize, usize)> {
    if let Some(sp) = s.preview.cursor.and_then(|c| s.preview.spans.get(c)) {
        return Some((sp.start, sp.end));
    }
    s.preview.kept.or_else(|| s.preview_lines().get(s.preview.line).copied())
}

/// `text[a..b]` without its leading and trailing whitespace; `None` when nothing is left.
fn trimmed(text: &str, a: usize, b: usize) -> Option<(usize, usize)> {
    let t = &text[a..b];
    let start = a + (t.len() - t.trim_start().len());
    let end = a + t.trim_end().len();
    (start < end).then_some((start, end))
}

/// A stop of `]`/`[`: a removed (or pending) span by index, or a kept block between spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    Span(usize),
    Kept(usize, usize),
}

/// The first stop at or after byte `from` (a span holding `from`, else the kept text after it, else the next
/// span). A binary search and the whitespace around one gap: no scan of the spans.
fn stop_after(text: &str, spans: &[crate::tui::document::PreviewSpan], from: usize) -> Option<Stop> {
    let i = spans.partition_point(|sp| sp.end <= from);
    if let Some(sp) = spans.get(i)
        && sp.start <= from
    {
        return Some(Stop::Span(i));
    }
    let gap_end = spans.get(i).map_or(text.len(), |sp| sp.start);
    match trimmed(text, from.min(gap_end), gap_end) {
        Some((a, b)) => Some(Stop::Kept(a, b)),
        None => (i < spans.len()).then_some(Stop::Span(i)),
    }
}

/// The last stop ending at or before byte `to`.
fn stop_before(text: &str, spans: &[crate::tui::document::PreviewSpan], to: usize) -> Option<Stop> {
    let j = spans.partition_point(|sp| sp.end <= to);
    let gap_start = j.checked_sub(1).map_or(0, |k| spans[k].end);
    match trimmed(text, gap_start, to.max(gap_start)) {
        Some((a, b)) => Some(Stop::Kept(a, b)),
        None => j.checked_sub(1).map(Stop::Span),
    }
}

/// Moves the preview's cursor to the next (`forward`) or previous stop: a removed or pending span, or the
/// kept text between two; wraps around at the document's ends.
pub(crate) fn step_stop(s: &mut Session, forward: bool) {
    if s.preview.only_cleaned {
        s.preview.cursor = None;
        s.preview.kept = None;
        return;
    }
    let text = s.document_text();
    let spans = &s.preview.spans;
    let current = match (s.preview.cursor.filter(|&c| c < spans.len()), s.preview.kept) {
        (Some(c), _) => Some((spans[c].start, spans[c].end)),
        (None, Some(k)) => Some(k),
        (None, None) => None,
    };
    let stop = match (current, forward) {
        (Some((_, e)), true) => stop_after(text, spans, e).or_else(|| stop_after(text, spans, 0)),
        (Some((a, _)), false) => stop_before(text, spans, a).or_else(|| stop_before(text, spans, text.len())),
        (None, true) => {
            let at = s.preview_lines().get(s.preview.line).map_or(0, |l| l.0);
            stop_after(text, spans, at).or_else(|| stop_after(text, spans, 0))
        }
        (None, false) => {
            let at = s.preview_lines().get(s.preview.line).map_or(text.len(), |l| l.1);
            stop_before(text, spans, at).or_else(|| stop_before(text, spans, text.len()))
        }
    };
    let start = match stop {
        Some(Stop::Span(i)) => {
            s.preview.cursor = Some(i);
            s.preview.kept = None;
            s.preview.spans[i].start
        }
        Some(Stop::Kept(a, b)) => {
            s.preview.cursor = None;
            s.preview.kept = Some((a, b));
            a
        }
        None => return,
    };
    let line = crate::tui::document::line_of(&s.preview_lines(), start);
    let h = s.preview_height.max(1);
    if line < s.preview.scroll || line >= s.preview.scroll + h {
        s.preview.scroll = line.saturating_sub(h / 3);
    }
    scroll_to_line(s, line);
}

/// Starts a selection on the preview's cursor line, or drops the one there is.
pub(crate) fn toggle_selection(s: &mut Session) {
    if s.preview.selection.take().is_some() || s.preview.only_cleaned {
        return;
    }
    if let Some(&(a, b)) = s.preview_lines().get(s.preview.line) {
        s.preview.selection = Some((a, b));
    }
}

/// Finds the preview's search again, after (`forward`) or before the cursor, wrapping around; moves the
/// line cursor to it. Case is ignored. One pass over the text at most.
pub(crate) fn search_step(app: &mut App, forward: bool, from_cursor_line: bool) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let Some(query) = s.preview.search.clone().filter(|q| !q.is_empty()) else {
        app.info("/ searches the preview");
        return;
    };
    let Ok(re) = regex::RegexBuilder::new(&regex::escape(&query)).case_insensitive(true).build() else {
        app.error(format!("cannot search for `{query}`: it is too long"));
        return;
    };
    let lines = s.preview_lines();
    let text = s.preview.shown(s.document_text());
    let (line_start, line_end) = lines.get(s.preview.line).copied().unwrap_or((0, 0));
    // a line at a time: n goes to the next line holding the text
    let found = if forward {
        let from = if from_cursor_line { line_start } else { line_end };
        re.find_at(text, from.min(text.len())).or_else(|| re.find(text)).map(|m| m.start())
    } else {
        let before = re.find_iter(&text[..line_start.min(text.len())]).last().map(|m| m.start());
        before.or_else(|| re.find_iter(text).last().map(|m| m.start()))
    };
    let Some(at) = found else {
        app.info(format!("`{query}` is not in this document (n/p: next/previous document)"));
        return;
    };
    let line = crate::tui::document::line_of(&lines, at);
    cursor_to_line(s, line);
    app.info(format!("/{query}: line {} (n/N next/previous)", line + 1));
}

/// The search prompt: Enter finds the text from the cursor line on, Esc leaves it.
pub(super) fn search_input(app: &mut App, action: Action) {
    let Mode::Search(input) = &app.mode else { return };
    match action {
        Action::Submit => {
            let query = input.value().to_string();
            app.mode = Mode::Normal;
            let Screen::Tune(s) = &mut app.screen else { return };
            s.preview.search = Some(query).filter(|q| !q.is_empty());
            search_step(app, true, true);
        }
        Action::Close => app.mode = Mode::Normal,
        _ => {}
    }
}
