//! Words a change removes and gives back: one pass over a page's words and both sets of removed ranges.

use serde::Serialize;

use super::{Baseline, DocImpact, State};

/// A run of consecutive words of a page's text that a change removes (or gives back).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct WordRange {
    /// Byte range of the page's text: the first word's start to the last one's end.
    pub start: usize,
    pub end: usize,
    pub words: usize,
    /// Inside the page's article block (before the change for removed words, after it for given-back).
    pub inside: bool,
}

/// Whether a word range lies in the article block (its first word starts inside it).
pub(super) fn inside(r: &WordRange, block: Option<(usize, usize)>) -> bool {
    block.is_some_and(|(a, b)| a <= r.start && r.start < b)
}

/// A cursor over sorted, disjoint ranges, asked about positions in increasing order.
struct Cover<'a> {
    ranges: &'a [(usize, usize)],
    k: usize,
}

impl Cover<'_> {
    fn covers(&mut self, pos: usize) -> bool {
        while self.k < self.ranges.len() && self.ranges[self.k].1 <= pos {
            self.k += 1;
        }
        self.ranges.get(self.k).is_some_and(|&(a, _)| a <= pos)
    }
}

/// The words of `text` kept under `before` and removed under `after` (removed ranges, sorted and
/// disjoint), and those removed before and kept after, as runs of consecutive words. A word counts as
/// removed when its first byte is. `inside` is left false: the caller knows the blocks.
pub fn word_changes(
    text: &str,
    before: &[(usize, usize)],
    after: &[(usize, usize)],
) -> (Vec<WordRange>, Vec<WordRange>) {
    let (mut b, mut a) = (Cover { ranges: before, k: 0 }, Cover { ranges: after, k: 0 });
    let (mut removed, mut given): (Vec<WordRange>, Vec<WordRange>) = (Vec::new(), Vec::new());
    // the kind of the previous word: 0 unchanged, 1 removed, 2 given back
    let mut last = 0u8;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = text[i..].chars().next().unwrap_or(' ');
        if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        }
        let start = i;
        while i < bytes.len() {
            let c = text[i..].chars().next().unwrap_or(' ');
            if c.is_whitespace() {
                break;
            }
            i += c.len_utf8();
        }
        let (was, is) = (b.covers(start), a.covers(start));
        let kind = match (was, is) {
            (false, true) => 1,
            (true, false) => 2,
            _ => 0,
        };
        let list = match kind {
            1 => Some(&mut removed),
            2 => Some(&mut given),
            _ => None,
        };
        if let Some(list) = list {
            match list.last_mut() {
                Some(r) if last == kind => {
                    r.end = i;
                    r.words += 1;
                }
                _ => list.push(WordRange { start, end: i, words: 1, inside: false }),
            }
        }
        last = kind;
    }
    (removed, given)
}

impl Baseline {
    /// Document `i` under the baseline's rules against `after`; `None` when no word of it changes.
    pub(super) fn compare(&self, i: usize, after: &State) -> Option<DocImpact> {
        self.compare_states(i, &self.states[i], after)
    }

    /// Document `i` as `before` leaves it against `after`; `None` when no word of it changes.
    /// Words removed are inside the article when they lie in its [`Baseline::article`] before the change,
    /// words given back when they lie in its article block after it.
    pub(super) fn compare_states(&self, i: usize, before: &State, after: &State) -> Option<DocImpact> {
        if before.removed == after.removed {
            return None;
        }
        let (removed, given_back) = word_changes(self.text(i), &before.removed, &after.removed);
        // ranges that moved over whitespace alone change no word a reader sees
        if removed.is_empty() && given_back.is_empty() {
            return None;
        }
        let count = |ranges: &[WordRange], block: Option<(usize, usize)>, in_block: bool| -> usize {
            ranges.iter().map(|r| if inside(r, block) == in_block { r.words } else { 0 }).sum()
        };
        let article = self.article(i);
        let mut d = DocImpact {
            index: i,
            id: self.docs()[i].id.clone(),
            removed_inside: count(&removed, article, true),
            removed_outside: count(&removed, article, false),
            given_back_inside: count(&given_back, after.block, true),
            given_back_outside: count(&given_back, after.block, false),
            removed,
            given_back,
        };
        for r in &mut d.removed {
            r.inside = inside(r, article);
        }
        for r in &mut d.given_back {
            r.inside = inside(r, after.block);
        }
        Some(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_removed_and_given_back_come_in_runs() {
        let text = "aa bb cc dd ee ff";
        // before: cc removed; after: aa bb removed, ee removed
        let (removed, given) = word_changes(text, &[(6, 8)], &[(0, 5), (12, 14)]);
        assert_eq!(
            removed,
            vec![
                WordRange { start: 0, end: 5, words: 2, inside: false },
                WordRange { start: 12, end: 14, words: 1, inside: false }
            ]
        );
        assert_eq!(given, vec![WordRange { start: 6, end: 8, words: 1, inside: false }]);
    }
}
