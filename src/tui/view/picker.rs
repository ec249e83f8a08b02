//! The sources table: per source its documents, rules accepted / pending, share of text removed,
//! review, drift and verified pages; the sort column marked in the header. Only the rows in sight are
//! drawn, so a frame costs the same on ten sources or a thousand.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph};

use super::super::state::{App, Picker};
use super::super::workspace::scan::{Measure, RulesInfo};
use super::super::workspace::{Row, SortBy, page};
use super::status::{draw_gauge, draw_message};
use super::{printable, theme, thousands};
use crate::review::ReviewState;

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

/// The columns after the name: header, width, and the sort they mark.
const COLUMNS: [(&str, usize, Option<SortBy>); 7] = [
    ("docs", 7, Some(SortBy::Documents)),
    ("✓ acc", 7, None),
    ("· pend", 8, Some(SortBy::Pending)),
    ("removed", 9, Some(SortBy::Removed)),
    ("reviewed", 12, Some(SortBy::Review)),
    ("drift", 8, Some(SortBy::Drift)),
    ("verified", 9, None),
];

fn fit(name: &str, w: usize) -> String {
    let name = printable(name);
    if name.chars().count() <= w {
        return format!("{name:<w$}");
    }
    let cut: String = name.chars().take(w.saturating_sub(1)).collect();
    format!("{cut}…")
}

fn header(name_w: usize, sort: SortBy) -> Line<'static> {
    let mark = |s: Option<SortBy>| if s == Some(sort) { "▼" } else { "" };
    let mut spans = vec![
        Span::raw("  "),
        Span::styled(fit(&format!("source{}", mark(Some(SortBy::Name))), name_w), theme::header()),
    ];
    for (title, w, s) in COLUMNS {
        spans.push(Span::styled(format!("{:>w$}", format!("{title}{}", mark(s))), theme::header()));
    }
    Line::from(spans)
}

/// A cell right-aligned to `w`.
fn cell(text: impl Into<String>, w: usize, style: Style) -> Span<'static> {
    Span::styled(format!("{:>w$}", text.into()), style)
}

fn row_line(r: &Row, name_w: usize, selected: bool) -> Line<'static> {
    let w = |i: usize| COLUMNS[i].1;
    let waiting = "…";
    let mut spans = vec![
        Span::raw(if selected { "▸ " } else { "  " }),
        Span::styled(fit(&r.name, name_w), theme::title()),
        cell(r.documents.map_or(waiting.to_string(), |d| thousands(d as u64)), w(0), Style::default()),
    ];
    match &r.rules {
        None => spans.push(cell(waiting, w(1) + w(2), theme::dim())),
        Some(RulesInfo::None) => spans.push(cell("no rules yet", w(1) + w(2), theme::dim())),
        Some(RulesInfo::Unusable(_)) => spans.push(cell("unusable rules", w(1) + w(2), theme::error())),
        Some(RulesInfo::Rules(s)) => {
            spans.push(cell(thousands(s.accepted as u64), w(1), Style::default()));
            spans.push(cell(thousands(s.pending as u64), w(2), Style::default()));
        }
    }
    let removed = match &r.measure {
        Measure::Waiting => cell(waiting, w(3), theme::dim()),
        Measure::None => cell("—", w(3), theme::dim()),
        Measure::Failed(_) => cell("failed", w(3), theme::error()),
        // measured with the pending rules (none accepted yet): what the automatic rules would remove
        Measure::Done { removed, pending: true, .. } => cell(format!("({:.0}%)", removed * 100.0), w(3), theme::dim()),
        Measure::Done { removed, .. } => cell(format!("{:.0}%", removed * 100.0), w(3), Style::default()),
    };
    spans.push(removed);
    let reviewed = match (&r.rules, r.review()) {
        (Some(RulesInfo::Rules(s)), ReviewState::Reviewed) => {
            let day = s.reviewed_at.as_deref().map_or("yes", |t| t.get(..10).unwrap_or(t));
            cell(day.to_string(), w(4), Style::default())
        }
        (_, ReviewState::Changed) => cell("changed", w(4), theme::error()),
        (None, _) => cell(waiting, w(4), theme::dim()),
        _ => cell("no", w(4), theme::dim()),
    };
    spans.push(reviewed);
    let drift = match r.drift() {
        Some(d) if r.drifted() => cell(format!("{d:.2} !"), w(5), theme::error()),
        Some(d) => cell(format!("{d:.2}"), w(5), Style::default()),
        None if r.measure == Measure::Waiting && matches!(r.rules, Some(RulesInfo::Rules(_))) => {
            cell(waiting, w(5), theme::dim())
        }
        None => cell("—", w(5), theme::dim()),
    };
    spans.push(drift);
    let verified = match &r.rules {
        Some(RulesInfo::Rules(s)) if s.verified.is_some() => {
            cell(thousands(s.verified.unwrap_or(0) as u64), w(6), Style::default())
        }
        _ => cell("—", w(6), theme::dim()),
    };
    spans.push(verified);
    let line = Line::from(spans);
    if selected { line.style(theme::selected(true)) } else { line }
}

pub fn draw(frame: &mut Frame, area: Rect, p: &Picker, app: &App) {
    let list = list_area(area);
    let [_, bottom] = Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(area);
    let read = p.rows.iter().filter(|r| r.rules.is_some() && r.measure != Measure::Waiting).count();
    let mut title = format!(
        "· sources in {}/ · {} shown, {} to review · sorted by {} ",
        printable(&root_name(&p.root)),
        p.shown.len(),
        p.left_to_review(),
        p.sort.label()
    );
    if !p.filter.is_empty() || matches!(app.mode, super::super::state::Mode::Filter(_)) {
        title.push_str(&format!("· filter: {}▏ ", printable(&p.filter)));
    }
    if read < p.rows.len() {
        title.push_str(&format!("· reading {read}/{} ", p.rows.len()));
    }
    let title = Line::from(vec![Span::styled(" chaff ", theme::title()), Span::raw(title)]);
    let block = Block::bordered().title(title).border_style(theme::border(true));
    let fixed: usize = COLUMNS.iter().map(|c| c.1).sum::<usize>() + 2;
    let longest = p.shown.iter().map(|&i| p.rows[i].name.chars().count()).max().unwrap_or(0);
    let room = (list.width as usize).saturating_sub(2 + fixed);
    let name_w = longest.max(8).min(room.max(8));
    let mut lines = vec![header(name_w, p.sort)];
    let rows = page(list);
    for (k, &i) in p.shown.iter().enumerate().skip(p.offset).take(rows) {
        lines.push(row_line(&p.rows[i], name_w, k == p.selected));
    }
    if p.shown.is_empty() {
        lines.push(Line::from(Span::styled("  no source's name holds the filter (Esc clears it)", theme::dim())));
    }
    frame.render_widget(Paragraph::new(lines).block(block), list);
    let hint = "Enter open · n next to review · s sort · / filter · ? keys · q quit";
    frame.render_widget(Paragraph::new(Line::from(Span::styled(hint, theme::dim()))), Rect { height: 1, ..bottom });
    let line2 = Rect::new(bottom.x, bottom.y + 1, bottom.width, 1);
    match &p.opening {
        Some(o) => draw_gauge(frame, line2, &format!("mining {}", o.opened.spec.name), o.stage),
        None => draw_message(frame, line2, app),
    }
}
