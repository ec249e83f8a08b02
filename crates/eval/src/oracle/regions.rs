//! Region rules among the oracle editor's rules: each mined region candidate (`[[region]]`) is a rule of
//! the editor's like a string, decided through the draft's region actions. Its matches on a training page
//! are the runs of lines under its element, as stage `regions` finds them on the page's structure; they
//! join the page's matches after the match filters (which never see a region's lines), so the editor's
//! trial cleans as the engine's stage does: region lines taken, kept or cut at before any span stage runs.

use crate::cleaning::Match;
use crate::impact::Baseline;
use crate::rules::Rule;
use crate::rules::region::RegionRule;

/// The rule standing for `region` among the editor's: its id and action, no pattern (its matches come
/// from the page's structure), mined statistics (not an editor's rule, which no stage overrules).
pub(super) fn stand_in(region: &RegionRule) -> Rule {
    Rule {
        status: region.status,
        tf: region.df.max(1),
        df: region.df.max(1),
        example: region.example.clone(),
        ..Rule::with_regex(region.id(), String::new(), region.action)
    }
}

/// The matches of `regions` (the editor's rules from `first` on, in order) on page `p` of `base`: each
/// run of lines under a region's element, sorted.
pub(super) fn matches_on(base: &Baseline, p: usize, regions: &[RegionRule], first: usize) -> Vec<Match> {
    let mut out: Vec<Match> = regions
        .iter()
        .enumerate()
        .flat_map(|(k, r)| {
            let rule = (first + k) as u32;
            base.region_lines(p, r).into_iter().map(move |(start, end)| Match { start, end, rule })
        })
        .collect();
    out.sort_unstable();
    out
}
