//! What a change of rules does over a whole source, before it is made: per document, the words it removes
//! and the words it gives back, inside and outside the page's article block (for words removed, the
//! block its accepted and pending rules leave: [`Baseline::article`]), and the documents most changed.
//! The UI shows it before an editor confirms a decision, `chaff diff` prints it, the oracle editor weighs
//! its decisions with it.
//!
//! A [`Baseline`] keeps every document's removed spans under the "before" rules, and every page's matches
//! of every rule it has met (`impact/cache.rs`). A change cleans again only the documents where a rule it touches
//! matches (before or after the change): the stages are not local within a page, so such a page goes
//! through the stages again whole, from its cached matches (no page is read again but by a rule never met
//! before), and a page whose filtered matches stand keeps its state. A change of settings (stages,
//! thresholds) runs the stages on every page; a change of patterns or tokenizer matches every page again.

mod articles;
mod cache;
mod first_rule;
mod regions;
mod words;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use rayon::prelude::*;
use serde::Serialize;

use crate::clean_settings::Stage;
use crate::cleaning::{Cleaner, Layout, Match, SPLIT_WORDS, Span, article_block, editor_made};
use crate::corpus::{Corpus, Document};
use crate::error::Result;
use crate::page::Page;
use crate::rules::{Rule, RulesFile};
use crate::tokens::Tokenizer;
use crate::view::{DocKind, PageView, Structure};

use cache::{MatchCache, Plan};
pub use first_rule::{StagesStart, Totals};
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
    corpus: Arc<Corpus>,
    /// The text the cleaner reads of each HTML page (its view), for matching; none for text documents (their
    /// text is what the cleaner reads).
    texts: Vec<String>,
    /// Where each line of each HTML page's view sits: region rules read it, as `chaff clean` reads it.
    structures: Vec<Option<Structure>>,
    kind: DocKind,
    include_pending: bool,
    file: RulesFile,
    states: Vec<State>,
    /// Without `include_pending`: each page's article block as its accepted and pending rules clean it,
    /// where words removed are told inside or outside the article. The accepted rules alone would make a
    /// page of a source nothing is accepted of yet one block, and its footer "article". With
    /// `include_pending` the states' blocks are these.
    articles: Option<Vec<Option<(usize, usize)>>>,
    /// Every page's matches of every rule met (`impact/cache.rs`); `None` for a source mined as raw markup,
    /// matched on each page's markup.
    cache: Option<MatchCache>,
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
    /// The documents a word of which changes, most changed first (ties in document order).
    pub changed: Vec<DocImpact>,
    pub removed_inside: usize,
    pub removed_outside: usize,
    pub given_back_inside: usize,
    pub given_back_outside: usize,
    /// Where the change puts the first rule in force: the stages start with it, and this says which words
    /// are theirs (`impact/first_rule.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stages_start: Option<StagesStart>,
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
            stages_start: None,
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

    /// Its words and documents changed, without the documents.
    pub fn totals(&self) -> Totals {
        Totals {
            documents: self.changed.len(),
            removed_inside: self.removed_inside,
            removed_outside: self.removed_outside,
            given_back_inside: self.given_back_inside,
            given_back_outside: self.given_back_outside,
        }
    }

    /// Whether the change takes words from some page's article block, not counting those of the stages
    /// it starts (any first rule would start them).
    pub fn takes_article_words(&self) -> bool {
        self.stages_start.as_ref().map_or(self.removed_inside, |s| s.change.removed_inside) > 0
    }

    /// One line: documents changed, words removed and given back, inside the article; where the change
    /// starts the stages, which of it is theirs.
    pub fn summary(&self) -> String {
        let mut out = format!(
            "{} of {} documents change: -{} words ({} inside the article), +{} words given back ({} inside the article)",
            self.changed.len(),
            self.documents,
            self.removed(),
            self.removed_inside,
            self.given_back(),
            self.given_back_inside
        );
        if let Some(s) = &self.stages_start {
            out.push_str(&format!(
                "; no rule was in force, and the cleaning stages start: they {}, the change itself {}",
                s.stages.line(),
                s.change.line()
            ));
        }
        out
    }
}

