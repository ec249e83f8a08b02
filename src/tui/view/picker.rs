//! The source picker: the source folders of the corpus root, their documents and rules files.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::super::state::{App, Picker};
use super::status::{draw_gauge, draw_message};
use super::{printable, theme, thousands};

/// The list's pane (its first row is the border).
pub fn list_area(size: Rect) -> Rect {
    let [list, _] = Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(size);
    list
}

/// The corpus root's folder name (the whole path is long, and differs between machines).
fn root_name(root: &std::path::Path) -> String {
    let root = std::fs::canonicalize(root).unwrap_or_else(|_| root.to_path_buf());
    root.file_name().map_or_else(|| root.display().to_string(), |n| n.to_string_lossy().into_owned())
}

pub fn draw(frame: &mut Frame, area: Rect, p: &Picker, app: &App) {
    let list = list_area(area);
    let [_, bottom] = Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(area);
    let title = Line::from(vec![
        Span::styled(" chaff ", theme::title()),
        Span::raw(format!("· pick a source in {}/ ", printable(&root_name(&p.root)))),
    ]);
    let block = Block::bordered().title(title).border_style(theme::border(true));
    let name_w = p.entries.iter().map(|e| e.name.chars().count()).max().unwrap_or(0).max(8);
    let lines: Vec<Line> = p
        .entries
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let line = Line::from(vec![
                Span::raw(if i == p.selected { "▸ " } else { "  " }),
                Span::styled(format!("{:<name_w$}", e.name), theme::title()),
                Span::raw(format!("  {:>7} documents  ", thousands(e.documents as u64))),
                Span::styled(e.rules.clone(), theme::dim()),
            ]);
            if i == p.selected { line.style(theme::selected(true)) } else { line }
        })
        .collect();
    frame.render_widget(Paragraph::new(lines).block(block), list);
    let hint = Line::from(Span::styled("Enter mine and open · ↑/↓ choose · ? keys · q quit", theme::dim()));
    frame.render_widget(Paragraph::new(hint), Rect { height: 1, ..bottom });
    let line2 = Rect::new(bottom.x, bottom.y + 1, bottom.width, 1);
    match &p.opening {
        Some(o) => draw_gauge(frame, line2, &format!("mining {}", o.opened.spec.name), o.stage),
        None => draw_message(frame, line2, app),
    }
}
