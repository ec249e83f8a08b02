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

/// Panes this tall (inside the border) or taller show the colours' legend under the cursor's line.
const LEGEND_FROM: u16 = 10;

/// Where the preview's text goes: inside the border, above the cursor's line (and the legend, when there
/// is room for it).
pub fn content_area(area: Rect) -> Rect {
    let inner = Block::bordered().inner(area);
    let below = if inner.height >= LEGEND_FROM { 2 } else { 1 };
    Rect { height: inner.height.saturating_sub(below), ..inner }
}

/// What the colours of the preview mean.
fn legend() -> Line<'static> {
    Line::from(vec![
        Span::styled("removed", theme::mark(Mark::Accepted(SpanKind::Removed))),
        Span::raw(" "),
        Span::styled("cut", theme::mark(Mark::Accepted(SpanKind::CutBefore))),
        Span::raw(" "),
        Span::styled("pending", theme::mark(Mark::Pending(SpanKind::Removed))),
        Span::styled(" ▸ line cursor", theme::dim()),
    ])
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
    let verified = s.draft.is_verified(id);
    if verified {
        title.push(Span::styled(" ✔ verified", theme::verified()));
    }
    if s.preview.cleaning.is_some() {
        title.push(Span::styled(" cleaning…", theme::dim()));
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
        narrow.push(Span::raw(format!(" {id} {}/{docs}", s.preview.doc + 1)));
        if verified {
            narrow.push(Span::styled(" ✔", theme::verified()));
        }
        if s.preview.cleaning.is_some() {
            narrow.push(Span::styled(" …", theme::dim()));
        }
        narrow.push(Span::raw(" "));
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
    let kept = s.preview.kept.filter(|_| !s.preview.only_cleaned);
    // only the lines on screen are drawn: a large document costs no more than a small one
    let end = lines.len().min(s.preview.scroll + content.height as usize);
    let shown: Vec<Line> = lines[s.preview.scroll.min(end)..end]
        .iter()
        .map(|&(a, b)| styled_line(text, a, b, spans, s.preview.cursor, selection, kept))
        .collect();
    frame.render_widget(Paragraph::new(shown), content);
    // the line cursor: a mark on the border beside its line
    if let Some(row) = s.preview.line.checked_sub(s.preview.scroll).filter(|&r| r < content.height as usize)
        && area.x < content.x
    {
        let at = Rect::new(area.x, content.y + row as u16, 1, 1);
        let style = if focused { theme::key() } else { theme::border(false) };
        frame.render_widget(Paragraph::new(Span::styled("▸", style)), at);
    }
    let footer = Rect::new(inner.x, content.bottom(), inner.width, 1);
    frame.render_widget(Paragraph::new(cursor_line(s)), footer);
    if inner.height >= LEGEND_FROM {
        let at = Rect::new(inner.x, inner.bottom() - 1, inner.width, 1);
        frame.render_widget(Paragraph::new(legend()), at);
    }
}

/// One visual line, cut into pieces at span boundaries, at the selection's and at the kept block's under
/// the cursor.
fn styled_line<'a>(
    text: &str,
    a: usize,
    b: usize,
    spans: &[super::super::document::PreviewSpan],
    cursor: Option<usize>,
    selection: Option<(usize, usize)>,
    kept: Option<(usize, usize)>,
) -> Line<'a> {
    let mut out = Vec::new();
    // text[from..to] in `style`, the selected part and the kept block under the cursor patched
    let push = |out: &mut Vec<Span<'a>>, from: usize, to: usize, style: Style| {
        let clamp = |r: Option<(usize, usize)>| r.map_or((to, to), |(x, y)| (x.clamp(from, to), y.clamp(from, to)));
        let (sel, kep) = (clamp(selection), clamp(kept));
        let mut cuts = [from, sel.0, sel.1, kep.0, kep.1, to];
        cuts.sort_unstable();
        for w in cuts.windows(2) {
            let (i, j) = (w[0], w[1]);
            if i < j {
                let mut style = style;
                if sel.0 <= i && j <= sel.1 {
                    style = style.patch(theme::selection());
                }
                if kep.0 <= i && j <= kep.1 {
                    style = style.patch(theme::cursor());
                }
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
    if let Some((a, b)) = s.preview.kept.filter(|_| !s.preview.only_cleaned) {
        // its size in characters of the document, not words: a kept block may be most of a large page
        return Line::from(Span::styled(format!("▸ kept: {} bytes · e why · ]/[ next/previous", b - a), theme::key()));
    }
    let Some(c) = s.preview.cursor.filter(|_| !s.preview.only_cleaned) else {
        let hint = if s.preview.only_cleaned {
            "v: spans highlighted · n/p document".to_string()
        } else {
            format!("{} spans · ]/[ cursor · / search · v cleaned · n/p document", s.preview.spans.len())
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
