//! Prompts that need an answer: quitting with unsaved decisions, a rules file changed on disk while
//! there is unsaved work, unsaved work found from an earlier session. The answers are the bindings of
//! the prompt's context.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use crate::rules::Status;

use super::super::keymap::{Context, bindings, keys_label};
use super::super::state::{App, Mode};
use super::{centered, theme};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let Some(s) = app.session() else { return };
    let (title, text, context) = match &app.mode {
        // q in a source opened from the sources table goes back to it
        Mode::QuitPrompt => (
            if app.workspace.is_some() { " Back to the sources? " } else { " Quit? " },
            format!(
                "You have unsaved changes ({} accepted, {} rejected, cutoff {}%). Save them to {} first?",
                s.count(Status::Accepted),
                s.count(Status::Rejected),
                s.cutoff,
                s.spec.rules.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned())
            ),
            Context::QuitPrompt,
        ),
        Mode::ResetPrompt => (
            " Reset to the automatic rules? ",
            format!(
                "Every decision ({} accepted, {} rejected, actions and frame cuts) goes back to what chaff mine \
                 suggests for this source. The cutoff and the stages stay.",
                s.count(Status::Accepted),
                s.count(Status::Rejected),
            ),
            Context::ResetPrompt,
        ),
        Mode::ExportPrompt(plan) => (
            " Export? ",
            if plan.automatic() {
                format!(
                    "Nothing accepted: an export of it would make `chaff clean` change nothing. Export the \
                     automatic rules instead ({} pending rule(s) at or above the cutoff {}%, accepted in the \
                     export; {} rejected left out) to {}?",
                    plan.pending,
                    s.cutoff,
                    plan.rejected,
                    s.spec.export.display()
                )
            } else {
                format!(
                    "Export {} accepted rule(s) to {}? {} pending and {} rejected are left out: `chaff clean` \
                     with the export applies only these.",
                    plan.accepted,
                    s.spec.export.display(),
                    plan.pending,
                    plan.rejected
                )
            },
            Context::ExportPrompt,
        ),
        Mode::MarkPrompt(m) => (
            " Mark as template? ",
            format!(
                "`{}` becomes a rule, accepted; it matches {} of {} documents.",
                m.tokens,
                m.documents,
                s.corpus.docs.len()
            ),
            Context::MarkPrompt,
        ),
        Mode::ConflictPrompt => (
            " Rules file changed on disk ",
            format!(
                "{} was changed by someone else, and you have unsaved decisions. Nothing is overwritten until you choose.",
                s.spec.rules.file_name().map_or(String::new(), |n| n.to_string_lossy().into_owned())
            ),
            Context::ConflictPrompt,
        ),
        Mode::JournalPrompt(replay) => (
            " Unsaved work found ",
            format!("An earlier session ended without saving: {}. Restore it?", replay.summary()),
            Context::JournalPrompt,
        ),
        _ => return,
    };
    let mut lines = vec![Line::from(text), Line::default()];
    let keys_w = bindings(context).map(|b| keys_label(b.keys).chars().count()).max().unwrap_or(0) + 2;
    for b in bindings(context) {
        lines.push(Line::from(vec![
            Span::styled(format!("  {:<keys_w$}", keys_label(b.keys)), theme::key()),
            Span::raw(b.desc),
        ]));
    }
    let popup = centered(area, 64, lines.len() as u16 + 4);
    frame.render_widget(Clear, popup);
    let block = Block::bordered().title(Span::styled(title, theme::title())).border_style(theme::border(true));
    frame.render_widget(Paragraph::new(lines).block(block).wrap(Wrap { trim: true }), popup);
}
