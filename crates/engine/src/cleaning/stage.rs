//! The stage contract: what a cleaning stage is given and what it may change. A stage is one of two
//! kinds. A **match filter** drops matches of rules before anything is removed (it reads the page's
//! layout and the rules' actions). A **span stage** changes what is removed: it reads and writes one
//! per-page state ([`PageState`]): the removed spans, the article block, the cuts' header and footer,
//! and the trace of what was given back (`--explain` names the stage from it). The driver
//! ([`super::Cleaner`]'s `run`) calls every stage that is on, in the order of the registry
//! (`registry.rs`); a stage never calls another.

use super::explain::{Reason, Trace};
use super::spans::{give_back, merge_spans, normalize, subtract};
use super::threads::Threads;
use super::{Cleaner, Layout, Match, Span, SpanKind, article_block, article_block_passing};
use crate::clean_settings::Stage;
use crate::view::Structure;

/// A stage that drops matches: it keeps the matches for which it holds.
pub(crate) trait MatchFilter: Sync {
    /// Drops from `matches` (sorted, deduplicated; every rule's) those the stage says are no template.
    fn filter(&self, cleaner: &Cleaner, doc: &Layout, matches: &mut Vec<Match>);
}

/// A stage that changes the removed spans of a page.
pub(crate) trait SpanStage: Sync {
    fn run(&self, cleaner: &Cleaner, page: &mut PageState);
}

/// What a registry entry runs.
#[derive(Clone, Copy)]
pub(crate) enum Step {
    Filter(&'static dyn MatchFilter),
    Spans(&'static dyn SpanStage),
    /// A switch another stage reads (`list-items`: how the cuts choose the article block); nothing runs.
    Switch,
}

/// One page while it is cleaned: what the stages read and change.
pub(crate) struct PageState<'a> {
    pub doc: &'a Layout<'a>,
    /// The matches of template rules (not keep rules), sorted.
    pub template: Vec<Match>,
    /// Removed spans so far, sorted and disjoint.
    pub spans: Vec<Span>,
    /// What editor-made rules remove (sorted, disjoint): no stage gives it back.
    pub editor: Vec<(usize, usize)>,
    /// Whether cut strings cut (stage `cuts` on and a cut rule active): else they were removed alone.
    pub cuts: bool,
    /// The header and footer strings the cuts cut at.
    pub header: Option<Match>,
    pub footer: Option<Match>,
    /// The article block of what is removed, found at first need and moved as text is given back next
    /// to it (`None` before; `Some(None)`: the page has none).
    block: Option<Option<(usize, usize)>>,
    /// What stages gave back, for `--explain`.
    pub trace: Trace,
    /// Where each line sits in the page (HTML pages): stage `regions` reads it.
    pub structure: Option<&'a Structure>,
    /// The matches of keep rules, given back last (stage `regions` adds its keep regions).
    pub keeps: Vec<Match>,
    /// Whether the article block passes over runs starting in a comment thread (stage `threads`).
    pub threads: bool,
}

impl<'a> PageState<'a> {
    pub fn new(doc: &'a Layout<'a>, template: Vec<Match>, spans: Vec<Span>, editor: Vec<(usize, usize)>) -> Self {
        PageState {
            doc,
            template,
            spans,
            editor,
            cuts: false,
            header: None,
            footer: None,
            block: None,
            trace: Trace::default(),
            structure: None,
            keeps: Vec::new(),
            threads: false,
        }
    }

    /// Removes `out` too: spans a stage found, in any order.
    pub fn remove(&mut self, out: Vec<Span>) {
        if out.is_empty() {
            return;
        }
        let mut spans = std::mem::take(&mut self.spans);
        spans.extend(out);
        spans.sort_by_key(|s| (s.start, s.end));
        self.spans = merge_spans(spans);
    }

    pub fn text(&self) -> &'a str {
        self.doc.text()
    }

    /// The article block of what is removed, found once (the first stage that asks) and then moved by
    /// [`PageState::give_back`]: text given back above it joins its run.
    pub fn block(&mut self) -> Option<(usize, usize)> {
        let (doc, structure) = (self.doc, self.structure.filter(|_| self.threads));
        *self.block.get_or_insert_with(|| match structure.and_then(|s| Threads::of(doc, s)) {
            Some(threads) => article_block_passing(doc, &self.spans, |run| threads.starts_in_one(run)),
            None => article_block(doc, &self.spans),
        })
    }

    /// Gives `start..end` back for `stage`, less what editor-made rules removed, and moves the article
    /// block to the kept run holding its start.
    pub fn give_back(&mut self, ranges: impl IntoIterator<Item = (usize, usize)>, stage: Stage) {
        for (a, b) in ranges {
            for (start, end) in outside(&self.editor, a, b) {
                self.spans = give_back(std::mem::take(&mut self.spans), start, end);
                self.trace.kept(start, end, Reason::Stage(stage));
            }
        }
        if let Some(Some(b)) = self.block {
            self.block = Some(Some(run_holding(self.text(), &self.spans, b.0)));
        }
    }

    /// Sets the spans to `after`, what a stage made of them, with what it gave back of the editor's
    /// removals removed again; the trace records what it gave back.
    pub fn replace(&mut self, after: Vec<Span>, stage: Stage) {
        let after = restore(after, &self.editor);
        self.trace.given_back(&self.spans, &after, stage);
        self.spans = after;
    }
}

/// The kept run (between `spans`, sorted) holding `pos`, a kept byte: the article block once a stage gave
/// back text next to it.
fn run_holding(text: &str, spans: &[Span], pos: usize) -> (usize, usize) {
    let i = spans.partition_point(|s| s.end <= pos);
    let start = if i > 0 { spans[i - 1].end } else { 0 };
    (start, spans.get(i).map_or(text.len(), |s| s.start))
}

/// `start..end` less `editor` (sorted, disjoint ranges an editor's rules removed): the pieces a stage may
/// give back. A binary search and the ranges it overlaps: no scan of the others.
pub(crate) fn outside(editor: &[(usize, usize)], start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut from = start;
    let first = editor.partition_point(|r| r.1 <= start);
    for &(a, b) in editor[first..].iter().take_while(|r| r.0 < end) {
        if a > from {
            out.push((from, a));
        }
        from = from.max(b);
    }
    if from < end {
        out.push((from, end));
    }
    out
}

/// `spans` with what a stage gave back of `editor` (sorted, disjoint ranges an editor's rules removed)
/// removed again: one sweep over both.
pub(crate) fn restore(spans: Vec<Span>, editor: &[(usize, usize)]) -> Vec<Span> {
    if editor.is_empty() {
        return spans;
    }
    let covered: Vec<(usize, usize)> = spans.iter().map(|s| (s.start, s.end)).collect();
    let missing = subtract(
        editor.iter().map(|&(a, b)| Span::new(a, b, SpanKind::Removed, Vec::new())).collect(),
        &normalize(&covered),
    );
    if missing.is_empty() {
        return spans;
    }
    let mut all = spans;
    all.extend(missing);
    all.sort_by_key(|s| (s.start, s.end));
    merge_spans(all)
}
