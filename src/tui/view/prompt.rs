//! Prompts that need an answer: quitting with unsaved decisions, a rules file changed on disk while
//! there is unsaved work, unsaved work found from an earlier session. The answers are the bindings of
//! the prompt's context.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use crate::rules::{Action as RuleAction, Status};

use super::super::action::Action;
use super::super::keymap::{Context, bindings, keys_label};
use super::super::state::{App, Mode};
use super::candidates::action_name;
use super::impact::{here_line, measure_lines};
use super::{centered, dialog, theme};

/// A prompt as drawn: its title, its body (what it asks and what the decision would do), its key hints,
/// and the width it asks for.
struct Prompt {
    title: &'static str,
    body: Vec<Line<'static>>,
    keys: Vec<Line<'static>>,
    width: u16,
}

impl Prompt {
    /// Where it goes on a screen of `area`: centred, as tall as it wants and the screen allows.
    fn place(&self, area: Rect) -> Rect {
        let width = self.width.min(area.width);
        centered(area, width, dialog::wanted(&self.body, &self.keys, width))
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let Some(p) = prompt(app, area) else { return };
    let title = Line::from(Span::styled(p.title, theme::title()));
    dialog::draw(frame, p.place(area), title, p.body, p.keys, app.dialog_scroll);
}

/// How far the open prompt's body scrolls on a screen of `area` (0: it fits, or no prompt is open).
pub fn max_scroll(app: &App, area: Rect) -> usize {
    prompt(app, area).map_or(0, |p| dialog::fit(p.place(area), &p.body, &p.keys).max_scroll)
}

/// Whether `action` scrolls a dialog (the keys of [`Context::Dialog`], under every prompt's own; the
/// border says so when the body does not fit).
pub fn scrolls(action: Action) -> bool {
    matches!(action, Action::Up | Action::Down | Action::PageUp | Action::PageDown)
}

fn prompt(app: &App, area: Rect) -> Option<Prompt> {
    let s = app.session()?;
    let (title, text, context) = match &app.mode {
        // q in a source opened from the sources table goes back to it
        Mode::QuitPrompt => (
            if app.workspace.is_some() { " Back to the sources? " } else { " Quit? " },
            // what is unsaved, each kind named: a page marked verified is work as a decision is
            format!(
                "Unsaved: {}. Save them to {} first?",
                Some(s.unsaved_work().join("; ")).filter(|w| !w.is_empty()).unwrap_or_else(|| "changes".into()),
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
            if m.action == RuleAction::Keep { " Keep this text? " } else { " Mark as template? " },
            format!(
                "`{}` becomes a rule, accepted, {}; it matches {} of {} documents.",
                clip(&m.tokens),
                match m.action {
                    RuleAction::Keep => "kept from every rule and stage".to_string(),
                    RuleAction::Remove => "removed".to_string(),
                    a => format!(
                        "a {} (where it matches, everything {} it goes unless a stage stops the cut)",
                        action_name(a),
                        if a == RuleAction::CutBefore { "before" } else { "after" }
                    ),
                },
                m.documents.map_or_else(|| "…".to_string(), |d| d.to_string()),
                s.corpus.docs.len()
            ),
            Context::MarkPrompt,
        ),
        // what a cut takes is said by its measure, here and over the source: a cut the stages stop, or with
        // nothing before or after it on a page, takes nothing there
        Mode::ActionPrompt(a) => (
            " Make it a cut? ",
            format!(
                "`{}` becomes a {}, accepted: where it matches, everything {} it goes unless a stage stops the cut.",
                clip(s.text(a.string)),
                action_name(a.action),
                if a.action == RuleAction::CutBefore { "before" } else { "after" },
            ),
            Context::ActionPrompt,
        ),
        Mode::CutoffPrompt(c) => (
            " Take this cutoff? ",
            format!(
                "Cutoff {}% → {}% (auto {}%): {} candidates at or above it, {} now. It decides which pending \
                 rules are in force: measured with {}.",
                s.cutoff,
                c.target,
                s.mining.auto_cutoff,
                s.mining.candidates(c.target).count(),
                s.mining.candidates(s.cutoff).count(),
                if s.preview.with_pending {
                    "the accepted and pending rules, as the preview counts them"
                } else {
                    "the accepted rules alone, which no cutoff changes (+ counts the pending ones)"
                },
            ),
            Context::CutoffPrompt,
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
        _ => return None,
    };
    let mut lines = vec![Line::from(text)];
    // what a cut would do to the page in view: said apart from the source's figures
    let here = match &app.mode {
        Mode::MarkPrompt(m) if m.action.is_cut() => here_line(s, &m.measure, true),
        Mode::ActionPrompt(a) => here_line(s, &a.measure, a.matches_here),
        _ => None,
    };
    lines.extend(here);
    lines.push(Line::default());
    // what the decision would do over the whole source, measured in the background
    let measured = match &app.mode {
        Mode::MarkPrompt(m) => Some(measure_lines(s, &m.measure, &[String::new()], m.action.is_cut())),
        Mode::ActionPrompt(a) => Some(measure_lines(s, &a.measure, &[String::new()], a.action.is_cut())),
        Mode::CutoffPrompt(c) => Some(measure_lines(s, &c.measure, &[String::new()], false)),
        _ => None,
    };
    if let Some(measured) = &measured {
        lines.extend(measured.iter().cloned());
        lines.push(Line::default());
    }
    let listed: Vec<_> = bindings(context).collect();
    let keys_w = listed.iter().map(|b| keys_label(b.keys).chars().count()).max().unwrap_or(0) + 2;
    let keys = listed
        .into_iter()
        .map(|b| {
            Line::from(vec![
                Span::styled(format!("  {:<keys_w$}", keys_label(b.keys)), theme::key()),
                Span::raw(b.desc),
            ])
        })
        .collect();
    let width = if measured.is_some() { area.width.saturating_sub(4).min(110) } else { 64 };
    Some(Prompt { title, body: lines, keys, width })
}

/// A rule's text as a dialog quotes it: at most a few lines' worth (a marked line may be a whole page).
fn clip(text: &str) -> String {
    const MAX: usize = 160;
    if text.chars().count() <= MAX {
        return text.to_string();
    }
    let head: String = text.chars().take(MAX - 1).collect();
    format!("{head}…")
}
