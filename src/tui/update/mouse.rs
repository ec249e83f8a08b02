//! Mouse clicks and the wheel: a click focuses a pane and selects a row (or sets the cutoff on the
//! histogram, or the preview's cursor on a span); the wheel scrolls the pane under it.

use ratatui::layout::Position;

use crate::tui::action::Action;
use crate::tui::session::Pane;
use crate::tui::state::{App, Mode, Screen};
use crate::tui::view;

/// Extends the preview's selection to the word under the mouse (a drag started by a click there): a
/// selection holds whole words, as rules do, so a drag that starts or ends inside a word still makes a rule
/// that matches.
fn drag(app: &mut App, column: u16, row: u16) {
    if !matches!(app.mode, Mode::Normal) {
        return;
    }
    let areas = view::layout(app.size, false);
    let Screen::Tune(s) = &mut app.screen else { return };
    let Some((anchor, _)) = s.preview.selection else { return };
    if let Some(pos) = view::preview::byte_at(s, areas.preview, Position::new(column, row)) {
        let lines = s.preview_lines();
        let text = s.document_text();
        let line = |p: usize| lines.get(crate::tui::document::line_of(&lines, p)).copied().unwrap_or((0, text.len()));
        s.preview.selection = Some(if pos >= anchor {
            (word_start(text, anchor, line(anchor).0), word_end(text, pos, line(pos).1))
        } else {
            (word_end(text, anchor, line(anchor).1), word_start(text, pos, line(pos).0))
        });
    }
}

/// The start of the word at `pos` (after whitespace there, the next word's), looking back no further than
/// `floor` (its line's start).
pub(crate) fn word_start(text: &str, pos: usize, floor: usize) -> usize {
    let pos = pos.min(text.len());
    let floor = floor.min(pos);
    match text[pos..].chars().next() {
        Some(c) if c.is_whitespace() => text[pos..].find(|c: char| !c.is_whitespace()).map_or(text.len(), |i| pos + i),
        _ => text[floor..pos].rfind(char::is_whitespace).map_or(floor, |i| floor + i + 1),
    }
}

/// The end of the word at `pos` (whitespace there: `pos`), looking on no further than `ceiling` (its line's
/// end).
pub(crate) fn word_end(text: &str, pos: usize, ceiling: usize) -> usize {
    let pos = pos.min(text.len());
    let ceiling = ceiling.clamp(pos, text.len());
    text[pos..ceiling].find(char::is_whitespace).map_or(ceiling, |i| pos + i)
}

pub(super) fn mouse(app: &mut App, action: Action) {
    let (column, row, delta) = match action {
        Action::Click { column, row } => (column, row, 0),
        Action::Drag { column, row } => {
            drag(app, column, row);
            return;
        }
        Action::ScrollUp { column, row } => (column, row, -3),
        Action::ScrollDown { column, row } => (column, row, 3),
        _ => return,
    };
    let at = Position::new(column, row);
    match &mut app.mode {
        Mode::Help { .. } => {
            if delta != 0 {
                super::popups::help(app, if delta < 0 { Action::Up } else { Action::Down });
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
        Screen::Picker(p) => p.mouse(view::picker::list_area(app.size), at, delta),
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
                    super::tune::move_in_pane(s, delta.signum());
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
                    // the line cursor stays on screen
                    let (top, h) = (s.preview.scroll, s.preview_height.max(1));
                    s.preview.line = s.preview.line.clamp(top, top + h - 1);
                } else if let Some(pos) = view::preview::byte_at(s, areas.preview, at) {
                    // the line cursor goes to the clicked line, the span cursor to the span clicked
                    let line = crate::tui::document::line_of(&s.preview_lines(), pos);
                    super::tune::cursor_to_line(s, line);
                    let i = s.preview.spans.partition_point(|sp| sp.end <= pos);
                    s.preview.cursor = s.preview.spans.get(i).filter(|sp| sp.start <= pos).map(|_| i);
                    // a drag from here selects text
                    s.preview.selection = Some((pos, pos));
                }
            } else if areas.histogram.contains(at)
                && let Some(bin) = view::histogram::bin_at(areas.histogram, column)
            {
                s.set_cutoff(bin);
                let text =
                    format!("cutoff {}% (auto {}%): {} candidates", s.cutoff, s.mining.auto_cutoff, s.list.rows.len());
                app.info(text);
            }
        }
    }
}
