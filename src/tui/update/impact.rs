//! A decision's impact over the whole source: measured in the background after every change of the rules
//! (the status line says what it did) and before a decision is taken (the mark and cut dialogs, a
//! candidate's detail; the cutoff and stage what-ifs of `what_if.rs`); the documents it changed most, each a key away in the preview and one key back; the
//! previewed page marked verified or unmarked. Nothing here draws.

use std::sync::Arc;

use crate::rules::{Action as RuleAction, Rule, Status};

use crate::tui::action::Action;
use crate::tui::impact::{Answer, Answered, Ask, ImpactRequest, Kind};
use crate::tui::session::{Jump, Session};
use crate::tui::state::{ActionAsk, App, Choice, Detail, MarkLine, Measure, Mode, Screen};
use crate::tui::view::impact::{summary, verified_changes};

/// The most changed documents each a key away (`1`…`5`).
pub const JUMPS: usize = 5;

pub(super) fn request(s: &Session, ask: Ask) -> ImpactRequest {
    ImpactRequest { corpus: Arc::clone(&s.draft.corpus), include_pending: s.preview.with_pending, ask }
}

/// The rules changed (a decision, an undo, a new mining): the worker measures what the change did, from
/// the rules it measured last, for the status line, which says it after what the editor did (the message
/// the change left, else the step). Without `decision` (a source opened) the worker only catches up.
pub(super) fn after_change(app: &mut App, decision: bool) {
    let label = label_or_step(app);
    let Screen::Tune(s) = &mut app.screen else { return };
    if s.draft.patterns != s.draft.mining.patterns {
        // patterns edited, the source not mined with them yet: measured when the new mining comes
        return;
    }
    let after = s.draft.snapshot();
    let before = s.impact_file.replace(after.clone());
    let ask = match before {
        Some(before) if before.same(&after) => return,
        Some(before) if decision => Ask::Decision { before, after },
        _ => Ask::Warm { rules: after },
    };
    if matches!(ask, Ask::Decision { .. }) {
        s.pending_label = label;
    }
    let r = request(s, ask);
    app.impact.request(r);
}

/// What the editor did, as the message says it (or as the history names the step).
fn label_or_step(app: &App) -> String {
    match (&app.message, app.session()) {
        (Some(m), _) => m.text.clone(),
        (None, Some(s)) => s.history.last().map_or_else(|| "the change".to_string(), |step| step.describe()),
        (None, None) => String::new(),
    }
}

/// The worker's rules are moot (the preview now counts the pending rules, or not): it measures again.
pub(super) fn warm(app: &mut App) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let rules = s.draft.snapshot();
    s.impact_file = Some(rules.clone());
    let r = request(s, Ask::Warm { rules });
    app.impact.request(r);
}

/// An answer of the impact worker. Returns whether the state changed.
pub fn on_impact(app: &mut App, answer: Answer) -> bool {
    let Answer { generation, result, .. } = answer;
    let result = match result {
        Ok(r) => r,
        Err(e) => {
            // a dialog waiting for it says so in place; elsewhere the status line does
            if !fill(app, generation, Err(e.clone())) && !super::regions::on_measured(app, generation, Err(e.clone())) {
                app.error(format!("could not measure the impact: {e}"));
            }
            return true;
        }
    };
    match result {
        Answered::Warm => false,
        Answered::Decision(impact) => {
            let Some(s) = app.session_mut() else { return false };
            let label = std::mem::take(&mut s.pending_label);
            let warnings = verified_changes(s, &impact);
            s.jumps = jumps(&impact);
            let most_changed = s.jumps.len();
            let warned: String = warnings.iter().map(|w| format!(" · ⚠ {w}")).collect();
            // the answer can come after the editor did something else (saved, exported): what that said
            // stays, and only the decision's warnings are added to it
            if let Some(newer) = app.message.as_ref().filter(|m| m.text != label) {
                if !warnings.is_empty() {
                    let text = format!("{} · {label}:{}", newer.text, warned.trim_start_matches(" ·"));
                    app.error(text);
                }
                return true;
            }
            let mut text = format!("{label} · {}{warned}", summary(&impact));
            if most_changed > 0 {
                text.push_str(&format!(" · 1–{most_changed} most changed, b back"));
            }
            if warnings.is_empty() {
                app.info(text)
            } else {
                app.error(text)
            }
            true
        }
        Answered::Options { impacts, evidence } => {
            let measured = Measure { asked: generation, impacts: Some(impacts), evidence, error: None };
            fill(app, generation, Ok(measured))
        }
        Answered::Region(measured) => super::regions::on_measured(app, generation, Ok(measured)),
        Answered::Verify(page) => {
            let Some(s) = app.session_mut() else { return false };
            let id = page.id.clone();
            if s.set_verified(&id, Some(page)) {
                app.info(format!(
                    "page {id} verified: a decision that changes its cleaned text says so (u undoes it, Y unmarks it)"
                ));
            }
            true
        }
    }
}

