//! A dialog's frame, shared by the popups: its body wraps, and scrolls when the terminal is too small for
//! it; its key hints stay under it, a row each, whatever the size, for they are the way out of it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::theme;

/// Rows `lines` take wrapped at `width` columns, as they are drawn.
pub fn rows(lines: &[Line<'_>], width: u16) -> usize {
    if width == 0 {
        return lines.len();
    }
    Paragraph::new(lines.to_vec()).wrap(Wrap { trim: false }).line_count(width)
}

/// A key hint (its key, then what it does) wrapped at `width` columns, what it does going on under
/// itself; a row of several keys is cut instead.
fn wrap_key(line: Line<'static>, width: usize) -> Vec<Line<'static>> {
    if line.width() <= width {
        return vec![line];
    }
    if line.spans.len() != 2 {
        return vec![cut(line, width)];
    }
    let key = line.spans[0].clone();
    let indent = key.width();
    let style = line.spans[1].style;
    let what = line.spans[1].content.to_string();
    let room = width.saturating_sub(indent).max(1);
    let mut rows: Vec<String> = vec![String::new()];
    for word in what.split(' ') {
        let last = rows.last_mut().expect("a row");
        if !last.is_empty() && Span::raw(format!("{last} {word}")).width() > room {
            rows.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    rows.into_iter()
        .enumerate()
        .map(|(i, row)| {
            let head = if i == 0 { key.clone() } else { Span::raw(" ".repeat(indent)) };
            Line::from(vec![head, Span::styled(row, style)])
        })
        .collect()
}

/// The key hints wrapped at `width` columns.
fn wrapped_keys(keys: &[Line<'static>], width: u16) -> Vec<Line<'static>> {
    keys.iter().flat_map(|k| wrap_key(k.clone(), width as usize)).collect()
}

/// The height a dialog of `body` and `keys` would take `width` columns wide, its border included.
pub fn wanted(body: &[Line<'_>], keys: &[Line<'static>], width: u16) -> u16 {
    let inner = width.saturating_sub(2);
    (rows(body, inner) + wrapped_keys(keys, inner).len() + 2).min(u16::MAX as usize) as u16
}

/// How a dialog's inner rows are shared: the key hints' (wrapped where the dialog fits whole, else a row
/// each, cut), the body's, and how far the body can scroll.
#[derive(Debug, Clone, PartialEq)]
pub struct Fit {
    pub keys: Vec<Line<'static>>,
    pub body: u16,
    pub max_scroll: usize,
}

pub fn fit(popup: Rect, body: &[Line<'_>], keys: &[Line<'static>]) -> Fit {
    let inner = Block::bordered().inner(popup);
    let body_rows = rows(body, inner.width);
    let wrapped = wrapped_keys(keys, inner.width);
    let keys: Vec<Line<'static>> = if body_rows + wrapped.len() <= inner.height as usize {
        wrapped
    } else {
        keys.iter().take(inner.height as usize).map(|k| cut(k.clone(), inner.width as usize)).collect()
    };
    let body_h = inner.height.saturating_sub(keys.len() as u16);
    Fit { keys, body: body_h, max_scroll: body_rows.saturating_sub(body_h as usize) }
}

/// `line` cut to `width` columns, `…` saying so: a key hint keeps its key, and loses the end of what it
/// says first.
pub fn cut(line: Line<'_>, width: usize) -> Line<'_> {
    if line.width() <= width {
        return line;
    }
    let mut left = width.saturating_sub(1);
    let mut spans = Vec::new();
    for span in line.spans {
        let text: String = span
            .content
            .chars()
            .take_while(|c| {
                let w = Span::raw(c.to_string()).width();
                let fits = w <= left;
                if fits {
                    left -= w;
                }
                fits
            })
            .collect();
        let done = text.chars().count() < span.content.chars().count();
        spans.push(Span::styled(text, span.style));
        if done {
            break;
        }
    }
    spans.push(Span::styled("…", theme::dim()));
    Line::from(spans)
}

/// Draws a dialog in `popup`: `title`, `body` from its row `scroll` (clamped), `keys` under it.
pub fn draw(
    frame: &mut Frame,
    popup: Rect,
    title: Line<'_>,
    body: Vec<Line<'_>>,
    keys: Vec<Line<'static>>,
    scroll: usize,
) {
    let fit = fit(popup, &body, &keys);
    frame.render_widget(Clear, popup);
    let mut block = Block::bordered().title(title).border_style(theme::border(true));
    let scroll = scroll.min(fit.max_scroll);
    if fit.max_scroll > 0 {
        // the body does not fit: where it is, and how to see the rest
        let more = format!(" ↑/↓ {}/{} ", scroll + 1, fit.max_scroll + 1);
        block = block.title_bottom(Line::from(Span::styled(more, theme::key())).right_aligned());
    }
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    let body_area = Rect { height: fit.body, ..inner };
    let keys_area = Rect { y: inner.y + fit.body, height: inner.height - fit.body, ..inner };
    let body = Paragraph::new(body).wrap(Wrap { trim: false }).scroll((scroll.min(u16::MAX as usize) as u16, 0));
    frame.render_widget(body, body_area);
    frame.render_widget(Paragraph::new(fit.keys), keys_area);
}
