//! A candidate's detail: its statistics, the full regex, an example, and occurrences with context from
//! the first documents holding it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::super::session::Session;
use super::super::state::Detail;
use super::candidates::{action_name, styled_text};
use super::{dialog, printable, theme, thousands};

/// Where the detail goes on a screen of `area`: over all of it but a margin.
fn popup(area: Rect) -> Rect {
    Rect::new(area.x + 2, area.y + 1, area.width.saturating_sub(4), area.height.saturating_sub(2))
}

pub fn draw(frame: &mut Frame, area: Rect, s: &Session, d: &Detail) {
    let Some((title, lines, keys)) = content(s, d) else { return };
    dialog::draw(frame, popup(area), title, lines, keys, d.scroll);
}

/// How far the detail scrolls on a screen of `area` (its keys stay under it).
pub fn max_scroll(s: &Session, d: &Detail, area: Rect) -> usize {
    content(s, d).map_or(0, |(_, lines, keys)| dialog::fit(popup(area), &lines, &keys).max_scroll)
}

type Content = (Line<'static>, Vec<Line<'static>>, Vec<Line<'static>>);

fn content(s: &Session, d: &Detail) -> Option<Content> {
    let m = s.mining.strings.get(d.string)?;
    let st = s.status(d.string);
    let title = Line::from(vec![
        Span::styled(format!(" Candidate {} ", m.id), theme::title()),
        Span::styled(format!("{} {:?} ", st.symbol(), st).to_lowercase(), theme::status(st)),
        Span::styled(format!("· {} ", action_name(s.rule_action(d.string))), theme::dim()),
    ]);
    let keys = vec![Line::from(vec![
        Span::styled("a/r/Backspace/c", theme::key()),
        Span::raw(" decide · "),
        Span::styled("1–5", theme::key()),
        Span::raw(" most changed · "),
        Span::styled("↑/↓", theme::key()),
        Span::raw(" scroll · "),
        Span::styled("Esc", theme::key()),
        Span::raw(" closes"),
    ])];
    let label = |t: &str| Span::styled(format!("{t:<9}"), theme::header());
    let docs = s.mining.documents.max(1) as f64;
    let mut lines = vec![
        Line::from([vec![label("string")], styled_text(s.text(d.string), Style::new())].concat()),
        Line::from(vec![
            label("stats"),
            Span::raw(format!(
                "df {} ({:.0}% of {} documents) · tf {} · {} tokens · coverage {} characters ({} new) · bin {}%",
                thousands(m.df),
                m.df as f64 * 100.0 / docs,
                thousands(s.mining.documents as u64),
                thousands(m.tf),
                m.symbols.len(),
                thousands(m.coverage),
                thousands(m.adds),
                m.bin
            )),
        ]),
    ];
    if let Some(r) = s.drift.as_ref().and_then(|d| d.rules.iter().find(|r| r.id == m.id)) {
        lines.push(Line::from(vec![
            label("drift"),
            Span::styled(
                format!(
                    "matched {:.0}% of the documents when mined, {:.0}% of these{}",
                    r.then * 100.0,
                    r.now * 100.0,
                    if r.stopped { ": it stopped matching" } else { "" }
                ),
                if r.stopped { theme::idiom() } else { Style::new() },
            ),
        ]));
    }
    if m.idiom {
        lines.push(Line::from(vec![
            label("idiom"),
            Span::styled("a candidate in many sources (second-level filter): starts rejected", theme::idiom()),
        ]));
    }
    // the regex in force: the editor's own (`E`) where she wrote one, with the mined one under it
    let regex = s.current_rule(d.string).regex;
    if regex != m.regex {
        lines.push(Line::from(vec![
            label("regex"),
            Span::styled(regex, theme::key()),
            Span::styled(" (edited)", theme::dim()),
        ]));
        lines.push(Line::from(vec![label("mined"), Span::styled(m.regex.clone(), theme::dim())]));
    } else {
        lines.push(Line::from(vec![label("regex"), Span::styled(regex, theme::key())]));
    }
    lines.push(Line::from(vec![label("example"), Span::raw(printable(&m.example))]));
    lines.push(Line::default());
    lines.push(Line::from(vec![
        Span::styled("What each decision would change", theme::header()),
        Span::styled(
            if s.preview.with_pending {
                " (accepted and pending rules, as the cleaned preview with +)"
            } else {
                " (accepted rules, as exported)"
            },
            theme::dim(),
        ),
    ]));
    let labels: Vec<String> = d.choices.iter().map(|c| c.label.clone()).collect();
    lines.extend(super::impact::measure_lines(s, &d.measure, &labels, true));
    lines.push(Line::default());
    lines.push(Line::from(Span::styled(
        format!("Occurrences in the first {} documents holding it", d.occurrences.len()),
        theme::header(),
    )));
    for o in &d.occurrences {
        lines.push(Line::from(vec![
            Span::styled(format!("{:<9}", o.doc), theme::dim()),
            Span::raw(format!("…{}", printable(&o.before))),
            Span::styled(
                printable(&o.matched),
                theme::mark(super::super::document::Mark::Accepted(crate::cleaning::SpanKind::Removed)),
            ),
            Span::raw(format!("{}…", printable(&o.after))),
        ]));
    }
    Some((title, lines, keys))
}
