//! Word-sequence precision, recall and F1 against a gold main content (Gottron 2007): both
//! texts lowercased and split into words (runs of Unicode word characters, `\w+`), then the longest
//! common subsequence of the two word sequences. Precision = LCS / words extracted, recall = LCS / gold
//! words.
//!
//! Pages have thousands of words, so the LCS is exact and bit-parallel (Allison–Dix / Hyyrö): one row of
//! the dynamic programme is a bit vector over the shorter sequence, and a row step is a few word
//! operations per 64 symbols. [`align`] keeps the rows to trace back which words of a page the gold
//! holds (the oracle editor needs it).

use std::collections::HashMap;
use std::sync::LazyLock;

use regex::Regex;
use serde::Serialize;

static WORD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\w+").expect("word regex"));

/// The words of `text`, lowercased, in order.
pub fn words(text: &str) -> Vec<String> {
    WORD.find_iter(text).map(|m| m.as_str().to_lowercase()).collect()
}

/// The byte spans of the words of `text`, in order (same words as [`words`]).
pub fn word_spans(text: &str) -> Vec<(usize, usize)> {
    WORD.find_iter(text).map(|m| (m.start(), m.end())).collect()
}

/// Precision, recall and F1 of one extraction, with the counts behind them.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Prf {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
}

impl Prf {
    /// From counts. Nothing extracted: precision 1 (nothing wrong was kept). Empty gold: recall 1
    /// (nothing to miss). So both empty scores 1, and an empty extraction of a non-empty gold scores 0.
    pub fn from_counts(lcs: usize, extracted: usize, gold: usize) -> Prf {
        let precision = if extracted == 0 { 1.0 } else { lcs as f64 / extracted as f64 };
        let recall = if gold == 0 { 1.0 } else { lcs as f64 / gold as f64 };
        let f1 = if precision + recall == 0.0 { 0.0 } else { 2.0 * precision * recall / (precision + recall) };
        Prf { precision, recall, f1 }
    }

    /// The macro average of many scores (each page counts the same). `None` when there are none.
    pub fn mean<'a>(scores: impl IntoIterator<Item = &'a Prf>) -> Option<Prf> {
        let (mut n, mut p, mut r, mut f) = (0usize, 0.0, 0.0, 0.0);
        for s in scores {
            n += 1;
            p += s.precision;
            r += s.recall;
            f += s.f1;
        }
        (n > 0).then(|| Prf { precision: p / n as f64, recall: r / n as f64, f1: f / n as f64 })
    }
}

/// A gold text ready to score many extractions against: its words as symbol ids.
#[derive(Debug, Clone)]
pub struct Gold {
    ids: HashMap<String, u32>,
    seq: Vec<u32>,
}

/// Symbol id of a word the gold does not hold: it can never be part of the LCS.
const ABSENT: u32 = u32::MAX;

impl Gold {
    pub fn new(text: &str) -> Gold {
        let mut ids = HashMap::new();
        let seq = words(text)
            .into_iter()
            .map(|w| {
                let next = ids.len() as u32;
                *ids.entry(w).or_insert(next)
            })
            .collect();
        Gold { ids, seq }
    }

    pub fn len(&self) -> usize {
        self.seq.len()
    }

    pub fn is_empty(&self) -> bool {
        self.seq.is_empty()
    }

    fn encode<S: AsRef<str>>(&self, words: &[S]) -> Vec<u32> {
        words.iter().map(|w| self.ids.get(w.as_ref()).copied().unwrap_or(ABSENT)).collect()
    }

    /// The word-LCS score of `extracted` against this gold.
    pub fn score(&self, extracted: &str) -> Prf {
        let out = self.encode(&words(extracted));
        Prf::from_counts(lcs_len(&out, &self.seq), out.len(), self.seq.len())
    }

    /// Which words of `text` (as [`word_spans`] lists them) an LCS with the gold uses: the words of the
    /// page that are its main content. Of the longest common subsequences, one that uses the words
    /// `kept` marks where it can: a page that prints its article twice (a preview, a printable copy) has
    /// it aligned with the copy a cleaning keeps, as the score, which aligns what is kept, does.
    pub fn align(&self, text: &str, kept: &[bool]) -> Vec<bool> {
        align(&self.encode(&words(text)), &self.seq, kept)
    }
}

/// The word-LCS score of `extracted` against `gold`.
pub fn score(extracted: &str, gold: &str) -> Prf {
    Gold::new(gold).score(extracted)
}

/// Match masks of `b`: for each symbol, the bit vector of the positions of `b` that hold it.
fn match_masks(b: &[u32]) -> (HashMap<u32, Vec<u64>>, usize) {
    let blocks = b.len().div_ceil(64);
    let mut masks: HashMap<u32, Vec<u64>> = HashMap::new();
    for (j, &c) in b.iter().enumerate() {
        if c == ABSENT {
            continue;
        }
        masks.entry(c).or_insert_with(|| vec![0; blocks])[j / 64] |= 1 << (j % 64);
    }
    (masks, blocks)
}

