//! What a region rule would do over a whole source, before an editor decides on it: on how many pages
//! its element is, the words it would remove that the rules keep now (or, a keep region, give back),
//! inside and outside each page's article block, and the pages it changes most.
//!
//! It is measured against a [`Baseline`] (every page cleaned with the rules as they stand) and the
//! source's [`SourcePaths`] (where each line of each page sits), for a front end that holds pages as
//! their views and their structure apart (the tuning UI). A region rule takes whole lines: those under
//! its element (`remove`, exactly as the stage does), everything from the first of them after the
//! article (`cut-after`) or up to the last of them before it (`cut-before`), or gives them back (`keep`).
//! A cut is estimated: the stage `cuts` finds the article again once the region is out, this takes the
//! article block as cleaned now. One pass over each page's lines; whether a line's chain of elements
//! holds the element is found once per chain.

use rayon::prelude::*;

use crate::cleaning::Layout;
use crate::impact::{Baseline, WordRange, word_changes};
use crate::rules::Action;
use crate::rules::region::{RegionRule, selectors};
use crate::view::paths::SourcePaths;

/// One page's change: its index, the word runs removed and those given back.
type PageChange = (usize, Vec<WordRange>, Vec<WordRange>);

/// What a region rule would change over a source (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RegionImpact {
    /// Pages with a line under the element.
    pub pages: usize,
    /// Pages whose kept text it changes.
    pub changed: usize,
    /// Words the rules keep now that it would remove, inside the page's article block and outside it.
    pub removed_inside: usize,
    pub removed_outside: usize,
    /// Words the rules remove now that it would give back (a keep region), inside and outside.
    pub given_back_inside: usize,
    pub given_back_outside: usize,
    /// The pages it changes most, most first: (document, byte offset of its first change, words changed).
    pub most_changed: Vec<(usize, usize, usize)>,
}

impl RegionImpact {
    /// Whether it would take words from any page's article block.
    pub fn takes_article_words(&self) -> bool {
        self.removed_inside > 0
    }
}

/// Which chains of a source's paths lie under an element: found once per chain.
pub struct Under<'p> {
    paths: &'p SourcePaths,
    element: &'p str,
    labels: Vec<Option<bool>>,
    chains: Vec<Option<bool>>,
}

impl<'p> Under<'p> {
    pub fn new(paths: &'p SourcePaths, element: &'p str) -> Under<'p> {
        Under { paths, element, labels: vec![None; paths.label_count()], chains: vec![None; paths.chain_count()] }
    }

    /// Whether chain `chain` (a line's elements) holds the element.
    pub fn holds(&mut self, chain: u32) -> bool {
        if let Some(known) = self.chains.get(chain as usize).copied().flatten() {
            return known;
        }
        let (paths, element) = (self.paths, self.element);
        let mut hit = false;
        for label in paths.labels_of(chain) {
            let known = &mut self.labels[label as usize];
            let named = *known.get_or_insert_with(|| selectors(paths.label(label)).any(|s| s == element));
            if named {
                hit = true;
                break;
            }
        }
        if let Some(slot) = self.chains.get_mut(chain as usize) {
            *slot = Some(hit);
        }
        hit
    }

    /// The byte ranges of `text` (document `doc` of the paths, id `id`) under the element: runs of
    /// consecutive lines, whole lines. None for a page the paths do not hold.
    pub fn ranges(&mut self, text: &str, doc: usize, id: &str) -> Vec<(usize, usize)> {
        let Some(lines) = self.paths.lines(doc, id) else { return Vec::new() };
        let layout = Layout::new(text);
        let mut out: Vec<(usize, usize)> = Vec::new();
        let mut last_line = usize::MAX;
        for (line, &chain) in lines.iter().enumerate().take(layout.lines()) {
            if !self.holds(chain) {
                continue;
            }
            let (start, end) = layout.line_range(line);
            match out.last_mut() {
                Some(run) if last_line.wrapping_add(1) == line => run.1 = end,
                _ => out.push((start, end)),
            }
            last_line = line;
        }
        out
    }
}

