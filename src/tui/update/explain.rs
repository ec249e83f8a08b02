//! The explain list and the stages popup: why a preview span is removed (every rule that matched it and
//! every stage that decided), and the cleaning stages of the source, each on or off. From either the
//! editor fixes what she sees: opens a rule, turns a stage off, keeps the span.

use crate::cleaning::Reason;
use crate::rules::Action as RuleAction;

use crate::tui::action::Action;
use crate::tui::cleaning::Explained;
use crate::tui::document::Mark;
use crate::tui::session::{Pane, Session};
use crate::tui::state::{App, Explain, ExplainItem, Mode, Screen};

/// The explain list of the preview's cursor: its span (why it is removed), else its kept block or line
/// (why it is kept: no rule matched, or which stages and keep rules gave it back).
pub(super) fn open(app: &mut App) {
    let Some(s) = app.session() else { return };
    if s.preview.only_cleaned {
        app.info("v shows the document again: the cleaned text has nothing removed to explain");
        return;
    }
    if let Some(span) = s.preview.cursor.and_then(|c| s.preview.spans.get(c)) {
        let (start, end) = (span.start, span.end);
        let accepted = matches!(span.mark, Mark::Accepted(_));
        let items = if accepted { accepted_reasons(s, start, end) } else { pending_reasons(&span.rules, s) };
        app.mode = Mode::Explain(Explain { start, end, accepted, kept: false, items, selected: 0 });
        return;
    }
    let Some((start, end)) = super::tune::cursor_range(s) else { return };
    let items = kept_reasons(s, start, end);
    app.mode = Mode::Explain(Explain { start, end, accepted: true, kept: true, items, selected: 0 });
}

/// Why `start..end` is kept: the stages and keep rules that gave it back over the rules they overruled (no
/// item: no accepted rule matched it).
fn kept_reasons(s: &Session, start: usize, end: usize) -> Vec<ExplainItem> {
    let Some(Explained { cleaner: c, explanation: e }) = s.preview.explained.as_ref() else { return Vec::new() };
    let mut items = Vec::new();
    for d in e.decisions_in(start, end).filter(|d| !d.removed) {
        // the giver first: a stage or a keep rule, then the rules it overruled
        let mut reasons = d.reasons.clone();
        reasons.sort_by_key(|r| !matches!(r, Reason::Stage(_) | Reason::Rule { action: RuleAction::Keep, .. }));
        for r in reasons {
            let item = match r {
                Reason::Rule { rule, action } => ExplainItem::Rule { id: c.rule_id(rule).to_string(), action },
                Reason::Stage(st) => ExplainItem::Stage(st),
            };
            if !items.contains(&item) {
                items.push(item);
            }
        }
    }
    items
}

/// Every rule and stage the accepted rules' cleaner names for what it removed of `start..end` (a region
/// rule by its id, `region:<element>`), as the pass that made the preview's spans recorded it.
fn accepted_reasons(s: &Session, start: usize, end: usize) -> Vec<ExplainItem> {
    let Some(Explained { cleaner: c, explanation: e }) = s.preview.explained.as_ref() else { return Vec::new() };
    let mut rules = Vec::new();
    let mut stages = Vec::new();
    for d in e.decisions_in(start, end).filter(|d| d.removed) {
        for r in &d.reasons {
            match *r {
                Reason::Rule { rule, action } => {
                    let item = ExplainItem::Rule { id: c.rule_id(rule).to_string(), action };
                    if !rules.contains(&item) {
                        rules.push(item);
                    }
                }
                Reason::Stage(st) => {
                    if !stages.contains(&ExplainItem::Stage(st)) {
                        stages.push(ExplainItem::Stage(st));
                    }
                }
            }
        }
    }
    rules.extend(stages);
    rules
}

/// A pending span's rules: what accepting them would remove (a region rule with its action).
fn pending_reasons(ids: &[String], s: &Session) -> Vec<ExplainItem> {
    ids.iter()
        .map(|id| {
            let action = match id.strip_prefix(crate::rules::region::REGION_PREFIX) {
                Some(element) => s.draft.region(element).map_or(RuleAction::Remove, |r| r.action),
                None => s.position(id).map_or(RuleAction::Remove, |i| s.rule_action(i)),
            };
            ExplainItem::Rule { id: id.clone(), action }
        })
        .collect()
}

pub(super) fn explain(app: &mut App, action: Action) {
    let Mode::Explain(x) = &mut app.mode else { return };
    match action {
        Action::Close => app.mode = Mode::Normal,
        Action::Up => x.selected = x.selected.saturating_sub(1),
        Action::Down => x.selected = (x.selected + 1).min(x.items.len().saturating_sub(1)),
        Action::KeepSpan => {
            let (start, end) = (x.start, x.end);
            app.mode = Mode::Normal;
            keep(app, start, end);
        }
        Action::Submit => {
            let Some(item) = x.items.get(x.selected).cloned() else { return };
            app.mode = Mode::Normal;
            match item {
                ExplainItem::Rule { id, .. } => select_rule(app, &id),
                ExplainItem::Stage(stage) => {
                    let Screen::Tune(s) = &mut app.screen else { return };
                    s.set_stage(stage, false);
                    app.info(format!("stage {stage} is off for this source (u undoes it; S lists the stages)"));
                }
            }
        }
        _ => {}
    }
}

