//! The oracle editor: what an editor's time buys. It takes the candidates of a source in order of new
//! coverage (what each adds to the ones above it; the tuning UI's `new` sort) and decides each with the
//! gold:
//! - accept when at least `accept_share` (90%) of the words the candidate matches across the training
//!   pages lie outside the gold, reject otherwise;
//! - an accepted string of fixed text is then set to remove, cut-before or cut-after, whichever gives
//!   the training pages it matches the best F1: the editor looks at the preview and moves the cut.
//!
//! The source is cleaned after 0, 5, 10, 20 and all decisions; undecided candidates keep their
//! automatic state (pending: active at or above the cutoff). Taking candidates by new coverage, not
//! coverage, matters: a periodic archive list is mined as dozens of overlapping strings, which would
//! take the first twenty decisions.
//!
//! Which words of a page are gold comes from aligning the page's words with the gold's (one longest
//! common subsequence): the same alignment the score uses.

use rayon::prelude::*;

use crate::cleaning::{Cleaner, Match};
use crate::error::Result;
use crate::rules::{Action, RulesFile, Status};

use super::dataset::Input;
use super::methods::chaff::Chaff;
use super::methods::{Model, Source};
use super::run::{Prepared, output_text};
use super::score::{Gold, word_spans};

/// Decisions after which the source is cleaned; `None` is all of them.
pub const CHECKPOINTS: [Option<usize>; 5] = [Some(0), Some(5), Some(10), Some(20), None];

pub fn checkpoint_name(c: Option<usize>) -> String {
    c.map_or_else(|| "all".to_string(), |n| n.to_string())
}

/// Default share of a candidate's matched words that must lie outside the gold for the oracle to accept.
pub const ACCEPT_SHARE: f64 = 0.9;

/// A training page as the oracle sees it.
struct Page<'a> {
    text: &'a str,
    /// Start of each word (as the score counts words).
    word_starts: Vec<usize>,
    /// Words outside the gold among the first `i` words.
    outside_before: Vec<usize>,
    /// Matches of every rule, active or not.
    matches: Vec<Match>,
    gold: &'a Gold,
}

/// Words of a page: (outside the gold, all).
type Words = (usize, usize);

impl Page<'_> {
    /// The page's F1 once `cleaner` removes what the rules of `state` match.
    fn f1(&self, cleaner: &Cleaner, state: &[Option<Action>], input: Input) -> f64 {
        let active: Vec<Match> = self.matches.iter().filter(|m| state[m.rule as usize].is_some()).copied().collect();
        let removed: Vec<(usize, usize)> =
            cleaner.spans_of(self.text, &active).iter().map(|s| (s.start, s.end)).collect();
        self.gold.score(&output_text(self.text, &removed, input)).f1
    }

    /// The words each match of this page covers, added to its rule's count: (outside the gold, all).
    fn count_matched(&self, matched: &mut [Words]) {
        for m in &self.matches {
            let lo = self.word_starts.partition_point(|&w| w < m.start);
            let hi = self.word_starts.partition_point(|&w| w < m.end);
            let c = &mut matched[m.rule as usize];
            c.0 += self.outside_before[hi] - self.outside_before[lo];
            c.1 += hi - lo;
        }
    }
}

