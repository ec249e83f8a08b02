//! The mutable patterns: name, tokens normalized in the current mining, regex; and, while one is
//! edited, the editor in place of the table (two text inputs and the inline error).

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table};
use tui_input::Input;

use super::super::session::{Pane, Session};
use super::super::state::{App, Field, Mode, PatternEdit};
use super::impact::changes_lines;
use super::{compact, theme};

/// First pattern row drawn: the selection stays in view.
pub fn offset(s: &Session, area: Rect) -> usize {
    let rows = area.height.saturating_sub(3).max(1) as usize;
    s.pattern_selected.saturating_sub(rows - 1)
}

pub fn draw(frame: &mut Frame, area: Rect, s: &Session, app: &App) {
    let editing = matches!(app.mode, Mode::EditPattern(_));
    let focused = s.focus == Pane::Patterns && (matches!(app.mode, Mode::Normal) || editing);
    let mut title =
        vec![Span::styled(" Mutable patterns ", theme::title()), Span::raw(format!("({}) ", s.patterns.len()))];
    if let Some(job) = &s.job {
        title.push(Span::styled(format!("· re-mining ({}) ", job.reason), theme::key()));
    }
    let block = Block::bordered().title(Line::from(title)).border_style(theme::border(focused));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if let Mode::EditPattern(edit) = &app.mode {
        draw_editor(frame, inner, s, edit);
        return;
    }
    let rows: Vec<Row> = s
        .patterns
        .iter()
        .enumerate()
        .skip(offset(s, area))
        .take(inner.height.saturating_sub(1) as usize)
        .map(|(i, p)| {
            let count = s.pattern_count(p).map_or("…".to_string(), compact);
            let row = Row::new(vec![
                Cell::from(p.name.clone()),
                Cell::from(format!("{count:>6}")),
                Cell::from(Span::styled(p.regex.clone(), theme::dim())),
            ]);
            if i == s.pattern_selected && focused { row.style(theme::selected(true)) } else { row }
        })
        .collect();
    let widths = [Constraint::Length(12), Constraint::Length(6), Constraint::Min(10)];
    let header = Row::new(vec!["name", "tokens", "regex"]).style(theme::header());
    frame.render_widget(Table::new(rows, widths).header(header).column_spacing(1), inner);
}

/// What the valid edit would do to the rules as they stand: what it changes, not the documents it changes
/// most (a digit types in the field here; they are a key away once the edit is applied).
fn measured(s: &Session, edit: &PatternEdit) -> Vec<Line<'static>> {
    if edit.error.is_some() || (edit.measure.asked == 0 && edit.measure.error.is_none()) {
        return Vec::new();
    }
    let mut lines = changes_lines(s, &edit.measure, &[String::new()]);
    if let Some(first) = lines.first_mut() {
        first.spans.insert(0, Span::styled("the rules as they stand: ", theme::dim()));
    }
    lines
}

fn draw_editor(frame: &mut Frame, area: Rect, s: &Session, edit: &PatternEdit) {
    if area.height == 0 {
        return;
    }
    let label_w = 7u16;
    let width = area.width.saturating_sub(label_w + 1) as usize;
    let field = |input: &Input, label: &'static str, active: bool| {
        let scroll = input.visual_scroll(width);
        let shown: String = input.value().chars().skip(scroll).take(width).collect();
        let style = if active { theme::key() } else { theme::dim() };
        (Line::from(vec![Span::styled(format!("{label:<7}"), style), Span::raw(shown)]), input.visual_cursor() - scroll)
    };
    let (name, name_cur) = field(&edit.name, "name", edit.field == Field::Name);
    let (regex, regex_cur) = field(&edit.regex, "regex", edit.field == Field::Regex);
    let status = match &edit.error {
        Some(e) => Line::from(Span::styled(e.clone(), theme::error())),
        None => Line::from(Span::styled(
            "✓ valid: Enter applies it and re-mines",
            theme::status(crate::rules::Status::Accepted),
        )),
    };
    let hint = Line::from(Span::styled("Tab name/regex · Enter apply · Esc cancel", theme::dim()));
    let mut lines = vec![name, regex, status];
    lines.extend(measured(s, edit));
    lines.push(hint);
    frame.render_widget(Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: false }), area);
    let (cy, cx) = match edit.field {
        Field::Name => (area.y, name_cur),
        Field::Regex => (area.y + 1, regex_cur),
    };
    if cy < area.bottom() {
        frame.set_cursor_position(((area.x + label_w + cx as u16).min(area.right().saturating_sub(1)), cy));
    }
}
