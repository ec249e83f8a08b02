//! Drawing: a pure function of the state. Each pane has its file; [`layout`] is shared with the update
//! code (paging, mouse hits), so both agree on where everything is.

pub mod candidates;
pub mod detail;
pub mod dialog;
pub mod explain;
pub mod help;
pub mod histogram;
pub mod impact;
pub mod patterns;
pub mod picker;
pub mod preview;
pub mod prompt;
pub mod regions;
pub mod status;
pub mod theme;

use ratatui::Frame;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::{Constraint, Layout, Rect};

use super::state::{App, Mode, Screen};

/// Where the panes of the tuning screen go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Areas {
    pub histogram: Rect,
    pub candidates: Rect,
    pub patterns: Rect,
    pub preview: Rect,
    pub status: Rect,
}

/// The tuning screen's layout for a terminal of `size`. The patterns pane grows while a pattern is
/// edited in it.
pub fn layout(size: Rect, editing_pattern: bool) -> Areas {
    // a short terminal keeps rows for the candidates: the histogram shrinks to its title (the cutoffs)
    let hist_h = if size.height >= 40 {
        12
    } else if size.height >= 30 {
        9
    } else if size.height >= 24 {
        7
    } else if size.height >= 18 {
        5
    } else {
        3
    };
    let [histogram, middle, status] =
        Layout::vertical([Constraint::Length(hist_h), Constraint::Min(3), Constraint::Length(2)]).areas(size);
    let left_pct = if size.width >= 120 { 55 } else { 58 };
    let [left, preview] =
        Layout::horizontal([Constraint::Percentage(left_pct), Constraint::Percentage(100 - left_pct)]).areas(middle);
    let mut patterns_h = if size.height >= 40 {
        12
    } else if size.height >= 24 {
        5
    } else {
        3
    };
    if editing_pattern {
        // the inputs, the check, what the edit changes and the keys
        patterns_h = patterns_h.max(8);
    }
    let [candidates, patterns] = Layout::vertical([Constraint::Min(3), Constraint::Length(patterns_h)]).areas(left);
    Areas { histogram, candidates, patterns, preview, status }
}

/// Draws the whole screen. Never changes the state.
pub fn draw(app: &App, frame: &mut Frame) {
    let area = frame.area();
    match &app.screen {
        Screen::Picker(p) => picker::draw(frame, area, p, app),
        Screen::Tune(s) => {
            let areas = layout(area, matches!(app.mode, Mode::EditPattern(_)));
            let weighed = match &app.mode {
                Mode::CutoffPrompt(c) => Some(c.target),
                _ => None,
            };
            histogram::draw(frame, areas.histogram, s, weighed);
            candidates::draw(frame, areas.candidates, s, app);
            patterns::draw(frame, areas.patterns, s, app);
            preview::draw(frame, areas.preview, s);
            status::draw(frame, areas.status, s, app);
        }
    }
    match &app.mode {
        Mode::Help { scroll } => match &app.screen {
            // inside the picker's frame, not over it
            Screen::Picker(_) => help::draw(frame, help::picker_area(area), *scroll),
            Screen::Tune(_) => help::draw(frame, area, *scroll),
        },
        Mode::Detail(d) => {
            if let Some(s) = app.session() {
                detail::draw(frame, area, s, d);
            }
        }
        Mode::Explain(x) => {
            if let Some(s) = app.session() {
                explain::draw_explain(frame, area, s, x);
            }
        }
        Mode::Stages { selected, measure } => {
            if let Some(s) = app.session() {
                // over the candidates, not the preview it says follows live
                let areas = layout(area, false);
                let left = Rect::new(area.x, area.y, areas.preview.x - area.x, areas.status.y - area.y);
                explain::draw_stages(frame, left, s, *selected, measure);
            }
        }
        Mode::Regions(list) => {
            if let Some(s) = app.session() {
                // over the candidates: the preview beside it shows the rule's lines on the page
                let areas = layout(area, false);
                let left = Rect::new(area.x, area.y, areas.preview.x - area.x, areas.status.y - area.y);
                regions::draw(frame, left, s, list);
            }
        }
        mode if mode.is_prompt() => prompt::draw(frame, area, app),
        _ => {}
    }
}

/// The screen as text, one line per row (trailing spaces trimmed): for snapshots and the benchmark.
/// The state's size should match (`App::resize`).
pub fn render_to_string(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(|f| draw(app, f)).expect("draw");
    buffer_text(terminal.backend().buffer())
}

pub fn buffer_text(buffer: &ratatui::buffer::Buffer) -> String {
    let area = buffer.area;
    let mut out = String::new();
    for y in 0..area.height {
        let mut line = String::new();
        for x in 0..area.width {
            line.push_str(buffer[(x, y)].symbol());
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// A centred rectangle of at most `w`×`h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(area.x + (area.width - w) / 2, area.y + (area.height - h) / 2, w, h)
}

/// Text safe to draw: control characters (tabs, carriage returns) become spaces, one cell each.
pub fn printable(text: &str) -> String {
    text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect()
}

/// 1234 → "1,234"; for counts in the status bar and tables.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// 12345 → "12.3k"; compact sizes for narrow columns.
pub fn compact(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{:.1}k", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1}M", n as f64 / 1e6),
        _ => format!("{:.1}G", n as f64 / 1e9),
    }
}

/// `text` in at most `width` characters: cut after the last whole word that fits, with `…` to say so
/// (a status line cut mid-word at the screen's edge reads as if it said all).
pub fn shortened(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(1);
    let cut = text.char_indices().nth(room).map_or(text.len(), |(i, _)| i);
    let head = &text[..cut];
    // at a word's end: before the space the cut fell after or on, else mid-word when one word is wider
    let head = match text[cut..].starts_with(char::is_whitespace) {
        true => head,
        false => head.rfind(char::is_whitespace).map_or(head, |i| &head[..i]),
    };
    format!("{}…", head.trim_end())
}

#[cfg(test)]
mod tests {
    use super::shortened;

    #[test]
    fn a_message_too_wide_is_cut_after_a_whole_word_with_an_ellipsis() {
        assert_eq!(shortened("pattern removed: decisions kept", 40), "pattern removed: decisions kept");
        assert_eq!(
            shortened("pattern removed: decisions kept (u undoes the pattern)", 38),
            "pattern removed: decisions kept (u…"
        );
        assert_eq!(shortened("pattern removed: decisions kept", 20), "pattern removed:…");
        assert_eq!(shortened("pattern removed", 8), "pattern…");
        assert_eq!(shortened("unbreakable", 5), "unbr…", "a word wider than the line is cut in it");
        assert!(shortened("é è à ù ô î ê û", 6).chars().count() <= 6);
    }
}