impl Baseline {
    /// `docs` (as read from the source, HTML pages as their markup) cleaned with `file`'s rules: its
    /// accepted ones, and with `include_pending` the pending ones at or above the chosen cutoff.
    pub fn new(file: &RulesFile, docs: Vec<Document>, include_pending: bool) -> Result<Baseline> {
        Baseline::of_corpus(file, Arc::new(Corpus::from_docs("", docs)), include_pending)
    }

    /// As [`Baseline::new`], on a corpus shared with its reader (the tuning UI's): its documents are not
    /// copied.
    pub fn of_corpus(file: &RulesFile, corpus: Arc<Corpus>, include_pending: bool) -> Result<Baseline> {
        let kind = file.input();
        let (texts, structures): (Vec<String>, Vec<Option<Structure>>) = if kind == DocKind::Html {
            corpus
                .docs
                .par_iter()
                .map(|d| {
                    let view = PageView::of_html(&d.text);
                    (view.text().to_string(), view.structure().cloned())
                })
                .unzip()
        } else if let Some(paths) = corpus.paths.as_deref() {
            // pages held as their views' text: where their lines sit and their links, from the source's paths
            (Vec::new(), corpus.docs.par_iter().enumerate().map(|(i, d)| paths.structure(i, &d.id)).collect())
        } else {
            (Vec::new(), Vec::new())
        };
        let mut base = Baseline {
            corpus,
            texts,
            structures,
            kind,
            include_pending,
            file: file.clone(),
            states: Vec::new(),
            articles: None,
            cache: None,
        };
        if base.raw_markup(file) {
            let cleaner = Cleaner::new(file, include_pending)?;
            base.states = (0..base.len()).into_par_iter().map(|i| base.clean(&cleaner, i)).collect();
        } else {
            base.rebuild_cache(file)?;
        }
        if !include_pending {
            let all: Vec<usize> = (0..base.len()).collect();
            base.articles = Some(vec![None; base.len()]);
            base.refresh_articles(file, &all)?;
        }
        Ok(base)
    }

    /// Matches every page with every rule of `file` again, and cleans every page with its rules.
    fn rebuild_cache(&mut self, file: &RulesFile) -> Result<()> {
        let texts = self.all_texts();
        let mut cache = MatchCache::build(file, &texts)?;
        let plan = cache.plan(file, self.include_pending, &texts)?;
        let cleaned: Vec<(State, Vec<Match>)> = (0..self.len())
            .into_par_iter()
            .map(|i| {
                let (layout, spans, filtered) = cache.clean(&plan, i, texts[i], self.structure(i), None);
                (state_of(&layout, spans.unwrap_or_default()), filtered)
            })
            .collect();
        let (states, filtered): (Vec<State>, Vec<Vec<Match>>) = cleaned.into_iter().unzip();
        cache.take(plan, filtered.into_iter().enumerate().collect());
        self.states = states;
        self.cache = Some(cache);
        Ok(())
    }

    /// Whether `file`'s rules match each page's markup (a source mined as raw HTML), not the text read.
    fn raw_markup(&self, file: &RulesFile) -> bool {
        self.kind == DocKind::Html && file.tokenizer == Tokenizer::Html
    }

    fn all_texts(&self) -> Vec<&str> {
        (0..self.len()).map(|i| self.text(i)).collect()
    }

    pub fn len(&self) -> usize {
        self.corpus.docs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.corpus.docs.is_empty()
    }

    pub fn docs(&self) -> &[Document] {
        &self.corpus.docs
    }

    /// The corpus the baseline was made on.
    pub fn corpus(&self) -> &Arc<Corpus> {
        &self.corpus
    }

