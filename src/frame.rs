//! Frame cuts, suggested automatically (issue 5). Frequency alone leaves page-specific text — menus,
//! related headlines, comments — because it is on few pages each. But the template strings around it mark
//! where the article starts and ends: a candidate that lies before the article block on nearly every page
//! where it occurs is a header string, one after it a footer string. Cutting before the last header
//! string and after the first footer string removes what no frequency method sees.
//!
//! Idioms of a comment thread ("I have lived in", "Good to see") also lie after the article on nearly
//! every page they occur on; a footer string is also the *first* candidate after the block on at least
//! `min_adjacent` of its pages (a header string the last before it), which idioms inside a thread never are.

use std::collections::HashMap;

use rayon::prelude::*;

use crate::cleaning::{Cleaner, splits_runs};
use crate::corpus::Corpus;
use crate::error::Result;
use crate::rules::{Action, Rule, RulesFile, Status};

#[derive(Debug, Clone, Copy)]
pub struct CutParams {
    /// Share of a candidate's pages on which it must lie outside the article block.
    pub min_share: f64,
    /// Share of its pages on which it must lie on its side (before the block for a header string).
    pub min_side: f64,
    /// Share of a candidate's pages on which it must be the nearest candidate to the block.
    pub min_adjacent: f64,
    /// Fewest pages a candidate must occur on to be judged.
    pub min_pages: usize,
    /// Judge sides against the run after the site's anchor (the string most often right before the
    /// largest run) where that run comes first and is substantial. Measured: dragnet in-sample +0.004,
    /// held-out −0.005 (johndcook 0.49 → 0.68, cbsnews and ibnlive worse): off until it wins both.
    pub anchor: bool,
}

impl Default for CutParams {
    fn default() -> Self {
        CutParams { min_share: 0.8, min_side: 0.7, min_adjacent: 0.5, min_pages: 2, anchor: false }
    }
}

#[derive(Debug, Default, Clone, Copy)]
struct Sides {
    pages: usize,
    before: usize,
    after: usize,
    /// Pages on which it is the last candidate before the block / the first after it.
    last_before: usize,
    first_after: usize,
}

impl Sides {
    fn add(&mut self, o: Sides) {
        self.pages += o.pages;
        self.before += o.before;
        self.after += o.after;
        self.last_before += o.last_before;
        self.first_after += o.first_after;
    }
}

