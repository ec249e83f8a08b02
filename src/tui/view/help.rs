//! The help screen, rendered from the key map: every key, its action's name and what it does.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::super::keymap::{Context, bindings, keys_label};
use super::theme;

fn lines() -> Vec<Line<'static>> {
    let mut out = Vec::new();
    for c in Context::ALL {
        out.push(Line::from(Span::styled(c.title().to_string(), theme::header())));
        for b in bindings(c) {
            out.push(Line::from(vec![
                Span::styled(format!("  {:<13}", keys_label(b.keys)), theme::key()),
                Span::styled(format!("{:<20}", b.action.name()), theme::dim()),
                Span::raw(b.desc),
            ]));
        }
        out.push(Line::default());
    }
    out.push(Line::from(Span::styled(
        "Mouse: click selects a pane and a row (a bin of the histogram sets the cutoff; a span of the preview \
         puts the cursor on it); the wheel scrolls.",
        theme::dim(),
    )));
    out
}

pub fn line_count() -> usize {
    lines().len()
}

pub fn draw(frame: &mut Frame, area: Rect, scroll: usize) {
    let popup = Rect::new(area.x + 1, area.y + 1, area.width.saturating_sub(2), area.height.saturating_sub(2));
    frame.render_widget(Clear, popup);
    let title = Line::from(vec![
        Span::styled(" Keys ", theme::title()),
        Span::styled("(↑/↓ scroll · Esc closes) ", theme::dim()),
    ]);
    let block = Block::bordered().title(title).border_style(theme::border(true));
    frame.render_widget(Paragraph::new(lines()).block(block).scroll((scroll as u16, 0)), popup);
}
