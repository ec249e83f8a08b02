//! What a region rule would do over a whole source, before an editor decides on it: on how many pages
//! its element is, the words it would remove that the rules keep now (or, a keep region, give back),
//! inside and outside each page's article block, and the pages it changes most.
//!
//! It is what cleaning the source with the rule does: the pages under its element go through the stages
//! again from their cached matches ([`Baseline::impact`]), so stage `regions` decides as `chaff clean`
//! does, a page whose element holds the article left alone, a cut cutting where stage `cuts` finds the
//! article once the region is out. [`Under`] finds a page's lines under an element, for a front end that
//! holds pages as their views and their structure apart (the tuning UI highlights them).

use crate::cleaning::Layout;
use crate::error::Result;
use crate::impact::Baseline;
use crate::rules::Status;
use crate::rules::region::{RegionRule, selectors};
use crate::view::paths::SourcePaths;

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

/// What the region rule `rule`, active with its action, would change over `base`'s pages (see the
/// module doc).
pub fn region_impact(base: &Baseline, rule: &RegionRule) -> Result<RegionImpact> {
    let active = RegionRule { status: Status::Accepted, ..rule.clone() };
    let mut after = base.file().clone();
    match after.regions.iter_mut().find(|r| r.element == rule.element) {
        Some(r) => *r = active,
        None => after.regions.push(active),
    }
    let impact = base.impact(&after)?;
    let most_changed = (impact.changed.iter())
        .map(|d| {
            let at = d.removed.iter().chain(&d.given_back).map(|r| r.start).min().unwrap_or(0);
            (d.index, at, d.words())
        })
        .collect();
    Ok(RegionImpact {
        pages: base.pages_under_region(rule).len(),
        changed: impact.changed.len(),
        removed_inside: impact.removed_inside,
        removed_outside: impact.removed_outside,
        given_back_inside: impact.given_back_inside,
        given_back_outside: impact.given_back_outside,
        most_changed,
    })
}

#[cfg(test)]
mod tests;
