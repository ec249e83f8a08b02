//! The help screen, rendered from the key map: every key, its action's name and what it does.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph};

use super::super::document::Mark;
use super::super::keymap::{Binding, Context, bindings, keys_label};
use super::theme;
use crate::cleaning::SpanKind;

/// Columns between the key, the action's name and the description.
const GAP: usize = 2;
/// The narrowest a description may wrap to beside the name column: narrower, the name column goes.
const MIN_DESC: usize = 30;

/// The widths of the key column (its indent and gap included) and of the action names' (0: left out, the
/// popup is too narrow for it), sized from their longest entries so no key runs into its name.
fn columns(width: usize) -> (usize, usize) {
    let all: Vec<&Binding> = Context::ALL.into_iter().flat_map(bindings).collect();
    let keys = all.iter().map(|b| keys_label(b.keys).chars().count()).max().unwrap_or(0);
    let names = all.iter().map(|b| b.action.name().chars().count()).max().unwrap_or(0);
    let keys_w = 2 + keys.max(LEGEND_NAME) + GAP;
    let name_w = names + GAP;
    if width >= keys_w + name_w + MIN_DESC { (keys_w, name_w) } else { (keys_w, 0) }
}

/// The widest name of the legends' (`✔ verified`), which share the key column.
const LEGEND_NAME: usize = 10;

/// Splits `text` into lines of at most `width` characters at spaces.
fn words(text: &str, width: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    for w in text.split(' ') {
        let last = out.last_mut().expect("one line");
        if !last.is_empty() && last.chars().count() + 1 + w.chars().count() > width {
            out.push(w.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(w);
        }
    }
    out
}

/// The help text for a popup `width` columns wide (inside its border); descriptions wrap under
/// themselves.
fn lines(width: usize) -> Vec<Line<'static>> {
    let (keys_w, name_w) = columns(width);
    let desc_w = width.saturating_sub(keys_w + name_w).max(20);
    let mut out = Vec::new();
    for c in Context::ALL {
        for t in words(c.title(), width.max(20)) {
            out.push(Line::from(Span::styled(t, theme::header())));
        }
        for b in bindings(c) {
            for (i, d) in words(b.desc, desc_w).into_iter().enumerate() {
                let (k, n) = if i == 0 { (keys_label(b.keys), b.action.name()) } else { (String::new(), "") };
                let n = if name_w == 0 { "" } else { n };
                out.push(Line::from(vec![
                    Span::styled(format!("  {k:<w$}", w = keys_w - 2), theme::key()),
                    Span::styled(format!("{n:<name_w$}"), theme::dim()),
                    Span::raw(d),
                ]));
            }
        }
        out.push(Line::default());
    }
    let mouse = "Mouse: click selects a pane and a row (a bin of the histogram sets the cutoff; a line of the preview \
                 puts the line cursor on it, a span the span cursor); a drag in the preview selects whole words; the \
                 wheel scrolls.";
    for t in words(mouse, width.max(20)) {
        out.push(Line::from(Span::styled(t, theme::dim())));
    }
    out.push(Line::default());
    out.push(Line::from(Span::styled("Colours of the preview", theme::header())));
    let legend = [
        (Mark::Accepted(SpanKind::Removed), "removed", "red: removed by accepted rules (or a stage)"),
        (
            Mark::Accepted(SpanKind::CutBefore),
            "cut",
            "magenta: cut by a header or footer rule (all before or after it)",
        ),
        (Mark::Pending(SpanKind::Removed), "pending", "yellow, underlined: pending rules would remove it if accepted"),
    ];
    for (mark, name, what) in legend {
        out.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(format!("{name:<w$}", w = keys_w - 2), theme::mark(mark)),
            Span::raw(" "),
            Span::raw(what),
        ]));
    }
    out.push(Line::from(vec![
        Span::raw("  "),
        Span::styled(format!("{:<w$}", "▸", w = keys_w - 2), theme::key()),
        Span::raw(" the line cursor (T marks, V selects, e explains its line)"),
    ]));
    out.push(Line::default());
    out.push(Line::from(Span::styled("What a decision changes over the source", theme::header())));
    let impact = [
        (theme::verified(), "✔ verified", "green: a verified page (Y), whose cleaned text an editor marked right"),
        (theme::error(), "⚠", "red: a decision changes a verified page (which words), or a cut's warning"),
        (theme::key(), "−N words", "yellow, in dialogs: a decision takes words from some page's article block"),
    ];
    for (style, name, what) in impact {
        out.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(format!("{name:<w$}", w = keys_w - 2), style),
            Span::raw(" "),
            Span::raw(what),
        ]));
    }
    out
}

/// The help as plain text for a popup `width` columns wide (tests read it).
pub fn text(width: usize) -> String {
    lines(width).iter().map(|l| l.to_string() + "\n").collect()
}

/// Where the help goes on the source picker: inside the list's frame (the help's popup is inset from it).
pub fn picker_area(size: Rect) -> Rect {
    super::picker::list_area(size)
}

/// The popup for a screen of `size`.
fn popup(area: Rect) -> Rect {
    Rect::new(area.x + 1, area.y + 1, area.width.saturating_sub(2), area.height.saturating_sub(2))
}

/// Lines of the help on a screen of `size`, and how many fit at once.
pub fn line_count(size: Rect) -> (usize, usize) {
    let p = popup(size);
    (lines(p.width.saturating_sub(2) as usize).len(), p.height.saturating_sub(2) as usize)
}

pub fn draw(frame: &mut Frame, area: Rect, scroll: usize) {
    let popup = popup(area);
    frame.render_widget(Clear, popup);
    let title = Line::from(vec![
        Span::styled(" Keys ", theme::title()),
        Span::styled("(↑/↓ scroll · Esc closes) ", theme::dim()),
    ]);
    let block = Block::bordered().title(title).border_style(theme::border(true));
    frame.render_widget(
        Paragraph::new(lines(popup.width.saturating_sub(2) as usize)).block(block).scroll((scroll as u16, 0)),
        popup,
    );
}