/// Selects rule `id` in the candidate list.
pub(super) fn select_rule(app: &mut App, id: &str) {
    if let Some(element) = id.strip_prefix(crate::rules::region::REGION_PREFIX) {
        return app.info(format!("{id} is a region rule: G lists them, {element} among them"));
    }
    let Some(s) = app.session_mut() else { return };
    match s.position(id).and_then(|i| s.list.rows.iter().position(|&r| r == i)) {
        Some(pos) => {
            s.list.select(pos);
            s.list.scroll_into_view(s.page);
            s.focus = Pane::Candidates;
        }
        None => app.info(format!("rule {id} is not in the list (below the cutoff, filtered out, or stale)")),
    }
}

/// Asks to keep `start..end` of the shown document (an accepted keep rule of its text), with its impact.
pub(super) fn keep(app: &mut App, start: usize, end: usize) {
    let Some(s) = app.session() else { return };
    let text = s.document_text();
    let symbols = crate::editing::symbols_of(&text[start..end], s.mining.tokenizer, &s.ready.mutable);
    if symbols.is_empty() {
        return app.info("nothing to keep: select text (V, or drag the mouse) or put the cursor on a span (]/[)");
    }
    let tokens = crate::symbol::display(&symbols);
    super::impact::open_mark(app, start, end, tokens, RuleAction::Keep);
}

/// Keeps the preview's selection, else the span under its cursor (asks first).
pub(super) fn keep_cursor_span(app: &mut App) {
    let Some(s) = app.session_mut() else { return };
    if let Some((start, end)) = s.preview.selected() {
        keep(app, start, end);
        return;
    }
    let Some(span) = s.preview.cursor.and_then(|c| s.preview.spans.get(c)) else {
        app.info("no span under the cursor: ] and [ move it between removed spans");
        return;
    };
    let (start, end) = (span.start, span.end);
    keep(app, start, end);
}

/// Asks to mark the preview's selection, else its cursor line, as template: the rule it makes and on how
/// many documents it matches.
pub(super) fn mark_line(app: &mut App) {
    let Some(s) = app.session() else { return };
    if s.preview.only_cleaned {
        app.info("v shows the document again: lines are marked on the document, not its cleaned text");
        return;
    }
    let text = s.document_text();
    let (start, end) = match s.preview.selected() {
        Some(range) => range,
        None => {
            let lines = s.preview_lines();
            let Some(&(at, _)) = lines.get(s.preview.line) else { return };
            let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            (start, text[at..].find('\n').map_or(text.len(), |i| at + i))
        }
    };
    let tokenizer = s.mining.tokenizer;
    let symbols = crate::editing::symbols_of(&text[start..end], tokenizer, &s.ready.mutable);
    if symbols.is_empty() {
        app.info("nothing to mark: select text (V, or drag the mouse) or move the line cursor (j/k) to a line");
        return;
    }
    let tokens = crate::symbol::display(&symbols);
    super::impact::open_mark(app, start, end, tokens, RuleAction::Remove);
}

/// The mark dialog (`T`, `K`): `y` adds the rule with the action shown, `c` cycles the action (measured
/// again), a digit shows a most changed document, Esc leaves everything as it was.
pub(super) fn mark_prompt(app: &mut App, action: Action) {
    let Mode::MarkPrompt(m) = &app.mode else { return };
    let (start, end, rule_action) = (m.start, m.end, m.action);
    match action {
        Action::Submit => {
            app.mode = Mode::Normal;
            let Screen::Tune(s) = &mut app.screen else { return };
            s.preview.selection = None;
            match (s.rule_from_preview(start, end, rule_action), rule_action) {
                (Ok(id), RuleAction::Keep) => app.info(format!(
                    "kept: rule {id} (action keep) protects this text from every rule and stage (u undoes it)"
                )),
                (Ok(id), RuleAction::Remove) => {
                    app.info(format!("rule {id} added, accepted: this text is template now (u undoes it)"))
                }
                (Ok(id), a) => app.info(format!(
                    "rule {id} added, accepted as {} (u undoes it)",
                    crate::tui::view::candidates::action_name(a)
                )),
                (Err(e), _) => app.error(e),
            }
        }
        Action::CycleRuleAction => super::impact::cycle_mark_action(app),
        Action::Jump(n) => {
            super::impact::close_dialog(app);
            super::impact::jump(app, n);
        }
        Action::Close => super::impact::close_dialog(app),
        _ => {}
    }
}
