//! What a source's region rules cover: the lines under a rule's element page by page, the pages a
//! change of region rules can change (only those with a line under one of them), found with one probe
//! for all the rules changed and one reading of each page.

use rayon::prelude::*;

use super::Baseline;
use crate::cleaning::{Cleaner, Layout};
use crate::rules::region::RegionRule;
use crate::rules::{Action, RulesFile};
use crate::tokens::Tokenizer;

impl Baseline {
    /// The runs of lines of document `i`'s text under `region`'s element (byte ranges, whole lines), as
    /// stage `regions` finds them: what the rule takes, given back or cuts at.
    pub fn region_lines(&self, i: usize, region: &RegionRule) -> Vec<(usize, usize)> {
        region_probe([region]).map_or_else(Vec::new, |probe| self.lines_under(i, &probe))
    }

    /// The runs of lines of document `i`'s text under any region of `probe` ([`region_probe`]).
    pub(super) fn lines_under(&self, i: usize, probe: &Cleaner) -> Vec<(usize, usize)> {
        let Some(structure) = self.structure(i) else { return Vec::new() };
        probe.region_matches(&Layout::new(self.text(i)), structure).into_iter().map(|m| (m.start, m.end)).collect()
    }

    /// The region rules on which the baseline's rules and `after`'s differ (active on one side only, or
    /// with another action): both versions.
    pub(super) fn changed_regions<'a>(&'a self, after: &'a RulesFile) -> Vec<&'a RegionRule> {
        let active = |f: &'a RulesFile| -> Vec<&'a RegionRule> {
            f.regions.iter().filter(|r| r.is_active(self.include_pending)).collect()
        };
        let (before, now) = (active(&self.file), active(after));
        let differs = |r: &RegionRule, other: &[&RegionRule]| {
            !other.iter().any(|o| o.element == r.element && o.action == r.action)
        };
        let mut out: Vec<&RegionRule> = before.iter().copied().filter(|r| differs(r, &now)).collect();
        out.extend(now.iter().copied().filter(|r| differs(r, &before)));
        out
    }

    /// The pages with a line under `region`'s element.
    pub fn pages_under_region(&self, region: &RegionRule) -> Vec<usize> {
        self.pages_under(&[region])
    }

    /// The pages with a line under an element of `regions`: the only ones a change of those rules changes.
    pub(super) fn pages_under(&self, regions: &[&RegionRule]) -> Vec<usize> {
        if regions.is_empty() {
            return Vec::new();
        }
        // one probe for them all, one reading of each page: a line under any of them is under the outermost
        let Some(probe) = region_probe(regions.iter().copied()) else { return (0..self.len()).collect() };
        (0..self.len()).into_par_iter().filter(|&i| !self.lines_under(i, &probe).is_empty()).collect()
    }
}

/// A cleaner that finds the lines under `regions`' elements, each taken as a removal (a keep is found
/// apart from removals, and the probe asks where the lines are, not what happens to them).
fn region_probe<'a>(regions: impl IntoIterator<Item = &'a RegionRule>) -> Option<Cleaner> {
    let probes: Vec<RegionRule> =
        regions.into_iter().map(|r| RegionRule { action: Action::Remove, ..r.clone() }).collect();
    let cleaner = Cleaner::from_rules(Tokenizer::Text, &[], std::iter::empty(), 0).ok()?;
    Some(cleaner.with_regions(&probes))
}
