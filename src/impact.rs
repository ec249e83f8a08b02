//! What a change of rules does over a whole source, before it is made: per document, the words it removes
//! and the words it gives back, inside and outside the page's article block, and the documents most
//! changed. The UI shows it before an editor confirms a decision, `chaff diff` prints it, the oracle
//! editor weighs its decisions with it.
//!
//! A [`Baseline`] keeps every document's removed spans under the "before" rules. A change re-cleans only
//! the documents where a rule it touches matches (before or after the change): the stages are not local
//! within a page, so such a page is cleaned again whole, but no other page is. A change of settings
//! (stages, thresholds, patterns) touches every page.

mod words;

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;
use serde::Serialize;

use crate::cleaning::{Cleaner, Layout, SPLIT_WORDS, Span, article_block, editor_made};
use crate::corpus::Document;
use crate::error::Result;
use crate::page::Page;
use crate::rules::{Rule, RulesFile};
use crate::tokens::Tokenizer;
use crate::view::DocKind;

pub use words::{WordRange, word_changes};

/// One document's removed spans under a rules file, and its article block.
#[derive(Debug, Clone, PartialEq, Eq)]
struct State {
    /// Removed byte ranges of the page's text, sorted and disjoint.
    removed: Vec<(usize, usize)>,
    block: Option<(usize, usize)>,
}

/// A source's documents cleaned with one rules file, kept to measure changes against.
#[derive(Debug, Clone)]
pub struct Baseline {
    docs: Vec<Document>,
    /// The text the cleaner reads of each document (an HTML page's view), for matching.
    texts: Vec<String>,
    kind: DocKind,
    include_pending: bool,
    file: RulesFile,
    states: Vec<State>,
}

/// What a change does to one document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DocImpact {
    /// Its index among the baseline's documents.
    pub index: usize,
    pub id: String,
    /// Words kept before, removed after (byte ranges of the page's text, each a run of words).
    pub removed: Vec<WordRange>,
    /// Words removed before, kept after.
    pub given_back: Vec<WordRange>,
    /// Removed words that were inside the article block before the change.
    pub removed_inside: usize,
    pub removed_outside: usize,
    /// Given-back words that are inside the article block after the change.
    pub given_back_inside: usize,
    pub given_back_outside: usize,
}

impl DocImpact {
    /// Words that change: removed and given back.
    pub fn words(&self) -> usize {
        self.removed_inside + self.removed_outside + self.given_back_inside + self.given_back_outside
    }
}

/// What a change does over a source.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Impact {
    /// Documents of the source.
    pub documents: usize,
    /// Documents cleaned again to find it (the others no changed rule matches).
    pub recleaned: usize,
    /// The documents that change, most changed first (ties in document order).
    pub changed: Vec<DocImpact>,
    pub removed_inside: usize,
    pub removed_outside: usize,
    pub given_back_inside: usize,
    pub given_back_outside: usize,
}

impl Impact {
    fn of(documents: usize, recleaned: usize, mut changed: Vec<DocImpact>) -> Impact {
        changed.sort_by(|a, b| b.words().cmp(&a.words()).then(a.index.cmp(&b.index)));
        let sum = |f: fn(&DocImpact) -> usize| changed.iter().map(f).sum::<usize>();
        Impact {
            documents,
            recleaned,
            removed_inside: sum(|d| d.removed_inside),
            removed_outside: sum(|d| d.removed_outside),
            given_back_inside: sum(|d| d.given_back_inside),
            given_back_outside: sum(|d| d.given_back_outside),
            changed,
        }
    }

    /// The `n` documents most changed.
    pub fn most_changed(&self, n: usize) -> &[DocImpact] {
        &self.changed[..n.min(self.changed.len())]
    }

    /// Words removed, inside and outside the article block.
    pub fn removed(&self) -> usize {
        self.removed_inside + self.removed_outside
    }

    pub fn given_back(&self) -> usize {
        self.given_back_inside + self.given_back_outside
    }

    /// Whether the change takes words from some page's article block.
    pub fn takes_article_words(&self) -> bool {
        self.removed_inside > 0
    }

    /// One line: documents changed, words removed and given back, inside the article.
    pub fn summary(&self) -> String {
        format!(
            "{} of {} documents change: -{} words ({} inside the article), +{} words given back ({} inside the article)",
            self.changed.len(),
            self.documents,
            self.removed(),
            self.removed_inside,
            self.given_back(),
            self.given_back_inside
        )
    }
}