/// One row step of the bit-parallel LCS: `V' = (V + (V & M)) | (V & !M)`, with the carry across blocks.
/// A zero bit at position j of V means the LCS with `b[..=j]` grew there.
#[inline]
fn step(v: &mut [u64], m: &[u64]) {
    let mut carry = false;
    for (v, &m) in v.iter_mut().zip(m) {
        let u = *v & m;
        let (sum, c1) = v.overflowing_add(u);
        let (sum, c2) = sum.overflowing_add(u64::from(carry));
        carry = c1 || c2;
        *v = sum | (*v & !m);
    }
}

/// Zero bits of `v` among its first `j` positions: the LCS of the row's prefix with `b[..j]`.
fn zeros_before(v: &[u64], j: usize) -> usize {
    let full = j / 64;
    let mut ones: usize = v[..full].iter().map(|w| w.count_ones() as usize).sum();
    if !j.is_multiple_of(64) {
        ones += (v[full] & ((1u64 << (j % 64)) - 1)).count_ones() as usize;
    }
    j - ones
}

/// Length of a longest common subsequence of `a` and `b` ([`u32::MAX`] never matches).
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    let (a, b) = if a.len() < b.len() { (b, a) } else { (a, b) };
    if b.is_empty() {
        return 0;
    }
    let (masks, blocks) = match_masks(b);
    let mut v = vec![u64::MAX; blocks];
    for c in a {
        if let Some(m) = masks.get(c) {
            step(&mut v, m);
        }
    }
    zeros_before(&v, b.len())
}

/// For each symbol of `a`, whether one longest common subsequence with `b` uses it: read back from the
/// ends, a symbol of `a` not `preferred` (out of range: preferred) is passed over when the rest still
/// holds as long a subsequence, so that a match falls on an earlier preferred copy where one exists.
pub fn align(a: &[u32], b: &[u32], preferred: &[bool]) -> Vec<bool> {
    let mut used = vec![false; a.len()];
    if a.is_empty() || b.is_empty() {
        return used;
    }
    let (masks, blocks) = match_masks(b);
    // rows[i] = V after a[..i]; a symbol absent from b leaves the row as it was, so rows are shared
    let mut rows: Vec<Vec<u64>> = vec![vec![u64::MAX; blocks]];
    let mut row_of = Vec::with_capacity(a.len() + 1);
    row_of.push(0usize);
    for c in a {
        if let Some(m) = masks.get(c) {
            let mut v = rows.last().expect("a row").clone();
            step(&mut v, m);
            rows.push(v);
        }
        row_of.push(rows.len() - 1);
    }
    let lcs = |i: usize, j: usize| zeros_before(&rows[row_of[i]], j);
    let (mut i, mut j) = (a.len(), b.len());
    while i > 0 && j > 0 {
        let pass_over = !preferred.get(i - 1).copied().unwrap_or(true) && lcs(i - 1, j) == lcs(i, j);
        if a[i - 1] == b[j - 1] && !pass_over {
            used[i - 1] = true;
            i -= 1;
            j -= 1;
        } else if lcs(i - 1, j) >= lcs(i, j - 1) {
            i -= 1;
        } else {
            j -= 1;
        }
    }
    used
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alignment_falls_on_the_copy_marked_kept() {
        // the article twice, a menu word between
        let (a, b) = ([1, 2, 3, 9, 1, 2, 3], [1, 2, 3]);
        let used = |preferred: &[bool]| align(&a, &b, preferred);
        assert_eq!(used(&[]), [false, false, false, false, true, true, true], "no preference: the last copy");
        let first = [true, true, true, true, false, false, false];
        assert_eq!(used(&first), [true, true, true, false, false, false, false]);
        let second: Vec<bool> = first.iter().map(|k| !k).collect();
        assert_eq!(used(&second), [false, false, false, false, true, true, true]);
    }

    #[test]
    fn words_are_lowercase_unicode_word_runs() {
        assert_eq!(words("Hello, WORLD! Ünïcode_x 3.14 — naïve"), ["hello", "world", "ünïcode_x", "3", "14", "naïve"]);
        assert_eq!(word_spans("a bc"), [(0, 1), (2, 4)]);
    }

    #[test]
    fn lcs_crosses_block_boundaries() {
        let b: Vec<u32> = (0..200).map(|i| i % 7).collect();
        let a: Vec<u32> = (0..300).map(|i| (i * 3) % 7).collect();
        let mut dp = vec![vec![0usize; b.len() + 1]; a.len() + 1];
        for i in 1..=a.len() {
            for j in 1..=b.len() {
                dp[i][j] = if a[i - 1] == b[j - 1] { dp[i - 1][j - 1] + 1 } else { dp[i - 1][j].max(dp[i][j - 1]) };
            }
        }
        assert_eq!(lcs_len(&a, &b), dp[a.len()][b.len()]);
    }
}