/// What the region rule `rule`, active with its action, would change over `base`'s pages, whose lines sit
/// in `paths`. Measured at most on pages the paths hold.
pub fn region_impact(base: &Baseline, paths: &SourcePaths, rule: &RegionRule) -> RegionImpact {
    let per_page: Vec<Option<PageChange>> = (0..base.len())
        .into_par_iter()
        .map_init(
            || Under::new(paths, &rule.element),
            |under, i| {
                let text = base.text(i);
                let ranges = under.ranges(text, i, &base.docs()[i].id);
                if ranges.is_empty() {
                    return None;
                }
                let before = base.removed(i);
                let after = taken(text.len(), before, &ranges, rule.action, base.block(i));
                let (removed, given_back) = word_changes(text, before, &after);
                Some((i, removed, given_back))
            },
        )
        .collect();
    let mut out = RegionImpact::default();
    for (i, removed, given_back) in per_page.into_iter().flatten() {
        out.pages += 1;
        if removed.is_empty() && given_back.is_empty() {
            continue;
        }
        out.changed += 1;
        // words taken are told by where the article is (the pending rules counted), words given back by
        // the block the rules leave, which they join
        let within =
            |block: Option<(usize, usize)>, r: &WordRange| block.is_some_and(|(a, b)| a <= r.start && r.start < b);
        let (article, block) = (base.article(i), base.block(i));
        for r in &removed {
            if within(article, r) { out.removed_inside += r.words } else { out.removed_outside += r.words }
        }
        for r in &given_back {
            if within(block, r) { out.given_back_inside += r.words } else { out.given_back_outside += r.words }
        }
        let words = removed.iter().chain(&given_back).map(|r| r.words).sum();
        let at = removed.iter().chain(&given_back).map(|r| r.start).min().unwrap_or(0);
        out.most_changed.push((i, at, words));
    }
    out.most_changed.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    out
}

/// A page's removed ranges (`before`, sorted and disjoint) with a region's `ranges` taken as `action`
/// takes them (see the module doc); `block` is the page's article block.
fn taken(
    len: usize,
    before: &[(usize, usize)],
    ranges: &[(usize, usize)],
    action: Action,
    block: Option<(usize, usize)>,
) -> Vec<(usize, usize)> {
    let add: Vec<(usize, usize)> = match (action, block) {
        (Action::Remove, _) => ranges.to_vec(),
        // the cut's side of the article: past the block as cleaned now, else (the block holds the
        // region's lines, which nothing removes yet) from its first line on, as mining proposes regions
        // outside the article
        (Action::CutAfter, Some((_, end))) => {
            let at = ranges.iter().find(|r| r.0 >= end).or(ranges.first());
            at.map(|r| vec![(r.0, len)]).unwrap_or_default()
        }
        (Action::CutBefore, Some((start, _))) => {
            let at = ranges.iter().rev().find(|r| r.1 <= start).or(ranges.last());
            at.map(|r| vec![(0, r.1)]).unwrap_or_default()
        }
        (Action::CutAfter, None) => ranges.first().map(|r| vec![(r.0, len)]).unwrap_or_default(),
        (Action::CutBefore, None) => ranges.last().map(|r| vec![(0, r.1)]).unwrap_or_default(),
        (Action::Keep, _) => return subtract(before, ranges),
    };
    union(before, &add)
}

/// The union of two sorted lists of disjoint ranges.
fn union(a: &[(usize, usize)], b: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut all: Vec<(usize, usize)> = a.iter().chain(b).copied().collect();
    all.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(all.len());
    for (s, e) in all {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}

/// `a` without `b` (both sorted, disjoint): one pass over both.
fn subtract(a: &[(usize, usize)], b: &[(usize, usize)]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut k = 0;
    for &(mut s, e) in a {
        while k < b.len() && b[k].1 <= s {
            k += 1;
        }
        let mut j = k;
        while j < b.len() && b[j].0 < e {
            if b[j].0 > s {
                out.push((s, b[j].0));
            }
            s = s.max(b[j].1);
            j += 1;
        }
        if s < e {
            out.push((s, e));
        }
    }
    out
}

#[cfg(test)]
mod tests;
