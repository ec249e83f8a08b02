//! The candidate table: status, action, df (count and %), tf, length, coverage and the string with its
//! mutable tokens by name. Narrow panes drop the tf, df-count and length columns.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Cell, Paragraph, Row, Table};

use crate::rules::{Action as RuleAction, Status};

use super::super::session::{Pane, Session};
use super::super::state::{App, Mode};
use super::{compact, printable, theme};

/// The action's name, as rules files spell it.
pub fn action_name(a: RuleAction) -> &'static str {
    a.name()
}

/// The action in the table's narrow column.
pub fn action_tag(a: RuleAction) -> &'static str {
    match a {
        RuleAction::Remove => "rm",
        RuleAction::CutBefore => "<cut",
        RuleAction::CutAfter => "cut>",
        RuleAction::Keep => "keep",
    }
}

/// A string's text with `«mutable»` tokens coloured.
pub fn styled_text(text: &str, base: Style) -> Vec<Span<'static>> {
    let text = printable(text);
    let mut out = Vec::new();
    let mut rest = text.as_str();
    while let Some(a) = rest.find('«') {
        let Some(len) = rest[a..].find('»') else { break };
        let b = a + len + '»'.len_utf8();
        if a > 0 {
            out.push(Span::styled(rest[..a].to_string(), base));
        }
        out.push(Span::styled(rest[a..b].to_string(), base.patch(theme::mutable_token())));
        rest = &rest[b..];
    }
    if !rest.is_empty() {
        out.push(Span::styled(rest.to_string(), base));
    }
    out
}

pub fn draw(frame: &mut Frame, area: Rect, s: &Session, app: &App) {
    let focused = s.focus == Pane::Candidates && matches!(app.mode, Mode::Normal | Mode::Filter(_));
    let mut title = vec![
        Span::styled(" Candidates ", theme::title()),
        Span::raw(format!("≥ {}% · {} · sort {} ", s.cutoff, s.list.rows.len(), s.list.sort.name())),
    ];
    if !s.list.filter.is_empty() {
        title.push(Span::styled(format!("· /{} ", s.list.filter), theme::key()));
    }
    if s.list.editor_only {
        title.push(Span::styled("· made by the editor ", theme::key()));
    }
    if s.list.pending_only {
        title.push(Span::styled("· pending only ", theme::key()));
    }
    if !s.list.marks.is_empty() {
        title.push(Span::styled(format!("· {} marked ", s.list.marks.len()), theme::key()));
    }
    let block = Block::bordered().title(Line::from(title)).border_style(theme::border(focused));
    let mut inner = block.inner(area);
    frame.render_widget(block, area);
    if let Mode::Filter(input) = &app.mode
        && inner.height > 1
    {
        let y = inner.bottom() - 1;
        inner.height -= 1;
        let prompt = "filter: ";
        let width = inner.width.saturating_sub(prompt.len() as u16 + 1) as usize;
        let scroll = input.visual_scroll(width);
        let shown: String = input.value().chars().skip(scroll).take(width).collect();
        let line = Line::from(vec![Span::styled(prompt, theme::key()), Span::raw(shown)]);
        frame.render_widget(Paragraph::new(line), Rect::new(inner.x, y, inner.width, 1));
        let cx = inner.x + prompt.len() as u16 + (input.visual_cursor().saturating_sub(scroll)) as u16;
        frame.set_cursor_position((cx.min(inner.right().saturating_sub(1)), y));
    }
    if s.list.rows.is_empty() {
        let text = if s.list.editor_only {
            "No rule made by the editor: T marks a line as template, K keeps one (M lists all).".to_string()
        } else if !s.list.filter.is_empty() {
            "No candidate matches the filter (Esc clears it).".to_string()
        } else if s.list.pending_only {
            format!("No pending candidate at or above {}%: every one is decided (P shows them all).", s.cutoff)
        } else {
            format!("No candidates at or above {}%: ← lowers the cutoff.", s.cutoff)
        };
        frame.render_widget(Paragraph::new(Span::styled(text, theme::dim())), inner);
        return;
    }
    let wide = inner.width >= 70;
    let mut widths = vec![Constraint::Length(2), Constraint::Length(4)];
    let mut header = vec!["st", "act"];
    if wide {
        widths.push(Constraint::Length(5));
        header.push("   df");
    }
    widths.push(Constraint::Length(4));
    header.push(" df%");
    if wide {
        widths.extend([Constraint::Length(6), Constraint::Length(3)]);
        header.extend(["    tf", "len"]);
    }
    widths.extend([Constraint::Length(6), Constraint::Min(8)]);
    header.extend(["   cov", "text"]);
    let docs = s.mining.documents.max(1) as f64;
    let height = inner.height.saturating_sub(1) as usize;
    let rows: Vec<Row> = s
        .list
        .rows
        .iter()
        .enumerate()
        .skip(s.list.offset)
        .take(height)
        .map(|(pos, &i)| {
            let m = s.string(i);
            let st = s.status(i);
            let marked = s.list.marks.contains(&m.id);
            let mut cells = vec![
                Cell::from(Line::from(vec![
                    Span::styled(st.symbol().to_string(), theme::status(st)),
                    Span::styled(if marked { "•" } else { " " }, theme::key()),
                ])),
                Cell::from(Span::styled(action_tag(s.rule_action(i)), theme::dim())),
            ];
            if wide {
                cells.push(Cell::from(format!("{:>5}", compact(m.df))));
            }
            cells.push(Cell::from(format!("{:>3.0}%", m.df as f64 * 100.0 / docs)));
            if wide {
                cells.push(Cell::from(format!("{:>6}", compact(m.tf))));
                cells.push(Cell::from(format!("{:>3}", m.symbols.len())));
            }
            cells.push(Cell::from(format!("{:>6}", compact(m.coverage))));
            let base = if st == Status::Rejected { theme::dim() } else { Style::new() };
            let mut text = Vec::new();
            if let Some(k) = m.cluster {
                text.push(Span::styled(format!("[cluster {k}] "), theme::idiom()));
            }
            if m.idiom {
                text.push(Span::styled("[idiom] ", theme::idiom()));
            }
            if s.list.is_editors(i) {
                // the editor's own rule (marked, kept, trimmed, a hand-written regex), or one a newer mining
                // no longer finds
                let mine = m.df == 0 || s.decisions.get(&m.id).is_some_and(|r| r.editor);
                text.push(Span::styled(if mine { "[mine] " } else { "[stale] " }, theme::idiom()));
            }
            text.extend(styled_text(s.text(i), base));
            cells.push(Cell::from(Line::from(text)));
            let row = Row::new(cells);
            if pos == s.list.selected { row.style(theme::selected(focused)) } else { row }
        })
        .collect();
    let table = Table::new(rows, widths).header(Row::new(header).style(theme::header())).column_spacing(1);
    frame.render_widget(table, inner);
}
