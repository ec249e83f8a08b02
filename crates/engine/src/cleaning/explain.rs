//! Every decision explained: each removed range names every rule that matched inside it and the stages
//! that removed or joined it; each range a stage or a keep rule gave back names that stage or rule, and
//! the rules it overruled; where a match filter left a cut string's match, or part of it, in place (a
//! page's cleaning pass records it), that is kept, naming the cut and the filter. `chaff clean --explain`
//! prints them and the UI lists them under the cursor.

use std::collections::HashMap;

use serde::Serialize;

use super::spans::{normalize, subtract};
use super::{ActiveRule, Cleaner, Layout, Match, Span, SpanKind};
use crate::clean_settings::Stage;
use crate::rules::Action;
use crate::view::Structure;

/// Why a range was removed or kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// A rule matched it (an index into the cleaner's rules: [`Cleaner::rule_id`]), with the rule's action.
    Rule { rule: u32, action: Action },
    /// A stage removed it, joined it to a removal, or gave it back.
    Stage(Stage),
}

/// One range of the text and why it is removed or kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub start: usize,
    pub end: usize,
    /// Removed (else kept: a stage or a keep rule gave it back, over the rules in `reasons`).
    pub removed: bool,
    /// Every rule that matched the range and every stage that decided, rules first.
    pub reasons: Vec<Reason>,
}

/// A cleaned document's removed spans and every decision behind them, sorted by start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    pub spans: Vec<Span>,
    pub decisions: Vec<Decision>,
}

impl Explanation {
    /// The decisions touching `start..end` (a line under the preview's cursor).
    pub fn decisions_in(&self, start: usize, end: usize) -> impl Iterator<Item = &Decision> {
        let first = self.decisions.partition_point(|d| d.end <= start);
        self.decisions[first..].iter().take_while(move |d| d.start < end.max(start + 1))
    }
}

/// What stages and keep rules gave back while the pipeline ran.
#[derive(Debug, Default)]
pub(crate) struct Trace {
    kept: Vec<(usize, usize, Reason)>,
}

impl Trace {
    pub(super) fn kept(&mut self, start: usize, end: usize, reason: Reason) {
        if start < end {
            self.kept.push((start, end, reason));
        }
    }

    /// Records where match filter `stage` left a cut string's match, or part of it, in place: each cut's
    /// match of `before` (sorted) less what `after` (sorted) keeps of its rule's matches, with its rule
    /// (`action` of it) and the stage. Not a removal's: the sentence filters leave idioms in every
    /// article's prose, and naming each would bury what was decided.
    pub(super) fn filtered(
        &mut self,
        (before, after): (&[Match], &[Match]),
        stage: Stage,
        action: impl Fn(u32) -> Action,
    ) {
        let dropped: Vec<&Match> =
            before.iter().filter(|m| action(m.rule).is_cut() && after.binary_search(m).is_err()).collect();
        if dropped.is_empty() {
            return;
        }
        // what each of those rules still matches, joined: sorted and disjoint, so searchable by end
        let mut kept: HashMap<u32, Vec<(usize, usize)>> = dropped.iter().map(|m| (m.rule, Vec::new())).collect();
        for m in after {
            if let Some(ranges) = kept.get_mut(&m.rule) {
                ranges.push((m.start, m.end));
            }
        }
        for ranges in kept.values_mut() {
            *ranges = normalize(ranges);
        }
        for m in dropped {
            let of_rule = &kept[&m.rule];
            // the rule's kept matches overlapping this one (a trimmed copy of it among them)
            let from = of_rule.partition_point(|r| r.1 <= m.start);
            let overlap: Vec<(usize, usize)> = of_rule[from..].iter().take_while(|r| r.0 < m.end).copied().collect();
            let piece =
                Span { start: m.start, end: m.end, kind: SpanKind::Removed, rules: Vec::new(), stages: Vec::new() };
            for left in subtract(vec![piece], &overlap) {
                self.kept(left.start, left.end, Reason::Rule { rule: m.rule, action: action(m.rule) });
                self.kept(left.start, left.end, Reason::Stage(stage));
            }
        }
    }

    /// Adds what `other` recorded.
    fn append(&mut self, other: Trace) {
        self.kept.extend(other.kept);
    }

    /// Records what `stage` gave back: what `before` removed and `after` does not.
    pub(super) fn given_back(&mut self, before: &[Span], after: &[Span], stage: Stage) {
        let after: Vec<(usize, usize)> = after.iter().map(|s| (s.start, s.end)).collect();
        for s in subtract(before.to_vec(), &after) {
            self.kept(s.start, s.end, Reason::Stage(stage));
        }
    }
}

/// Sets each span's rules to every rule with a match inside it: one pass over the matches, each placed
/// by binary search among the (sorted, disjoint) spans.
pub(super) fn every_rule(spans: &mut [Span], matches: &[Match]) {
    if spans.is_empty() {
        return;
    }
    for m in matches {
        let mut i = spans.partition_point(|s| s.end <= m.start);
        while i < spans.len() && spans[i].start < m.end {
            spans[i].rules.push(m.rule);
            i += 1;
        }
    }
    for s in spans.iter_mut() {
        s.rules.sort_unstable();
        s.rules.dedup();
    }
}

impl Cleaner {
    /// The removed spans of `text` and every decision behind them (see [`Explanation`]), what the match
    /// filters left of the cut strings' matches too.
    pub fn explain(&self, text: &str) -> Explanation {
        self.run_text(&Layout::new(text), None, None, true).1.expect("asked to explain")
    }

