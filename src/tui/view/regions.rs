//! The region rules list (`G`), drawn over the candidates so the preview beside it shows the selected
//! rule's lines on the page (as its selection): each rule's state, action, element, pages, words, and
//! for the selected one what it holds and what it would do over the whole source.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::super::regions::RegionList;
use super::super::session::Session;
use super::candidates::action_tag;
use super::{printable, theme};
use crate::regions::RegionImpact;
use crate::rules::Status;

fn mark(status: Status) -> &'static str {
    match status {
        Status::Accepted => "✓",
        Status::Rejected => "✗",
        Status::Pending => "·",
    }
}

fn shorten(text: &str, max: usize) -> String {
    let flat = printable(&text.split_whitespace().collect::<Vec<_>>().join(" "));
    if flat.chars().count() > max {
        format!("{}…", flat.chars().take(max.saturating_sub(1)).collect::<String>())
    } else {
        flat
    }
}

pub fn draw(frame: &mut Frame, area: Rect, s: &Session, list: &RegionList) {
    frame.render_widget(Clear, area);
    let regions = s.draft.regions();
    let width = area.width.saturating_sub(2) as usize;
    let pages = s.draft.corpus.docs.len();
    let keys = match &list.naming {
        Some(_) => "naming from this line: B outward · c action · a accept · Esc leaves it",
        None => "a accept · r reject · Backspace pending · c action · 1–5 a page it changes · Esc closes",
    };
    let mut lines = vec![Line::from(Span::styled(keys, theme::dim()))];
    let selected = if list.naming.is_some() { usize::MAX } else { list.selected };
    // the details of the selected rule take the bottom rows; the list scrolls in the rows above
    let detail_rows = 6usize;
    let rows = (area.height as usize).saturating_sub(3 + detail_rows).max(1);
    let offset = if list.naming.is_some() { 0 } else { (list.selected + 1).saturating_sub(rows) };
    lines.push(Line::from(Span::styled(
        format!("   {:<4} {:<28} {:>9} {:>6} {:>6}", "act", "element", "pages", "words", "left"),
        theme::header(),
    )));
    for (i, r) in regions.iter().enumerate().skip(offset).take(rows.saturating_sub(1)) {
        let label = format!(
            "{}{} {:<4} {:<28} {:>9} {:>6} {:>6}",
            if i == selected { "▸" } else { " " },
            mark(r.status),
            action_tag(r.action),
            shorten(&r.element, 28),
            format!("{}/{}", r.df, pages),
            r.words,
            r.kept
        );
        let style = if i == selected { theme::selected(true) } else { theme::status(r.status) };
        lines.push(Line::from(Span::styled(label, style)));
    }
    while lines.len() < rows + 1 {
        lines.push(Line::default());
    }
    let shown = match &list.naming {
        Some(n) => Some(n.rule()),
        None => regions.get(list.selected).cloned(),
    };
    if let Some(r) = &shown {
        let about = match &list.naming {
            Some(n) => {
                format!("named from this line: element {} of {} around it, outermost last", n.at + 1, n.elements.len())
            }
            None => r.example.clone(),
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{} ", r.element), theme::header()),
            Span::raw(shorten(&about, width.saturating_sub(r.element.len() + 1))),
        ]));
        let here = match list.on_page.len() {
            0 => "on this page: not here".to_string(),
            n => format!("on this page: {n} run(s) of lines, {} words (selected in the preview)", list.on_page_words),
        };
        lines.push(Line::from(Span::styled(here, theme::info())));
        let impact = match &list.measured {
            None => Line::from(Span::styled("measuring its impact over the source…", theme::dim())),
            Some(Err(e)) => Line::from(Span::styled(format!("impact not measured: {e}"), theme::error())),
            Some(Ok(m)) => Line::from(Span::raw(format!("{}: {}", action_tag(r.action), summary(m, r.action, pages)))),
        };
        lines.push(impact);
    }
    let accepted = regions.iter().filter(|r| r.status == Status::Accepted).count();
    let title = format!(" Region rules: {} ({} accepted) ", regions.len(), accepted);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border(true))
        .title(Span::styled(title, theme::title()));
    frame.render_widget(Paragraph::new(lines).block(block), area);
}

/// What a region rule does over the source, in a line: the list's and the status line's words.
pub fn summary(m: &RegionImpact, action: crate::rules::Action, pages: usize) -> String {
    let (moved, inside, what) = if action == crate::rules::Action::Keep {
        (m.given_back_inside + m.given_back_outside, m.given_back_inside, "gives back")
    } else {
        (m.removed_inside + m.removed_outside, m.removed_inside, "removes")
    };
    format!("{what} {moved} words on {} of {pages} pages ({inside} in article blocks now)", m.changed)
}
