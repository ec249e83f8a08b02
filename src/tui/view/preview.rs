//! The preview: one document with the spans the accepted rules remove highlighted (pending candidates
//! above the cutoff underlined), or its cleaned text alone; the share removed in the title and the rule
//! behind the span under the cursor on the last line.

use ratatui::Frame;
use ratatui::layout::{Position, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use crate::cleaning::SpanKind;

use super::super::document::Mark;
use super::super::session::{Pane, Session};
use super::{printable, theme};

fn content_area(area: Rect) -> Rect {
    let inner = Block::bordered().inner(area);
    Rect { height: inner.height.saturating_sub(1), ..inner }
}

/// The byte of the shown text under a screen position, if any.
pub fn byte_at(s: &Session, area: Rect, at: Position) -> Option<usize> {
    let content = content_area(area);
    if !content.contains(at) || s.preview.only_cleaned {
        return None;
    }
    let lines = s.preview_lines();
    let &(a, b) = lines.get(s.preview.scroll + (at.y - content.y) as usize)?;
    let text = &s.document_text()[a..b];
    text.char_indices().nth((at.x - content.x) as usize).map(|(i, _)| a + i)
}

pub fn draw(frame: &mut Frame, area: Rect, s: &Session) {
    let focused = s.focus == Pane::Preview;
    let docs = s.corpus.docs.len();
    let id = s.corpus.docs.get(s.preview.doc).map_or("", |d| d.id.as_str());
    let (removed, pending) = s.removed_share();
    let mut title = vec![
        // the cleaned text is what `chaff clean --rules <export>` writes (for HTML, with --text)
        Span::styled(
            match (s.preview.only_cleaned, s.preview.with_pending) {
                (false, _) => " Preview ",
                (true, false) => " Cleaned as exported ",
                (true, true) => " Cleaned with pending (not exported) ",
            },
            theme::title(),
        ),
        Span::raw(format!("{id} {}/{docs} ", s.preview.doc + 1)),
        Span::styled(format!("−{:.1}%", removed * 100.0), theme::mark(Mark::Accepted(SpanKind::Removed))),
    ];
    if pending > 0.0 {
        title.push(Span::raw(" "));
        title.push(Span::styled(
            format!("+{:.1}% pending", pending * 100.0),
            theme::mark(Mark::Pending(SpanKind::Removed)),
        ));
    }
    title.push(Span::raw(" "));
    let title = Line::from(title);
    let title = if title.width() + 2 > area.width as usize {
        // narrow pane: the share removed first, the document after
        let mut narrow =
            vec![Span::styled(format!(" −{:.1}%", removed * 100.0), theme::mark(Mark::Accepted(SpanKind::Removed)))];
        if s.preview.only_cleaned {
            narrow.push(Span::styled(
                if s.preview.with_pending { " with pending" } else { " as exported" },
                theme::title(),
            ));
        }
        narrow.push(Span::raw(format!(" {id} {}/{docs} ", s.preview.doc + 1)));
        Line::from(narrow)
    } else {
        title
    };
    let block = Block::bordered().title(title).border_style(theme::border(focused));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if inner.height == 0 {
        return;
    }
    let content = content_area(area);
    let text = s.preview.shown(s.document_text());
    let lines = s.preview_lines();
    let spans = if s.preview.only_cleaned { &[][..] } else { &s.preview.spans[..] };
    let selection = s.preview.selected().filter(|_| !s.preview.only_cleaned);
    let shown: Vec<Line> = lines
        .iter()
        .skip(s.preview.scroll)
        .take(content.height as usize)
        .map(|&(a, b)| styled_line(text, a, b, spans, s.preview.cursor, selection))
        .collect();
    frame.render_widget(Paragraph::new(shown), content);
    let footer = Rect::new(inner.x, inner.bottom() - 1, inner.width, 1);
    frame.render_widget(Paragraph::new(cursor_line(s)), footer);
}

/// One visual line, cut into pieces at span boundaries and at the selection's.
fn styled_line<'a>(
    text: &str,
    a: usize,
    b: usize,
    spans: &[super::super::document::PreviewSpan],
    cursor: Option<usize>,
    selection: Option<(usize, usize)>,
) -> Line<'a> {
    let mut out = Vec::new();
    // text[from..to] in `style`, the selected part of it patched
    let push = |out: &mut Vec<Span<'a>>, from: usize, to: usize, style: Style| {
        let (x, y) = selection.map_or((to, to), |(x, y)| (x.clamp(from, to), y.clamp(from, to)));
        for (i, j, selected) in [(from, x, false), (x, y, true), (y, to, false)] {
            if i < j {
                let style = if selected { style.patch(theme::selection()) } else { style };
                out.push(Span::styled(printable(&text[i..j]), style));
            }
        }
    };
    let mut pos = a;
    let first = spans.partition_point(|s| s.end <= a);
    for (k, sp) in spans.iter().enumerate().skip(first) {
        if sp.start >= b {
            break;
        }
        let (s0, s1) = (sp.start.max(pos), sp.end.min(b));
        if s0 > pos {
            push(&mut out, pos, s0, Style::new());
        }
        let mut style = theme::mark(sp.mark);
        if cursor == Some(k) {
            style = style.patch(theme::cursor());
        }
        if s0 == s1 && s1 == b && sp.end > b {
            // a span that covers only a line break still shows where it is
            out.push(Span::styled(" ", style));
        } else {
            push(&mut out, s0, s1, style);
        }
        pos = s1;
    }
    if pos < b {
        push(&mut out, pos, b, Style::new());
    }
    Line::from(out)
}

fn cursor_line(s: &Session) -> Line<'static> {
    if let Some((x, y)) = s.preview.selected().filter(|_| !s.preview.only_cleaned) {
        let words = s.document_text()[x..y].split_whitespace().count();
        return Line::from(Span::styled(
            format!("selected {words} word(s) · j/k >/< extend · T mark as template · K keep · V drop"),
            theme::key(),
        ));
    }
    let Some(c) = s.preview.cursor.filter(|_| !s.preview.only_cleaned) else {
        let hint = if s.preview.only_cleaned {
            "v: spans highlighted · n/p document".to_string()
        } else {
            format!("{} spans · ]/[ cursor · v cleaned · n/p document", s.preview.spans.len())
        };
        return Line::from(Span::styled(hint, theme::dim()));
    };
    let sp = &s.preview.spans[c];
    let what = match sp.mark {
        Mark::Accepted(SpanKind::Removed) => "removed by",
        Mark::Accepted(SpanKind::CutBefore) => "cut before by",
        Mark::Accepted(SpanKind::CutAfter) => "cut after by",
        Mark::Pending(SpanKind::Removed) => "pending",
        Mark::Pending(SpanKind::CutBefore) => "pending cut before by",
        Mark::Pending(SpanKind::CutAfter) => "pending cut after by",
    };
    let mut out = vec![Span::styled(format!("▸ {}/{} {what} ", c + 1, s.preview.spans.len()), theme::key())];
    match sp.rules.first() {
        Some(id) => {
            let text = s.position(id).map_or_else(|| id.clone(), |i| s.text(i).to_string());
            out.extend(super::candidates::styled_text(&text, Style::new()));
            if sp.rules.len() > 1 {
                out.push(Span::styled(format!(" (+{} more)", sp.rules.len() - 1), theme::dim()));
            }
        }
        None => out.push(Span::raw("?")),
    }
    Line::from(out)
}