/// Sets `action` to cut-before / cut-after on the pending `remove` rules (at or above the chosen cutoff)
/// that lie outside the article block on at least `min_share` of their pages, next to it on at least
/// `min_adjacent`, and before / after it on at least `min_side`. Rules an editor
/// decided on are left alone. Returns how many rules were changed.
pub fn suggest_cuts(corpus: &Corpus, file: &mut RulesFile, params: &CutParams) -> Result<usize> {
    let judged: Vec<usize> = file
        .rules
        .iter()
        .enumerate()
        .filter(|(_, r)| r.status == Status::Pending && r.action == Action::Remove && r.bin >= file.cutoff.chosen)
        .map(|(i, _)| i)
        .collect();
    if judged.is_empty() {
        return Ok(0);
    }
    // Every candidate that would be applied (accepted, and pending above the cutoff) bounds the block.
    let active: Vec<&Rule> = file.active_rules(true).collect();
    let index_of: HashMap<&str, usize> = file.rules.iter().enumerate().map(|(i, r)| (r.id.as_str(), i)).collect();
    let cleaner = Cleaner::from_rules(file.tokenizer, &file.mutable, active.iter().copied(), file.merge_gap)?
        .with_settings(file.clean_settings());
    // The site's anchor: the string that most often ends right before the largest run. Where a comment
    // thread outweighs its article, the largest run is the thread; the run after the anchor is the article.
    let anchors: HashMap<u32, usize> = if !params.anchor {
        HashMap::new()
    } else {
        corpus
            .docs
            .par_iter()
            .fold(HashMap::new, |mut acc, doc| {
                let matches = cleaner.matches(&doc.text);
                if let Some((start, _)) = cleaner.article_block(&doc.text, &matches) {
                    let before = matches.iter().filter(|m| m.end <= start && splits_runs(&doc.text, m));
                    if let Some(m) = before.max_by_key(|m| (m.end, m.end - m.start)) {
                        *acc.entry(m.rule).or_insert(0) += 1;
                    }
                }
                acc
            })
            .reduce(HashMap::new, |mut a, b| {
                for (k, v) in b {
                    *a.entry(k).or_insert(0) += v;
                }
                a
            })
    };
    let anchor = anchors.into_iter().max_by_key(|&(rule, n)| (n, std::cmp::Reverse(rule))).map(|(rule, _)| rule);
    let sides: HashMap<usize, Sides> = corpus
        .docs
        .par_iter()
        .fold(HashMap::<usize, Sides>::new, |mut acc, doc| {
            let matches = cleaner.matches(&doc.text);
            let text = &doc.text;
            let anchored = anchor.and_then(|a| {
                matches
                    .iter()
                    .filter(|m| m.rule == a && splits_runs(text, m))
                    .filter_map(|m| cleaner.run_after(text, &matches, m.end))
                    .max_by_key(|&(s, e)| text[s..e].split_whitespace().count())
            });
            let largest = cleaner.article_block(text, &matches);
            let words = |(s, e): (usize, usize)| text[s..e].split_whitespace().count();
            // the run after the anchor stands for the article only before a larger run (a thread follows
            // its article) and when it is no mere line
            let anchored = anchored.filter(|&a| largest.is_some_and(|l| a.1 <= l.0 && words(a) * 10 >= words(l) * 3));
            let Some((start, end)) = anchored.or(largest) else { return acc };
            // per rule on this page: all before, all after
            let mut page: HashMap<usize, Sides> = HashMap::new();
            for m in &matches {
                let rule = index_of[cleaner.rule_id(m.rule)];
                let e = page.entry(rule).or_insert(Sides { pages: 1, before: 1, after: 1, ..Sides::default() });
                e.before &= usize::from(m.end <= start);
                e.after &= usize::from(m.start >= end);
            }
            let bounds = || matches.iter().filter(|m| splits_runs(&doc.text, m));
            let last_end = bounds().filter(|m| m.end <= start).map(|m| m.end).max();
            let first_start = bounds().filter(|m| m.start >= end).map(|m| m.start).min();
            for m in &matches {
                let rule = index_of[cleaner.rule_id(m.rule)];
                let e = page.get_mut(&rule).expect("entry made above");
                e.last_before = usize::from(e.last_before == 1 || Some(m.end) == last_end);
                e.first_after = usize::from(e.first_after == 1 || Some(m.start) == first_start);
            }
            for (rule, s) in page {
                acc.entry(rule).or_default().add(s);
            }
            acc
        })
        .reduce(HashMap::new, |mut a, b| {
            for (k, v) in b {
                a.entry(k).or_default().add(v);
            }
            a
        });
    let mut changed = 0;
    for i in judged {
        let Some(s) = sides.get(&i) else { continue };
        if s.pages < params.min_pages {
            continue;
        }
        let share = |n: usize| n as f64 / s.pages as f64;
        // A frame string is outside the article on nearly all its pages and next to it on many. Its side
        // is where it mostly is: on a page whose comment thread outweighs the article, a footer string
        // sits before the largest run, and the cleaner, which looks for the block before the first footer
        // string, still cuts there.
        if share(s.before + s.after) < params.min_share || share(s.last_before + s.first_after) < params.min_adjacent {
            continue;
        }
        let action = if share(s.before) >= params.min_side {
            Action::CutBefore
        } else if share(s.after) >= params.min_side {
            Action::CutAfter
        } else {
            continue;
        };
        file.rules[i].action = action;
        changed += 1;
    }
    Ok(changed)
}