    /// Whether the baseline counts the pending rules at or above the cutoff.
    pub fn include_pending(&self) -> bool {
        self.include_pending
    }

    /// The rules file the baseline was cleaned with.
    pub fn file(&self) -> &RulesFile {
        &self.file
    }

    /// The text the cleaner reads of document `i` (an HTML page's view): word ranges are its bytes.
    pub fn text(&self, i: usize) -> &str {
        match self.texts.get(i) {
            Some(t) => t,
            None => &self.corpus.docs[i].text,
        }
    }

    /// Where each line of document `i`'s text sits (an HTML page's view); `None` for text.
    pub fn structure(&self, i: usize) -> Option<&Structure> {
        self.structures.get(i).and_then(Option::as_ref)
    }

    /// Removed byte ranges of document `i`'s text under the baseline's rules.
    pub fn removed(&self, i: usize) -> &[(usize, usize)] {
        &self.states[i].removed
    }

    /// The article block of document `i` under the baseline's rules.
    pub fn block(&self, i: usize) -> Option<(usize, usize)> {
        self.states[i].block
    }

    /// Document `i` cleaned by `cleaner`, as the command line cleans it: an HTML page with its view's
    /// structure, so that region rules take what they take there.
    fn clean(&self, cleaner: &Cleaner, i: usize) -> State {
        if self.kind == DocKind::Html && cleaner.tokenizer() == Tokenizer::Html {
            let spans = cleaner.clean_page(Page::new(&self.corpus.docs[i].text, self.kind)).spans;
            return state_of(&Layout::new(self.text(i)), spans);
        }
        let layout = Layout::new(self.text(i));
        let matches = cleaner.stage_matches_in(&layout, cleaner.raw_matches(self.text(i)));
        let (spans, _) = cleaner.run_on(&layout, &matches, self.structure(i));
        state_of(&layout, spans)
    }

    /// Whether a change from the baseline's rules to `after`'s may change every page: the tokenizer, the
    /// patterns or the settings change, or a pipeline-wide switch (with no rule at all, no stage runs; a
    /// cut, a cluster, an editor's rule active or not) flips.
    fn global(&self, after: &RulesFile) -> bool {
        let before = &self.file;
        if before.tokenizer != after.tokenizer
            || before.input() != after.input()
            || before.mutable != after.mutable
            || before.merge_gap != after.merge_gap
            || before.clean_settings() != after.clean_settings()
        {
            return true;
        }
        let flags = |f: &RulesFile| {
            let mut regions = f.regions.iter().filter(|r| r.is_active(self.include_pending)).peekable();
            let mut rules = f.active_rules(self.include_pending).peekable();
            let empty = rules.peek().is_none() && regions.peek().is_none();
            // a region rule that cuts turns the cuts on as a cut string does
            let (mut cut, mut cluster, mut editor) = (regions.any(|r| r.action.is_cut()), false, false);
            for r in rules {
                cut |= r.action.is_cut();
                cluster |= r.cluster.is_some();
                editor |= editor_made(r);
            }
            (empty, cut, cluster, editor)
        };
        // a cut string's example lines cut where the string is not found (stage `cut-lines`): on pages it
        // does not match, so no page's matches show where such a change acts
        flags(before) != flags(after)
            || (after.clean_settings().on(Stage::CutLines) && self.changed(after).iter().any(|r| r.action.is_cut()))
    }

    /// The rules a change from the baseline's rules to `after`'s touches (see [`changed_rules`]).
    fn changed<'a>(&'a self, after: &'a RulesFile) -> Vec<&'a Rule> {
        let active = |f: &'a RulesFile| -> Vec<&'a Rule> { f.active_rules(self.include_pending).collect() };
        changed_rules(&active(&self.file), &active(after))
    }

