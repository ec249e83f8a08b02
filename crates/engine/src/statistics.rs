//! Term and document frequency of every maximal repeated string (thesis §3.2 steps 5–7, §4.2).
//!
//! Every lcp-interval `[lb, rb]` of the suffix array with lcp value ℓ is one class of right-maximal
//! repeats (Yamamoto & Church); the longest, of ℓ tokens, occurs `tf = rb − lb + 1` times. One bottom-up
//! pass over the intervals with a stack gives, for each:
//! - **df**: for each suffix, the previous suffix in SA order from the same document; the smallest interval
//!   holding both counts that document twice, so one is subtracted there. Subtractions sum up the tree.
//! - **left-maximality**: the tokens before its occurrences are not all the same (a document start counts
//!   as a token of its own). Right-maximal and left-maximal is *maximal* (thesis step 6): a string that only
//!   ever occurs inside one longer string is dropped.

use crate::suffix_array::SEPARATOR;

/// A maximal repeated string of tokens, with its statistics.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MaximalRepeat {
    /// Position in the token sequence of one occurrence (the first in SA order).
    pub start: u32,
    /// Length in tokens.
    pub len: u32,
    /// Term frequency: occurrences in the corpus.
    pub tf: u32,
    /// Document frequency: documents holding at least one occurrence.
    pub df: u32,
    /// The suffix-array interval: `sa[lb..=rb]` are the start positions of all occurrences.
    pub lb: u32,
    pub rb: u32,
}

/// Thesis step 7's filters.
#[derive(Debug, Clone, Copy)]
pub struct RepeatFilter {
    pub min_tokens: u32,
    pub min_df: u32,
}

const MIXED: u32 = u32::MAX;
const UNIQUE: u32 = u32::MAX - 1;

struct Open {
    lcp: u32,
    lb: u32,
    /// The one token preceding every occurrence so far, or MIXED.
    left: u32,
    /// Same-document pairs whose smallest common interval lies within this one.
    dups: u32,
}

fn merge_left(a: u32, b: u32) -> u32 {
    if a == b && a != UNIQUE { a } else { MIXED }
}

/// All maximal repeats that pass `filter`, in the order their intervals close.
///
/// `doc_of[p]` is the document of token position `p`; separators end every document.
// `i` walks SA ranks 1..=n: it indexes `sa` and `lcp` together, one past the end to close the intervals.
#[allow(clippy::needless_range_loop)]
pub fn maximal_repeats(
    ids: &[u32],
    sa: &[u32],
    lcp: &[u32],
    doc_of: &[u32],
    filter: RepeatFilter,
) -> Vec<MaximalRepeat> {
    let n = sa.len();
    let mut out = Vec::new();
    if n == 0 {
        return out;
    }
    let ndocs = doc_of.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut last_in_doc = vec![u32::MAX; ndocs];
    // left token of a suffix: UNIQUE at a document start
    let left_of = |p: u32| -> u32 {
        if p == 0 {
            return UNIQUE;
        }
        let t = ids[p as usize - 1];
        if t == SEPARATOR { UNIQUE } else { t }
    };
    let mut stack: Vec<Open> = vec![Open { lcp: 0, lb: 0, left: MIXED, dups: 0 }];
    for i in 1..=n {
        // leaf i-1 joins the innermost open interval; count its document's repeat at their common interval
        let leaf = (i - 1) as u32;
        let p = sa[leaf as usize];
        let d = doc_of[p as usize] as usize;
        if ids[p as usize] != SEPARATOR {
            let prev = last_in_doc[d];
            last_in_doc[d] = leaf;
            if prev != u32::MAX {
                // innermost open interval with lb <= prev holds both (stack lbs increase inwards)
                let k = stack.partition_point(|o| o.lb <= prev) - 1;
                stack[k].dups += 1;
            }
        }
        let mut pending = Open { lcp: 0, lb: leaf, left: left_of(p), dups: 0 };
        let h = if i < n { lcp[i] } else { 0 };
        let mut lb = leaf;
        while h < stack.last().expect("root stays").lcp {
            let mut top = stack.pop().expect("non-root");
            top.left = merge_left(top.left, pending.left);
            top.dups += pending.dups;
            let rb = (i - 1) as u32;
            let tf = rb - top.lb + 1;
            let df = tf - top.dups;
            if top.left == MIXED && top.lcp >= filter.min_tokens && df >= filter.min_df {
                out.push(MaximalRepeat { start: sa[top.lb as usize], len: top.lcp, tf, df, lb: top.lb, rb });
            }
            lb = top.lb;
            pending = Open { lcp: 0, lb, left: top.left, dups: top.dups };
        }
        let top = stack.last_mut().expect("root stays");
        if h > top.lcp {
            stack.push(Open { lcp: h, lb, left: pending.left, dups: pending.dups });
        } else {
            top.left = merge_left(top.left, pending.left);
            top.dups += pending.dups;
        }
    }
    out
}

