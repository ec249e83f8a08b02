//! Finding every match of every rule on a document's text, on the original text only (none on text
//! another rule already changed), so rule order cannot matter. A rule whose regex is the one synthesized
//! from its tokens is matched at token level ([`TokenMatcher`]); a hand-edited regex is run as a regex,
//! and kept only where it starts and ends on token boundaries; a line rule matches whole lines. Stages
//! `line-boundary`, `sentence-heads` and `clusters` then drop matches.

use std::cell::RefCell;

use super::explain::Trace;
use super::stage::Step;
use super::{Cleaner, Layout, Match, Stage, work};
use crate::lines;
use crate::matcher::Scratch;
use crate::rules::Action;

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// The longest regex match after which the search goes on inside it, for overlapping matches.
const OVERLAP: usize = 256;

impl Cleaner {
    /// Every match of every rule, sorted, less those stages `line-boundary`, `sentence-heads`,
    /// `sentence-tails`, `own-line` and `clusters` drop.
    pub fn matches(&self, text: &str) -> Vec<Match> {
        self.stage_matches(text, self.raw_matches(text))
    }

    /// Every match of every rule, before any stage drops one, in no particular order. The oracle editor finds them once a page
    /// and passes the rules it turns on to [`Cleaner::stage_matches`].
    pub fn raw_matches(&self, text: &str) -> Vec<Match> {
        // the token matcher reads the text once
        work::add(text.len());
        let mut out = Vec::new();
        SCRATCH.with_borrow_mut(|scratch| {
            self.matcher.find_all(text, scratch, |start, end, s| {
                out.push(Match { start, end, rule: self.token_rules[s as usize] });
            });
        });
        if !self.regex_rules.is_empty() {
            let spans = self.tokenizer.spans(text);
            let starts: Vec<usize> = spans.iter().map(|s| s.0).collect();
            let is_end = |e: usize| spans.binary_search_by_key(&e, |s| s.1).is_ok();
            for (rule, re) in &self.regex_rules {
                let mut from = 0;
                loop {
                    let found = re.find_at(text, from);
                    // what the search read to find it (or to find nothing)
                    work::add(found.map_or(text.len(), |m| m.end()).saturating_sub(from));
                    let Some(m) = found else { break };
                    // A match that begins or ends in whitespace (`(?s).*` on a page ending with a newline)
                    // is the tokens it covers: trimmed, it must start and end on token boundaries. Only the
                    // whitespace at its edges is read.
                    let matched = &text[m.start()..m.end()];
                    let start = m.start() + (matched.len() - matched.trim_start().len());
                    let end = m.start() + matched.trim_end().len();
                    if end > start && starts.binary_search(&start).is_ok() && is_end(end) {
                        out.push(Match { start, end, rule: *rule });
                    }
                    // Overlapping matches are found as the token rules find them: the search goes on at the
                    // next token after this match's start. After a long match it goes on at its end: a
                    // search restarted inside it would read it again each time (`(?s).*` took minutes),
                    // so no restart reads more than OVERLAP bytes a second time.
                    let again = if m.end() - m.start() <= OVERLAP { m.start() } else { m.end().max(m.start() + 1) - 1 };
                    let k = starts.partition_point(|&s| s <= again);
                    match starts.get(k) {
                        Some(&s) => from = s,
                        None => break,
                    }
                }
            }
        }
        if !self.line_rules.is_empty() {
            lines::find_lines(text, &self.line_rules, |start, end, rule| out.push(Match { start, end, rule }));
        }
        out
    }

    /// `matches` (of `text`, from [`Cleaner::raw_matches`] or several cleaners') less those stages
    /// `line-boundary`, `sentence-heads`, `sentence-tails`, `own-line` and `clusters` drop, sorted.
    pub fn stage_matches(&self, text: &str, out: Vec<Match>) -> Vec<Match> {
        self.stage_matches_in(&Layout::new(text), out)
    }

    /// As [`Cleaner::stage_matches`], given the text's layout: the match filters of the registry that
    /// are on, in order.
    pub(crate) fn stage_matches_in(&self, doc: &Layout, out: Vec<Match>) -> Vec<Match> {
        self.stage_matches_traced(doc, out, None)
    }

    /// As [`Cleaner::stage_matches_in`], recording in `trace` (when given) what each filter dropped or
    /// trimmed off a match, so that an explanation names the stage that left a rule's match in place.
    pub(super) fn stage_matches_traced(
        &self,
        doc: &Layout,
        mut out: Vec<Match>,
        mut trace: Option<&mut Trace>,
    ) -> Vec<Match> {
        out.sort_unstable();
        out.dedup();
        for stage in Stage::ALL {
            if let Step::Filter(filter) = stage.step()
                && self.settings.on(stage)
            {
                let before = trace.is_some().then(|| out.clone());
                filter.filter(self, doc, &mut out);
                if let (Some(trace), Some(before)) = (trace.as_deref_mut(), before) {
                    trace.filtered((&before, &out), stage, |rule| self.action(rule));
                }
            }
        }
        out
    }
}

/// The two steps of the sentence filters: drops the `remove` rules' matches that `drop` picks (keep rules
/// and cut strings are the editor's), then lets `trim` shorten each match of a `remove` or cut rule,
/// sorting the matches again only when one was shortened.
pub(super) fn drop_and_trim(
    cleaner: &Cleaner,
    matches: &mut Vec<Match>,
    drop: impl Fn(&Match) -> bool,
    mut trim: impl FnMut(&mut Match) -> bool,
) {
    matches.retain(|m| cleaner.action(m.rule) != Action::Remove || !drop(m));
    let mut trimmed = false;
    for m in matches.iter_mut().filter(|m| cleaner.action(m.rule) != Action::Keep) {
        trimmed |= trim(m);
    }
    if trimmed {
        matches.sort_unstable();
        matches.dedup();
    }
}
