//! The second-level filter (thesis §3.3, last paragraphs): template strings are frequent within a source
//! but differ between sources, while idioms ("as much as", "one of the") are candidates everywhere. A
//! string that is a candidate in at least `min_sources` of the sources mined together is flagged as an
//! idiom, and its rule starts rejected.

use std::collections::HashMap;
use std::hash::BuildHasher;

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

/// In how many sources a string must be a candidate to be an idiom when one source is mined and the
/// others are read from their saved rules files (the tuning UI): `min_sources`, as `--idioms` says, never
/// lowered to the number of sources there are. They were not mined together: one other rules file holding
/// a string is a copy or a sister site, not evidence of an idiom, and `chaff mine` on the source flags
/// nothing for it.
pub fn saved_threshold(min_sources: usize) -> usize {
    min_sources.max(2)
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

/// A candidate's key for counting sources without keeping its text: a 64-bit hash of what
/// [`flag_idioms`] compares (its display form). Two distinct strings share a key with odds of about one
/// in 10^10 in a crawl of a million candidates.
pub fn candidate_key(text: &str) -> u64 {
    // fixed seed: the keys of one run are compared with each other only
    foldhash::fast::FixedState::with_seed(0x0063_6861_6666).hash_one(text)
}

/// The keys of `mining`'s candidates (strings at or above its auto cutoff), each once.
pub fn candidate_keys(mining: &Mining) -> Vec<u64> {
    let mut keys: Vec<u64> =
        mining.candidates(mining.auto_cutoff).map(|s| candidate_key(&display(&s.symbols))).collect();
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// In how many sources each key is a candidate, from each source's [`candidate_keys`].
pub fn count_sources<'a>(keys: impl IntoIterator<Item = &'a [u64]>) -> HashMap<u64, usize> {
    let mut sources_of: HashMap<u64, usize> = HashMap::new();
    for k in keys.into_iter().flatten() {
        *sources_of.entry(*k).or_default() += 1;
    }
    sources_of
}

/// [`flag`] with the counts of [`count_sources`] over `sources` sources mined together (`mining` among
/// them): the same idioms [`flag_idioms`] flags, with only the candidates' keys kept of the other
/// minings. Returns how many were flagged.
pub fn flag_counted(mining: &mut Mining, sources: usize, min_sources: usize, counts: &HashMap<u64, usize>) -> usize {
    let Some(threshold) = idiom_threshold(sources, min_sources) else { return 0 };
    flag(mining, threshold, |key| counts.get(&candidate_key(key)).map_or(0, |n| n - 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Corpus, Document};
    use crate::mining::{MiningConfig, Quiet, mine};

    fn source(name: &str, own: &str) -> Mining {
        let words = ["apples", "rivers", "trains", "stones", "clouds", "lamps"];
        let docs = (0..6)
            .map(|i| Document {
                id: format!("{i}"),
                text: format!(
                    "{own} header line here\nstory of {} as much as one of the {} here\n{own} footer words",
                    words[i],
                    words[(i + 2) % 6]
                ),
            })
            .collect();
        mine(&Corpus::from_docs(name.to_string(), docs), &MiningConfig::default(), &Quiet).unwrap()
    }

    #[test]
    fn counting_keys_flags_what_the_minings_together_flag() {
        let names = ["alpha", "beta", "gamma", "delta"];
        let mut together: Vec<Mining> = names.iter().map(|n| source(n, &format!("{n}{n}"))).collect();
        let mut apart = together.clone();
        let flagged = flag_idioms(&mut together, DEFAULT_MIN_SOURCES);
        assert!(flagged > 0, "the shared phrase is an idiom");
        let keys: Vec<Vec<u64>> = apart.iter().map(candidate_keys).collect();
        let counts = count_sources(keys.iter().map(Vec::as_slice));
        let n = apart.len();
        let by_keys: usize = apart.iter_mut().map(|m| flag_counted(m, n, DEFAULT_MIN_SOURCES, &counts)).sum();
        assert_eq!(by_keys, flagged);
        for (a, b) in together.iter().zip(&apart) {
            let idioms = |m: &Mining| m.strings.iter().map(|s| (s.id.clone(), s.idiom)).collect::<Vec<_>>();
            assert_eq!(idioms(a), idioms(b), "{}", a.source);
        }
    }
}