/// What each string adds to the strings ranked above it: the weight of the positions its occurrences
/// cover that no string ranked before it covers. A periodic archive list ("November 2012 October 2012
/// …") is mined as dozens of overlapping strings; only the first of them adds much, so an editor who
/// takes strings by what they add does not spend the first twenty decisions on one list.
///
/// `ranked` lists string indices, best first; `occurrences(i)` gives string `i`'s start positions and
/// length in tokens; `weight(p)` is the size of position `p`. Each position is counted once in all
/// (a skip list of the next uncovered position), so this is linear in positions and occurrences.
pub fn new_coverage<'a>(
    positions: usize,
    ranked: &[usize],
    occurrences: impl Fn(usize) -> (&'a [u32], u32),
    weight: impl Fn(usize) -> u64,
) -> Vec<u64> {
    // next[p]: a position at or after p that may be uncovered; next[p] == p when p is uncovered
    let mut next: Vec<u32> = (0..=positions as u32).collect();
    let mut adds = vec![0u64; ranked.iter().max().map_or(0, |&m| m + 1)];
    for &i in ranked {
        let (starts, len) = occurrences(i);
        for &start in starts {
            let end = ((start + len) as usize).min(positions);
            let mut p = uncovered(&mut next, start as usize);
            while p < end {
                adds[i] += weight(p);
                next[p] = p as u32 + 1;
                p = uncovered(&mut next, p + 1);
            }
        }
    }
    adds
}