    /// The documents a change from the baseline's rules to `after`'s may change, on the raw-markup path:
    /// those where a rule the change touches matches, before or after it, or all of them when it is global.
    fn touched_markup(&self, after: &RulesFile) -> Result<Vec<usize>> {
        if self.global(after) || !self.changed_regions(after).is_empty() {
            return Ok((0..self.len()).collect());
        }
        let changed = self.changed(after);
        if changed.is_empty() {
            return Ok(Vec::new());
        }
        let probe = Cleaner::with_patterns(
            after.tokenizer,
            &crate::mutable::MutableSet::new(after.mutable.clone())?,
            changed.iter().copied(),
            0,
        )?;
        Ok((0..self.len())
            .into_par_iter()
            .filter(|&i| !probe.raw_matches(&self.corpus.docs[i].text).is_empty())
            .collect())
    }

    /// Every page a change to `after` may change, cleaned with `after`'s rules: (page, its state, its
    /// filtered matches when cleaned from the cache), the plan the cache cleaned them with, and how many were
    /// cleaned again. A page whose matches and rules are those of the baseline keeps its state.
    #[allow(clippy::type_complexity)]
    fn cleaned_after(
        &self,
        after: &RulesFile,
    ) -> Result<(Vec<(usize, State, Option<Vec<Match>>)>, Option<Plan>, usize)> {
        let cache = match &self.cache {
            Some(c) if c.serves(after) && !self.raw_markup(after) => c,
            _ => {
                // the matches change (tokenizer or patterns) or are found on the markup: clean as the
                // command line does
                let touched =
                    if self.cache.is_some() { (0..self.len()).collect() } else { self.touched_markup(after)? };
                let cleaner = Cleaner::new(after, self.include_pending)?;
                let states = touched.par_iter().map(|&i| (i, self.clean(&cleaner, i), None)).collect();
                return Ok((states, None, touched.len()));
            }
        };
        let texts = self.all_texts();
        let plan = cache.plan(after, self.include_pending, &texts)?;
        let global = self.global(after);
        let regions = self.changed_regions(after);
        let touched: Vec<usize> = if global {
            (0..self.len()).collect()
        } else {
            let changed = self.changed(after);
            if changed.is_empty() && regions.is_empty() {
                return Ok((Vec::new(), Some(plan), 0));
            }
            let mut pages = cache.pages_matching(&plan, &plan.indices(cache, &changed));
            pages.extend(self.pages_under(&regions));
            pages.sort_unstable();
            pages.dedup();
            pages
        };
        // unless the change is global or moves a region rule (which no string match shows), a page whose
        // filtered matches and their rules stand comes out as before
        let before = (!global && regions.is_empty()).then(|| cache.props_of(&self.file, self.include_pending));
        let states = touched
            .par_iter()
            .map(|&i| {
                let (layout, spans, filtered) = cache.clean(&plan, i, texts[i], self.structure(i), before.as_deref());
                let state = match spans {
                    Some(spans) => state_of(&layout, spans),
                    None => self.states[i].clone(),
                };
                (i, state, Some(filtered))
            })
            .collect();
        Ok((states, Some(plan), touched.len()))
    }

    /// What changing the baseline's rules to `after`'s does to every document (same documents, same
    /// `include_pending`).
    pub fn impact(&self, after: &RulesFile) -> Result<Impact> {
        let (states, _, recleaned) = self.cleaned_after(after)?;
        let changed = states.par_iter().filter_map(|(i, s, _)| self.compare(*i, s)).collect();
        let stages_start = self.stages_start(after, states.iter().map(|(i, s, _)| (*i, s)))?;
        Ok(Impact { stages_start, ..Impact::of(self.len(), recleaned, changed) })
    }