/// The oracle's models of one source, one per checkpoint of [`CHECKPOINTS`].
pub fn train(
    chaff: &Chaff,
    source: &Source<'_>,
    golds: &[&Prepared],
    accept_share: f64,
) -> Result<Vec<Box<dyn Model>>> {
    let (corpus, file) = chaff.rules_file(source)?;
    let n = file.rules.len();
    let cleaner = Cleaner::from_rules(file.tokenizer, &file.mutable, file.rules.iter(), file.merge_gap)?
        .with_settings(file.clean_settings());
    let pages: Vec<Page<'_>> = corpus
        .docs
        .par_iter()
        .zip(golds)
        .map(|(doc, prepared)| {
            let word_starts: Vec<usize> = word_spans(&doc.text).iter().map(|w| w.0).collect();
            let mut outside_before = Vec::with_capacity(word_starts.len() + 1);
            outside_before.push(0usize);
            for g in prepared.gold.align(&doc.text) {
                outside_before.push(outside_before.last().copied().unwrap_or(0) + usize::from(!g));
            }
            Page {
                text: &doc.text,
                word_starts,
                outside_before,
                matches: cleaner.matches(&doc.text),
                gold: &prepared.gold,
            }
        })
        .collect();
    // the words each rule matches across the pages: they do not change as the oracle decides
    let mut matched: Vec<Words> = vec![(0, 0); n];
    let mut pages_of: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (p, page) in pages.iter().enumerate() {
        page.count_matched(&mut matched);
        for m in &page.matches {
            let of = &mut pages_of[m.rule as usize];
            if of.last() != Some(&p) {
                of.push(p);
            }
        }
    }
    let state: Vec<Option<Action>> = file.rules.iter().map(|r| file.is_active(r, true).then_some(r.action)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    let rules = &file.rules;
    order.sort_by(|&a, &b| (rules[b].adds, rules[b].coverage).cmp(&(rules[a].adds, rules[a].coverage)).then(a.cmp(&b)));

    // the pages are what the cleaner reads: an HTML page's view is text already
    let input = if file.input() == crate::view::DocKind::Html && file.tokenizer == crate::tokens::Tokenizer::Html {
        Input::Html
    } else {
        Input::Txt
    };
    let mut editor = Editor { cleaner, pages, pages_of, matched, state, input, accept_share };
    let mut decided = file.clone();
    let mut models: Vec<Box<dyn Model>> = Vec::with_capacity(CHECKPOINTS.len());
    let mut done = 0;
    for c in CHECKPOINTS {
        let k = c.unwrap_or(n).min(n);
        for &r in &order[done..k] {
            let choice = editor.decide(r, file.rules[r].has_fixed_text());
            editor.set(&mut decided, r, choice);
        }
        done = k;
        models.push(Box::new(chaff.model(&decided)?));
    }
    Ok(models)
}

/// The oracle at work on one source: its rules (actions changed as it decides) and training pages.
struct Editor<'a> {
    /// Every rule of the source, inactive ones too: `state` says which apply.
    cleaner: Cleaner,
    pages: Vec<Page<'a>>,
    /// The pages each rule matches on: only those can change when it is decided.
    pages_of: Vec<Vec<usize>>,
    /// The words each rule matches across the pages: (outside the gold, all).
    matched: Vec<Words>,
    /// Each rule's action, `None` when it does not apply.
    state: Vec<Option<Action>>,
    input: Input,
    accept_share: f64,
}

impl Editor<'_> {
    /// The oracle's choice for rule `r`: the action it is accepted with, or `None` (rejected).
    fn decide(&mut self, r: usize, fixed: bool) -> Option<Action> {
        let on = &self.pages_of[r];
        let (outside, all) = self.matched[r];
        if (outside as f64) < self.accept_share * all as f64 {
            return None;
        }
        let current = self.state[r].unwrap_or(Action::Remove);
        if !fixed {
            return Some(current);
        }
        // accepted: as a removal or as a cut, whichever reads best on the pages it matches
        let mut score = |action: Action| -> f64 {
            self.state[r] = Some(action);
            self.cleaner.set_action(r as u32, action);
            on.iter().map(|&p| self.pages[p].f1(&self.cleaner, &self.state, self.input)).sum()
        };
        let mut best = (current, score(current));
        for action in [Action::Remove, Action::CutBefore, Action::CutAfter] {
            if action != current {
                let f1 = score(action);
                if f1 > best.1 + 1e-9 {
                    best = (action, f1);
                }
            }
        }
        Some(best.0)
    }

    /// Records the choice for rule `r`, in the oracle's state and in the decided rules file.
    fn set(&mut self, decided: &mut RulesFile, r: usize, choice: Option<Action>) {
        self.state[r] = choice;
        let rule = &mut decided.rules[r];
        match choice {
            Some(action) => {
                rule.status = Status::Accepted;
                rule.action = action;
                self.cleaner.set_action(r as u32, action);
            }
            None => rule.status = Status::Rejected,
        }
    }
}
