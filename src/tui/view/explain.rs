//! The explain list (why a preview span is removed: every rule and every stage, each with its state)
//! and the stages popup (the cleaning stages of the source, on or off, and what turning the highlighted one
//! on or off would do over the source).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};

use super::super::session::Session;
use super::super::state::{Explain, ExplainItem, Measure};
use super::candidates::action_name;
use super::impact::measure_lines;
use super::{centered, dialog, printable, shortened, theme};
use crate::clean_settings::{SAFETY_NETS, Stage};

fn excerpt(text: &str, max: usize) -> String {
    let flat = printable(&text.split_whitespace().collect::<Vec<_>>().join(" "));
    if flat.chars().count() > max { format!("{}…", flat.chars().take(max).collect::<String>()) } else { flat }
}

pub fn draw_explain(frame: &mut Frame, area: Rect, s: &Session, x: &Explain) {
    let width = area.width.saturating_sub(8).max(20);
    let text = s.document_text();
    let shown = excerpt(text.get(x.start..x.end).unwrap_or_default(), (width as usize).saturating_sub(4));
    let mut lines = vec![Line::from(vec![
        Span::styled(
            match (x.kept, x.accepted) {
                (true, _) => "kept: ",
                (false, true) => "removed: ",
                (false, false) => "pending: ",
            },
            theme::header(),
        ),
        Span::raw(shown),
    ])];
    if x.items.is_empty() {
        let why = if x.kept {
            "kept: no accepted rule matches this text (a pending one may: ]/[ move to it)"
        } else {
            "no rule or stage named (the merge gap joined it)"
        };
        lines.push(Line::from(Span::styled(why, theme::dim())));
    } else if x.kept {
        lines.push(Line::from(Span::styled(
            "kept: given back by the first stage or keep rule below, over the rules after it",
            theme::dim(),
        )));
    }
    let first_item = lines.len();
    for (i, item) in x.items.iter().enumerate() {
        let label = match item {
            ExplainItem::Rule { id, action } => {
                let state = s.position(id).map_or("stale".to_string(), |k| format!("{:?}", s.status(k)).to_lowercase());
                let text = s.position(id).map_or(String::new(), |k| excerpt(s.text(k), 60));
                format!("rule  {id}  {state} · {}  {text}", action_name(*action))
            }
            ExplainItem::Stage(st) => {
                format!("stage {}  {} · {}", st.name(), if s.stage_on(*st) { "on" } else { "off" }, st.doc())
            }
        };
        let style = if i == x.selected { theme::selected(true) } else { ratatui::style::Style::new() };
        lines.push(Line::from(Span::styled(label, style)));
    }
    let keys = vec![
        key_row(&[("Enter", "opens the rule or turns the stage off"), ("K", "keeps this text")]),
        key_row(&[("Esc", "closes"), ("j/k", "move")]),
    ];
    let popup = centered(area, width, dialog::wanted(&lines, &keys, width));
    // the selected reason stays in sight in a short popup
    let fit = dialog::fit(popup, &lines, &keys);
    let inner_w = popup.width.saturating_sub(2);
    let selected_row = dialog::rows(&lines[..(first_item + x.selected).min(lines.len())], inner_w);
    let scroll = (selected_row + 1).saturating_sub(fit.body as usize);
    let title =
        Line::from(Span::styled(if x.kept { " Why this text is kept " } else { " Why this span " }, theme::title()));
    dialog::draw(frame, popup, title, lines, keys, scroll);
}

/// What a stage does, short enough for its row of the stages list beside its name at 120 columns (the
/// selected stage's whole description shows under the list).
pub fn brief(stage: Stage) -> &'static str {
    match stage {
        Stage::LineBoundary => "a match counts only at a line's start or end",
        Stage::SentenceHeads => "a short match heading prose is a name",
        Stage::SentenceTails => "a short match ending a sentence is an idiom",
        Stage::OwnLine => "a cut mined as a line cuts only as one",
        Stage::Clusters => "a page gets its template cluster's rules",
        Stage::Regions => "the elements region rules name go, or stay",
        Stage::ListItems => "runs opened by list markers are not article",
        Stage::Threads => "a run in a comment thread is not article",
        Stage::CutLines => "a cut's line found alone outside cuts there",
        Stage::ArticleElement => "a footer inside the article cuts nothing",
        Stage::Cuts => "header strings cut before, footers after",
        Stage::Islands => "a few words between removals go too",
        Stage::Title => "a header cut stops at the page's title",
        Stage::Slots => "words beside a cut string on its line go",
        Stage::LineSlots => "words beside a template string's line go",
        Stage::Headline => "the headline a rule took is given back",
        Stage::Datelines => "the dateline and byline are given back",
        Stage::ShortRuns => "short kept runs outside the article go",
        Stage::LinkDensity => "lines mostly of links outside it go",
        Stage::LinkBoxes => "a box of links inside the article goes",
        Stage::Comments => "blocks named for comments go",
        Stage::Furniture => "sidebars, navigation, promotions go",
        Stage::AuthorBox => "the author's box goes",
        Stage::Reprints => "long lines printed twice in a row go",
        Stage::Repeats => "a short line printed 3 times or more goes",
        Stage::Preformatted => "a cut string inside <pre> cuts nothing",
        Stage::Specks => "specks removed inside kept lines come back",
    }
}

