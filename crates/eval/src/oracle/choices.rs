//! What an editor can do about one wrong stretch, as the tuning UI offers it: accept, reject or trim a
//! candidate, set its action, mark text as template, keep text, or turn a stage off. A region rule (HTML
//! pages: the lines under an element) is a candidate like a string, its lines its matches, and whole
//! lines: it is tried as a removal and as a cut; it is never trimmed.
//!
//! Template kept: the candidates matching on the stretch's lines are accepted (as removals, or as cuts
//! when they hold fixed text); the rules on them or on the lines around them get another action (a footer
//! string above the stretch becomes a cut-after); the stretch's first line is marked as template (remove,
//! cut-after), its last line too (remove, cut-before), and a short stretch whole; the keep rules on it are
//! rejected; on an HTML page, each element around its first line (innermost first, at most
//! [`MAX_ELEMENTS`]) is named as a region rule (remove, cut-before, cut-after): a block whose text
//! changes on every page, which mining did not propose (its caption is a long line inside the article's
//! container, or it lies on too few pages), is still one the editor sees and names. Article removed: every rule that matched inside the removed range is rejected, trimmed by
//! up to three tokens at either end, or (a cut) made a removal; the stretch's first line is kept, and a
//! short stretch whole; on an HTML page, each element around its first line is named as a region the
//! cleaning keeps. Both: every stage that is on is turned off, but a safety net
//! ([`crate::clean_settings::SAFETY_NETS`]): the training pages were mined, and what a stage that removes
//! text no rule matched is worth shows only on pages that were not.

use std::collections::BTreeSet;

use crate::clean_settings::{SAFETY_NETS, Stage};
use crate::cleaning::Reason;
use crate::rules::Action;

use super::editor::{Editor, MIN_TOKENS};
use super::page::Stretch;

/// Longest text, in tokens, the oracle marks as template or keeps.
const MARK_TOKENS: usize = 80;

/// How far from a stretch, in bytes, a rule's match is near it.
const NEAR: usize = 400;

/// Decisions tried per stretch, at most: the rules on it first, then what marking, keeping and the
/// stages offer.
const MAX_CHOICES: usize = 120;

/// Elements around a stretch the oracle names as region rules, at most (innermost first).
const MAX_ELEMENTS: usize = 6;

/// Tokens the oracle trims from either end of a rule, at most.
const TRIM_TOKENS: usize = 3;

/// One decision: rules set to an action or turned off (`None`), or a stage turned off.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Choice {
    /// What the editor did, for the trace.
    pub what: &'static str,
    pub sets: Vec<(usize, Option<Action>)>,
    pub stage_off: Option<Stage>,
}

impl Choice {
    fn set(what: &'static str, rule: usize, action: Option<Action>) -> Choice {
        Choice { what, sets: vec![(rule, action)], stage_off: None }
    }
}

/// The bounds of the line holding byte `pos` of `text`.
fn line_at(text: &str, pos: usize) -> (usize, usize) {
    let pos = text.floor_char_boundary(pos.min(text.len()));
    let start = text[..pos].rfind('\n').map_or(0, |i| i + 1);
    let end = text[pos..].find('\n').map_or(text.len(), |i| pos + i);
    (start, end)
}