/// Puts a dialog's measure in the dialog that asked for it (still open). Returns whether one did.
fn fill(app: &mut App, generation: u64, measured: Result<Measure, String>) -> bool {
    let measure = match &mut app.mode {
        Mode::MarkPrompt(m) if m.measure.asked == generation => &mut m.measure,
        Mode::ActionPrompt(a) if a.measure.asked == generation => &mut a.measure,
        Mode::Detail(d) if d.measure.asked == generation => &mut d.measure,
        Mode::CutoffPrompt(c) if c.measure.asked == generation => &mut c.measure,
        Mode::Stages { measure, .. } if measure.asked == generation => measure,
        Mode::EditPattern(e) if e.measure.asked == generation => &mut e.measure,
        _ => return false,
    };
    match measured {
        Ok(m) => *measure = m,
        Err(e) => measure.error = Some(e),
    }
    let (impacts, documents) = (measure.impacts.clone(), measure.evidence.as_ref().map(|e| e.pages));
    if let Mode::MarkPrompt(m) = &mut app.mode {
        m.documents = documents.or(m.documents);
    }
    // the documents the dialog's first option changes most are a key away
    if let (Some(first), Some(s)) = (impacts.as_ref().and_then(|i| i.first()), app.session_mut()) {
        s.jumps = jumps(first);
    }
    true
}

fn jumps(impact: &crate::impact::Impact) -> Vec<Jump> {
    impact
        .most_changed(JUMPS)
        .iter()
        .map(|d| {
            let at = d.removed.iter().chain(&d.given_back).map(|r| r.start).min().unwrap_or(0);
            Jump { doc: d.index, at }
        })
        .collect()
}

/// Asks what each option would do to the rules as they stand, with `evidence`'s evidence. Returns the
/// request's generation (the dialog's [`Measure::asked`]).
fn ask(app: &mut App, options: Vec<Rule>, evidence: Option<Rule>) -> u64 {
    let Screen::Tune(s) = &mut app.screen else { return 0 };
    let rules = s.draft.snapshot();
    let r = request(s, Ask::Options { rules, options, evidence });
    app.impact.request(r)
}

/// The choices of a candidate's detail: accept, reject, back to pending (those it is not), and accepted with
/// each other action.
fn choices(s: &Session, i: usize) -> Vec<Choice> {
    let (status, action) = (s.status(i), s.rule_action(i));
    let mut out = Vec::new();
    for (st, label) in [(Status::Accepted, "accept"), (Status::Rejected, "reject"), (Status::Pending, "pending")] {
        if st != status {
            out.push(Choice { label: label.into(), status: Some(st), action: None });
        }
    }
    for a in RuleAction::ALL.into_iter().filter(|&a| a != action) {
        let label = format!("accept as {}", crate::tui::view::candidates::action_name(a));
        out.push(Choice { label, status: Some(Status::Accepted), action: Some(a) });
    }
    out
}

/// Opens candidate `i`'s detail and measures what each decision on it would do.
pub(super) fn open_detail(app: &mut App, i: usize) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let occurrences = super::tune::occurrences(s, i, 5);
    let choices = choices(s, i);
    let options = choices.iter().map(|c| s.if_decided(i, c.status, c.action)).collect();
    // the evidence of the rule as a cut: the warnings of its cut choices
    let evidence = Rule { action: RuleAction::CutAfter, ..s.current_rule(i) };
    let asked = ask(app, options, Some(evidence));
    let measure = Measure { asked, ..Measure::default() };
    app.mode = Mode::Detail(Detail { string: i, scroll: 0, occurrences, choices, measure });
}

/// Measures the detail's choices again after a decision taken in it.
pub(super) fn refresh_detail(app: &mut App) {
    if let Mode::Detail(d) = &app.mode {
        let (i, scroll) = (d.string, d.scroll);
        open_detail(app, i);
        if let Mode::Detail(d) = &mut app.mode {
            d.scroll = scroll;
        }
    }
}

/// Asks to make `start..end` of the shown document a rule with `action` (`T`: remove; `K`: keep): the
/// dialog shows the rule, and measures the documents it matches and what it would change.
pub(super) fn open_mark(app: &mut App, start: usize, end: usize, tokens: String, action: RuleAction) {
    app.mode = Mode::MarkPrompt(MarkLine { start, end, tokens, documents: None, action, measure: Measure::default() });
    measure_mark(app);
}

fn measure_mark(app: &mut App) {
    let Mode::MarkPrompt(m) = &app.mode else { return };
    let (start, end, action) = (m.start, m.end, m.action);
    let Some(s) = app.session() else { return };
    match s.if_marked(s.document_text(), start, end, action) {
        Ok(rule) => {
            let asked = ask(app, vec![rule.clone()], Some(rule));
            if let Mode::MarkPrompt(m) = &mut app.mode {
                m.measure = Measure { asked, ..Measure::default() };
            }
        }
        Err(e) => {
            if let Mode::MarkPrompt(m) = &mut app.mode {
                m.measure = Measure { error: Some(e), ..Measure::default() };
            }
        }
    }
}

/// `c` in the mark dialog: the rule's next action, measured again.
pub(super) fn cycle_mark_action(app: &mut App) {
    if let Mode::MarkPrompt(m) = &mut app.mode {
        m.action = m.action.next();
        m.documents = None;
    }
    measure_mark(app);
}

