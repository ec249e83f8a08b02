//! The status bar: source, documents, tokens, accepted / rejected / pending, the cutoffs, the unsaved
//! marker; below it the go-to input, the miner's progress gauge, or the last message.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{LineGauge, Paragraph};

use crate::mining::Stage;
use crate::rules::Status;

use super::super::session::Session;
use super::super::state::{App, Mode};
use super::{compact, theme, thousands};

fn bar() -> Style {
    Style::new().bg(Color::Rgb(30, 30, 46)).fg(Color::White)
}

/// The first line, as wide as fits: full labels, else compact ones.
fn summary(s: &Session, width: u16) -> Line<'static> {
    let (acc, rej, pend) = (s.count(Status::Accepted), s.count(Status::Rejected), s.count(Status::Pending));
    let (auto, chosen) = (s.mining.auto_cutoff, s.cutoff);
    for compact_form in [false, true] {
        let sep = Span::styled(if compact_form { "│" } else { " │ " }, theme::dim());
        let mut spans = vec![
            Span::styled(format!(" {} ", s.spec.name), Style::new().add_modifier(Modifier::BOLD)),
            sep.clone(),
            Span::raw(if compact_form {
                format!("{} docs", compact(s.corpus.docs.len() as u64))
            } else {
                format!("{} docs", thousands(s.corpus.docs.len() as u64))
            }),
            sep.clone(),
            Span::raw(format!("{} {}", compact(s.mining.tokens), if compact_form { "tok" } else { "tokens" })),
            sep.clone(),
            Span::styled(format!("✓{}{acc}", if compact_form { "" } else { " " }), theme::status(Status::Accepted)),
            Span::raw(" "),
            Span::styled(format!("✗{}{rej}", if compact_form { "" } else { " " }), theme::status(Status::Rejected)),
            Span::raw(" "),
            Span::styled(format!("·{}{pend}", if compact_form { "" } else { " " }), theme::status(Status::Pending)),
            sep.clone(),
            Span::raw(if compact_form {
                format!("cut {auto}%/{chosen}%")
            } else {
                format!("cutoff auto {auto}% chosen {chosen}%")
            }),
        ];
        spans.push(sep.clone());
        // which rules the cleaned preview shows: ✓ accepted (as exported), ✓+· accepted and pending
        spans.push(Span::raw(match (s.preview.with_pending, compact_form) {
            (false, false) => "preview ✓",
            (false, true) => "shows ✓",
            (true, false) => "preview ✓+·",
            (true, true) => "shows ✓+·",
        }));
        let verified = s.draft.verified.pages.len();
        if verified > 0 {
            spans.push(sep.clone());
            spans.push(Span::styled(
                if compact_form { format!("✔{verified}") } else { format!("✔ {verified} verified") },
                theme::verified(),
            ));
        }
        if s.dirty {
            spans.push(sep.clone());
            spans.push(Span::styled("● unsaved", Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)));
        }
        spans.push(sep);
        spans.push(Span::styled(if compact_form { "? keys" } else { "? keys " }, theme::key()));
        let line = Line::from(spans);
        if line.width() <= width as usize || compact_form {
            return line;
        }
    }
    unreachable!("the compact form is returned")
}

pub fn draw(frame: &mut Frame, area: Rect, s: &Session, app: &App) {
    let spans = summary(s, area.width);
    frame.render_widget(Paragraph::new(spans).style(bar()), Rect { height: 1, ..area });
    if area.height < 2 {
        return;
    }
    let line2 = Rect::new(area.x, area.y + 1, area.width, 1);
    if let Mode::GotoDoc(input) = &app.mode {
        let prompt = "go to document (id or number): ";
        let line = Line::from(vec![Span::styled(prompt, theme::key()), Span::raw(input.value().to_string())]);
        frame.render_widget(Paragraph::new(line), line2);
        let x = line2.x + (prompt.chars().count() + input.visual_cursor()) as u16;
        frame.set_cursor_position((x.min(line2.right().saturating_sub(1)), line2.y));
        return;
    }
    if let Mode::Search(input) = &app.mode {
        let prompt = "search the preview (Enter finds, n/N again, Esc cancels): ";
        let width = (line2.width as usize).saturating_sub(prompt.chars().count() + 1).max(1);
        let scroll = input.visual_scroll(width);
        let shown: String = input.value().chars().skip(scroll).take(width).collect();
        let line = Line::from(vec![Span::styled(prompt, theme::key()), Span::raw(shown)]);
        frame.render_widget(Paragraph::new(line), line2);
        let x = line2.x + (prompt.chars().count() + input.visual_cursor().saturating_sub(scroll)) as u16;
        frame.set_cursor_position((x.min(line2.right().saturating_sub(1)), line2.y));
        return;
    }
    if let Mode::EditRegex(edit) = &app.mode {
        let prompt = "regex (Enter checks and accepts, Esc cancels): ";
        let note = match (&edit.error, edit.checking) {
            (_, Some(_)) => Some(Span::styled("  checking…".to_string(), theme::info())),
            // the regex crate's message spans lines: its last line says what is wrong
            (Some(e), None) => {
                let why = e.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or(e);
                Some(Span::styled(format!("  ✗ {}", why.trim()), theme::error()))
            }
            (None, None) => None,
        };
        // only what fits is drawn, the note kept in view: a pasted regex of thousands of characters costs
        // a line, not its length
        let note_width = note.as_ref().map_or(0, |n| n.content.chars().count());
        let width = (line2.width as usize).saturating_sub(prompt.chars().count() + 1 + note_width).max(1);
        let scroll = edit.input.visual_scroll(width);
        let shown: String = edit.input.value().chars().skip(scroll).take(width).collect();
        let mut line = vec![Span::styled(prompt, theme::key()), Span::raw(shown)];
        line.extend(note);
        frame.render_widget(Paragraph::new(Line::from(line)), line2);
        let x = line2.x + (prompt.chars().count() + edit.input.visual_cursor().saturating_sub(scroll)) as u16;
        frame.set_cursor_position((x.min(line2.right().saturating_sub(1)), line2.y));
        return;
    }
    if let Some(job) = &s.job {
        draw_gauge(frame, line2, &format!("re-mining ({})", job.reason), job.stage);
        return;
    }
    draw_message(frame, line2, app);
}

/// The miner's progress: stages done of six.
pub fn draw_gauge(frame: &mut Frame, area: Rect, what: &str, stage: Option<Stage>) {
    let done = stage.and_then(|st| Stage::ALL.iter().position(|&x| x == st)).unwrap_or(0);
    let label = format!("{what}: {} ", stage.map_or("starting", Stage::name));
    let gauge = LineGauge::default()
        .ratio(done as f64 / Stage::ALL.len() as f64)
        .label(label)
        .filled_style(Style::new().fg(Color::Cyan))
        .unfilled_style(Style::new().fg(Color::DarkGray));
    frame.render_widget(gauge, area);
}

pub fn draw_message(frame: &mut Frame, area: Rect, app: &App) {
    let width = area.width as usize;
    let line = match &app.message {
        Some(m) if m.error => Line::from(Span::styled(super::shortened(&m.text, width), theme::error())),
        Some(m) => Line::from(Span::styled(super::shortened(&m.text, width), theme::info())),
        None => Line::default(),
    };
    frame.render_widget(Paragraph::new(line), area);
}