/// Every decision the editor could make about `stretch` of page `p`.
pub(super) fn choices(editor: &mut Editor<'_>, p: usize, stretch: Stretch) -> Vec<Choice> {
    let text = editor.pages[p].text;
    let first = line_at(text, stretch.start);
    let last = line_at(text, stretch.end.saturating_sub(1).max(stretch.start));
    let mut out = Vec::new();
    // spans of text to mark (template kept) or keep (article removed), with the actions to try
    let mut marks: Vec<(usize, usize, &[Action])> = Vec::new();
    if stretch.lost {
        // the rules that matched the stretch, and the cuts that took it from afar
        let explanation = editor.explain(p);
        let page = &editor.pages[p];
        let mut rules: BTreeSet<usize> = (page.matches.iter().chain(&page.regions))
            .filter(|m| m.start < stretch.end && m.end > stretch.start && editor.state[m.rule as usize].is_some())
            .map(|m| m.rule as usize)
            .collect();
        for d in explanation.decisions_in(stretch.start, stretch.end).filter(|d| d.removed) {
            for reason in &d.reasons {
                if let Reason::Rule { rule, action } = reason
                    && action.is_cut()
                {
                    rules.insert(*rule as usize);
                }
            }
        }
        for r in rules {
            out.push(Choice::set("reject", r, None));
            if let Some(action) = editor.state[r]
                && action.is_cut()
            {
                for other in [Action::Remove, Action::CutBefore, Action::CutAfter] {
                    if other != action {
                        out.push(Choice::set("change action", r, Some(other)));
                    }
                }
            }
            out.extend(trims(editor, r));
        }
        marks.push((stretch.start, stretch.end.min(first.1), &[Action::Keep]));
        if first != last {
            marks.push((stretch.start, stretch.end, &[Action::Keep]));
        }
        // the elements the stretch's first line sits in, named as regions the cleaning keeps
        out.extend(named_regions(editor, p, first.0, &[Action::Keep]));
    } else {
        // the lines of the stretch, and one line either side: a header or footer string stands next to it
        // (no further than NEAR bytes: a minified page is one line)
        let above = line_at(text, first.0.saturating_sub(1)).0.max(stretch.start.saturating_sub(NEAR));
        let below = line_at(text, (last.1 + 1).min(text.len())).1.min(stretch.end + NEAR);
        // the stretch's own lines, as far
        let on = (first.0.max(stretch.start.saturating_sub(NEAR)), last.1.min(stretch.end + NEAR));
        let page = &editor.pages[p];
        let near: BTreeSet<(usize, bool)> = (page.matches.iter().chain(&page.regions))
            .filter(|m| m.start < below && m.end > above)
            .map(|m| (m.rule as usize, m.start < on.1 && m.end > on.0))
            .collect();
        for (r, on_stretch) in near {
            // a cut string is a line of fixed text, not a word; a region is whole lines
            let fixed = editor.is_region(r)
                || (editor.cleaner.is_fixed(r as u32) && editor.rules[r].tokens.len() >= MIN_TOKENS);
            let tries: &[Action] =
                if fixed { &[Action::Remove, Action::CutBefore, Action::CutAfter] } else { &[Action::Remove] };
            match editor.state[r] {
                None if on_stretch && editor.rules[r].action != Action::Keep => {
                    out.extend(tries.iter().map(|&a| Choice::set("accept", r, Some(a))));
                }
                Some(Action::Keep) if on_stretch => out.push(Choice::set("reject keep", r, None)),
                Some(action) if action != Action::Keep => {
                    out.extend(
                        tries.iter().filter(|&&a| a != action).map(|&a| Choice::set("change action", r, Some(a))),
                    );
                }
                _ => {}
            }
        }
        // the elements the stretch's first line sits in, named as region rules (HTML pages)
        out.extend(named_regions(editor, p, first.0, &[Action::Remove, Action::CutBefore, Action::CutAfter]));
        marks.push((stretch.start, stretch.end.min(first.1), &[Action::Remove, Action::CutAfter]));
        if first != last {
            marks.push((stretch.start.max(last.0), stretch.end, &[Action::Remove, Action::CutBefore]));
            marks.push((stretch.start, stretch.end, &[Action::Remove]));
        }
    }
    for (start, end, actions) in marks {
        for &action in actions {
            if let Some(r) = editor.rule_of_span(p, start, end, action, MARK_TOKENS)
                && editor.state[r] != Some(action)
            {
                let what = if action == Action::Keep { "keep" } else { "mark as template" };
                out.push(Choice::set(what, r, Some(action)));
            }
        }
    }
    out.truncate(MAX_CHOICES - Stage::ALL.len());
    // a safety net's worth is on pages whose template was not mined: none of the training pages
    for stage in Stage::ALL {
        if editor.cleaner.settings().on(stage) && !SAFETY_NETS.contains(&stage) {
            out.push(Choice { what: "stage off", sets: Vec::new(), stage_off: Some(stage) });
        }
    }
    out
}

/// Each element around the line of page `p` starting at `line_start` (innermost first, at most
/// [`MAX_ELEMENTS`]) named as a region rule with each of `actions`, unless it applies already.
fn named_regions(editor: &mut Editor<'_>, p: usize, line_start: usize, actions: &[Action]) -> Vec<Choice> {
    let mut out = Vec::new();
    for element in editor.elements_at(p, line_start).into_iter().take(MAX_ELEMENTS) {
        if let Some(r) = editor.region_of_element(&element)
            && editor.state[r].is_none()
        {
            out.extend(actions.iter().map(|&a| Choice::set("name region", r, Some(a))));
        }
    }
    out
}

/// Rule `r` trimmed by 1 to [`TRIM_TOKENS`] tokens at its start or its end: the trimmed rule takes its
/// action, and `r` is turned off.
fn trims(editor: &mut Editor<'_>, r: usize) -> Vec<Choice> {
    let Some(action) = editor.state[r] else { return Vec::new() };
    trimmed(editor, r, &[action]).into_iter().map(|t| Choice { what: "trim", ..t }).collect()
}

/// Rule `r` trimmed by 1 to [`TRIM_TOKENS`] tokens at either end, with each of `actions`; `r` off.
fn trimmed(editor: &mut Editor<'_>, r: usize, actions: &[Action]) -> Vec<Choice> {
    let len = editor.rules[r].tokens.len();
    let mut out = Vec::new();
    for k in 1..=TRIM_TOKENS.min(len.saturating_sub(MIN_TOKENS)) {
        for (front, back) in [(k, 0), (0, k)] {
            if let Some(t) = editor.trimmed(r, front, back)
                && t != r
            {
                for &a in actions {
                    out.push(Choice { what: "narrowed", sets: vec![(r, None), (t, Some(a))], stage_off: None });
                }
            }
        }
    }
    out
}

/// Narrower forms of `choice`, a decision that turns one rule on, for when it is refused: the rule as a
/// plain removal instead of a cut, and the rule trimmed (a marked span marked smaller), as a removal
/// and with its action.
pub(super) fn narrowed(editor: &mut Editor<'_>, choice: &Choice) -> Vec<Choice> {
    let [(r, Some(action))] = choice.sets[..] else { return Vec::new() };
    if editor.state[r].is_some() || action == Action::Keep {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut actions = vec![Action::Remove];
    if action.is_cut() {
        out.push(Choice { what: "narrowed", sets: vec![(r, Some(Action::Remove))], stage_off: None });
        actions.push(action);
    }
    out.extend(trimmed(editor, r, &actions));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_at_finds_the_line_holding_a_byte() {
        let text = "ab\ncd\nef";
        assert_eq!(line_at(text, 0), (0, 2));
        assert_eq!(line_at(text, 3), (3, 5));
        assert_eq!(line_at(text, 2), (0, 2), "the newline ends its line");
        assert_eq!(line_at(text, 8), (6, 8));
        assert_eq!(line_at("aé\nb", 2), (0, 3), "inside a character: its line");
    }
}