/// A row of key hints: each key, then what it does.
fn key_row(pairs: &[(&'static str, &'static str)]) -> Line<'static> {
    let mut spans = Vec::new();
    for (i, (k, what)) in pairs.iter().enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", theme::dim()));
        }
        spans.push(Span::styled(*k, theme::key()));
        spans.push(Span::raw(format!(" {what}")));
    }
    Line::from(spans)
}

/// The stages popup over `area` (the column beside the preview, which follows each stage turned): every
/// stage's state, name and what it does, the selected one's whole description and what turning it would
/// do over the source, the keys under them. A short popup keeps the selected stage in sight and gives the
/// description up first.
pub fn draw_stages(frame: &mut Frame, area: Rect, s: &Session, selected: usize, measure: &Measure) {
    let stage = Stage::ALL[selected];
    let turn = format!("turning {} {}:", stage.name(), if s.stage_on(stage) { "off" } else { "on" });
    let mut measured = measure_lines(s, measure, &[turn], false);
    if s.stage_on(stage) && SAFETY_NETS.contains(&stage) {
        measured.push(Line::from(Span::styled(
            "⚠ it removes text no rule matched: its worth is on pages whose template was not mined, which these pages cannot show",
            theme::error(),
        )));
    }
    let about = vec![Line::from(vec![
        Span::styled(format!("{}: ", stage.name()), theme::header()),
        Span::styled(stage.doc(), theme::dim()),
    ])];
    let keys = vec![
        key_row(&[("Enter/Space", "turns it on or off (the preview follows; w saves)")]),
        key_row(&[("Esc", "closes"), ("j/k", "move"), ("1–5", "a document it changes most")]),
    ];
    let inner_w = area.width.saturating_sub(2);
    let (about_h, measured_h) = (dialog::rows(&about, inner_w) as u16, dialog::rows(&measured, inner_w) as u16);
    let stages = Stage::ALL.len() as u16;
    let wanted = stages + about_h + measured_h + keys.len() as u16 + 2;
    let popup = Rect { height: area.height.min(wanted), ..area };
    frame.render_widget(Clear, popup);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border(true))
        .title(Span::styled(" Cleaning stages of this source ", theme::title()));
    let inner = block.inner(popup);
    frame.render_widget(block, popup);
    // the keys first, then the list (three rows at least), what turning it does, its description
    let keys_h = (keys.len() as u16).min(inner.height);
    let left = inner.height - keys_h;
    let list_h = stages.min(left.saturating_sub(measured_h + about_h).max(left.min(3)));
    let measured_h = measured_h.min(left - list_h);
    let about_h = about_h.min(left - list_h - measured_h);
    let name_w = Stage::ALL.iter().map(|st| st.name().len()).max().unwrap_or(0);
    let brief_w = (inner.width as usize).saturating_sub(4 + name_w + 1);
    let offset = (selected + 1).saturating_sub(list_h as usize);
    let rows: Vec<Line> = Stage::ALL
        .iter()
        .enumerate()
        .skip(offset)
        .take(list_h as usize)
        .map(|(i, st)| {
            let on = s.stage_on(*st);
            let about = if brief_w >= 8 { shortened(brief(*st), brief_w) } else { String::new() };
            let label = format!("[{}] {:<name_w$} {about}", if on { "x" } else { " " }, st.name());
            let style = if i == selected {
                theme::selected(true)
            } else if on {
                ratatui::style::Style::new()
            } else {
                theme::dim()
            };
            Line::from(Span::styled(label, style))
        })
        .collect();
    let mut y = inner.y;
    let mut part = |frame: &mut Frame, lines: Vec<Line>, h: u16, wrap: bool| {
        let at = Rect { y, height: h, ..inner };
        let p = Paragraph::new(lines);
        frame.render_widget(if wrap { p.wrap(Wrap { trim: false }) } else { p }, at);
        y += h;
    };
    part(frame, rows, list_h, false);
    part(frame, about, about_h, true);
    part(frame, measured, measured_h, true);
    let keys = keys.into_iter().map(|k| dialog::cut(k, inner.width as usize)).collect();
    part(frame, keys, keys_h, false);
}
