//! The oracle editor: what an editor's time buys. It takes the candidates of a source in order of
//! coverage (the order the tuning UI lists them) and decides each with the gold: accept when at least
//! `accept_share` (90%) of the words the candidate matches across the training pages lie outside the
//! gold, reject otherwise. The source is cleaned after 0, 5, 10, 20 and all decisions; undecided
//! candidates keep their automatic state (pending: active at or above the cutoff).
//!
//! Which words of a page are gold comes from aligning the page's words with the gold's (one longest
//! common subsequence): the same alignment the score uses.

use rayon::prelude::*;

use crate::cleaning::Cleaner;
use crate::error::Result;
use crate::rules::Status;

use super::chaff::Chaff;
use super::method::{Model, Source};
use super::run::Prepared;
use super::score::word_spans;

/// Decisions after which the source is cleaned; `None` is all of them.
pub const CHECKPOINTS: [Option<usize>; 5] = [Some(0), Some(5), Some(10), Some(20), None];

pub fn checkpoint_name(c: Option<usize>) -> String {
    c.map_or_else(|| "all".to_string(), |n| n.to_string())
}

/// Default share of a candidate's matched words that must lie outside the gold for the oracle to accept.
pub const ACCEPT_SHARE: f64 = 0.9;

/// The oracle's models of one source, one per checkpoint of [`CHECKPOINTS`].
pub fn train(
    chaff: &Chaff,
    source: &Source<'_>,
    golds: &[&Prepared],
    accept_share: f64,
) -> Result<Vec<Box<dyn Model>>> {
    let (corpus, file) = chaff.rules_file(source)?;
    let n = file.rules.len();
    let all = Cleaner::from_rules(file.tokenizer, &file.mutable, file.rules.iter(), file.merge_gap)?
        .with_settings(file.clean_settings());
    // words matched by each candidate across the pages: (outside the gold, all)
    let counts = corpus
        .docs
        .par_iter()
        .zip(golds)
        .fold(
            || vec![(0usize, 0usize); n],
            |mut acc, (doc, prepared)| {
                let words = word_spans(&doc.text);
                let in_gold = prepared.gold.align(&doc.text);
                let mut outside_before = Vec::with_capacity(words.len() + 1);
                outside_before.push(0usize);
                for &g in &in_gold {
                    outside_before.push(outside_before.last().copied().unwrap_or(0) + usize::from(!g));
                }
                for m in all.matches(&doc.text) {
                    let lo = words.partition_point(|w| w.0 < m.start);
                    let hi = words.partition_point(|w| w.0 < m.end);
                    let c = &mut acc[m.rule as usize];
                    c.0 += outside_before[hi] - outside_before[lo];
                    c.1 += hi - lo;
                }
                acc
            },
        )
        .reduce(
            || vec![(0, 0); n],
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(b) {
                    x.0 += y.0;
                    x.1 += y.1;
                }
                a
            },
        );
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| file.rules[b].coverage.cmp(&file.rules[a].coverage).then(a.cmp(&b)));
    let mut models: Vec<Box<dyn Model>> = Vec::with_capacity(CHECKPOINTS.len());
    for c in CHECKPOINTS {
        let k = c.unwrap_or(n).min(n);
        let mut decided = file.clone();
        for &r in &order[..k] {
            let (outside, total) = counts[r];
            let accept = total == 0 || outside as f64 >= accept_share * total as f64;
            decided.rules[r].status = if accept { Status::Accepted } else { Status::Rejected };
        }
        models.push(Box::new(chaff.model(&decided)?));
    }
    Ok(models)
}