    /// The one pass of the stages over `doc`'s text: its removed spans and, if asked, every decision
    /// behind them, recorded as the stages ran. `matches` are the text's matches, filtered, when the caller
    /// found them (raw-HTML rules, on the source); else they are found here, and what the match filters
    /// leave of the cut strings' matches is explained too.
    pub(crate) fn run_text(
        &self,
        doc: &Layout,
        matches: Option<Vec<Match>>,
        structure: Option<&Structure>,
        explain: bool,
    ) -> (Vec<Span>, Option<Explanation>) {
        let mut filtered = explain.then(Trace::default);
        let matches =
            matches.unwrap_or_else(|| self.stage_matches_traced(doc, self.raw_matches(doc.text()), filtered.as_mut()));
        let (spans, mut trace) = self.run_on(doc, &matches, structure);
        trace.append(filtered.unwrap_or_default());
        let explanation = explain.then(|| self.explanation(doc, spans.clone(), trace, &matches));
        (spans, explanation)
    }

    /// As [`Cleaner::explain`], given the text's [`Cleaner::matches`].
    pub fn explain_matches(&self, text: &str, matches: &[Match]) -> Explanation {
        self.explain_on(text, matches, None)
    }

    /// [`Cleaner::explain_matches`] for a page whose lines sit in `structure` (see [`Cleaner::spans_on`]).
    pub fn explain_on(&self, text: &str, matches: &[Match], structure: Option<&Structure>) -> Explanation {
        let doc = Layout::new(text);
        let (spans, trace) = self.run_on(&doc, matches, structure);
        self.explanation(&doc, spans, trace, matches)
    }

    /// The explanation of a run over `doc`: its removed spans, and the decisions behind them from its
    /// `trace`; `matches` are the ones it ran on.
    pub(crate) fn explanation(&self, doc: &Layout, spans: Vec<Span>, trace: Trace, matches: &[Match]) -> Explanation {
        let template: Vec<Match> =
            matches.iter().filter(|m| self.rules[m.rule as usize].action != Action::Keep).copied().collect();
        let mut decisions: Vec<Decision> = spans
            .iter()
            .map(|s| Decision {
                start: s.start,
                end: s.end,
                removed: true,
                reasons: reasons(&self.rules, &s.rules, &s.stages),
            })
            .collect();
        decisions.extend(kept_decisions(doc, &self.rules, &spans, trace, &template));
        decisions.sort_by_key(|d| (d.start, d.end));
        Explanation { spans, decisions }
    }
}

fn reasons(rules: &[ActiveRule], ids: &[u32], stages: &[Stage]) -> Vec<Reason> {
    let mut out: Vec<Reason> =
        ids.iter().map(|&rule| Reason::Rule { rule, action: rules[rule as usize].action }).collect();
    out.extend(stages.iter().map(|&s| Reason::Stage(s)));
    out
}

/// The ranges given back that stayed kept: what the trace recorded less what is removed in the end (and
/// less a piece of whitespace alone), overlapping pieces joined, each with its reasons and the rules it
/// overruled.
fn kept_decisions(
    doc: &Layout,
    rules: &[ActiveRule],
    spans: &[Span],
    trace: Trace,
    template: &[Match],
) -> Vec<Decision> {
    let removed: Vec<(usize, usize)> = spans.iter().map(|s| (s.start, s.end)).collect();
    let mut pieces: Vec<Span> = Vec::new();
    for (start, end, reason) in trace.kept {
        let (mut rules_of, mut stages) = (Vec::new(), Vec::new());
        match reason {
            Reason::Rule { rule, .. } => rules_of.push(rule),
            Reason::Stage(s) => stages.push(s),
        }
        let piece = Span { start, end, kind: SpanKind::Removed, rules: rules_of, stages };
        pieces.extend(subtract(vec![piece], &removed).into_iter().filter(|p| !doc.is_blank(p.start, p.end)));
    }
    let mut pieces = super::merge_spans(pieces);
    // the rules that matched each piece, with the keep rules already there
    every_rule(&mut pieces, template);
    pieces
        .into_iter()
        .map(|p| Decision { start: p.start, end: p.end, removed: false, reasons: reasons(rules, &p.rules, &p.stages) })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cleaning::tests::{BYLINE_PAGE, cleaner, titled};

    #[test]
    fn every_rule_that_matched_a_removed_range_is_named_not_the_first() {
        let c = cleaner(&[("a a b", Action::Remove), ("b c", Action::Remove), ("c", Action::Remove)], 0);
        let e = c.explain("x a a b c y");
        assert_eq!(e.decisions.len(), 1);
        let rules: Vec<u32> = e.decisions[0]
            .reasons
            .iter()
            .filter_map(|r| match r {
                Reason::Rule { rule, .. } => Some(*rule),
                _ => None,
            })
            .collect();
        assert_eq!(rules, vec![0, 1, 2]);
        assert!(e.decisions[0].removed);
    }

    #[test]
    fn a_range_a_stage_gave_back_names_the_stage_and_the_rules_it_overruled() {
        let text = BYLINE_PAGE;
        let rules = [("Menu one two", Action::Remove), ("By Jane Doe", Action::Remove)];
        let c = titled(cleaner(&rules, 0));
        let e = c.explain(text);
        let byline = text.find("By Jane").unwrap();
        let kept: Vec<&Decision> = e.decisions.iter().filter(|d| !d.removed).collect();
        assert_eq!(kept.len(), 1, "{:?}", e.decisions);
        assert_eq!((kept[0].start, kept[0].end), (byline, byline + "By Jane Doe".len()));
        assert_eq!(
            kept[0].reasons,
            vec![Reason::Rule { rule: 1, action: Action::Remove }, Reason::Stage(Stage::Datelines)]
        );
        let line = e.decisions_in(byline, byline + 3).collect::<Vec<_>>();
        assert_eq!(line.len(), 1);
    }
}