/// The first uncovered position at or after `p`, shortening the paths it walked.
fn uncovered(next: &mut [u32], p: usize) -> usize {
    let mut root = p;
    while next[root] as usize != root {
        root = next[root] as usize;
    }
    let mut q = p;
    while next[q] as usize != root {
        let n = next[q] as usize;
        next[q] = root as u32;
        q = n;
    }
    root
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suffix_array::{build, lcp};
    use proptest::prelude::*;
    use std::collections::{BTreeMap, BTreeSet};

    type Stats = BTreeMap<Vec<u32>, (u32, u32)>;

    /// Brute force: enumerate every substring of every document; keep those occurring at least twice that
    /// are maximal (not always preceded by the same token, not always followed by the same token).
    fn oracle(docs: &[Vec<u32>], filter: RepeatFilter) -> Stats {
        let mut occ: BTreeMap<Vec<u32>, Vec<(usize, usize)>> = BTreeMap::new();
        for (d, doc) in docs.iter().enumerate() {
            for s in 0..doc.len() {
                for e in s + 1..=doc.len() {
                    occ.entry(doc[s..e].to_vec()).or_default().push((d, s));
                }
            }
        }
        let mut out = Stats::new();
        for (string, places) in &occ {
            if places.len() < 2 {
                continue;
            }
            let around = |offset: isize| -> BTreeSet<Option<u32>> {
                places
                    .iter()
                    .enumerate()
                    .map(|(k, &(d, s))| {
                        let j = s as isize + offset;
                        // a document edge counts as a distinct token each time
                        if j < 0 || j as usize >= docs[d].len() {
                            Some(u32::MAX - k as u32)
                        } else {
                            Some(docs[d][j as usize])
                        }
                    })
                    .collect()
            };
            let left_max = around(-1).len() > 1;
            let right_max = around(string.len() as isize).len() > 1;
            let tf = places.len() as u32;
            let df = places.iter().map(|p| p.0).collect::<BTreeSet<_>>().len() as u32;
            if left_max && right_max && string.len() as u32 >= filter.min_tokens && df >= filter.min_df {
                out.insert(string.clone(), (tf, df));
            }
        }
        out
    }

    fn fast(docs: &[Vec<u32>], filter: RepeatFilter) -> Stats {
        let mut ids = Vec::new();
        let mut doc_of = Vec::new();
        for (d, doc) in docs.iter().enumerate() {
            for &t in doc.iter().chain([&SEPARATOR]) {
                ids.push(t);
                doc_of.push(d as u32);
            }
        }
        let sa = build(&ids, ids.iter().max().map_or(1, |m| m + 1));
        let l = lcp(&ids, &sa);
        let mut out = Stats::new();
        for r in maximal_repeats(&ids, &sa, &l, &doc_of, filter) {
            let s = ids[r.start as usize..(r.start + r.len) as usize].to_vec();
            // every occurrence in the interval really is the string
            for &p in &sa[r.lb as usize..=r.rb as usize] {
                assert_eq!(&ids[p as usize..(p + r.len) as usize], &s[..]);
            }
            assert!(out.insert(s, (r.tf, r.df)).is_none(), "string reported twice");
        }
        out
    }

    proptest! {
        #[test]
        fn new_coverage_matches_brute_force(
            strings in prop::collection::vec((prop::collection::vec(0u32..30, 0..5), 1u32..6), 1..8),
            weights in prop::collection::vec(1u64..5, 36),
        ) {
            let positions = 35;
            let strings: Vec<(Vec<u32>, u32)> = strings;
            let ranked: Vec<usize> = (0..strings.len()).rev().collect();
            let adds = new_coverage(positions, &ranked, |i| (strings[i].0.as_slice(), strings[i].1), |p| weights[p]);
            let mut covered = vec![false; positions + 1];
            for &i in &ranked {
                let mut expected = 0;
                for &s in &strings[i].0 {
                    for p in s as usize..((s + strings[i].1) as usize).min(positions) {
                        if !covered[p] {
                            covered[p] = true;
                            expected += weights[p];
                        }
                    }
                }
                prop_assert_eq!(adds[i], expected, "string {}", i);
            }
        }
    }

    proptest! {
        #[test]
        fn maximal_repeats_tf_df_match_brute_force(
            docs in prop::collection::vec(prop::collection::vec(1u32..4, 0..10), 1..6),
            min_tokens in 1u32..3,
            min_df in 1u32..3,
        ) {
            let filter = RepeatFilter { min_tokens, min_df };
            prop_assert_eq!(fast(&docs, filter), oracle(&docs, filter));
        }
    }

    #[test]
    fn string_inside_a_longer_one_only_is_not_maximal() {
        // "2 3" occurs only inside "1 2 3 4": dropped; "1 2 3 4" kept with tf 2, df 2.
        let docs = vec![vec![1, 2, 3, 4, 5], vec![6, 1, 2, 3, 4]];
        let stats = fast(&docs, RepeatFilter { min_tokens: 1, min_df: 1 });
        assert_eq!(stats.into_iter().collect::<Vec<_>>(), vec![(vec![1, 2, 3, 4], (2, 2))]);
    }

    #[test]
    fn df_counts_documents_not_occurrences() {
        let docs = vec![vec![1, 2, 9, 1, 2, 8, 1, 2], vec![7, 1, 2]];
        let stats = fast(&docs, RepeatFilter { min_tokens: 2, min_df: 1 });
        assert_eq!(stats.get(&vec![1, 2]), Some(&(4, 2)));
    }
}
