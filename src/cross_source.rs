//! The second-level filter (thesis §3.3, last paragraphs): template strings are frequent within a source
//! but differ between sources, while idioms ("as much as", "one of the") are candidates everywhere. A
//! string that is a candidate in at least `min_sources` of the sources mined together is flagged as an
//! idiom, and its rule starts rejected.

use std::collections::HashMap;

use crate::mining::Mining;
use crate::symbol::display;

/// Default: flagged when a candidate in 3 sources (or in all, when fewer than 3 are mined together).
pub const DEFAULT_MIN_SOURCES: usize = 3;

/// In how many of `sources` sources mined together a string must be a candidate to be an idiom: the
/// default of 3, or all of them when fewer are mined together. `None` for fewer than two sources:
/// nothing to compare.
pub fn idiom_threshold(sources: usize, min_sources: usize) -> Option<usize> {
    (sources >= 2).then(|| min_sources.clamp(2, sources))
}

/// Flags idioms among the candidates (strings at or above each source's auto cutoff). Returns how many
/// strings were flagged in all. Fewer than two sources: nothing to compare, nothing flagged.
pub fn flag_idioms(minings: &mut [Mining], min_sources: usize) -> usize {
    let Some(threshold) = idiom_threshold(minings.len(), min_sources) else { return 0 };
    let mut sources_of: HashMap<String, usize> = HashMap::new();
    for m in minings.iter() {
        let mut keys: Vec<String> = m.candidates(m.auto_cutoff).map(|s| display(&s.symbols)).collect();
        keys.sort_unstable();
        keys.dedup();
        for k in keys {
            *sources_of.entry(k).or_default() += 1;
        }
    }
    // each source's own candidates are counted: elsewhere is one fewer
    minings.iter_mut().map(|m| flag(m, threshold, |key| sources_of.get(key).map_or(0, |n| n - 1))).sum()
}

/// The filter itself, for every caller (`mine --all`, the tuning UI, `chaff eval --idioms`): flags the
/// candidates of `mining` (strings at or above its auto cutoff) that are candidates in `threshold`
/// sources, this one and `elsewhere(key)` others. Returns how many were flagged.
pub fn flag(mining: &mut Mining, threshold: usize, elsewhere: impl Fn(&str) -> usize) -> usize {
    let cutoff = mining.auto_cutoff;
    let mut flagged = 0;
    for s in mining.strings.iter_mut().filter(|s| s.bin >= cutoff) {
        if elsewhere(&display(&s.symbols)) + 1 >= threshold {
            s.idiom = true;
            flagged += 1;
        }
    }
    flagged
}
