//! The explain list (why a preview span is removed: every rule and every stage, each with its state)
//! and the stages popup (the cleaning stages of the source, on or off, and what turning the highlighted one
//! on or off would do over the source).

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};

use super::super::session::Session;
use super::super::state::{Explain, ExplainItem, Measure};
use super::candidates::action_name;
use super::impact::measure_lines;
use super::{centered, printable, theme};
use crate::clean_settings::{SAFETY_NETS, Stage};

fn excerpt(text: &str, max: usize) -> String {
    let flat = printable(&text.split_whitespace().collect::<Vec<_>>().join(" "));
    if flat.chars().count() > max { format!("{}…", flat.chars().take(max).collect::<String>()) } else { flat }
}

pub fn draw_explain(frame: &mut Frame, area: Rect, s: &Session, x: &Explain) {
    let width = area.width.saturating_sub(8).max(20);
    let rows = x.items.len() as u16 + 5 + u16::from(x.kept);
    let popup = centered(area, width, rows.max(8));
    frame.render_widget(Clear, popup);
    let text = s.document_text();
    let shown = excerpt(text.get(x.start..x.end).unwrap_or_default(), width as usize - 4);
    let mut lines = vec![
        Line::from(vec![
            Span::styled(
                match (x.kept, x.accepted) {
                    (true, _) => "kept: ",
                    (false, true) => "removed: ",
                    (false, false) => "pending: ",
                },
                theme::header(),
            ),
            Span::raw(shown),
        ]),
        Line::from(Span::styled(
            "Enter opens a rule or turns a stage off · K keeps this text · Esc closes",
            theme::dim(),
        )),
    ];
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
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border(true))
        .title(Span::styled(if x.kept { " Why this text is kept " } else { " Why this span " }, theme::title()));
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}

pub fn draw_stages(frame: &mut Frame, area: Rect, s: &Session, selected: usize, measure: &Measure) {
    // what turning the highlighted stage on or off would do, before it is done
    let stage = Stage::ALL[selected];
    let turn = format!("turning {} {}:", stage.name(), if s.stage_on(stage) { "off" } else { "on" });
    let mut measured = measure_lines(s, measure, &[turn], false);
    if s.stage_on(stage) && SAFETY_NETS.contains(&stage) {
        measured.push(Line::from(Span::styled(
            "⚠ it removes text no rule matched: its worth is on pages whose template was not mined, which these pages cannot show",
            theme::error(),
        )));
    }
    let popup = Rect { height: area.height.min((Stage::ALL.len() + measured.len()) as u16 + 3), ..area };
    frame.render_widget(Clear, popup);
    let mut lines = vec![Line::from(Span::styled(
        "Enter or Space turns a stage on or off (the preview follows; w saves it) · Esc closes",
        theme::dim(),
    ))];
    // a short popup scrolls to keep the selected stage in sight
    let rows = (popup.height as usize).saturating_sub(3 + measured.len()).max(1);
    let offset = (selected + 1).saturating_sub(rows);
    for (i, st) in Stage::ALL.iter().enumerate().skip(offset).take(rows) {
        let on = s.stage_on(*st);
        let label = format!("[{}] {:<15} {}", if on { "x" } else { " " }, st.name(), st.doc());
        let style = if i == selected {
            theme::selected(true)
        } else if on {
            ratatui::style::Style::new()
        } else {
            theme::dim()
        };
        lines.push(Line::from(Span::styled(label, style)));
    }
    lines.extend(measured);
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme::border(true))
        .title(Span::styled(" Cleaning stages of this source ", theme::title()));
    frame.render_widget(Paragraph::new(lines).block(block), popup);
}