impl Baseline {
    /// `docs` (as read from the source, HTML pages as their markup) cleaned with `file`'s rules: its
    /// accepted ones, and with `include_pending` the pending ones at or above the chosen cutoff.
    pub fn new(file: &RulesFile, docs: Vec<Document>, include_pending: bool) -> Result<Baseline> {
        let kind = file.input();
        let texts: Vec<String> = docs.par_iter().map(|d| Page::new(&d.text, kind).text().to_string()).collect();
        let mut base = Baseline { docs, texts, kind, include_pending, file: file.clone(), states: Vec::new() };
        let cleaner = Cleaner::new(file, include_pending)?;
        base.states = (0..base.docs.len()).into_par_iter().map(|i| base.clean(&cleaner, i)).collect();
        Ok(base)
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    pub fn docs(&self) -> &[Document] {
        &self.docs
    }

    /// The rules file the baseline was cleaned with.
    pub fn file(&self) -> &RulesFile {
        &self.file
    }

    /// The text the cleaner reads of document `i` (an HTML page's view): word ranges are its bytes.
    pub fn text(&self, i: usize) -> &str {
        &self.texts[i]
    }

    /// Removed byte ranges of document `i`'s text under the baseline's rules.
    pub fn removed(&self, i: usize) -> &[(usize, usize)] {
        &self.states[i].removed
    }

    /// The article block of document `i` under the baseline's rules.
    pub fn block(&self, i: usize) -> Option<(usize, usize)> {
        self.states[i].block
    }

    fn clean(&self, cleaner: &Cleaner, i: usize) -> State {
        let spans: Vec<Span> = if self.kind == DocKind::Html && cleaner.tokenizer() == Tokenizer::Html {
            cleaner.clean_page(Page::new(&self.docs[i].text, self.kind)).spans
        } else {
            cleaner.clean_page(Page::new(&self.texts[i], DocKind::Text)).spans
        };
        let layout = Layout::new(&self.texts[i]);
        // as the cuts find it: a short removal inside a line (an idiom, most likely) does not split the
        // article, else one idiom would make a sentence the article and the rest of it "outside"
        let splitting: Vec<Span> = spans
            .iter()
            .filter(|s| layout.is_whole_lines(s.start, s.end) || layout.words(s.start, s.end) >= SPLIT_WORDS)
            .cloned()
            .collect();
        let block = article_block(&layout, &splitting);
        State { removed: spans.iter().map(|s| (s.start, s.end)).collect(), block }
    }

    /// The documents a change from the baseline's rules to `after`'s may change: those where a rule
    /// the change touches matches, before or after it, or all of them when it touches the settings.
    fn touched(&self, after: &RulesFile) -> Result<Vec<usize>> {
        let before = &self.file;
        let all = || (0..self.docs.len()).collect();
        if before.tokenizer != after.tokenizer
            || before.input() != after.input()
            || before.mutable != after.mutable
            || before.merge_gap != after.merge_gap
            || before.clean_settings() != after.clean_settings()
        {
            return Ok(all());
        }
        let active = |f: &RulesFile| -> Vec<Rule> { f.active_rules(self.include_pending).cloned().collect() };
        let (b, a) = (active(before), active(after));
        // pipeline-wide switches: the cleaner takes another path on every page (with no rule at all, no
        // stage runs)
        let flags = |rules: &[Rule]| {
            (
                rules.is_empty(),
                rules.iter().any(|r| r.action.is_cut()),
                rules.iter().any(|r| r.cluster.is_some()),
                rules.iter().any(editor_made),
            )
        };
        if flags(&b) != flags(&a) {
            return Ok(all());
        }
        let changed = changed_rules(&b, &a);
        if changed.is_empty() {
            return Ok(Vec::new());
        }
        let probe = Cleaner::with_patterns(
            after.tokenizer,
            &crate::mutable::MutableSet::new(after.mutable.clone())?,
            changed.iter().copied(),
            0,
        )?;
        let raw = self.kind == DocKind::Html && after.tokenizer == Tokenizer::Html;
        Ok((0..self.docs.len())
            .into_par_iter()
            .filter(|&i| {
                let text = if raw { &self.docs[i].text } else { &self.texts[i] };
                !probe.raw_matches(text).is_empty()
            })
            .collect())
    }

    /// What changing the baseline's rules to `after`'s does to every document (same documents, same
    /// `include_pending`).
    pub fn impact(&self, after: &RulesFile) -> Result<Impact> {
        let touched = self.touched(after)?;
        let cleaner = Cleaner::new(after, self.include_pending)?;
        let changed = touched.par_iter().filter_map(|&i| self.compare(i, &self.clean(&cleaner, i))).collect();
        Ok(Impact::of(self.docs.len(), touched.len(), changed))
    }

    /// [`Baseline::impact`] by cleaning every document again: the reference it must equal (tests, and
    /// the benchmark's comparison).
    pub fn impact_cleaning_all(&self, after: &RulesFile) -> Result<Impact> {
        let cleaner = Cleaner::new(after, self.include_pending)?;
        let changed =
            (0..self.docs.len()).into_par_iter().filter_map(|i| self.compare(i, &self.clean(&cleaner, i))).collect();
        Ok(Impact::of(self.docs.len(), self.docs.len(), changed))
    }

    /// Makes `after` the baseline's rules, cleaning again only the documents it may change; returns what
    /// it changed.
    pub fn advance(&mut self, after: &RulesFile) -> Result<Impact> {
        let touched = self.touched(after)?;
        let cleaner = Cleaner::new(after, self.include_pending)?;
        let states: Vec<(usize, State)> = touched.par_iter().map(|&i| (i, self.clean(&cleaner, i))).collect();
        let changed = states.iter().filter_map(|(i, s)| self.compare(*i, s)).collect();
        for (i, s) in states {
            self.states[i] = s;
        }
        self.file = after.clone();
        Ok(Impact::of(self.docs.len(), touched.len(), changed))
    }

    /// Document `i` under the baseline's rules against `after`; `None` when its removed text is the same.
    fn compare(&self, i: usize, after: &State) -> Option<DocImpact> {
        let before = &self.states[i];
        if before.removed == after.removed {
            return None;
        }
        let (removed, given_back) = word_changes(&self.texts[i], &before.removed, &after.removed);
        let count = |ranges: &[WordRange], block: Option<(usize, usize)>, inside: bool| -> usize {
            ranges.iter().map(|r| if words::inside(r, block) == inside { r.words } else { 0 }).sum()
        };
        let mut d = DocImpact {
            index: i,
            id: self.docs[i].id.clone(),
            removed_inside: count(&removed, before.block, true),
            removed_outside: count(&removed, before.block, false),
            given_back_inside: count(&given_back, after.block, true),
            given_back_outside: count(&given_back, after.block, false),
            removed,
            given_back,
        };
        for r in &mut d.removed {
            r.inside = words::inside(r, before.block);
        }
        for r in &mut d.given_back {
            r.inside = words::inside(r, after.block);
        }
        Some(d)
    }
}

/// Rules active on one side only, or whose cleaning differs (action, regex, tokens, cluster, made by an
/// editor): both versions. A template cluster's rules are applied together, so a changed rule of a
/// cluster brings its cluster's rules along.
fn changed_rules<'a>(before: &'a [Rule], after: &'a [Rule]) -> Vec<&'a Rule> {
    let same = |x: &Rule, y: &Rule| {
        x.action == y.action
            && x.regex == y.regex
            && x.tokens == y.tokens
            && x.cluster == y.cluster
            && editor_made(x) == editor_made(y)
    };
    let by_id =
        |rules: &'a [Rule]| -> HashMap<&'a str, &'a Rule> { rules.iter().map(|r| (r.id.as_str(), r)).collect() };
    let (b, a) = (by_id(before), by_id(after));
    let mut out: Vec<&Rule> = Vec::new();
    for r in before {
        if a.get(r.id.as_str()).is_none_or(|x| !same(r, x)) {
            out.push(r);
        }
    }
    for r in after {
        if b.get(r.id.as_str()).is_none_or(|x| !same(r, x)) {
            out.push(r);
        }
    }
    let clusters: HashSet<u32> = out.iter().filter_map(|r| r.cluster).collect();
    if !clusters.is_empty() {
        let seen: HashSet<*const Rule> = out.iter().map(|r| *r as *const Rule).collect();
        out.extend(
            before
                .iter()
                .chain(after)
                .filter(|r| r.cluster.is_some_and(|c| clusters.contains(&c)))
                .filter(|r| !seen.contains(&(*r as *const Rule))),
        );
    }
    out
}

#[cfg(test)]
mod tests;