/// Asks to give candidate `i` the cut `action` (accepted): its evidence, warnings and impact first.
pub(super) fn open_action(app: &mut App, i: usize, action: RuleAction) {
    let Some(s) = app.session() else { return };
    let matches_here = matches_page(s, &s.current_rule(i));
    app.mode = Mode::ActionPrompt(ActionAsk { string: i, action, matches_here, measure: Measure::default() });
    measure_action(app);
}

/// Whether `rule` matches the page in view (one page's matching: the dialogs that ask it say what the rule
/// does there).
fn matches_page(s: &Session, rule: &Rule) -> bool {
    let cleaner = crate::cleaning::Cleaner::from_rules(s.mining.tokenizer, &s.mining.patterns, [rule], 0);
    cleaner.is_ok_and(|c| !c.matches(s.document_text()).is_empty())
}

fn measure_action(app: &mut App) {
    let Mode::ActionPrompt(a) = &app.mode else { return };
    let (i, action) = (a.string, a.action);
    let Some(s) = app.session() else { return };
    let option = s.if_decided(i, Some(Status::Accepted), Some(action));
    let rule = Rule { action, ..s.current_rule(i) };
    let asked = ask(app, vec![option], Some(rule));
    if let Mode::ActionPrompt(a) = &mut app.mode {
        a.measure = Measure { asked, ..Measure::default() };
    }
}

/// The cut dialog: `y` gives the candidate the action shown (accepted), `c` shows the next action, a digit
/// shows a most changed document, Esc leaves everything as it was.
pub(super) fn action_prompt(app: &mut App, action: Action) {
    let Mode::ActionPrompt(a) = &mut app.mode else { return };
    match action {
        Action::Submit => {
            let (i, act) = (a.string, a.action);
            app.mode = Mode::Normal;
            let Screen::Tune(s) = &mut app.screen else { return };
            s.decide(&[i], Some(Status::Accepted), Some(act));
            let text = s.text(i).to_string();
            app.info(format!("`{text}` accepted as {} (u undoes it)", crate::tui::view::candidates::action_name(act)));
        }
        Action::CycleRuleAction => {
            a.action = a.action.next();
            measure_action(app);
        }
        Action::Close => close_dialog(app),
        Action::Jump(n) => {
            close_dialog(app);
            jump(app, n);
        }
        _ => {}
    }
}

/// Closes a measuring dialog: its answer is no longer waited for; nothing else changes.
pub(super) fn close_dialog(app: &mut App) {
    app.mode = Mode::Normal;
    app.impact.cancel(Kind::Options);
}

/// Shows the `n`th (from 1) most changed document of the last impact shown, its first change at the line
/// cursor. The page the preview was on is kept for `b`.
pub(super) fn jump(app: &mut App, n: usize) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let Some(&Jump { doc, at }) = n.checked_sub(1).and_then(|k| s.jumps.get(k)) else {
        let text = match s.jumps.len() {
            0 => "no impact shown yet: a decision, or a dialog before one, lists the documents it changes most".into(),
            k => format!("the last impact lists {k} document(s): 1–{k}"),
        };
        return app.info(text);
    };
    if s.back.is_none() {
        s.back = Some(s.place());
    }
    s.preview.only_cleaned = false;
    s.show_document(doc);
    let lines = s.preview_lines();
    let line = crate::tui::document::line_of(&lines, at);
    super::tune::cursor_to_line(s, line);
    let id = s.corpus.docs[doc].id.clone();
    let from = s.back.map(|b| s.corpus.docs[b.doc].id.clone()).unwrap_or_default();
    let total = s.jumps.len();
    app.info(format!("document {id}: {n} of the {total} most changed, at its first change · b back to {from}"));
}

/// Back to the page the preview was on before the first jump.
pub(super) fn back(app: &mut App) {
    let Screen::Tune(s) = &mut app.screen else { return };
    let Some(place) = s.back.take() else {
        return app.info("nothing to go back to: 1–5 show the documents a decision changes most");
    };
    s.restore(place);
    let id = s.corpus.docs.get(place.doc).map(|d| d.id.clone()).unwrap_or_default();
    app.info(format!("back to document {id}"));
}

/// `Y`: marks the previewed page verified as the rules clean it now (measured in the background), or
/// unmarks it.
pub(super) fn toggle_verified(app: &mut App) {
    let Screen::Tune(s) = &mut app.screen else { return };
    if s.verified_unusable {
        return app.error("the verified pages' file is unusable (see the warning at opening): fix it first");
    }
    let Some(id) = s.corpus.docs.get(s.preview.doc).map(|d| d.id.clone()) else { return };
    if s.draft.is_verified(&id) {
        s.set_verified(&id, None);
        return app.info(format!("page {id} is no longer verified (u undoes it)"));
    }
    let (rules, doc) = (s.draft.snapshot(), s.preview.doc);
    let r = request(s, Ask::Verify { rules, doc });
    app.impact.request(r);
    app.info(format!("verifying page {id}…"));
}