    /// [`Baseline::impact`] by cleaning every document again: the reference it must equal (tests, and
    /// the benchmark's comparison).
    pub fn impact_cleaning_all(&self, after: &RulesFile) -> Result<Impact> {
        let cleaner = Cleaner::new(after, self.include_pending)?;
        let states: Vec<State> = (0..self.len()).into_par_iter().map(|i| self.clean(&cleaner, i)).collect();
        let changed = states.par_iter().enumerate().filter_map(|(i, s)| self.compare(i, s)).collect();
        let stages_start = self.stages_start(after, states.iter().enumerate())?;
        Ok(Impact { stages_start, ..Impact::of(self.len(), self.len(), changed) })
    }

    /// Makes `after` the baseline's rules, cleaning again only the documents it may change; returns what
    /// it changed.
    pub fn advance(&mut self, after: &RulesFile) -> Result<Impact> {
        let rebuild = self.cache.as_ref().is_some_and(|c| !c.serves(after));
        let (states, plan, recleaned) = self.cleaned_after(after)?;
        let changed = states.par_iter().filter_map(|(i, s, _)| self.compare(*i, s)).collect();
        let stages_start = self.stages_start(after, states.iter().map(|(i, s, _)| (*i, s)))?;
        let mut filtered = Vec::new();
        let mut touched = Vec::with_capacity(states.len());
        for (i, s, f) in states {
            self.states[i] = s;
            touched.push(i);
            filtered.extend(f.map(|f| (i, f)));
        }
        let pending_changed = self.articles.is_some() && self.pending_differ(after);
        self.file = after.clone();
        if rebuild {
            // the patterns or the tokenizer changed: every page's matches are found again for the new rules
            self.rebuild_cache(after)?;
        } else if let (Some(cache), Some(plan)) = (self.cache.as_mut(), plan) {
            cache.take(plan, filtered);
        }
        // the pages the change cleans again; every page when it moves a pending rule, which the accepted
        // rules' cleaning does not show
        if rebuild || pending_changed {
            touched = (0..self.len()).collect();
        }
        self.refresh_articles(after, &touched)?;
        Ok(Impact { stages_start, ..Impact::of(self.len(), recleaned, changed) })
    }
}

/// A page's state from its removed spans: the ranges, and the article block as the cuts find it (a short
/// removal inside a line, an idiom most likely, does not split the article, else one idiom would make a
/// sentence the article and the rest of it "outside").
fn state_of(layout: &Layout, spans: Vec<Span>) -> State {
    let splitting: Vec<Span> = spans
        .iter()
        .filter(|s| layout.is_whole_lines(s.start, s.end) || layout.words(s.start, s.end) >= SPLIT_WORDS)
        .cloned()
        .collect();
    let block = article_block(layout, &splitting);
    State { removed: spans.iter().map(|s| (s.start, s.end)).collect(), block }
}

/// Rules active on one side only, or whose cleaning differs (action, regex, tokens, cluster, made by an
/// editor): both versions. A template cluster's rules are applied together, so a changed rule of a
/// cluster brings its cluster's rules along.
fn changed_rules<'a>(before: &[&'a Rule], after: &[&'a Rule]) -> Vec<&'a Rule> {
    let same = |x: &Rule, y: &Rule| {
        x.action == y.action
            && x.regex == y.regex
            && x.tokens == y.tokens
            && x.cluster == y.cluster
            && editor_made(x) == editor_made(y)
            // stage `cut-lines` reads a cut string's example
            && (!x.action.is_cut() || x.example == y.example)
    };
    let by_id =
        |rules: &[&'a Rule]| -> HashMap<&'a str, &'a Rule> { rules.iter().map(|r| (r.id.as_str(), *r)).collect() };
    let (b, a) = (by_id(before), by_id(after));
    let mut out: Vec<&'a Rule> = Vec::new();
    for &r in before {
        if a.get(r.id.as_str()).is_none_or(|x| !same(r, x)) {
            out.push(r);
        }
    }
    for &r in after {
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
                .copied()
                .filter(|r| r.cluster.is_some_and(|c| clusters.contains(&c)))
                .filter(|r| !seen.contains(&(*r as *const Rule))),
        );
    }
    out
}

#[cfg(test)]
mod tests;
